#include "viewport/geometry.h"

#include <vtkCellArray.h>
#include <vtkPoints.h>
#include <vtkPolyDataNormals.h>
#include <vtkTriangleFilter.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rlx::ui::geometry {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

double signedArea(const Outline& outline) {
  double a = 0;
  for (std::size_t i = 0; i < outline.size(); ++i) {
    const Vec2& p = outline[i];
    const Vec2& q = outline[(i + 1) % outline.size()];
    a += p.x() * q.y() - q.x() * p.y();
  }
  return a / 2;
}

vtkSmartPointer<vtkPolyData> withNormals(vtkPolyData* data, bool split) {
  auto triangles = vtkSmartPointer<vtkTriangleFilter>::New();
  triangles->SetInputData(data);
  auto normals = vtkSmartPointer<vtkPolyDataNormals>::New();
  normals->SetInputConnection(triangles->GetOutputPort());
  normals->SetSplitting(split);
  normals->SetFeatureAngle(40);
  normals->ConsistencyOn();
  normals->AutoOrientNormalsOff();
  normals->Update();
  vtkSmartPointer<vtkPolyData> out = normals->GetOutput();
  return out;
}

}  // namespace

Outline circle(const Vec2& centre, double radius, int segments) {
  Outline out;
  for (int k = 0; k < segments; ++k) {
    const double a = 2 * std::numbers::pi * k / segments;
    out.push_back(centre + radius * Vec2(std::cos(a), std::sin(a)));
  }
  return out;
}

Outline stadium(const Vec2& a, const Vec2& b, double width) {
  const double r = width / 2;
  Vec2 axis = b - a;
  const double length = axis.norm();
  if (length < 1e-12) return circle(a, r);
  axis /= length;
  const double base = std::atan2(axis.y(), axis.x());
  Outline out;
  // Half circle around b, then around a.
  const int n = 16;
  for (int k = 0; k <= n; ++k) {
    const double t = base - std::numbers::pi / 2 + std::numbers::pi * k / n;
    out.push_back(b + r * Vec2(std::cos(t), std::sin(t)));
  }
  for (int k = 0; k <= n; ++k) {
    const double t = base + std::numbers::pi / 2 + std::numbers::pi * k / n;
    out.push_back(a + r * Vec2(std::cos(t), std::sin(t)));
  }
  return out;
}

Outline rectangle(const Vec2& centre, const Vec2& axis, double length, double width) {
  const Vec2 u = axis.normalized() * length / 2, n = Vec2(-axis.y(), axis.x()).normalized() * width / 2;
  return {centre - u - n, centre + u - n, centre + u + n, centre - u + n};
}

Outline roundedHull(const std::vector<Vec2>& points, double width) {
  // Andrew's monotone chain over discs sampled round every point.
  std::vector<Vec2> all;
  for (const Vec2& p : points)
    for (const Vec2& q : circle(p, width / 2, 24)) all.push_back(q);
  std::sort(all.begin(), all.end(),
            [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  const auto cross = [](const Vec2& o, const Vec2& a, const Vec2& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  Outline hull(2 * all.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], all[i]) <= 0) --k;
    hull[k++] = all[i];
  }
  for (std::size_t i = all.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], all[i]) <= 0) --k;
    hull[k++] = all[i];
  }
  hull.resize(k > 0 ? k - 1 : 0);
  return hull;
}

std::vector<Vec3> distinctPoints(const std::vector<Vec3>& points) {
  std::vector<Vec3> out;
  for (const Vec3& p : points)
    if (std::none_of(out.begin(), out.end(), [&](const Vec3& q) { return (p - q).norm() < 1e-9; }))
      out.push_back(p);
  return out;
}

