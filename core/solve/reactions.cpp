#include "solve/reactions.h"

#include "joints/planar.h"
#include "solve/constraints.h"

namespace rlx {
namespace {

// Force and moment about the centre of mass that rows [row, row + rows) apply to a body.
Eigen::Vector3d constraintWrench(const Model& model, const Workspace& ws, int row, int rows,
                                 int body) {
  const int v = model.bodies[static_cast<std::size_t>(body)].v;
  return -ws.Phi_q.block(row, v, rows, 3).transpose() * ws.lambda.segment(row, rows);
}

double cross(const planar::Vec2& a, const planar::Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

}  // namespace

Reaction jointReaction(const Model& model, const State& state, const Workspace& ws, int joint) {
  const Joint& j = model.joints[static_cast<std::size_t>(joint)];
  Reaction out;
  if (j.body2 != kGround) {
    const Eigen::Vector3d w = constraintWrench(model, ws, j.row, j.rows, j.body2);
    const planar::Vec2 p = planarBody(model, state, j.body2).A * j.s2.head<2>();
    out.force.head<2>() = w.head<2>();
    out.torque.z() = w(2) - cross(p, w.head<2>());
  } else if (j.body1 != kGround) {
    const Eigen::Vector3d w = constraintWrench(model, ws, j.row, j.rows, j.body1);
    const planar::Vec2 p = planarBody(model, state, j.body1).A * j.s1.head<2>();
    out.force.head<2>() = -w.head<2>();
    out.torque.z() = -(w(2) - cross(p, w.head<2>()));
  }
  return out;
}

double motionEffort(const Model& model, const Workspace& ws, int motion) {
  return -ws.lambda(model.motions[static_cast<std::size_t>(motion)].row);
}

}  // namespace rlx
