#include "solve/equations/measures.h"

#include "joints/joints.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"

#include <cmath>
#include <limits>

namespace rlx {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A measure of one body whose gradient is the unit vector of entry `index` of its velocities.
MeasureJet unitJet(const Model& model, const State& state, int body, int index, bool velocity,
                   double value) {
  MeasureJet jet;
  jet.velocity = velocity;
  jet.body[0] = body;
  jet.value = value;
  if (body == kGround) return jet;
  jet.gradient[0](index) = 1.0;
  jet.rate = state.v(model.bodies[static_cast<std::size_t>(body)].v + index);
  return jet;
}

// The joint coordinate J.q (or its rate J.qd) of a planar joint.
MeasureJet planarJointJet(const Model& model, const State& state, const Measure& m) {
  const Joint& joint = model.joints[static_cast<std::size_t>(m.joint)];
  const planar::Body b1 = planarBody(model, state, joint.body1);
  const planar::Body b2 = planarBody(model, state, joint.body2);
  const planar::Scalar c = planarJointCoordinate(joint, b1, b2);
  MeasureJet jet;
  jet.velocity = m.kind == MeasureKind::JointQd;
  jet.body[0] = joint.body1;
  jet.body[1] = joint.body2;
  jet.gradient[0].head<3>() = c.g1.transpose();
  jet.gradient[1].head<3>() = c.g2.transpose();
  jet.rate = c.g1.dot(Eigen::Vector3d(b1.rdot.x(), b1.rdot.y(), b1.omega)) +
             c.g2.dot(Eigen::Vector3d(b2.rdot.x(), b2.rdot.y(), b2.omega));
  jet.value = jet.velocity ? jet.rate : c.value;
  jet.convective = -c.gamma;
  return jet;
}

MeasureJet planarJet(const Model& model, const State& state, const Measure& m) {
  const planar::Body b = planarBody(model, state, m.body);
  switch (m.kind) {
    case MeasureKind::BodyX:
      return unitJet(model, state, m.body, 0, false, b.r.x());
    case MeasureKind::BodyY:
      return unitJet(model, state, m.body, 1, false, b.r.y());
    case MeasureKind::BodyAngle:
      return unitJet(model, state, m.body, 2, false, b.phi);
    case MeasureKind::BodyVx:
      return unitJet(model, state, m.body, 0, true, b.rdot.x());
    case MeasureKind::BodyVy:
      return unitJet(model, state, m.body, 1, true, b.rdot.y());
    case MeasureKind::BodyOmega:
      return unitJet(model, state, m.body, 2, true, b.omega);
    case MeasureKind::JointQ:
    case MeasureKind::JointQd:
      return planarJointJet(model, state, m);
    case MeasureKind::BodyZ:
    case MeasureKind::BodyVz:
    case MeasureKind::BodyWx:
    case MeasureKind::BodyWy:
    case MeasureKind::BodyWz:
    case MeasureKind::BodyR:
    case MeasureKind::SpringLength:
    case MeasureKind::SpringRate:
      break;  // not planar measures, or not usable in constraints (compile() refuses them)
  }
  MeasureJet jet;
  jet.value = kNaN;
  return jet;
}

// Rotation matrix (body -> global) of a spatial body from its unit quaternion (w, x, y, z).
Eigen::Matrix3d spatialRotation(const Model& model, const State& state, int body) {
  if (body == kGround) return Eigen::Matrix3d::Identity();
  const int q = model.bodies[static_cast<std::size_t>(body)].q;
  return Eigen::Quaterniond(state.q(q + 3), state.q(q + 4), state.q(q + 5), state.q(q + 6))
      .normalized()
      .toRotationMatrix();
}

// The joint coordinate J.q (or its rate J.qd) of a spatial joint: g = the coordinate's derivative
// blocks, c = -gamma. A turning joint's angle is known only modulo 2 pi (compile() admits it where
// that does not matter: a coupler's wrapped sum).
MeasureJet spatialJointJet(const Model& model, const State& state, const Measure& m) {
  const Joint& joint = model.joints[static_cast<std::size_t>(m.joint)];
  const spatial::Scalar c = spatialJointCoordinate(joint, spatialBody(model, state, joint.body1),
                                                   spatialBody(model, state, joint.body2));
  MeasureJet jet;
  jet.velocity = m.kind == MeasureKind::JointQd;
  jet.body[0] = joint.body1;
  jet.body[1] = joint.body2;
  jet.gradient[0] = c.g1.transpose();
  jet.gradient[1] = c.g2.transpose();
  jet.rate = c.rate;
  jet.value = jet.velocity ? c.rate : c.value;
  jet.convective = -c.gamma;
  return jet;
}

// Spatial body measures; v = (rdot, omega) with omega in global axes, R' = [omega]x R.
MeasureJet spatialJet(const Model& model, const State& state, const Measure& m) {
  const int position = m.body == kGround ? 0 : model.bodies[static_cast<std::size_t>(m.body)].q;
  const auto coordinate = [&](int i) { return m.body == kGround ? 0.0 : state.q(position + i); };
  const int velocities = m.body == kGround ? 0 : model.bodies[static_cast<std::size_t>(m.body)].v;
  const auto rate = [&](int i) { return m.body == kGround ? 0.0 : state.v(velocities + i); };
  switch (m.kind) {
    case MeasureKind::BodyX:
      return unitJet(model, state, m.body, 0, false, coordinate(0));
    case MeasureKind::BodyY:
      return unitJet(model, state, m.body, 1, false, coordinate(1));
    case MeasureKind::BodyZ:
      return unitJet(model, state, m.body, 2, false, coordinate(2));
    case MeasureKind::BodyVx:
      return unitJet(model, state, m.body, 0, true, rate(0));
    case MeasureKind::BodyVy:
      return unitJet(model, state, m.body, 1, true, rate(1));
    case MeasureKind::BodyVz:
      return unitJet(model, state, m.body, 2, true, rate(2));
    case MeasureKind::BodyWx:
      return unitJet(model, state, m.body, 3, true, rate(3));
    case MeasureKind::BodyWy:
      return unitJet(model, state, m.body, 4, true, rate(4));
    case MeasureKind::BodyWz:
      return unitJet(model, state, m.body, 5, true, rate(5));
    case MeasureKind::BodyR: {
      // R_ij' = (omega x r_j)_i with r_j = R e_j: gradient -[r_j]x row i; c = (omega x (omega x
      // r_j))_i.
      const int i = m.component / 3, j = m.component % 3;
      const Eigen::Vector3d r = spatialRotation(model, state, m.body).col(j);
      MeasureJet jet;
      jet.body[0] = m.body;
      jet.value = r(i);
      if (m.body == kGround) return jet;
      const Eigen::Vector3d omega = state.v.segment<3>(velocities + 3);
      Eigen::Matrix3d skew;
      skew << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
      jet.gradient[0].segment<3>(3) = -skew.row(i).transpose();
      jet.rate = omega.cross(r)(i);
      jet.convective = omega.cross(omega.cross(r))(i);
      return jet;
    }
    case MeasureKind::JointQ:
    case MeasureKind::JointQd:
      return spatialJointJet(model, state, m);
    case MeasureKind::BodyAngle:
    case MeasureKind::BodyOmega:
    case MeasureKind::SpringLength:
    case MeasureKind::SpringRate:
      break;  // planar only, or refused by compile()
  }
  MeasureJet jet;
  jet.value = kNaN;
  return jet;
}

}  // namespace