std::optional<Span> shapeSpan(const ShapeSpec& shape, const SpecNumbers& numbers,
                              const std::vector<Vec3>& points, double fallbackLength) {
  if (shape.type != "bar" && shape.type != "cylinder") return std::nullopt;
  const std::vector<Vec3> ends = distinctPoints(points);
  const double between = ends.size() == 2 ? (ends[1] - ends[0]).norm() : fallbackLength;
  if (shape.axis) {
    const Vec3 axis(numbers.component(shape.axis, 0, 0), numbers.component(shape.axis, 1, 0),
                    numbers.component(shape.axis, 2, 0));
    if (!(axis.norm() > 1e-12)) return std::nullopt;
    const Vec3 half = axis.normalized() * numbers.value(shape.length, between) / 2;
    return Span{-half, half};
  }
  if (ends.size() != 2) return std::nullopt;
  const Vec3 mid = (ends[0] + ends[1]) / 2;
  const Vec3 half = (ends[1] - ends[0]).normalized() * numbers.value(shape.length, between) / 2;
  return Span{mid - half, mid + half};
}

Outline planarOutline(const ShapeSpec& shape, const SpecNumbers& numbers,
                      const std::vector<Vec3>& points, double modelSize, double minWidth) {
  const double defaultWidth = 0.05 * modelSize;
  const std::optional<Span> span = shapeSpan(shape, numbers, points, modelSize / 2);
  Outline out;
  if (shape.type == "bar") {
    const double width = std::max(numbers.value(shape.width, defaultWidth), minWidth);
    const double length = numbers.value(shape.length, modelSize / 2);
    out = span ? stadium(span->a.head<2>(), span->b.head<2>(), width)
               : stadium(Vec2(-length / 2, 0), Vec2(length / 2, 0), width);
  } else if (shape.type == "box") {
    const double sx = numbers.component(shape.size, 0, defaultWidth * 2) / 2;
    const double sy = numbers.component(shape.size, 1, defaultWidth * 2) / 2;
    out = {Vec2(-sx, -sy), Vec2(sx, -sy), Vec2(sx, sy), Vec2(-sx, sy)};
  } else if (shape.type == "cylinder" && span) {
    // Seen from the side: a rectangle along its span.
    const Vec2 a = span->a.head<2>(), b = span->b.head<2>();
    out = rectangle((a + b) / 2, b - a, (b - a).norm(),
                    2 * numbers.value(shape.radius, defaultWidth));
  } else if (shape.type == "disk" || shape.type == "cylinder" || shape.type == "sphere") {
    out = circle(Vec2::Zero(), numbers.value(shape.radius, defaultWidth));
  } else if (shape.type == "polygon" && shape.points.size() >= 3) {
    for (const Vector& p : shape.points) {
      const std::optional<Vector> v = p;
      out.emplace_back(numbers.component(v, 0, 0), numbers.component(v, 1, 0));
    }
  } else {
    // A link through the attachment points (from the centre of mass to a single one).
    std::vector<Vec2> ends;
    for (const Vec3& p : distinctPoints(points)) ends.push_back(p.head<2>());
    if (ends.size() == 1) ends.push_back(Vec2::Zero());
    out = ends.empty() ? circle(Vec2::Zero(), defaultWidth)
                       : roundedHull(ends, std::max(defaultWidth, minWidth));
  }
  if (signedArea(out) < 0) std::reverse(out.begin(), out.end());
  return out;
}

bool contains(const Outline& outline, const Vec2& p) {
  bool inside = false;
  for (std::size_t i = 0, j = outline.size() - 1; i < outline.size(); j = i++) {
    const Vec2& a = outline[i];
    const Vec2& b = outline[j];
    if ((a.y() > p.y()) != (b.y() > p.y()) &&
        p.x() < (b.x() - a.x()) * (p.y() - a.y()) / (b.y() - a.y()) + a.x())
      inside = !inside;
  }
  return inside;
}

