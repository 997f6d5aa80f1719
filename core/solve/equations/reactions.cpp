#include "solve/equations/reactions.h"

#include "joints/joints.h"
#include "joints/planar.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"

namespace rlx {
namespace {

// Force and moment about the centre of mass that rows [row, row + rows) apply to a body
// (planar: fx, fy, tz; spatial: f, n in global axes).
Eigen::VectorXd constraintWrench(const Model& model, const Workspace& ws, int row, int rows,
                                 int body) {
  const int v = model.bodies[static_cast<std::size_t>(body)].v;
  return -denseBlock(ws.Phi_q, row, v, rows, model.bodyDofs()).transpose() *
         ws.lambda.segment(row, rows);
}

double cross(const planar::Vec2& a, const planar::Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// The reaction at the point s (body coordinates) of `body` from the rows' wrench on it.
Reaction wrenchAt(const Model& model, const State& state, const Workspace& ws, const Joint& j,
                  int body, const Eigen::Vector3d& s) {
  Eigen::VectorXd w = constraintWrench(model, ws, j.row, j.rows, body);
  Reaction out;
  const SpatialFamily* spatial = model.dimension == 3 ? jointFamily(j.type).spatial : nullptr;
  if (spatial && spatial->reactionPoint) {
    // Its velocity rows too (a rolling disk's no-slip), and the reaction acts at the family's
    // point (the contact point).
    if (j.velocityRow >= 0) w += constraintWrench(model, ws, j.velocityRow, spatial->velocityRows, body);
    const spatial::Body b = spatialBody(model, state, body);
    out.force = w.head<3>();
    const spatial::Body b1 = spatialBody(model, state, j.body1), b2 = spatialBody(model, state, j.body2);
    out.torque = w.tail<3>() - (spatial->reactionPoint(j, b1, b2) - b.r).cross(out.force);
    return out;
  }
  if (model.dimension == 2) {
    // The point's offset from the centre of mass: the joint's point, or the family's (a gear's
    // pitch point).
    const planar::Body b = planarBody(model, state, body);
    const PlanarFamily* planar = jointFamily(j.type).planar;
    const planar::Vec2 p =
        planar && planar->reactionPoint
            ? planar::Vec2(planar->reactionPoint(j, planarBody(model, state, j.body1),
                                                 planarBody(model, state, j.body2)) - b.r)
            : planar::Vec2(b.A * s.head<2>());
    out.force.head<2>() = w.head<2>();
    out.torque.z() = w(2) - cross(p, w.head<2>());
  } else {
    const Eigen::Vector3d p = bodyRotation(model, state.q, body) * s;
    out.force = w.head<3>();
    out.torque = w.tail<3>() - p.cross(out.force);
  }
  return out;
}

// The point s (body coordinates) of `body` in global coordinates (z = 0 in 2-D).
Eigen::Vector3d globalPoint(const Model& model, const State& state, int body,
                            const Eigen::Vector3d& s) {
  if (body == kGround) return s;
  if (model.dimension == 2) {
    const planar::Body b = planarBody(model, state, body);
    const planar::Vec2 p = b.r + b.A * s.head<2>();
    return {p.x(), p.y(), 0.0};
  }
  return spatialBody(model, state, body).r + bodyRotation(model, state.q, body) * s;
}

// The reaction of the joint's rows alone.
Reaction rowsReaction(const Model& model, const State& state, const Workspace& ws, const Joint& j) {
  if (j.body2 != kGround) return wrenchAt(model, state, ws, j, j.body2, j.s2);
  Reaction out;
  if (j.body1 != kGround) {
    // Body2 is ground: action and reaction of body1's share, its moment taken about ground's
    // joint point (body1's, where the family has no point of its own: they part along a slider).
    const Reaction on1 = wrenchAt(model, state, ws, j, j.body1, j.s1);
    out.force = -on1.force;
    out.torque = -on1.torque;
    const JointFamily& family = jointFamily(j.type);
    const bool ownPoint = model.dimension == 2 ? family.planar && family.planar->reactionPoint
                                               : family.spatial && family.spatial->reactionPoint;
    if (!ownPoint) {
      const Eigen::Vector3d offset =
          globalPoint(model, state, j.body1, j.s1) - globalPoint(model, state, kGround, j.s2);
      out.torque += offset.cross(out.force);
    }
  }
  return out;
}

// The family's separating force per newton of its rows' force, and the pitch point (global).
Separation separationOf(const Model& model, const State& state, const Joint& j) {
  const JointFamily& family = jointFamily(j.type);
  Separation out;
  if (model.dimension == 2) {
    const planar::Body b1 = planarBody(model, state, j.body1),
                       b2 = planarBody(model, state, j.body2);
    out.force.head<2>() = family.planar->separation(j, b1, b2);
    out.point.head<2>() = family.planar->reactionPoint(j, b1, b2);
  } else {
    const spatial::Body b1 = spatialBody(model, state, j.body1),
                        b2 = spatialBody(model, state, j.body2);
    out.force = family.spatial->separation(j, b1, b2);
    out.point = family.spatial->reactionPoint(j, b1, b2);
  }
  return out;
}

}  // namespace

bool separates(const Model& model, int joint) {
  const JointFamily& family = jointFamily(model.joints[static_cast<std::size_t>(joint)].type);
  return model.dimension == 2 ? family.planar && family.planar->separation
                              : family.spatial && family.spatial->separation;
}

Separation separatingForce(const Model& model, const State& state, const Workspace& ws, int joint) {
  if (!separates(model, joint)) return {};
  const Joint& j = model.joints[static_cast<std::size_t>(joint)];
  Separation out = separationOf(model, state, j);
  out.force *= rowsReaction(model, state, ws, j).force.norm();
  return out;
}

Reaction jointReaction(const Model& model, const State& state, const Workspace& ws, int joint) {
  Reaction out = rowsReaction(model, state, ws, model.joints[static_cast<std::size_t>(joint)]);
  out.force += separatingForce(model, state, ws, joint).force;  // at the pitch point: no moment
  return out;
}

double motionEffort(const Model& model, const Workspace& ws, int motion) {
  return -ws.lambda(model.motions[static_cast<std::size_t>(motion)].row);
}

}  // namespace rlx
