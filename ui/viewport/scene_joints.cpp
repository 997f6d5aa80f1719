// Joint symbols, one per joint family, in the plane and in space (see docs/viewport.md, "What is
// drawn"). Symbols are built once in the file's configuration (model->q0) on the bodies they
// move with; distance ties and rolling contacts are updated with each state.
#include "viewport/scene_sync.h"

#include "joints/curve.h"
#include "joints/family.h"
#include "solve/assembly/drag.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"
#include "viewport/scene_style.h"

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rlx::ui {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using namespace style;

// A direction of body `from` in body `to`'s coordinates (the file's configuration).
Vec3 directionIn(const Model& model, int from, int to, const Vec3& direction) {
  const Vec3 global = bodyPointPosition(model, model.q0, from, direction) -
                      bodyPointPosition(model, model.q0, from, Vec3::Zero());
  return bodyPointLocal(model, model.q0, to, global) -
         bodyPointLocal(model, model.q0, to, Vec3::Zero());
}

// Where body2's joint point is, projected onto body1's line (or plane) through s1: body1
// coordinates. `plane`: the axis is the plane's normal.
Vec3 guideCentre(const Model& model, const Joint& j, const Vec3& axis, bool plane) {
  Vec3 point = j.s1;
  if (j.body2 != kGround || j.body1 != kGround) {
    const Vec3 g = bodyPointPosition(model, model.q0, j.body2, j.s2);
    point = bodyPointLocal(model, model.q0, j.body1, g);
  }
  const Vec3 u = axis.normalized();
  const double along = u.dot(point - j.s1);
  return plane ? Vec3(point - u * along) : Vec3(j.s1 + u * along);
}

}  // namespace

SceneSync::JointMark SceneSync::addSpatialGearing(const QString& name, const Joint& j) {
  // The planar outlines, in the plane of the joint's frame on each body (a rack's: x along it,
  // y towards the pinion's centre) and again a face width along the axis; a spoke along each
  // wheel's frame x shows it turn.
  const bool rack = j.type == JointType::RackPinion;
  const double R1 = j.numbers[0], R2 = rack ? R1 : j.numbers[1];
  const double toothPitch = 2 * std::numbers::pi * std::min(R1, R2) / (rack ? 16 : 14);
  const double face = 0.5 * std::min(R1, R2);
  const auto draw = [&](int body, const geometry::Outline& outline, const Vec3& origin,
                        const Eigen::Matrix3d& frame) {
    for (const double side : {-0.5, 0.5}) {
      std::vector<Vec3> ring;
      for (const Vec2& q : outline)
        ring.push_back(origin + q.x() * frame.col(0) + q.y() * frame.col(1) +
                       side * face * frame.col(2));
      vtkActor* a = addActor(geometry::polyline(ring, true), name, poseOf(body));
      paint(a, kInk);
      a->GetProperty()->SetLineWidth(1.5);
    }
  };
  // The pitch point (the file's configuration) in a body's frame plane: its angle about the centre.
  const State file{0.0, model_->q0, model_->v0};
  const Vec3 pitch = jointFamily(j.type).spatial->reactionPoint(
      j, spatialBody(*model_, file, j.body1), spatialBody(*model_, file, j.body2));
  const auto angleTowards = [&](int body, const Vec3& centre, const Eigen::Matrix3d& frame) {
    const Vec3 local = bodyPointLocal(*model_, model_->q0, body, pitch) - centre;
    return std::atan2(frame.col(1).dot(local), frame.col(0).dot(local));
  };
  const auto wheel = [&](int body, const Vec3& centre, const Eigen::Matrix3d& frame, double radius,
                         bool ring, double toothAngle) {
    const int teeth = geometry::teethOn(radius, toothPitch);
    draw(body, geometry::gearOutline(Vec2::Zero(), radius, teeth, ring, toothAngle), centre, frame);
    if (ring) draw(body, geometry::circle(Vec2::Zero(), radius + toothPitch, 96), centre, frame);
    vtkActor* spoke = addActor(geometry::segments({centre, centre + 0.8 * radius * frame.col(0)}),
                               name, poseOf(body));
    paint(spoke, kInk);
    spoke->GetProperty()->SetLineWidth(2.5);
    wheelExtents_.push_back({name, body, centre, radius + toothPitch});
  };
  // Wheel 1 (or the pinion) has a tooth at the pitch point, wheel 2 (or the rack) a gap.
  if (!rack) {
    const bool internal = j.type == JointType::InternalGear;
    wheel(j.body1, j.s1, j.frame1, R1, internal && R1 > R2, angleTowards(j.body1, j.s1, j.frame1));
    wheel(j.body2, j.s2, j.frame2, R2, internal && R2 > R1,
          angleTowards(j.body2, j.s2, j.frame2) +
              std::numbers::pi / geometry::teethOn(R2, toothPitch));
    const int on = j.body2 != kGround ? j.body2 : j.body1;
    return {name, on, bodyPointLocal(*model_, model_->q0, on, pitch), 0.0};
  }
  wheel(j.body2, j.s2, j.frame2, R1, false, angleTowards(j.body2, j.s2, j.frame2));
  const Vec3 x = j.frame1.col(0);
  const double along = x.dot(bodyPointLocal(*model_, model_->q0, j.body1, pitch) - j.s1);
  // Two and a half turns of the pinion round the rack's point and at least two radii past the
  // pitch point, with a gap there (a whole number of teeth from the middle).
  const double half = 2.5 * std::numbers::pi * R1;
  const double lo = std::min(-half, along - 2 * R1), hi = std::max(half, along + 2 * R1);
  const double middle = along + toothPitch * std::round((0.5 * (lo + hi) - along) / toothPitch);
  const double length = hi - lo + toothPitch;
  draw(j.body1,
       geometry::rackOutline(Vec2::Zero(), Vec2::UnitX(), Vec2::UnitY(), length, toothPitch),
       j.s1 + middle * x, j.frame1);
  for (const double end : {-0.5, 0.5})
    wheelExtents_.push_back({name, j.body1, j.s1 + (middle + end * length) * x, toothPitch});
  // Picked on the rack's teeth a pinion radius along from the pitch point (as in 2-D).
  return {name, j.body1, j.s1 + (along + R1) * x, 0.0};
}