vtkSmartPointer<vtkPolyData> prism(const Outline& outline, double z0, double z1) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  const auto n = static_cast<vtkIdType>(outline.size());
  for (const Vec2& p : outline) points->InsertNextPoint(p.x(), p.y(), z1);
  for (const Vec2& p : outline) points->InsertNextPoint(p.x(), p.y(), z0);
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  // Top (counter-clockwise from above), bottom (reversed), sides.
  polys->InsertNextCell(n);
  for (vtkIdType i = 0; i < n; ++i) polys->InsertCellPoint(i);
  polys->InsertNextCell(n);
  for (vtkIdType i = n - 1; i >= 0; --i) polys->InsertCellPoint(n + i);
  for (vtkIdType i = 0; i < n; ++i) {
    const vtkIdType j = (i + 1) % n;
    const vtkIdType quad[4] = {n + i, n + j, j, i};
    polys->InsertNextCell(4, quad);
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(polys);
  return withNormals(data, true);
}

vtkSmartPointer<vtkPolyData> fill(const Outline& outline, double z) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  for (const Vec2& p : outline) points->InsertNextPoint(p.x(), p.y(), z);
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  polys->InsertNextCell(static_cast<vtkIdType>(outline.size()));
  for (vtkIdType i = 0; i < static_cast<vtkIdType>(outline.size()); ++i) polys->InsertCellPoint(i);
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(polys);
  return withNormals(data, false);
}

vtkSmartPointer<vtkPolyData> segments(const std::vector<Vec3>& ends) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  for (std::size_t i = 0; i + 1 < ends.size(); i += 2) {
    const vtkIdType a = points->InsertNextPoint(ends[i].data());
    const vtkIdType b = points->InsertNextPoint(ends[i + 1].data());
    const vtkIdType cell[2] = {a, b};
    lines->InsertNextCell(2, cell);
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  return data;
}

vtkSmartPointer<vtkPolyData> polyline(const std::vector<Vec3>& pts, bool closed) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto lines = vtkSmartPointer<vtkCellArray>::New();
  const auto n = static_cast<vtkIdType>(pts.size());
  for (const Vec3& p : pts) points->InsertNextPoint(p.data());
  lines->InsertNextCell(closed ? n + 1 : n);
  for (vtkIdType i = 0; i < n; ++i) lines->InsertCellPoint(i);
  if (closed) lines->InsertCellPoint(0);
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  return data;
}

std::vector<Vec3> groundHatch(const Vec2& at, double size, double z, bool above) {
  std::vector<Vec3> out;
  // A triangle standing on a base line, then hatching below the line.
  const double h = 0.8 * size, half = 0.5 * size;
  const Vec3 top(at.x(), at.y(), z);
  const Vec3 left(at.x() - half / 1.4, at.y() - h, z), right(at.x() + half / 1.4, at.y() - h, z);
  out.insert(out.end(), {top, left, left, right, right, top});
  const Vec3 b0(at.x() - half, at.y() - h, z), b1(at.x() + half, at.y() - h, z);
  out.insert(out.end(), {b0, b1});
  const int hatches = 6;
  for (int k = 0; k <= hatches; ++k) {
    const double x = at.x() - half + size * k / hatches;
    out.push_back(Vec3(x, at.y() - h, z));
    out.push_back(Vec3(x - 0.22 * size, at.y() - h - 0.22 * size, z));
  }
  // Above the point: the same mirrored in the horizontal line through it.
  if (above)
    for (Vec3& p : out) p.y() = 2 * at.y() - p.y();
  return out;
}

std::vector<Vec3> stopWall(const Vec2& a, const Vec2& b, const Vec2& beyond, double hatch, double z) {
  const auto P = [z](const Vec2& v) { return Vec3(v.x(), v.y(), z); };
  std::vector<Vec3> out{P(a), P(b)};
  const Vec2 along = (b - a).normalized(), out45 = (beyond.normalized() + along) * (hatch / std::sqrt(2.0));
  const int strokes = std::max(2, static_cast<int>((b - a).norm() / hatch));
  for (int k = 0; k < strokes; ++k) {
    const Vec2 at = a + (b - a) * (static_cast<double>(k) / strokes);
    out.insert(out.end(), {P(at), P(at + out45)});
  }
  return out;
}

