#include "solve/equations/forces.h"

#include "joints/joints.h"
#include "model/function.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_forces.h"
#include "solve/equations/stop_law.h"

namespace rlx {
namespace {

// Adds a global force f at offset p (global axes) to a planar body's generalized force.
void addForce(const Model& model, Eigen::VectorXd& Q, int body, const planar::Vec2& f,
              const planar::Vec2& p) {
  if (body == kGround) return;
  const int v = model.bodies[static_cast<std::size_t>(body)].v;
  Q.segment<2>(v) += f;
  Q(v + 2) += p.x() * f.y() - p.y() * f.x();
}

// Adds a scalar effort T along a coordinate with derivative blocks g1, g2.
void addEffort(const Model& model, Eigen::VectorXd& Q, int body1, int body2,
               const planar::Scalar& c, double T) {
  if (body1 != kGround) Q.segment<3>(model.bodies[static_cast<std::size_t>(body1)].v) += T * c.g1.transpose();
  if (body2 != kGround) Q.segment<3>(model.bodies[static_cast<std::size_t>(body2)].v) += T * c.g2.transpose();
}

struct SpringState {
  planar::PointPair pair;
  double length, rate;
  planar::Vec2 e;  // unit vector from body1's point to body2's
};

SpringState springState(const Model& model, const State& state, const Force& f) {
  const planar::PointPair pair(planarBody(model, state, f.body1), f.s1.head<2>(),
                               planarBody(model, state, f.body2), f.s2.head<2>());
  const double length = pair.d.norm();
  const planar::Vec2 e = length > 0 ? planar::Vec2(pair.d / length) : planar::Vec2::Zero();
  return {pair, length, e.dot(pair.ddot), e};
}

planar::Scalar coordinateOf(const Model& model, const State& state, int joint) {
  const Joint& j = model.joints[static_cast<std::size_t>(joint)];
  return planarJointCoordinate(j, planarBody(model, state, j.body1), planarBody(model, state, j.body2));
}

double rateOf(const Model& model, const State& state, int joint, const planar::Scalar& c) {
  const Joint& j = model.joints[static_cast<std::size_t>(joint)];
  const planar::Body b1 = planarBody(model, state, j.body1), b2 = planarBody(model, state, j.body2);
  return c.g1.dot(Eigen::Vector3d(b1.rdot.x(), b1.rdot.y(), b1.omega)) +
         c.g2.dot(Eigen::Vector3d(b2.rdot.x(), b2.rdot.y(), b2.omega));
}

}  // namespace

void evaluateMassMatrix(const Model& model, const State& state, Workspace& ws) {
  if (model.dimension == 3) return evaluateSpatialMassMatrix(model, state, ws);
  ws.M.coeffs().setZero();
  for (const Body& b : model.bodies)
    addBlock(ws.M, b.v, b.v,
             Eigen::Matrix3d(Eigen::Vector3d(b.mass, b.mass, b.inertia(2, 2)).asDiagonal()));
}

void evaluateAppliedForces(const Model& model, const State& state, Workspace& ws,
                           Eigen::VectorXd* nonconservative) {
  if (model.dimension == 3) {
    evaluateSpatialAppliedForces(model, state, ws);
    if (nonconservative) *nonconservative = ws.Qn;
    return;
  }
  evaluateSlots(model, state, ws);
  ws.Q.setZero();
  Eigen::VectorXd& Qc = ws.Q;  // conservative part first, then the rest
  for (const Body& b : model.bodies) Qc.segment<2>(b.v) += b.mass * model.gravity.head<2>();
  Eigen::VectorXd& Qn = ws.Qn;
  Qn.setZero();
  const std::span<const double> slots(ws.slotValues.data(), static_cast<std::size_t>(ws.slotValues.size()));
  for (const Force& f : model.forces) {
    switch (f.type) {
      case ForceType::SpringDamper: {
        const SpringState s = springState(model, state, f);
        const auto apply = [&](Eigen::VectorXd& Q, double F) {
          addForce(model, Q, f.body2, F * s.e, s.pair.p2);
          addForce(model, Q, f.body1, -F * s.e, s.pair.p1);
        };
        if (f.hasLaw) {
          apply(Qn, evaluate(f.functions[0], slots));
        } else {
          apply(Qc, -f.stiffness * (s.length - f.freeLength) + f.preload);
          apply(Qn, -f.damping * s.rate);
        }
        break;
      }
      case ForceType::TorsionSpring: {
        const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
        const planar::Scalar c = coordinateOf(model, state, f.joint);
        addEffort(model, Qc, j.body1, j.body2, c, -f.stiffness * (c.value - f.freeAngle) + f.preload);
        addEffort(model, Qn, j.body1, j.body2, c, -f.damping * rateOf(model, state, f.joint, c));
        break;
      }
      case ForceType::JointForce: {
        const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
        addEffort(model, Qn, j.body1, j.body2, coordinateOf(model, state, f.joint),
                  evaluate(f.functions[0], slots));
        break;
      }
      case ForceType::Limit: {
        const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
        const planar::Scalar c = coordinateOf(model, state, f.joint);
        const StopContact contact = stopContact(f, c.value, rateOf(model, state, f.joint, c));
        addEffort(model, Qc, j.body1, j.body2, c, contact.elastic);
        addEffort(model, Qn, j.body1, j.body2, c, contact.effort - contact.elastic);
        break;
      }
      case ForceType::Force: {
        const planar::Body b = planarBody(model, state, f.body2);
        planar::Vec2 vec(evaluate(f.functions[0], slots), evaluate(f.functions[1], slots));
        if (f.bodyFrame) vec = b.A * vec;
        addForce(model, Qn, f.body2, vec, b.A * f.s2.head<2>());
        break;
      }
      case ForceType::Torque:
        Qn(model.bodies[static_cast<std::size_t>(f.body2)].v + 2) += evaluate(f.functions[0], slots);
        break;
    }
  }
  ws.Q += Qn;
  if (nonconservative) *nonconservative = Qn;
}

double nonconservativePower(const Model& model, const State& state, Workspace& ws) {
  evaluateAppliedForces(model, state, ws);
  double power = ws.Qn.dot(state.v);
  for (const Motion& m : model.motions)
    power += -ws.lambda(m.row) * evaluateInTime(m.function, state.t).rate;
  return power;
}

double kineticEnergy(const Model& model, const State& state) {
  if (model.dimension == 3) return spatialKineticEnergy(model, state);
  double T = 0.0;
  for (const Body& b : model.bodies) {
    T += 0.5 * b.mass * state.v.segment<2>(b.v).squaredNorm();
    T += 0.5 * b.inertia(2, 2) * state.v(b.v + 2) * state.v(b.v + 2);
  }
  return T;
}

double potentialEnergy(const Model& model, const State& state) {
  if (model.dimension == 3) return spatialPotentialEnergy(model, state);
  double U = 0.0;
  for (const Body& b : model.bodies) U -= b.mass * model.gravity.head<2>().dot(state.q.segment<2>(b.q));
  for (const Force& f : model.forces) {
    if (f.type == ForceType::SpringDamper && !f.hasLaw) {
      const double stretch = springState(model, state, f).length - f.freeLength;
      U += 0.5 * f.stiffness * stretch * stretch - f.preload * stretch;
    } else if (f.type == ForceType::TorsionSpring) {
      const double twist = coordinateOf(model, state, f.joint).value - f.freeAngle;
      U += 0.5 * f.stiffness * twist * twist - f.preload * twist;
    } else if (f.type == ForceType::Limit) {
      U += stopPotential(f, coordinateOf(model, state, f.joint).value);
    }
  }
  return U;
}

}  // namespace rlx