void SceneSync::buildJoints() {
  for (const Joint& j : model_->joints) {
    if (dimension_ == 2)
      buildPlanarJoint(j);
    else
      buildSpatialJoint(j);
  }
}

void SceneSync::addPin(const QString& name, int body, const Vec2& at, double radius, double z) {
  // A white pin with a dark ring and a dot in the middle.
  vtkActor* disc = addActor(geometry::fill(geometry::circle(at, radius), z), name, poseOf(body));
  paint(disc, kPaper);
  disc->GetProperty()->SetLighting(false);
  std::vector<Vec3> ring;
  for (const Vec2& q : geometry::circle(at, radius)) ring.emplace_back(q.x(), q.y(), z + layer_);
  vtkActor* r = addActor(geometry::polyline(ring, true), name, poseOf(body));
  paint(r, kInk);
  r->GetProperty()->SetLineWidth(2.0);
  vtkActor* dot = addActor(geometry::fill(geometry::circle(at, 0.3 * radius, 16), z + layer_),
                           name, poseOf(body));
  paint(dot, kInk);
  dot->GetProperty()->SetLighting(false);
}

void SceneSync::addTie(const QString& name, const Joint& j) {
  // A straight line between the two points, moved with each state like a spring.
  Spring tie{name, j.body1, j.body2, j.s1, j.s2, vtkSmartPointer<vtkPolyData>::New(), false};
  vtkActor* a = addActor(tie.data, name, nullptr);
  paint(a, kInk);
  a->GetProperty()->SetLineWidth(2.5);
  springs_.push_back(tie);
}

