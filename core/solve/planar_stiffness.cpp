#include "solve/planar_stiffness.h"

#include "joints/joints.h"
#include "model/function.h"
#include "solve/equations/constraints.h"
#include "solve/equations/stop_law.h"

namespace rlx {
namespace {

using planar::addAngle;
using planar::addPair;
using planar::Mat6;
using Vec6 = Eigen::Matrix<double, 6, 1>;

Vec6 velocitiesOf(const planar::Body& b1, const planar::Body& b2) {
  Vec6 v;
  v << b1.rdot, b1.omega, b2.rdot, b2.omega;
  return v;
}

bool ofTimeOnly(const Function& f) {
  for (const int slot : f.variables)
    if (slot != 0) return false;
  return true;
}

// Constraint Hessian of one motion row, weighted by its multiplier.
void addMotionStiffness(const Model& model, const State& state, const Motion& motion, double mu,
                        StiffnessSink& sink) {
  if (motion.joint >= 0) {
    const Joint& j = model.joints[static_cast<std::size_t>(motion.joint)];
    const Mat6 H = jointFamily(j.type).planar->coordinateHessian(
        j, planarBody(model, state, j.body1), planarBody(model, state, j.body2));
    return addPair(sink, j.body1, j.body2, mu * H);
  }
  if (motion.coordinate == Axis::Angle) return;
  const planar::Vec2 p = planarBody(model, state, motion.body).A * motion.point.head<2>();
  addAngle(sink, motion.body, -mu * p(motion.coordinate == Axis::X ? 0 : 1));
}

// K and C of a linear spring-damper (see the header).
void addSpringStiffness(const Model& model, const State& state, const Force& f, double scaleK,
                        double scaleC, StiffnessSink& sink) {
  const planar::PointPair pair(planarBody(model, state, f.body1), f.s1.head<2>(),
                               planarBody(model, state, f.body2), f.s2.head<2>());
  const double L = pair.d.norm();
  if (L == 0) return addPair(sink, f.body1, f.body2, Mat6::Zero());
  const planar::Vec2 e = pair.d / L;
  const double F = -f.stiffness * (L - f.freeLength) + f.preload - f.damping * e.dot(pair.ddot);
  const planar::Mat2 across = planar::Mat2::Identity() - e * e.transpose();
  const planar::Vec2 F_d = -f.stiffness * e - f.damping * across * pair.ddot / L;
  const planar::Mat2 G_d = e * F_d.transpose() + F * across / L;
  const planar::Mat2 G_ddot = -f.damping * e * e.transpose();
  const planar::PairJacobian D = planar::jacobianOf(pair);
  planar::PairJacobian Ddot_q = planar::PairJacobian::Zero();
  const double omega1 = f.body1 == kGround ? 0.0 : state.v(model.bodies[static_cast<std::size_t>(f.body1)].v + 2);
  const double omega2 = f.body2 == kGround ? 0.0 : state.v(model.bodies[static_cast<std::size_t>(f.body2)].v + 2);
  Ddot_q.col(2) = omega1 * pair.p1;
  Ddot_q.col(5) = -omega2 * pair.p2;
  Mat6 K = -(D.transpose() * G_d * D + D.transpose() * G_ddot * Ddot_q);
  const planar::Vec2 g = F * e;
  K(2, 2) -= g.dot(pair.p1);
  K(5, 5) += g.dot(pair.p2);
  const Mat6 C = -D.transpose() * G_ddot * D;
  addPair(sink, f.body1, f.body2, scaleK * K + scaleC * C);
}

// K and C of an effort T(c, cdot) along a joint coordinate: a torsion spring (k, c), an end stop
// or a joint force of time.
void addCoordinateStiffness(const Model& model, const State& state, const Force& f,
                            double scaleK, double scaleC, StiffnessSink& sink) {
  const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
  const planar::Body b1 = planarBody(model, state, j.body1), b2 = planarBody(model, state, j.body2);
  const planar::Scalar c = planarJointCoordinate(j, b1, b2);
  Eigen::Matrix<double, 1, 6> G;
  G << c.g1, c.g2;
  const Mat6 H = jointFamily(j.type).planar->coordinateHessian(j, b1, b2);
  const Vec6 v = velocitiesOf(b1, b2);
  double T = 0, T_c = 0, T_cdot = 0;
  switch (f.type) {
    case ForceType::JointForce:
      T = evaluateInTime(f.functions[0], state.t).value;
      break;
    case ForceType::TorsionSpring:
      T = -f.stiffness * (c.value - f.freeAngle) + f.preload - f.damping * G.dot(v);
      T_c = -f.stiffness;
      T_cdot = -f.damping;
      break;
    case ForceType::Limit: {
      const StopContact contact = stopContact(f, c.value, G.dot(v));
      T = contact.effort;
      T_c = contact.effort_q;
      T_cdot = contact.effort_qdot;
      break;
    }
    case ForceType::SpringDamper:
    case ForceType::Force:
    case ForceType::Torque:
      return;
  }
  const Mat6 K = -T_c * G.transpose() * G - T_cdot * G.transpose() * (H * v).transpose() - T * H;
  addPair(sink, j.body1, j.body2, scaleK * K - (scaleC * T_cdot) * G.transpose() * G);
}

// K of a force of time only at a point of body2.
void addPointForceStiffness(const Model& model, const State& state, const Force& f, double scale,
                            StiffnessSink& sink) {
  const planar::Body b = planarBody(model, state, f.body2);
  planar::Vec2 force(evaluateInTime(f.functions[0], state.t).value,
                     evaluateInTime(f.functions[1], state.t).value);
  Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
  if (f.bodyFrame) {
    block.col(2).head<2>() = -scale * planar::perp(b.A * force);
  } else {
    block(2, 2) = scale * (b.A * f.s2.head<2>()).dot(force);
  }
  if (f.body2 != kGround) sink.add(f.body2, f.body2, block);
}

}  // namespace

bool closedFormConstraintStiffness(const Model& model) {
  return model.dimension == 2 && model.constraints.empty();
}

bool closedFormForceStiffness(const Model& model) {
  if (model.dimension != 2) return false;
  for (const Force& f : model.forces) {
    switch (f.type) {
      case ForceType::SpringDamper:
        if (f.hasLaw) return false;
        break;
      case ForceType::TorsionSpring:
      case ForceType::JointForce:
      case ForceType::Limit:
        if (!jointFamily(model.joints[static_cast<std::size_t>(f.joint)].type).planar->coordinateHessian)
          return false;
        break;
      case ForceType::Force:
      case ForceType::Torque:
        break;
    }
    for (const Function& function : f.functions)
      if (!ofTimeOnly(function)) return false;
  }
  return true;
}

void addConstraintStiffness(const Model& model, const State& state, const Eigen::VectorXd& lambda,
                            double scale, StiffnessSink& sink) {
  for (const Joint& j : model.joints)
    jointFamily(j.type).planar->stiffness(j, planarBody(model, state, j.body1),
                                          planarBody(model, state, j.body2),
                                          lambda.data() + j.row, scale, sink);
  for (const Motion& m : model.motions)
    addMotionStiffness(model, state, m, scale * lambda(m.row), sink);
}

void addForceStiffness(const Model& model, const State& state, double scaleK, double scaleC,
                       StiffnessSink& sink) {
  for (const Force& f : model.forces) {
    switch (f.type) {
      case ForceType::SpringDamper:
        addSpringStiffness(model, state, f, scaleK, scaleC, sink);
        break;
      case ForceType::TorsionSpring:
      case ForceType::JointForce:
      case ForceType::Limit:
        addCoordinateStiffness(model, state, f, scaleK, scaleC, sink);
        break;
      case ForceType::Force:
        addPointForceStiffness(model, state, f, scaleK, sink);
        break;
      case ForceType::Torque:
        break;
    }
  }
}

}  // namespace rlx
