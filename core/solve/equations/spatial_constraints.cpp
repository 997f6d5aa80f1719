#include "solve/equations/spatial_constraints.h"

#include "joints/joints.h"
#include "joints/rotation.h"
#include "model/function.h"

#include <cmath>
#include <numbers>

namespace rlx {
namespace {

// Adds a row block for the velocities of `body` (no-op for ground).
template <typename Block>
void scatter(const Model& model, SparseMatrix& Phi_q, int row, int rows, int body,
             const Block& block) {
  if (body == kGround) return;
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  addBlock(Phi_q, row, b.v, block.topRows(rows));
}

int motionBody(const Model& model, const Motion& motion, int which) {
  if (motion.joint < 0) return which == 1 ? kGround : motion.body;
  const Joint& joint = model.joints[static_cast<std::size_t>(motion.joint)];
  return which == 1 ? joint.body1 : joint.body2;
}

bool isAngle(const Model& model, const Motion& motion) {
  return motion.joint >= 0 &&
         coordinateIsAngle(model.joints[static_cast<std::size_t>(motion.joint)].type);
}

// The motion's residual c - f, modulo 2 pi for an angle.
double motionResidual(const Model& model, const Motion& motion, double c, double f) {
  return isAngle(model, motion) ? std::remainder(c - f, 2 * std::numbers::pi) : c - f;
}

}  // namespace

Eigen::Matrix3d bodyRotation(const Model& model, const Eigen::VectorXd& q, int body) {
  if (body == kGround) return Eigen::Matrix3d::Identity();
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  return rotation::fromCoordinates(q.segment<4>(b.q + 3)).normalized().toRotationMatrix();
}

spatial::Body spatialBody(const Model& model, const State& state, int body) {
  spatial::Body out;
  if (body == kGround) return out;
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  out.r = state.q.segment<3>(b.q);
  out.A = bodyRotation(model, state.q, body);
  out.rdot = state.v.segment<3>(b.v);
  out.omega = state.v.segment<3>(b.v + 3);
  return out;
}

spatial::Scalar spatialMotionCoordinate(const Model& model, const Motion& motion,
                                        const State& state) {
  if (motion.joint >= 0) {
    const Joint& joint = model.joints[static_cast<std::size_t>(motion.joint)];
    return spatialJointCoordinate(joint, spatialBody(model, state, joint.body1),
                                  spatialBody(model, state, joint.body2));
  }
  // x, y or z of a body point r + A s.
  const spatial::Body body = spatialBody(model, state, motion.body);
  const int k = motion.coordinate == Axis::X ? 0 : motion.coordinate == Axis::Y ? 1 : 2;
  const Eigen::Vector3d p = body.A * motion.point;
  const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
  spatial::Scalar c;
  c.value = body.r(k) + p(k);
  c.g2(k) = 1.0;
  c.g2.tail<3>() = p.cross(e).transpose();
  c.rate = body.rdot(k) + body.omega.cross(p)(k);
  c.gamma = -body.omega.cross(body.omega.cross(p))(k);
  return c;
}

void evaluateSpatialSlots(const Model& model, const State& state, Workspace& ws) {
  ws.slotValues(0) = state.t;
  for (std::size_t k = 0; k < model.measures.size(); ++k) {
    const Measure& m = model.measures[k];
    double value = 0.0;
    switch (m.kind) {
      case MeasureKind::BodyX:
      case MeasureKind::BodyY:
      case MeasureKind::BodyZ:
        value = spatialBody(model, state, m.body)
                    .r(static_cast<int>(m.kind) - static_cast<int>(MeasureKind::BodyX));
        break;
      case MeasureKind::BodyVx:
        value = spatialBody(model, state, m.body).rdot.x();
        break;
      case MeasureKind::BodyVy:
        value = spatialBody(model, state, m.body).rdot.y();
        break;
      case MeasureKind::BodyVz:
        value = spatialBody(model, state, m.body).rdot.z();
        break;
      case MeasureKind::BodyWx:
        value = spatialBody(model, state, m.body).omega.x();
        break;
      case MeasureKind::BodyWy:
        value = spatialBody(model, state, m.body).omega.y();
        break;
      case MeasureKind::BodyWz:
        value = spatialBody(model, state, m.body).omega.z();
        break;
      case MeasureKind::BodyR:
        value = bodyRotation(model, state.q, m.body)(m.component / 3, m.component % 3);
        break;
      case MeasureKind::JointQ:
      case MeasureKind::JointQd: {
        const Joint& joint = model.joints[static_cast<std::size_t>(m.joint)];
        const spatial::Scalar c = spatialJointCoordinate(
            joint, spatialBody(model, state, joint.body1), spatialBody(model, state, joint.body2));
        value = m.kind == MeasureKind::JointQ ? c.value : c.rate;
        break;
      }
      case MeasureKind::SpringLength:
      case MeasureKind::SpringRate: {
        const Force& f = model.forces[static_cast<std::size_t>(m.force)];
        const spatial::PointPair pair(spatialBody(model, state, f.body1), f.s1,
                                      spatialBody(model, state, f.body2), f.s2);
        const double length = pair.d.norm();
        value = m.kind == MeasureKind::SpringLength ? length
                : length > 0                        ? pair.d.dot(pair.ddot) / length
                                                    : 0.0;
        break;
      }
      case MeasureKind::BodyAngle:
      case MeasureKind::BodyOmega:
        break;  // planar only: compile() admits them only in 2-D
    }
    ws.slotValues(static_cast<Eigen::Index>(k) + 1) = value;
  }
}

void evaluateSpatialPhi(const Model& model, const State& state, Workspace& ws) {
  JointEval eval;
  for (const Joint& joint : model.joints) {
    evaluateSpatialJoint(joint, spatialBody(model, state, joint.body1),
                         spatialBody(model, state, joint.body2), eval);
    ws.Phi.segment(joint.row, joint.rows) = eval.Phi.head(joint.rows);
  }
  for (const Motion& motion : model.motions) {
    const double target = evaluateInTime(motion.function, state.t).value;
    ws.Phi(motion.row) =
        motionResidual(model, motion, spatialMotionCoordinate(model, motion, state).value, target);
  }
}

void evaluateSpatialConstraintDerivatives(const Model& model, const State& state, Workspace& ws) {
  ws.Phi_q.coeffs().setZero();
  JointEval eval;
  for (const Joint& joint : model.joints) {
    evaluateSpatialJoint(joint, spatialBody(model, state, joint.body1),
                         spatialBody(model, state, joint.body2), eval);
    scatter(model, ws.Phi_q, joint.row, joint.rows, joint.body1, eval.J1);
    scatter(model, ws.Phi_q, joint.row, joint.rows, joint.body2, eval.J2);
    ws.nu.segment(joint.row, joint.rows).setZero();
    ws.gamma.segment(joint.row, joint.rows) = eval.gamma.head(joint.rows);
    // A rolling disk's no-slip rows A v = 0.
    if (joint.velocityRow >= 0) {
      scatter(model, ws.Phi_q, joint.velocityRow, 2, joint.body1, eval.J1.middleRows<2>(1));
      scatter(model, ws.Phi_q, joint.velocityRow, 2, joint.body2, eval.J2.middleRows<2>(1));
      ws.nu.segment<2>(joint.velocityRow).setZero();
      ws.gamma.segment<2>(joint.velocityRow) = eval.gamma.segment<2>(1);
    }
  }
  // Motions: Phi = c(q) - f(t), so nu = f'(t) and gamma = -(c_q v)_q v + f''(t).
  for (const Motion& motion : model.motions) {
    const TimeValue f = evaluateInTime(motion.function, state.t);
    const spatial::Scalar c = spatialMotionCoordinate(model, motion, state);
    scatter(model, ws.Phi_q, motion.row, 1, motionBody(model, motion, 1), c.g1);
    scatter(model, ws.Phi_q, motion.row, 1, motionBody(model, motion, 2), c.g2);
    ws.nu(motion.row) = f.rate;
    ws.gamma(motion.row) = c.gamma + f.acceleration;
  }
}

void correctRotationRates(const Model& model, const Eigen::VectorXd& offset,
                          Eigen::VectorXd& rate) {
  for (const Body& b : model.bodies) {
    const Eigen::Vector3d theta = offset.segment<3>(b.v + 3);
    const Eigen::Vector3d omega = rate.segment<3>(b.v + 3);
    rate.segment<3>(b.v + 3) =
        omega - 0.5 * theta.cross(omega) + theta.cross(theta.cross(omega)) / 12.0;
  }
}

void integrateSpatialPositions(const Model& model, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                               double h) {
  for (const Body& b : model.bodies) {
    q.segment<3>(b.q) += h * v.segment<3>(b.v);
    const Eigen::Quaterniond turned = rotation::exponential(h * v.segment<3>(b.v + 3)) *
                                      rotation::fromCoordinates(q.segment<4>(b.q + 3));
    rotation::toCoordinates(turned.normalized(), q.segment<4>(b.q + 3));
  }
}

}  // namespace rlx