Vec3 SceneSync::addGearing(const QString& name, const Joint& j, double z) {
  const auto draw = [&](int body, const geometry::Outline& outline, double width) {
    std::vector<Vec3> ring;
    for (const Vec2& q : outline) ring.emplace_back(q.x(), q.y(), z);
    vtkActor* a = addActor(geometry::polyline(ring, true), name, poseOf(body));
    paint(a, kInk);
    a->GetProperty()->SetLineWidth(width);
  };
  // The direction of a global point seen from a point of a body, in the body's axes.
  const auto angleTowards = [&](int body, const Vec3& from, const Vec3& global) {
    const Vec3 local = bodyPointLocal(*model_, model_->q0, body, global) - from;
    return std::atan2(local.y(), local.x());
  };
  // A wheel: its teeth (one centred at toothAngle) and a spoke along the body's x axis, which
  // shows it turn.
  const auto wheel = [&](int body, const Vec3& centre, double radius, double toothPitch, bool ring,
                         double toothAngle) {
    const Vec2 c = centre.head<2>();
    draw(body, geometry::gearOutline(c, radius, geometry::teethOn(radius, toothPitch), ring, toothAngle), 1.5);
    if (ring) draw(body, geometry::circle(c, radius + toothPitch, 96), 1.5);
    wheelExtents_.push_back({name, body, centre, radius + toothPitch});
    vtkActor* spoke = addActor(geometry::segments({Vec3(c.x(), c.y(), z), Vec3(c.x() + 0.8 * radius, c.y(), z)}),
                               name, poseOf(body));
    paint(spoke, kInk);
    spoke->GetProperty()->SetLineWidth(2.5);
  };
  // The pitch point, where the family's reaction acts (the file's configuration).
  const State file{0.0, model_->q0, model_->v0};
  const Vec2 where = jointFamily(j.type).planar->reactionPoint(j, planarBody(*model_, file, j.body1),
                                                                planarBody(*model_, file, j.body2));
  const Vec3 pitch(where.x(), where.y(), 0.0);
  if (j.type == JointType::RackPinion) {
    // The pinion's tooth meets the rack's gap at the pitch point, the foot of its centre.
    const double R = j.numbers[0], toothPitch = 2 * std::numbers::pi * R / 16;
    const Vec3 foot = bodyPointLocal(*model_, model_->q0, j.body1, pitch);
    wheel(j.body2, j.s2, R, toothPitch, false, angleTowards(j.body2, j.s2, pitch));
    const Vec2 towards = j.side * planar::perp(j.a1.head<2>());
    const double length = 5 * std::numbers::pi * R;  // two and a half turns of the pinion
    draw(j.body1, geometry::rackOutline(foot.head<2>(), j.a1.head<2>(), towards, length, toothPitch), 1.5);
    for (const double end : {-0.5, 0.5})
      wheelExtents_.push_back({name, j.body1, foot + end * length * j.a1, toothPitch});
    // Picked on the rack's teeth a pinion radius along from the pitch point: the pitch point is
    // often where the rack's guide has its own mark.
    return bodyPointPosition(*model_, model_->q0, j.body1, foot + R * j.a1);
  }
  const double R1 = j.numbers[0], R2 = j.numbers[1];
  const bool internal = j.type == JointType::InternalGear;
  const double toothPitch = 2 * std::numbers::pi * std::min(R1, R2) / 14;
  // Gear 1 has a tooth at the pitch point, gear 2 a gap: they mesh there.
  const int teeth2 = geometry::teethOn(R2, toothPitch);
  wheel(j.body1, j.s1, R1, toothPitch, internal && R1 > R2, angleTowards(j.body1, j.s1, pitch));
  wheel(j.body2, j.s2, R2, toothPitch, internal && R2 > R1,
        angleTowards(j.body2, j.s2, pitch) + std::numbers::pi / teeth2);
  return pitch;
}

