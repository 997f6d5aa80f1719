// End stops (`limit` forces): a hatched wall on body1 where body2 stops, at each bound. A
// turning joint's wall is the outer half of the radius, in the plane normal to the joint's axis,
// along which body2's reference line (towards its centre of mass) lies at the bound; a sliding
// joint's stands across the guide where body2's point (in the plane, the block's edge) arrives at
// the bound.
#include "viewport/scene_sync.h"

#include "joints/family.h"
#include "solve/assembly/drag.h"
#include "viewport/scene_style.h"

#include <vtkActor.h>
#include <vtkProperty.h>

#include <cmath>

namespace rlx::ui {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

// A unit vector normal to `axis`, towards `hint` when it is not along the axis.
Vec3 normalTowards(const Vec3& axis, const Vec3& hint) {
  const Vec3 u = axis.normalized();
  Vec3 n = hint - u * u.dot(hint);
  if (n.norm() < 1e-9 * std::max(1.0, hint.norm())) n = u.unitOrthogonal();
  return n.normalized();
}

}  // namespace

using namespace style;

void SceneSync::buildStops() {
  const double pin = kPinShare * size_;
  const double top = (static_cast<double>(bodies_.size()) + 3) * layer_;
  for (const Force& f : model_->forces) {
    if (f.type != ForceType::Limit) continue;
    const Joint& j = model_->joints[static_cast<std::size_t>(f.joint)];
    const QString name = QString::fromStdString(f.name);
    // body1's coordinates of a point of body2 (the file's configuration).
    const auto onBody1 = [&](const Vec3& point) {
      return bodyPointLocal(*model_, model_->q0, j.body1,
                            bodyPointPosition(*model_, model_->q0, j.body2, point));
    };
    // The joint's axis on body1 and the walls drawn in a plane through `origin` spanned by e1, e2
    // (the view's plane in 2-D, at the symbols' height).
    const Vec3 axis = dimension_ == 2 ? Vec3(j.a1.x(), j.a1.y(), 0.0) : Vec3(j.frame1.col(2));
    Vec3 origin = j.s1, e1, e2;
    std::vector<Vec2> strokes;  // pairs of points in (e1, e2)
    Vec2 mark = Vec2::Zero();
    const auto wall = [&](const Vec2& a, const Vec2& b, const Vec2& beyond) {
      for (const Eigen::Vector3d& p : geometry::stopWall(a, b, beyond, 1.6 * pin, 0.0)) strokes.push_back(p.head<2>());
      mark = 0.5 * (a + b);
    };
    const bool turning = coordinateIsAngle(j.type);
    if (turning) {
      // e1 towards body2's centre of mass (its x axis when that is on the axis), e2 = axis x e1.
      const Vec3 normal = dimension_ == 2 ? Vec3::UnitZ() : Vec3(axis.normalized());
      Vec3 towards = onBody1(Vec3::Zero()) - j.s1;
      towards -= normal * normal.dot(towards);
      if (towards.norm() < 2 * pin) towards = onBody1(Vec3::UnitX()) - onBody1(Vec3::Zero());
      e1 = normalTowards(normal, towards);
      e2 = normal.cross(e1);
      const double reach = std::max(5 * pin, 0.8 * towards.norm());
      for (const auto& [bound, sign] : {std::pair{f.lower, -1.0}, {f.upper, 1.0}}) {
        if (!std::isfinite(bound)) continue;
        const Vec2 u(std::cos(bound), std::sin(bound));
        wall(0.5 * reach * u, reach * u, sign * Vec2(-u.y(), u.x()));
      }
    } else {
      // Along the guide through where body2's point is in the file; in the plane the walls stand
      // where the block's edge (1.6 pins from its centre) arrives.
      e1 = axis.normalized();
      e2 = dimension_ == 2 ? Vec3(-e1.y(), e1.x(), 0.0) : Vec3(j.frame1.col(0));
      origin = j.s1 + e1 * e1.dot(onBody1(j.s2) - j.s1);
      const double edge = dimension_ == 2 ? 1.6 * pin : 0.0;
      for (const auto& [bound, sign] : {std::pair{f.lower, -1.0}, {f.upper, 1.0}}) {
        if (!std::isfinite(bound)) continue;
        const Vec2 at(bound + sign * edge, 0.0);
        wall(at - Vec2(0, 1.8 * pin), at + Vec2(0, 1.8 * pin), Vec2(sign, 0));
      }
    }
    if (strokes.empty()) continue;
    const Vec3 lift = dimension_ == 2 ? Vec3(0, 0, top - origin.z()) : Vec3::Zero();
    const auto place = [&](const Vec2& p) { return Vec3(origin + lift + p.x() * e1 + p.y() * e2); };
    std::vector<Vec3> ends;
    for (const Vec2& p : strokes) ends.push_back(place(p));
    vtkActor* actor = addActor(geometry::segments(ends), name, poseOf(j.body1));
    paint(actor, kSpring);
    actor->GetProperty()->SetLineWidth(2.5);
    stopMarks_.push_back({name, j.body1, place(mark), 1.5 * pin});
  }
}

}  // namespace rlx::ui
