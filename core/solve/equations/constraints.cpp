#include "solve/equations/constraints.h"

#include "joints/joints.h"
#include "model/function.h"
#include "solve/equations/spatial_constraints.h"
#include "solve/equations/user_constraints.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace rlx {
namespace {

int bodyOfMotion(const Model& model, const Motion& motion, int which) {
  if (motion.joint < 0) return which == 1 ? kGround : motion.body;
  const Joint& joint = model.joints[static_cast<std::size_t>(motion.joint)];
  return which == 1 ? joint.body1 : joint.body2;
}

// The coordinate a motion prescribes, as a scalar function of the poses of its two bodies
// (bodyOfMotion 1 and 2).
planar::Scalar motionCoordinate(const Model& model, const Motion& motion, const planar::Body& b1,
                                const planar::Body& b2) {
  if (motion.joint >= 0)
    return planarJointCoordinate(model.joints[static_cast<std::size_t>(motion.joint)], b1, b2);
  const planar::Body& body = b2;
  planar::Scalar c;
  if (motion.coordinate == Axis::Angle) {
    c.value = body.phi;
    c.g2 << 0, 0, 1;
    return c;
  }
  // x or y of a body point: r + A s, with (r + A s)_ddot = r_ddot + omega_dot R p - omega^2 p.
  const int axis = motion.coordinate == Axis::X ? 0 : 1;
  const planar::Vec2 p = body.A * motion.point.head<2>();
  c.value = body.r(axis) + p(axis);
  c.g2(axis) = 1.0;
  c.g2(2) = planar::perp(p)(axis);
  c.gamma = body.omega * body.omega * p(axis);
  return c;
}

// Adds a row block for the three velocities of planar `body` (no-op for ground).
template <typename Block>
void scatter(const Model& model, SparseMatrix& Phi_q, int row, int rows, int body,
             const Block& block) {
  if (body == kGround) return;
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  addBlock(Phi_q, row, b.v, block.template topLeftCorner<Eigen::Dynamic, 3>(rows, 3));
}

// The poses of all planar bodies at the state, each computed once; entry body + 1 (entry 0:
// ground). Thread-local storage reused across calls: no allocation once the largest model has
// been seen. An entry keeps its rotation matrix while its angle is unchanged (evaluations at the
// same positions with other velocities, e.g. corrected-rk's gamma at qdot); a new entry has a
// NaN angle so that its first rotation is computed.
const std::vector<planar::Body>& planarPoses(const Model& model, const State& state) {
  thread_local std::vector<planar::Body> poses;
  const std::size_t seen = poses.size();
  poses.resize(model.bodies.size() + 1);
  for (std::size_t i = seen; i < poses.size(); ++i)
    poses[i].phi = std::numeric_limits<double>::quiet_NaN();
  poses[0] = planar::Body{};
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    planar::Body& pose = poses[i + 1];
    const double phi = state.q(b.q + 2);
    if (!(phi == pose.phi)) pose.A = planar::rotation(phi);
    pose.phi = phi;
    pose.r = state.q.segment<2>(b.q);
    pose.rdot = state.v.segment<2>(b.v);
    pose.omega = state.v(b.v + 2);
  }
  return poses;
}

const planar::Body& pose(const std::vector<planar::Body>& poses, int body) {
  return poses[static_cast<std::size_t>(body - kGround)];
}

using PlanarJointFunction = void (*)(const Joint&, const planar::Body&, const planar::Body&,
                                     JointEval&);

// One pass over the planar joints and motions at the state's poses: onJoint(joint, eval) with
// the joint's evaluation (by evaluateJoint), onMotion(motion, c) with the driven coordinate c(q)
// and its derivatives.
template <typename OnJoint, typename OnMotion>
void forEachPlanarRow(const Model& model, const State& state, OnJoint onJoint, OnMotion onMotion,
                      PlanarJointFunction evaluateJoint = evaluatePlanarJoint) {
  const std::vector<planar::Body>& poses = planarPoses(model, state);
  JointEval eval;
  for (const Joint& joint : model.joints) {
    evaluateJoint(joint, pose(poses, joint.body1), pose(poses, joint.body2), eval);
    onJoint(joint, eval);
  }
  for (const Motion& motion : model.motions)
    onMotion(motion, motionCoordinate(model, motion, pose(poses, bodyOfMotion(model, motion, 1)),
                                      pose(poses, bodyOfMotion(model, motion, 2))));
}

