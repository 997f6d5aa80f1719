// Couplers of two turning joints drawn as belts (docs/viewport.md): the belt leaves each pulley
// along the common tangents, open when the pulleys turn the same way (ratios of opposite signs),
// crossed when they turn opposite ways. A pulley's radius is its ratio when both fit between the
// centres (the Add Coupler dialog writes the pulleys' radii), else its body's disk or cylinder
// radius, else a share of the centre distance in the ratios' proportion. The tangents follow the
// pulleys' centres with each state. In 3-D the belt lies in the plane through the first joint's
// point square to its axis, round the point where the second joint's axis crosses that plane;
// pulleys whose axes are not parallel (within 1 degree) have no belt drawn.
#include "viewport/scene_sync.h"

#include "joints/family.h"
#include "solve/assembly/drag.h"
#include "viewport/scene_style.h"

#include <vtkActor.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rlx::ui {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

Vec2 perp(const Vec2& v) { return {-v.y(), v.x()}; }

// Points on the circle (c, r) from direction `from` to direction `to`, turning the way that
// passes direction `via`.
std::vector<Vec2> arc(const Vec2& c, double r, const Vec2& from, const Vec2& to, const Vec2& via) {
  const double a = std::atan2(from.y(), from.x());
  const auto ccwAngle = [a](const Vec2& d) {
    double t = std::atan2(d.y(), d.x()) - a;
    while (t < 0) t += 2 * std::numbers::pi;
    return t;
  };
  const double span = ccwAngle(to);
  const double sign = ccwAngle(via) <= span ? 1.0 : -1.0;
  const double sweep = sign > 0 ? span : 2 * std::numbers::pi - span;
  const int n = std::max(2, static_cast<int>(sweep / 0.1));
  std::vector<Vec2> out;
  for (int k = 0; k <= n; ++k) {
    const double t = a + sign * sweep * k / n;
    out.push_back(c + r * Vec2(std::cos(t), std::sin(t)));
  }
  return out;
}

}  // namespace

using namespace style;

void SceneSync::buildBelts(const Spec& spec) {
  const auto jointNamed = [this](const std::string& name) -> const Joint* {
    for (const Joint& j : model_->joints)
      if (j.name == name) return &j;
    return nullptr;
  };
  for (const ConstraintSpec& c : spec.constraints) {
    if (c.type != ConstraintType::Coupler || c.joints.size() != 2 || c.ratios.size() != 2) continue;
    const Joint* joints[2] = {jointNamed(c.joints[0]), jointNamed(c.joints[1])};
    if (!joints[0] || !joints[1] || !coordinateIsAngle(joints[0]->type) || !coordinateIsAngle(joints[1]->type))
      continue;
    Belt belt{QString::fromStdString(c.name),      {}, {}, {}, {}, false,
              vtkSmartPointer<vtkPolyData>::New(), {}};
    double ratio[2], shapeRadius[2];
    for (int i = 0; i < 2; ++i) {
      const Joint& j = *joints[i];
      const bool onBody2 = j.body2 != kGround;
      belt.body[i] = onBody2 ? j.body2 : j.body1;
      belt.centre[i] = onBody2 ? j.s2 : j.s1;
      belt.axis[i] =
          dimension_ == 3 ? Vec3((onBody2 ? j.frame2 : j.frame1).col(2)) : Vec3(Vec3::UnitZ());
      ratio[i] = numbers_->value(c.ratios[static_cast<std::size_t>(i)], 1.0);
      shapeRadius[i] = 0.0;
      if (belt.body[i] != kGround) {
        const ShapeSpec& shape = spec.bodies[static_cast<std::size_t>(belt.body[i])].shape;
        if (shape.type == "disk" || shape.type == "cylinder")
          shapeRadius[i] = numbers_->value(shape.radius, 0.0);
      }
    }
    belt.crossed = (ratio[0] > 0) == (ratio[1] > 0);
    const double distance = (bodyPointPosition(*model_, model_->q0, belt.body[1], belt.centre[1]) -
                             bodyPointPosition(*model_, model_->q0, belt.body[0], belt.centre[0]))
                                .norm();
    const bool ratiosFit = std::abs(ratio[0]) + std::abs(ratio[1]) < distance;
    const double larger = std::max(std::abs(ratio[0]), std::abs(ratio[1]));
    for (int i = 0; i < 2; ++i)
      belt.radius[i] = ratiosFit            ? std::abs(ratio[i])
                       : shapeRadius[i] > 0 ? shapeRadius[i]
                                            : 0.2 * distance * std::abs(ratio[i]) / larger;
    vtkActor* a = addActor(belt.data, belt.name, nullptr);
    paint(a, kInk);
    a->GetProperty()->SetLineWidth(2.0);
    for (int i = 0; i < 2; ++i) wheelExtents_.push_back({belt.name, belt.body[i], belt.centre[i], belt.radius[i]});
    belts_.push_back(belt);
  }
}

