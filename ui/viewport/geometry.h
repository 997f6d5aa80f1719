#pragma once
// Geometry of what the viewport draws, as VTK poly data in body (or global) coordinates:
// body outlines from their `shape`, prisms, pin and ground symbols, rails, springs, arrows and
// the grid. Pure functions; the sync layer places the results with the bodies' transforms.

#include "model/spec.h"
#include "viewport/spec_numbers.h"

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <Eigen/Dense>

#include <optional>
#include <vector>

namespace rlx::ui::geometry {

using Outline = std::vector<Eigen::Vector2d>;  // closed polygon, counter-clockwise

// Where a bar or a cylinder lies in body coordinates, from `a` to `b`.
struct Span {
  Eigen::Vector3d a, b;
};
// A bar's or cylinder's span: along its `axis` through the centre of mass; without one, along the
// line through its two attachment points (centred between them) when it has exactly two; else
// none (the shape's own default). Its length is the shape's, else the two points' distance, else
// `fallbackLength`.
std::optional<Span> shapeSpan(const ShapeSpec& shape, const SpecNumbers& numbers,
                              const std::vector<Eigen::Vector3d>& points, double fallbackLength);

// A planar body's outline in body coordinates. `points` are where joints and springs attach.
// Without a shape: a link through them (a bar between two, a plate round three or more, a bar
// from the centre of mass to only one), or a small disk when there are none. Bars and links are
// at least `minWidth` wide.
Outline planarOutline(const ShapeSpec& shape, const SpecNumbers& numbers,
                      const std::vector<Eigen::Vector3d>& points, double modelSize,
                      double minWidth);

// A 3-D solid for a spatial body's shape (box, sphere, disk along z, cylinder and bar along
// their span or z and x), or without one a link through its attachment points as in 2-D.
vtkSmartPointer<vtkPolyData> spatialSolid(const ShapeSpec& shape, const SpecNumbers& numbers,
                                          const std::vector<Eigen::Vector3d>& points,
                                          double modelSize);

// The points without repeats (closer than a nanometre).
std::vector<Eigen::Vector3d> distinctPoints(const std::vector<Eigen::Vector3d>& points);
// The convex outline round discs of diameter `width` at the points (a stadium for two).
Outline roundedHull(const std::vector<Eigen::Vector2d>& points, double width);
// A rectangle centred at `centre`, `length` along `axis` and `width` across it.
Outline rectangle(const Eigen::Vector2d& centre, const Eigen::Vector2d& axis, double length,
                  double width);

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

// Ground symbol under (or above) a point: a base line with hatching, `size` wide, at height z.
std::vector<Eigen::Vector3d> groundHatch(const Eigen::Vector2d& at, double size, double z,
                                         bool above);
// An end stop's wall from a to b, hatched toward `beyond` (the side the stop forbids) with
// strokes `hatch` long, at height z.
std::vector<Eigen::Vector3d> stopWall(const Eigen::Vector2d& a, const Eigen::Vector2d& b,
                                      const Eigen::Vector2d& beyond, double hatch, double z);
// A guide along `axis` through `at`: two lines `size` apart (a rail) or one, hatched on one side
// when grounded.
std::vector<Eigen::Vector3d> rail(const Eigen::Vector2d& at, const Eigen::Vector2d& axis,
                                  double length, double size, bool hatched, bool twoLines,
                                  double z);
// A spring between two points: straight ends and a zigzag in between.
std::vector<Eigen::Vector3d> zigzag(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                    double width, int coils);
// Toothed parts (geometry_gears.cpp). The number of teeth a pitch circle gets at a tooth pitch
// (at least 6); a wheel's outline with its teeth outward, or inward for a ring, one centred at
// `toothAngle`; a rack along `axis` with its teeth towards `towards`, `length` long, a gap at
// `centre`; a helix of `turns` round the z column of `frame`.
int teethOn(double pitchRadius, double toothPitch);
Outline gearOutline(const Eigen::Vector2d& centre, double pitchRadius, int teeth, bool ring,
                    double toothAngle);
Outline rackOutline(const Eigen::Vector2d& centre, const Eigen::Vector2d& axis,
                    const Eigen::Vector2d& towards, double length, double toothPitch);
std::vector<Eigen::Vector3d> helix(const Eigen::Vector3d& centre, const Eigen::Matrix3d& frame,
                                   double radius, double length, int turns);
// A curved arrow around a point (a motion on a revolute joint), as a polyline and a head.
std::vector<Eigen::Vector3d> arcArrow(const Eigen::Vector2d& centre, double radius, double z);

// Grid lines in the x-y plane over [-extent, extent]^2 (minor and major every `major` lines).
vtkSmartPointer<vtkPolyData> grid(double spacing, double extent, int major, bool majorLines);

// Solids for spatial symbols: a rod from a to b, a ball, a block with edges `size` along the
// columns of `axes`, and a thin square plate with its normal.
vtkSmartPointer<vtkPolyData> rod(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                 double radius);
vtkSmartPointer<vtkPolyData> ball(const Eigen::Vector3d& centre, double radius);
vtkSmartPointer<vtkPolyData> block(const Eigen::Vector3d& centre, const Eigen::Matrix3d& axes,
                                   const Eigen::Vector3d& size);
vtkSmartPointer<vtkPolyData> plate(const Eigen::Vector3d& centre, const Eigen::Vector3d& normal,
                                   double size);

// An arrow along +x of unit length (shaft and head), to be scaled and rotated.
vtkSmartPointer<vtkPolyData> unitArrow();

}  // namespace rlx::ui::geometry
