#pragma once
// Geometry of what the viewport draws, as VTK poly data in body (or global) coordinates:
// body outlines from their `shape`, prisms, pin and ground symbols, rails, springs, arrows and
// the grid. Pure functions; the sync layer places the results with the bodies' transforms.

#include "model/spec.h"
#include "viewport/spec_numbers.h"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <Eigen/Dense>

#include <vector>

namespace rlx::ui::geometry {

using Outline = std::vector<Eigen::Vector2d>;  // closed polygon, counter-clockwise

// A planar body's outline in body coordinates. Without a shape: a link through the body's joint
// points (a bar between the two farthest ones, or from the centre of mass to the only one), or
// a small disk when it has none.
Outline planarOutline(const ShapeSpec& shape, const SpecNumbers& numbers,
                      const std::vector<Eigen::Vector2d>& jointPoints, double modelSize);

// A 3-D solid for a spatial body's shape (box, cylinder/disk along z, sphere, bar along x).
vtkSmartPointer<vtkPolyData> spatialSolid(const ShapeSpec& shape, const SpecNumbers& numbers,
                                          const std::vector<Eigen::Vector3d>& jointPoints,
                                          double modelSize);

bool contains(const Outline& outline, const Eigen::Vector2d& p);

// A stadium (rounded bar) from a to b of the given width.
Outline stadium(const Eigen::Vector2d& a, const Eigen::Vector2d& b, double width);
Outline circle(const Eigen::Vector2d& centre, double radius, int segments = 48);

// The outline as a closed prism between z0 and z1 (triangulated, with normals).
vtkSmartPointer<vtkPolyData> prism(const Outline& outline, double z0, double z1);
// A flat filled polygon at height z.
vtkSmartPointer<vtkPolyData> fill(const Outline& outline, double z);
// Line segments: pairs of points (a0, b0, a1, b1, ...); or one polyline.
vtkSmartPointer<vtkPolyData> segments(const std::vector<Eigen::Vector3d>& ends);
vtkSmartPointer<vtkPolyData> polyline(const std::vector<Eigen::Vector3d>& points, bool closed);

// Ground symbol under a point: a base line with hatching, `size` wide, at height z.
std::vector<Eigen::Vector3d> groundHatch(const Eigen::Vector2d& at, double size, double z);
// Rail of a translational joint: a line along `axis` through `at`, with hatching when grounded.
std::vector<Eigen::Vector3d> rail(const Eigen::Vector2d& at, const Eigen::Vector2d& axis,
                                  double length, double size, bool hatched, double z);
// A spring between two points: straight ends and a zigzag in between.
std::vector<Eigen::Vector3d> zigzag(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                    double width, int coils);
// A curved arrow around a point (a motion on a revolute joint), as a polyline and a head.
std::vector<Eigen::Vector3d> arcArrow(const Eigen::Vector2d& centre, double radius, double z);

// Grid lines in the x-y plane over [-extent, extent]^2 (minor and major every `major` lines).
vtkSmartPointer<vtkPolyData> grid(double spacing, double extent, int major, bool majorLines);

// An arrow along +x of unit length (shaft and head), to be scaled and rotated.
vtkSmartPointer<vtkPolyData> unitArrow();

}  // namespace rlx::ui::geometry