void SceneSync::updateBelts() {
  const double z = (static_cast<double>(bodies_.size()) + 1.5) * layer_;
  for (Belt& belt : belts_) {
    belt.spans.clear();
    std::vector<Vec3> points;
    // The belt's plane: origin o (pulley 1's centre), in-plane axes e1 (towards pulley 2), e2.
    Vec3 o = globalPoint(belt.body[0], belt.centre[0]), e1 = Vec3::UnitX(), e2 = Vec3::UnitY();
    Vec3 c2 = globalPoint(belt.body[1], belt.centre[1]);
    bool drawn = true;
    if (dimension_ == 3) {
      const auto direction = [this](int body, const Vec3& local) {
        return Vec3(globalPoint(body, local) - globalPoint(body, Vec3::Zero())).normalized();
      };
      const Vec3 n = direction(belt.body[0], belt.axis[0]),
                 a2 = direction(belt.body[1], belt.axis[1]);
      drawn = std::abs(n.dot(a2)) > std::cos(std::numbers::pi / 180);
      if (drawn) c2 -= (n.dot(c2 - o) / n.dot(a2)) * a2;  // where axis 2 crosses the plane
      e1 = c2 - o;
      e1 = e1.norm() > 0 ? Vec3(e1.normalized()) : Vec3(n.unitOrthogonal());
      e2 = n.cross(e1);
    } else {
      o.z() = c2.z() = z;
    }
    const Vec2 c1(0, 0), c2In = Vec2((c2 - o).dot(e1), (c2 - o).dot(e2));
    const double r1 = belt.radius[0], r2 = belt.radius[1], d = c2In.norm();
    // The tangents touch pulley 1 at c1 + r1 n and pulley 2 at c2 + s r2 n (s = -1 crossed), with
    // n . u = (r1 - s r2) / d.
    const double s = belt.crossed ? -1.0 : 1.0, cosine = d > 0 ? (r1 - s * r2) / d : 2.0;
    if (drawn && std::abs(cosine) < 1) {
      const Vec2 u = c2In / d, side = std::sqrt(1 - cosine * cosine) * perp(u);
      const Vec2 n1 = cosine * u + side, n2 = cosine * u - side;  // the two tangents' normals
      const Vec2 a1 = c1 + r1 * n1, b1 = c2In + s * r2 * n1, a2 = c1 + r1 * n2,
                 b2 = c2In + s * r2 * n2;
      const auto global = [&](const Vec2& p) { return Vec3(o + p.x() * e1 + p.y() * e2); };
      for (const Vec2& p : {a1, b1, a2, b2}) belt.spans.push_back(global(p).head<2>());
      // Around pulley 2 from the first tangent to the second, on its far side; back along the
      // second tangent; around pulley 1 on its far side.
      std::vector<Vec2> loop{a1};
      for (const Vec2& p : arc(c2In, r2, s * n1, s * n2, u)) loop.push_back(p);
      for (const Vec2& p : arc(c1, r1, n2, n1, -u)) loop.push_back(p);
      for (const Vec2& p : loop) points.push_back(global(p));
    }
    belt.data->ShallowCopy(geometry::polyline(points, true));
  }
}

}  // namespace rlx::ui