void SceneSync::buildPlanarJoint(const Joint& j) {
  const double pin = kPinShare * size_;
  const double top = (static_cast<double>(bodies_.size()) + 2) * layer_;
  const QString name = QString::fromStdString(j.name);
  // The symbol moves with body2 (or body1 when body2 is ground), at its joint point.
  const int body = j.body2 != kGround ? j.body2 : j.body1;
  const Vec3 point = j.body2 != kGround ? j.s2 : j.s1;
  const Vec2 p = point.head<2>();
  const bool grounded = j.body1 == kGround || j.body2 == kGround;
  bool hatchUnder = grounded;
  const PlanarFamily* family = jointFamily(j.type).planar;
  if (!family) return;  // compile() refuses it in 2-D
  switch (family->symbol) {
    case PlanarSymbol::Pin:
      addPin(name, body, p, pin, top);
      break;
    case PlanarSymbol::Slider:
    case PlanarSymbol::PointOnLine: {
      // The guide on body1 along axis1, centred where body2's point is; hatched on ground.
      const bool slide = family->symbol == PlanarSymbol::Slider;
      const Vec3 centre = guideCentre(*model_, j, j.a1, false);
      vtkActor* guide = addActor(
          geometry::segments(geometry::rail(centre.head<2>(), j.a1.head<2>(), 1.2 * size_,
                                            2.6 * pin, j.body1 == kGround, slide, -layer_)),
          name, poseOf(j.body1));
      paint(guide, kInk);
      guide->GetProperty()->SetLineWidth(1.5);
      // The block on it (body2), with a pin when the point may turn (point on line).
      const Vec2 axis = directionIn(*model_, j.body1, body, j.a1).head<2>();
      std::vector<Vec3> frame;
      for (const Vec2& q : geometry::rectangle(p, axis, 3.2 * pin, slide ? 2.6 * pin : 1.8 * pin))
        frame.emplace_back(q.x(), q.y(), top);
      vtkActor* block = addActor(geometry::polyline(frame, true), name, poseOf(body));
      paint(block, kInk);
      block->GetProperty()->SetLineWidth(2.5);
      if (!slide) addPin(name, body, p, 0.6 * pin, top + layer_);
      hatchUnder = false;
      break;
    }
    case PlanarSymbol::Weld: {
      // A weld: a dark diamond.
      const double h = 0.9 * pin;
      vtkActor* a = addActor(
          geometry::fill({p + Vec2(0, -h), p + Vec2(h, 0), p + Vec2(0, h), p + Vec2(-h, 0)}, top),
          name, poseOf(body));
      paint(a, kInk);
      a->GetProperty()->SetLighting(false);
      break;
    }
    case PlanarSymbol::Tie:
      addTie(name, j);
      addPin(name, j.body1, j.s1.head<2>(), 0.6 * pin, top);
      addPin(name, j.body2, j.s2.head<2>(), 0.6 * pin, top);
      break;
    case PlanarSymbol::Gear:
    case PlanarSymbol::Rack: {
      // Picked where the teeth meet (a rack: on its teeth beside the pitch point).
      const Vec3 mark = addGearing(name, j, top);
      const int on = family->symbol == PlanarSymbol::Rack ? j.body1 : body;  // a rack's teeth move with it
      jointMarks_.push_back({name, on, bodyPointLocal(*model_, model_->q0, on, mark), pin});
      return;
    }
    case PlanarSymbol::Cam: {
      // The curves on their bodies, a pin at a point follower; picked at the contact (on body1,
      // the follower, which stays there) and along the curves.
      for (std::size_t k = 0; k < 2; ++k)
        if (const Curve* curve = j.curves[k].get()) {
          std::vector<Vec3> line;
          for (const Vec2& q : curve->samples()) line.emplace_back(q.x(), q.y(), top);
          vtkActor* a = addActor(geometry::polyline(line, curve->closed()), name,
                                 poseOf(k == 0 ? j.body1 : j.body2));
          paint(a, kInk);
          a->GetProperty()->SetLineWidth(2.0);
          // The view shows the whole curve: the disc round its samples' box.
          Eigen::AlignedBox2d box;
          for (const Vec2& q : curve->samples()) box.extend(q);
          const int on = k == 0 ? j.body1 : j.body2;
          wheelExtents_.push_back({name, on, Vec3(box.center().x(), box.center().y(), 0.0),
                                   0.5 * box.diagonal().norm()});
          camCurves_.push_back({name, on, j.curves[k]});
        }
      if (!j.curves[0]) addPin(name, j.body1, j.s1.head<2>(), 0.6 * pin, top + layer_);
      const State file{0.0, model_->q0, model_->v0};
      const Vec2 contact = family->reactionPoint(j, planarBody(*model_, file, j.body1),
                                                 planarBody(*model_, file, j.body2));
      jointMarks_.push_back({name, j.body1,
                             bodyPointLocal(*model_, model_->q0, j.body1, Vec3(contact.x(), contact.y(), 0)),
                             pin});
      return;
    }
  }
  jointMarks_.push_back({name, body, point, pin});
  // Ground marks under grounded pins (the ground point in the file's configuration).
  if (hatchUnder) {
    // Above the pin when the body hangs below it (a pendulum), so that the body does not hide it.
    const Vec3 groundPoint = j.body1 == kGround ? j.s1 : j.s2;
    const Vec2 toBody = (bodyPointPosition(*model_, model_->q0, body, Vec3::Zero()) - groundPoint)
                            .head<2>();
    const bool above = toBody.y() < -std::abs(toBody.x());
    vtkActor* g = addActor(geometry::segments(geometry::groundHatch(groundPoint.head<2>(),
                                                                    3.2 * pin, -layer_, above)),
                           name, nullptr);
    paint(g, kInk);
    g->GetProperty()->SetLineWidth(1.5);
  }
}

