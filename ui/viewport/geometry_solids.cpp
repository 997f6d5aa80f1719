// The spatial half of geometry.h: body solids and the solids of joint symbols.
#include "viewport/geometry.h"

#include <vtkArrowSource.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>

#include <cmath>
#include <numbers>

namespace rlx::ui::geometry {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

vtkSmartPointer<vtkPolyData> transformed(vtkAlgorithm* source, vtkTransform* transform) {
  auto filter = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
  filter->SetInputConnection(source->GetOutputPort());
  filter->SetTransform(transform);
  filter->Update();
  vtkSmartPointer<vtkPolyData> out = filter->GetOutput();
  return out;
}

// A transform taking x, y, z to the columns of `axes` and the origin to `origin`.
vtkSmartPointer<vtkTransform> frameTransform(const Vec3& origin, const Eigen::Matrix3d& axes) {
  auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) matrix->SetElement(i, k, axes(i, k));
    matrix->SetElement(i, 3, origin(i));
  }
  auto transform = vtkSmartPointer<vtkTransform>::New();
  transform->SetMatrix(matrix);
  return transform;
}

// A right-handed basis whose third column is `z`.
Eigen::Matrix3d basisAlong(const Vec3& z) {
  const Vec3 w = z.normalized();
  Vec3 x = w.cross(std::abs(w.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).normalized();
  Eigen::Matrix3d axes;
  axes << x, w.cross(x), w;
  return axes;
}

// A flat plate round three or more points in their best-fit plane, or a rod when they are
// (nearly) on one line.
vtkSmartPointer<vtkPolyData> plateThrough(const std::vector<Vec3>& points, double width) {
  Vec3 centre = Vec3::Zero();
  for (const Vec3& p : points) centre += p;
  centre /= static_cast<double>(points.size());
  Eigen::MatrixXd spread(points.size(), 3);
  for (std::size_t i = 0; i < points.size(); ++i)
    spread.row(static_cast<Eigen::Index>(i)) = (points[i] - centre).transpose();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(spread, Eigen::ComputeThinV);
  const Eigen::Vector3d sigma = svd.singularValues();
  if (sigma(1) < 1e-6 * sigma(0)) {
    std::pair<Vec3, Vec3> ends{points[0], points[1]};
    for (const Vec3& p : points)
      for (const Vec3& q : points)
        if ((p - q).norm() > (ends.first - ends.second).norm()) ends = {p, q};
    return rod(ends.first, ends.second, width / 2);
  }
  Eigen::Matrix3d axes = svd.matrixV();
  if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
  std::vector<Vec2> flat;
  for (const Vec3& p : points) flat.push_back((axes.transpose() * (p - centre)).head<2>());
  auto slab = prism(roundedHull(flat, width), -width / 4, width / 4);
  auto filter = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
  filter->SetInputData(slab);
  filter->SetTransform(frameTransform(centre, axes));
  filter->Update();
  vtkSmartPointer<vtkPolyData> out = filter->GetOutput();
  return out;
}

}  // namespace

vtkSmartPointer<vtkPolyData> spatialSolid(const ShapeSpec& shape, const SpecNumbers& numbers,
                                          const std::vector<Vec3>& points, double modelSize) {
  const double defaultWidth = 0.05 * modelSize;
  if (shape.type == "box") {
    auto box = vtkSmartPointer<vtkCubeSource>::New();
    box->SetXLength(numbers.component(shape.size, 0, 2 * defaultWidth));
    box->SetYLength(numbers.component(shape.size, 1, 2 * defaultWidth));
    box->SetZLength(numbers.component(shape.size, 2, 2 * defaultWidth));
    box->Update();
    vtkSmartPointer<vtkPolyData> out = box->GetOutput();
    return out;
  }
  if (shape.type == "sphere") return ball(Vec3::Zero(), numbers.value(shape.radius, defaultWidth));
  // Disks along z; cylinders along their span or z; bars along their span or x.
  const std::optional<Span> span = shapeSpan(shape, numbers, points, modelSize / 2);
  if (shape.type == "disk" || shape.type == "cylinder") {
    const double radius = numbers.value(shape.radius, defaultWidth);
    if (span && shape.type == "cylinder") return rod(span->a, span->b, radius);
    const Vec3 half(0, 0, numbers.value(shape.length, defaultWidth) / 2);
    return rod(-half, half, radius);
  }
  if (shape.type == "bar") {
    const double width = numbers.value(shape.width, defaultWidth);
    const Vec3 half(numbers.value(shape.length, modelSize / 2) / 2, 0, 0);
    return span ? rod(span->a, span->b, width / 2) : rod(-half, half, width / 2);
  }
  // No shape: a link through the attachment points.
  std::vector<Vec3> ends = distinctPoints(points);
  if (ends.size() == 1) ends.push_back(Vec3::Zero());
  if (ends.empty()) return rod(Vec3(-modelSize / 4, 0, 0), Vec3(modelSize / 4, 0, 0), defaultWidth / 2);
  if (ends.size() == 2) return rod(ends[0], ends[1], defaultWidth / 2);
  return plateThrough(ends, defaultWidth);
}

vtkSmartPointer<vtkPolyData> rod(const Vec3& a, const Vec3& b, double radius) {
  // VTK's cylinder lies along y, centred at the origin.
  auto cylinder = vtkSmartPointer<vtkCylinderSource>::New();
  cylinder->SetResolution(32);
  cylinder->SetRadius(radius);
  const Vec3 axis = b - a;
  cylinder->SetHeight(std::max(axis.norm(), 1e-9));
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  if (axis.norm() > 1e-12) {
    const Eigen::Matrix3d along = basisAlong(axis);
    axes << along.col(0), along.col(2), -along.col(1);
  }
  return transformed(cylinder, frameTransform((a + b) / 2, axes));
}

vtkSmartPointer<vtkPolyData> ball(const Vec3& centre, double radius) {
  auto sphere = vtkSmartPointer<vtkSphereSource>::New();
  sphere->SetCenter(centre.data());
  sphere->SetRadius(radius);
  sphere->SetThetaResolution(28);
  sphere->SetPhiResolution(18);
  sphere->Update();
  vtkSmartPointer<vtkPolyData> out = sphere->GetOutput();
  return out;
}

vtkSmartPointer<vtkPolyData> block(const Vec3& centre, const Eigen::Matrix3d& axes,
                                   const Vec3& size) {
  auto cube = vtkSmartPointer<vtkCubeSource>::New();
  cube->SetXLength(size.x());
  cube->SetYLength(size.y());
  cube->SetZLength(size.z());
  return transformed(cube, frameTransform(centre, axes));
}

vtkSmartPointer<vtkPolyData> plate(const Vec3& centre, const Vec3& normal, double size) {
  return block(centre, basisAlong(normal), Vec3(size, size, 0.004 * size));
}

vtkSmartPointer<vtkPolyData> unitArrow() {
  auto arrow = vtkSmartPointer<vtkArrowSource>::New();
  arrow->SetTipResolution(24);
  arrow->SetShaftResolution(16);
  arrow->SetTipLength(0.25);
  arrow->SetTipRadius(0.08);
  arrow->SetShaftRadius(0.025);
  arrow->Update();
  vtkSmartPointer<vtkPolyData> out = arrow->GetOutput();
  return out;
}

}  // namespace rlx::ui::geometry