// Phi_q, nu and gamma of the planar joints and motions, and Phi when withPhi: each row block of
// Phi_q is handed to put(row, rows, body, block) (ground's blocks too).
template <typename Put>
void evaluatePlanarRows(const Model& model, const State& state, Workspace& ws, bool withPhi,
                        Put put) {
  const auto onJoint = [&](const Joint& joint, const JointEval& eval) {
    put(joint.row, joint.rows, joint.body1, eval.J1);
    put(joint.row, joint.rows, joint.body2, eval.J2);
    for (int r = 0; r < joint.rows; ++r) {
      if (withPhi) ws.Phi(joint.row + r) = eval.Phi(r);
      ws.nu(joint.row + r) = 0.0;
      ws.gamma(joint.row + r) = eval.gamma(r);
    }
  };
  // Motions: Phi = c(q) - f(t), so nu = f'(t) and gamma = -(c_q v)_q v + f''(t).
  const auto onMotion = [&](const Motion& motion, const planar::Scalar& c) {
    const TimeValue f = evaluateInTime(motion.function, state.t);
    if (withPhi) ws.Phi(motion.row) = c.value - f.value;
    put(motion.row, 1, bodyOfMotion(model, motion, 1), c.g1);
    put(motion.row, 1, bodyOfMotion(model, motion, 2), c.g2);
    ws.nu(motion.row) = f.rate;
    ws.gamma(motion.row) = c.gamma + f.acceleration;
  };
  forEachPlanarRow(model, state, onJoint, onMotion);
}

// The same with the blocks added into ws.Phi_q.
void evaluatePlanarConstraints(const Model& model, const State& state, Workspace& ws,
                               bool withPhi) {
  ws.Phi_q.coeffs().setZero();
  evaluatePlanarRows(model, state, ws, withPhi,
                     [&](int row, int rows, int body, const auto& block) {
                       scatter(model, ws.Phi_q, row, rows, body, block);
                     });
}

}  // namespace

planar::Body planarBody(const Model& model, const State& state, int body) {
  planar::Body out;
  if (body == kGround) return out;
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  out.r = state.q.segment<2>(b.q);
  out.phi = state.q(b.q + 2);
  out.rdot = state.v.segment<2>(b.v);
  out.omega = state.v(b.v + 2);
  out.A = planar::rotation(out.phi);
  return out;
}

void evaluateSlots(const Model& model, const State& state, Workspace& ws) {
  if (model.dimension == 3) return evaluateSpatialSlots(model, state, ws);
  ws.slotValues(0) = state.t;
  for (std::size_t k = 0; k < model.measures.size(); ++k) {
    const Measure& m = model.measures[k];
    double value = 0.0;
    switch (m.kind) {
      case MeasureKind::BodyX: value = planarBody(model, state, m.body).r.x(); break;
      case MeasureKind::BodyY: value = planarBody(model, state, m.body).r.y(); break;
      case MeasureKind::BodyAngle: value = planarBody(model, state, m.body).phi; break;
      case MeasureKind::BodyVx: value = planarBody(model, state, m.body).rdot.x(); break;
      case MeasureKind::BodyVy: value = planarBody(model, state, m.body).rdot.y(); break;
      case MeasureKind::BodyOmega: value = planarBody(model, state, m.body).omega; break;
      case MeasureKind::JointQ:
      case MeasureKind::JointQd: {
        const Joint& joint = model.joints[static_cast<std::size_t>(m.joint)];
        const planar::Body b1 = planarBody(model, state, joint.body1);
        const planar::Body b2 = planarBody(model, state, joint.body2);
        const planar::Scalar c = planarJointCoordinate(joint, b1, b2);
        const Eigen::Vector3d v1(b1.rdot.x(), b1.rdot.y(), b1.omega);
        const Eigen::Vector3d v2(b2.rdot.x(), b2.rdot.y(), b2.omega);
        value = m.kind == MeasureKind::JointQ ? c.value : c.g1.dot(v1) + c.g2.dot(v2);
        break;
      }
      case MeasureKind::SpringLength:
      case MeasureKind::SpringRate: {
        const Force& f = model.forces[static_cast<std::size_t>(m.force)];
        const planar::PointPair pair(planarBody(model, state, f.body1), f.s1.head<2>(),
                                     planarBody(model, state, f.body2), f.s2.head<2>());
        const double length = pair.d.norm();
        value = m.kind == MeasureKind::SpringLength ? length
                : length > 0                        ? pair.d.dot(pair.ddot) / length
                                                    : 0.0;
        break;
      }
      case MeasureKind::BodyZ:
      case MeasureKind::BodyVz:
      case MeasureKind::BodyWx:
      case MeasureKind::BodyWy:
      case MeasureKind::BodyWz:
      case MeasureKind::BodyR:
        break;  // zero in 2-D; compile() admits them only in 3-D
    }
    ws.slotValues(static_cast<Eigen::Index>(k) + 1) = value;
  }
}

void evaluatePhi(const Model& model, const State& state, Workspace& ws) {
  if (model.dimension == 3) {
    evaluateSpatialPhi(model, state, ws);
    evaluateUserPhi(model, state, ws);
    return;
  }
  forEachPlanarRow(
      model, state,
      [&](const Joint& joint, const JointEval& eval) {
        ws.Phi.segment(joint.row, joint.rows) = eval.Phi.head(joint.rows);
      },
      [&](const Motion& motion, const planar::Scalar& c) {
        ws.Phi(motion.row) = c.value - evaluateInTime(motion.function, state.t).value;
      });
  evaluateUserPhi(model, state, ws);
}