void SceneSync::buildSpatialJoint(const Joint& j) {
  const double pin = kPinShare * size_;
  const QString name = QString::fromStdString(j.name);
  const int body = j.body2 != kGround ? j.body2 : j.body1;
  const Vec3 point = j.body2 != kGround ? j.s2 : j.s1;
  // Joint axes (z of the joint frames) on body1 and body2, and on the symbol's body.
  const Vec3 z1 = j.frame1.col(2), z2 = j.frame2.col(2);
  const Vec3 axis = body == j.body2 ? z2 : z1;
  const Eigen::Matrix3d frame = body == j.body2 ? j.frame2 : j.frame1;
  const auto solid = [&](vtkSmartPointer<vtkPolyData> data, int on, const double* colour) {
    vtkActor* a = addActor(data, name, poseOf(on));
    paint(a, colour);
    a->GetProperty()->SetSpecular(0.3);
    return a;
  };
  // A thin guide along body1's axis through body2's point, ticked when it is ground.
  const auto guide = [&]() {
    const Vec3 c = guideCentre(*model_, j, z1, false);
    solid(geometry::rod(c - 0.6 * size_ * z1, c + 0.6 * size_ * z1, 0.18 * pin), j.body1, kInk);
    if (j.body1 != kGround) return;
    std::vector<Vec3> ticks;
    const Vec3 side = j.frame1.col(0);
    for (int k = -8; k <= 8; ++k) {
      const Vec3 at = c + 0.07 * size_ * k * z1 - 0.5 * pin * side;
      ticks.insert(ticks.end(), {at, at - 1.2 * pin * (side + z1.normalized())});
    }
    vtkActor* t = addActor(geometry::segments(ticks), name, nullptr);
    paint(t, kInk);
    t->GetProperty()->SetLineWidth(1.5);
  };
  // A translucent square of body1's plane through body2's point.
  const auto plane = [&](const Vec3& centre, double size) {
    vtkActor* a = solid(geometry::plate(centre, z1, size), j.body1, kPlane);
    a->GetProperty()->SetOpacity(0.45);
    a->GetProperty()->SetAmbient(0.6);
    a->GetProperty()->EdgeVisibilityOn();
    a->GetProperty()->SetEdgeColor(kInk[0], kInk[1], kInk[2]);
  };
  const SpatialFamily* family = jointFamily(j.type).spatial;
  if (!family) return;  // compile() refuses it in 3-D
  switch (family->symbol) {
    case SpatialSymbol::Hinge:
      solid(geometry::rod(point - 2.5 * pin * axis, point + 2.5 * pin * axis, 0.5 * pin), body,
            kInk);
      break;
    case SpatialSymbol::Sleeve:
      solid(geometry::rod(point - 1.8 * pin * axis, point + 1.8 * pin * axis, 0.7 * pin), body,
            kInk);
      guide();
      break;
    case SpatialSymbol::Slider:
      solid(geometry::block(point, frame, Vec3(1.8 * pin, 1.8 * pin, 3.2 * pin)), body, kInk);
      guide();
      break;
    case SpatialSymbol::PointOnLine:
      solid(geometry::ball(point, 0.9 * pin), body, kInk);
      guide();
      break;
    case SpatialSymbol::Ball:
      solid(geometry::ball(point, 1.4 * pin), body, kInk);
      break;
    case SpatialSymbol::Cross:
      // The cross: one arm along each body's axis.
      solid(geometry::rod(j.s1 - 2.2 * pin * z1, j.s1 + 2.2 * pin * z1, 0.35 * pin), j.body1, kInk);
      solid(geometry::rod(j.s2 - 2.2 * pin * z2, j.s2 + 2.2 * pin * z2, 0.35 * pin), j.body2, kInk);
      solid(geometry::ball(point, 0.6 * pin), body, kInk);
      break;
    case SpatialSymbol::PointOnPlane:
      plane(guideCentre(*model_, j, z1, true), 0.5 * size_);
      solid(geometry::ball(point, 0.9 * pin), body, kInk);
      break;
    case SpatialSymbol::PlanarBlock:
      plane(guideCentre(*model_, j, z1, true), 0.5 * size_);
      solid(geometry::block(point, frame, Vec3(2.4 * pin, 2.4 * pin, 0.6 * pin)), body, kInk);
      break;
    case SpatialSymbol::AxisPair:
      // The two axes the joint relates, each on its body.
      solid(geometry::rod(j.s1 - 3 * pin * z1, j.s1 + 3 * pin * z1, 0.3 * pin), j.body1, kInk);
      solid(geometry::rod(j.s2 - 3 * pin * z2, j.s2 + 3 * pin * z2, 0.3 * pin), j.body2, kInk);
      break;
    case SpatialSymbol::Weld:
      solid(geometry::block(point, frame, Vec3(1.8 * pin, 1.8 * pin, 1.8 * pin)), body, kInk);
      break;
    case SpatialSymbol::Tie:
      addTie(name, j);
      solid(geometry::ball(j.s1, 0.6 * pin), j.body1, kInk);
      solid(geometry::ball(j.s2, 0.6 * pin), j.body2, kInk);
      break;
    case SpatialSymbol::Screw: {
      // The thread on body1 (the screw) round its axis, and the nut on body2 that runs on it.
      // A thread proportioned like a metric one (major radius 1.6 pitches), the pitch true
      // where it can be seen.
      const double pitch = std::abs(j.numbers[0]), length = 16 * pin;
      const int turns = std::clamp(static_cast<int>(length / pitch), 4, 40);
      vtkActor* thread = addActor(
          geometry::polyline(geometry::helix(j.s1, j.frame1, std::max(1.5 * pin, 1.6 * pitch), length, turns),
                             false),
          name, poseOf(j.body1));
      paint(thread, kInk);
      thread->GetProperty()->SetLineWidth(2.5);
      solid(geometry::rod(j.s2 - 0.8 * pin * z2, j.s2 + 0.8 * pin * z2, std::max(2.0 * pin, 2.2 * pitch)),
            j.body2, kInk);
      break;
    }
    case SpatialSymbol::Rack:
    case SpatialSymbol::Gear: {
      JointMark mark = addSpatialGearing(name, j);
      mark.radius = 1.2 * pin;
      jointMarks_.push_back(mark);
      return;
    }
    case SpatialSymbol::RollingContact: {
      // The plane it rolls on and the contact point, which moves with each state.
      auto pose = vtkSmartPointer<vtkMatrix4x4>::New();
      contacts_.push_back({static_cast<int>(&j - model_->joints.data()), pose});
      updateContacts();
      const Vec3 contact(pose->GetElement(0, 3), pose->GetElement(1, 3), pose->GetElement(2, 3));
      const Vec3 onPlane = bodyPointLocal(*model_, model_->q0, j.body1, contact);
      plane(onPlane, 6 * j.radius);
      vtkActor* a = addActor(geometry::ball(Vec3::Zero(), 0.8 * pin), name, pose);
      paint(a, kInk);
      break;
    }
  }
  jointMarks_.push_back({name, body, point, 1.2 * pin});
}

void SceneSync::updateContacts() {
  for (const Contact& c : contacts_) {
    // P = r2 - rho e, e the unit vector in the disk's plane towards the plane's normal k.
    const Joint& j = model_->joints[static_cast<std::size_t>(c.joint)];
    const Vec3 k = (globalPoint(j.body1, j.s1 + j.frame1.col(2)) - globalPoint(j.body1, j.s1))
                       .normalized();
    const Vec3 origin = globalPoint(j.body2, Vec3::Zero());
    const Vec3 n = (globalPoint(j.body2, j.a2) - origin).normalized();
    const double cosine = k.dot(n), sine = std::sqrt(std::max(0.0, 1 - cosine * cosine));
    const Vec3 e = sine > 1e-9 ? Vec3((k - cosine * n) / sine) : Vec3::Zero();
    const Vec3 p = origin - j.radius * e;
    for (int i = 0; i < 3; ++i) c.pose->SetElement(i, 3, p(i));
    c.pose->Modified();
  }
}

}  // namespace rlx::ui