std::vector<Vec3> rail(const Vec2& at, const Vec2& axis, double length, double size, bool hatched,
                       bool twoLines, double z) {
  const Vec2 u = axis.normalized();
  const Vec2 n(-u.y(), u.x());
  std::vector<Vec3> out;
  const auto P = [&](const Vec2& p) { return Vec3(p.x(), p.y(), z); };
  // Two guide lines either side of the sliding line, or the line itself.
  const double offset = twoLines ? 0.5 * size : 0.0;
  for (const double side : {-offset, offset}) {
    out.push_back(P(at - u * length / 2 + n * side));
    out.push_back(P(at + u * length / 2 + n * side));
    if (!twoLines) break;
  }
  if (hatched) {
    const int hatches = std::max(4, static_cast<int>(length / (0.35 * size)));
    for (int k = 0; k <= hatches; ++k) {
      const Vec2 p = at - u * length / 2 + u * length * k / hatches - n * offset;
      out.push_back(P(p));
      out.push_back(P(p - 0.3 * size * (n + u)));
    }
  }
  return out;
}

std::vector<Vec3> zigzag(const Vec3& a, const Vec3& b, double width, int coils) {
  const Vec3 axis = b - a;
  const double length = axis.norm();
  if (length < 1e-12) return {a, b};
  const Vec3 u = axis / length;
  Vec3 n = u.cross(Vec3::UnitZ());
  if (n.norm() < 1e-9) n = u.cross(Vec3::UnitX());
  n.normalize();
  std::vector<Vec3> out{a, a + 0.15 * axis};
  const int teeth = 2 * coils;
  for (int k = 0; k < teeth; ++k) {
    const double s = 0.15 + 0.7 * (k + 0.5) / teeth;
    out.push_back(a + s * axis + (k % 2 ? -1.0 : 1.0) * width / 2 * n);
  }
  out.push_back(a + 0.85 * axis);
  out.push_back(b);
  return out;
}

std::vector<Vec3> arcArrow(const Vec2& centre, double radius, double z) {
  std::vector<Vec3> out;
  // Three quarters of a circle, counter-clockwise, as segments; an arrow head at its end.
  const int n = 28;
  const double a0 = -std::numbers::pi / 4, a1 = 1.25 * std::numbers::pi;
  Vec3 previous(centre.x() + radius * std::cos(a0), centre.y() + radius * std::sin(a0), z);
  for (int k = 1; k <= n; ++k) {
    const double a = a0 + (a1 - a0) * k / n;
    const Vec3 p(centre.x() + radius * std::cos(a), centre.y() + radius * std::sin(a), z);
    out.push_back(previous);
    out.push_back(p);
    previous = p;
  }
  const Vec3 tangent(-std::sin(a1), std::cos(a1), 0);
  const Vec3 normal(std::cos(a1), std::sin(a1), 0);
  const double head = 0.45 * radius;
  out.push_back(previous);
  out.push_back(previous - head * tangent + 0.5 * head * normal);
  out.push_back(previous);
  out.push_back(previous - head * tangent - 0.5 * head * normal);
  return out;
}

vtkSmartPointer<vtkPolyData> grid(double spacing, double extent, int major, bool majorLines) {
  std::vector<Vec3> ends;
  const int n = static_cast<int>(std::ceil(extent / spacing));
  for (int k = -n; k <= n; ++k) {
    if ((k % major == 0) != majorLines) continue;
    const double c = k * spacing;
    ends.insert(ends.end(), {Vec3(c, -n * spacing, 0), Vec3(c, n * spacing, 0),
                             Vec3(-n * spacing, c, 0), Vec3(n * spacing, c, 0)});
  }
  return segments(ends);
}

}  // namespace rlx::ui::geometry
