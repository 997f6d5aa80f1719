#include "solve/equations/spatial_forces.h"

#include "joints/joints.h"
#include "model/function.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"
#include "solve/equations/stop_law.h"

#include <span>

namespace rlx {
namespace {

// Adds a global force f at offset p (global axes) from the centre of mass of a body.
void addForce(const Model& model, Eigen::VectorXd& Q, int body, const Eigen::Vector3d& f,
              const Eigen::Vector3d& p) {
  if (body == kGround) return;
  const int v = model.bodies[static_cast<std::size_t>(body)].v;
  Q.segment<3>(v) += f;
  Q.segment<3>(v + 3) += p.cross(f);
}

// Adds a scalar effort T along a coordinate with derivative blocks g1, g2.
void addEffort(const Model& model, Eigen::VectorXd& Q, const Joint& j, const spatial::Scalar& c,
               double T) {
  if (j.body1 != kGround)
    Q.segment<6>(model.bodies[static_cast<std::size_t>(j.body1)].v) += T * c.g1.transpose();
  if (j.body2 != kGround)
    Q.segment<6>(model.bodies[static_cast<std::size_t>(j.body2)].v) += T * c.g2.transpose();
}

spatial::Scalar coordinateOf(const Model& model, const State& state, const Joint& j) {
  return spatialJointCoordinate(j, spatialBody(model, state, j.body1),
                                spatialBody(model, state, j.body2));
}

spatial::PointPair springPair(const Model& model, const State& state, const Force& f) {
  return spatial::PointPair(spatialBody(model, state, f.body1), f.s1,
                            spatialBody(model, state, f.body2), f.s2);
}

Eigen::Matrix3d worldInertia(const Model& model, const State& state, std::size_t body) {
  const Eigen::Matrix3d A = bodyRotation(model, state.q, static_cast<int>(body));
  return A * model.bodies[body].inertia * A.transpose();
}

}  // namespace

void evaluateSpatialMassMatrix(const Model& model, const State& state, Workspace& ws) {
  ws.M.coeffs().setZero();
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    addBlock(ws.M, b.v, b.v, Eigen::Matrix3d(Eigen::Vector3d::Constant(b.mass).asDiagonal()));
    addBlock(ws.M, b.v + 3, b.v + 3, worldInertia(model, state, i));
  }
}

void addGyroscopicForces(const Model& model, const State& state, Eigen::VectorXd& Q) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const int v = model.bodies[i].v;
    const Eigen::Vector3d omega = state.v.segment<3>(v + 3);
    Q.segment<3>(v + 3) -= omega.cross(worldInertia(model, state, i) * omega);
  }
}

void evaluateSpatialAppliedForces(const Model& model, const State& state, Workspace& ws) {
  evaluateSlots(model, state, ws);
  Eigen::VectorXd& Qc = ws.Q;  // conservative part first, then the rest
  Eigen::VectorXd& Qn = ws.Qn;
  Qc.setZero();
  Qn.setZero();
  for (const Body& b : model.bodies) Qc.segment<3>(b.v) += b.mass * model.gravity;
  const std::span<const double> slots(ws.slotValues.data(),
                                      static_cast<std::size_t>(ws.slotValues.size()));
  const auto vectorOf = [&](const Force& f) {
    Eigen::Vector3d vec;
    for (int k = 0; k < 3; ++k) vec(k) = evaluate(f.functions[static_cast<std::size_t>(k)], slots);
    return f.bodyFrame ? Eigen::Vector3d(bodyRotation(model, state.q, f.body2) * vec) : vec;
  };
  for (const Force& f : model.forces) {
    switch (f.type) {
      case ForceType::SpringDamper: {
        const spatial::PointPair pair = springPair(model, state, f);
        const double length = pair.d.norm();
        const Eigen::Vector3d e =
            length > 0 ? Eigen::Vector3d(pair.d / length) : Eigen::Vector3d::Zero();
        const auto apply = [&](Eigen::VectorXd& Q, double F) {
          addForce(model, Q, f.body2, F * e, pair.p2);
          addForce(model, Q, f.body1, -F * e, pair.p1);
        };
        if (f.hasLaw) {
          apply(Qn, evaluate(f.functions[0], slots));
        } else {
          apply(Qc, -f.stiffness * (length - f.freeLength) + f.preload);
          apply(Qn, -f.damping * e.dot(pair.ddot));
        }
        break;
      }
      case ForceType::TorsionSpring: {
        const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
        const spatial::Scalar c = coordinateOf(model, state, j);
        addEffort(model, Qc, j, c, -f.stiffness * (c.value - f.freeAngle) + f.preload);
        addEffort(model, Qn, j, c, -f.damping * c.rate);
        break;
      }
      case ForceType::JointForce: {
        const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
        addEffort(model, Qn, j, coordinateOf(model, state, j), evaluate(f.functions[0], slots));
        break;
      }
      case ForceType::Limit: {
        const Joint& j = model.joints[static_cast<std::size_t>(f.joint)];
        const spatial::Scalar c = coordinateOf(model, state, j);
        const StopContact contact = stopContact(f, c.value, c.rate);
        addEffort(model, Qc, j, c, contact.elastic);
        addEffort(model, Qn, j, c, contact.effort - contact.elastic);
        break;
      }
      case ForceType::Force:
        addForce(model, Qn, f.body2, vectorOf(f), bodyRotation(model, state.q, f.body2) * f.s2);
        break;
      case ForceType::Torque:
        Qn.segment<3>(model.bodies[static_cast<std::size_t>(f.body2)].v + 3) += vectorOf(f);
        break;
    }
  }
  addGyroscopicForces(model, state, Qc);
  ws.Q += Qn;
}

double spatialKineticEnergy(const Model& model, const State& state) {
  double T = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const Eigen::Vector3d omega = state.v.segment<3>(b.v + 3);
    T += 0.5 * b.mass * state.v.segment<3>(b.v).squaredNorm();
    T += 0.5 * omega.dot(worldInertia(model, state, i) * omega);
  }
  return T;
}

double spatialPotentialEnergy(const Model& model, const State& state) {
  double U = 0.0;
  for (const Body& b : model.bodies) U -= b.mass * model.gravity.dot(state.q.segment<3>(b.q));
  for (const Force& f : model.forces) {
    if (f.type == ForceType::SpringDamper && !f.hasLaw) {
      const double stretch = springPair(model, state, f).d.norm() - f.freeLength;
      U += 0.5 * f.stiffness * stretch * stretch - f.preload * stretch;
    } else if (f.type == ForceType::TorsionSpring) {
      const double twist =
          coordinateOf(model, state, model.joints[static_cast<std::size_t>(f.joint)]).value -
          f.freeAngle;
      U += 0.5 * f.stiffness * twist * twist - f.preload * twist;
    } else if (f.type == ForceType::Limit) {
      U += stopPotential(f, coordinateOf(model, state, model.joints[static_cast<std::size_t>(f.joint)]).value);
    }
  }
  return U;
}

}  // namespace rlx