MeasureJet evaluateMeasure(const Model& model, const State& state, int k) {
  const Measure& m = model.measures[static_cast<std::size_t>(k)];
  return model.dimension == 2 ? planarJet(model, state, m) : spatialJet(model, state, m);
}

double measureRateAlong(const Model& model, const MeasureJet& jet, const Eigen::VectorXd& w) {
  double rate = 0.0;
  for (int i = 0; i < 2; ++i)
    if (jet.body[i] != kGround) {
      const int v = model.bodies[static_cast<std::size_t>(jet.body[i])].v;
      rate += jet.gradient[i].head(model.bodyDofs()).dot(w.segment(v, model.bodyDofs()));
    }
  return rate;
}

double measureCurvature(const Model& model, const State& state, int k, const Eigen::VectorXd& w) {
  const Measure& m = model.measures[static_cast<std::size_t>(k)];
  if (model.dimension == 3) {
    if (m.kind != MeasureKind::BodyR || m.body == kGround) return 0.0;
    const int velocities = model.bodies[static_cast<std::size_t>(m.body)].v;
    const Eigen::Vector3d r = spatialRotation(model, state, m.body).col(m.component % 3);
    const Eigen::Vector3d omega = state.v.segment<3>(velocities + 3);
    const Eigen::Vector3d turn = w.segment<3>(velocities + 3);
    return omega.cross(turn.cross(r))(m.component / 3);
  }
  if (m.kind != MeasureKind::JointQ && m.kind != MeasureKind::JointQd) return 0.0;
  // Polarization of c(x) = -gamma of the joint coordinate at velocities x = v + w and v - w.
  const Joint& joint = model.joints[static_cast<std::size_t>(m.joint)];
  const planar::Body b1 = planarBody(model, state, joint.body1);
  const planar::Body b2 = planarBody(model, state, joint.body2);
  const auto convective = [&](double sign) {
    const auto shift = [&](planar::Body b, int body) {
      if (body == kGround) return b;
      const int v = model.bodies[static_cast<std::size_t>(body)].v;
      b.rdot += sign * w.segment<2>(v);
      b.omega += sign * w(v + 2);
      return b;
    };
    return -planarJointCoordinate(joint, shift(b1, joint.body1), shift(b2, joint.body2)).gamma;
  };
  return 0.25 * (convective(1.0) - convective(-1.0));
}

}  // namespace rlx