void evaluateConstraintDerivatives(const Model& model, const State& state, Workspace& ws) {
  if (model.dimension == 3) {
    evaluateSpatialConstraintDerivatives(model, state, ws);
    evaluateUserConstraintDerivatives(model, state, ws);
    return;
  }
  evaluatePlanarConstraints(model, state, ws, false);
  evaluateUserConstraintDerivatives(model, state, ws);
}

void evaluateConstraints(const Model& model, const State& state, Workspace& ws) {
  if (model.dimension == 3) {
    evaluatePhi(model, state, ws);
    evaluateConstraintDerivatives(model, state, ws);
    return;
  }
  evaluatePlanarConstraints(model, state, ws, true);
  evaluateUserPhi(model, state, ws);
  evaluateUserConstraintDerivatives(model, state, ws);
}

void evaluatePlanarConstraintsTransposed(const Model& model, const State& state,
                                         const Eigen::VectorXd& scale, Workspace& ws,
                                         Eigen::MatrixXd& PhiqT) {
  // Each block's transpose, its row for velocity v scaled by scale(v) (ground's blocks dropped).
  const auto put = [&](int row, int rows, int body, const auto& block) {
    if (body == kGround) return;
    const Eigen::Index v = model.bodies[static_cast<std::size_t>(body)].v;
    for (int r = 0; r < rows; ++r)
      for (Eigen::Index c = 0; c < 3; ++c) PhiqT(v + c, row + r) = block(r, c) * scale(v + c);
  };
  evaluatePlanarRows(model, state, ws, true, put);
}

void evaluatePhiAndConstraintForce(const Model& model, const State& state,
                                   const Eigen::VectorXd& lambda, Workspace& ws,
                                   Eigen::VectorXd& force) {
  if (model.dimension == 3 || !model.constraints.empty()) {
    evaluateConstraints(model, state, ws);
    force.noalias() = ws.Phi_q.transpose() * lambda;
    return;
  }
  force.setZero();
  // Adds a row block's transpose times its multipliers to a body's generalized force.
  const auto addForce = [&](int body, const auto& block, int row, int rows) {
    if (body == kGround) return;
    const Eigen::Index v = model.bodies[static_cast<std::size_t>(body)].v;
    for (int r = 0; r < rows; ++r)
      force.segment<3>(v) += lambda(row + r) * block.template block<1, 3>(r, 0).transpose();
  };
  forEachPlanarRow(
      model, state,
      [&](const Joint& joint, const JointEval& eval) {
        ws.Phi.segment(joint.row, joint.rows) = eval.Phi.head(joint.rows);
        addForce(joint.body1, eval.J1, joint.row, joint.rows);
        addForce(joint.body2, eval.J2, joint.row, joint.rows);
      },
      [&](const Motion& motion, const planar::Scalar& c) {
        ws.Phi(motion.row) = c.value - evaluateInTime(motion.function, state.t).value;
        addForce(bodyOfMotion(model, motion, 1), c.g1, motion.row, 1);
        addForce(bodyOfMotion(model, motion, 2), c.g2, motion.row, 1);
      });
}

void evaluatePlanarGamma(const Model& model, const State& state, Eigen::VectorXd& gamma) {
  forEachPlanarRow(
      model, state,
      [&](const Joint& joint, const JointEval& eval) {
        for (int r = 0; r < joint.rows; ++r) gamma(joint.row + r) = eval.gamma(r);
      },
      [&](const Motion& motion, const planar::Scalar& c) {
        gamma(motion.row) = c.gamma + evaluateInTime(motion.function, state.t).acceleration;
      },
      evaluatePlanarJointGamma);
}

void integratePositions(const Model& model, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                        double h) {
  if (model.dimension == 3) return integrateSpatialPositions(model, q, v, h);
  q += h * v;  // planar: q and v have the same layout
}

double modelSize(const Model& model, const Eigen::VectorXd& q) {
  double L = 0.0;
  for (const Body& b : model.bodies) L = std::max(L, q.segment(b.q, model.dimension).norm());
  for (const Joint& j : model.joints) L = std::max({L, j.s1.norm(), j.s2.norm()});
  return L > 0 ? L : 1.0;
}

ConstraintErrors constraintErrors(const Model& model, const State& state, Workspace& ws) {
  if (ws.nu.size() == 0) return {};
  evaluateConstraints(model, state, ws);
  return {ws.Phi.size() ? ws.Phi.lpNorm<Eigen::Infinity>() : 0.0,
          (ws.Phi_q * state.v - ws.nu).lpNorm<Eigen::Infinity>()};
}

}  // namespace rlx
