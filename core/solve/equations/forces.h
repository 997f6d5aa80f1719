#pragma once
// Mass matrix, applied forces and energies.
//
//   M = blockdiag(m I, I_zz) per planar body (spatial bodies: solve/equations/spatial_forces.h;
//       M depends on the orientation there, hence the state).
//   Q = gravity + force elements, generalized: a force f (global) at offset p from the centre of
//       mass adds (f, p x f) to its body's entries.
// Force element laws (positive scalar force pushes the attachment points apart, as in ADAMS):
//   spring_damper   F = -k (L - L0) - c Ldot + preload    or F = function(length, rate)
//   torsion_spring  T = -k (q - q0) - c qdot + preload    along the joint coordinate
//   joint_force     T = value(t, q, qd)                   along the joint coordinate
//   force, torque   the given vector / value (frame global or body)
// Potential energy: gravity -m g . r (datum at the origin) and the springs' linear laws
//   1/2 k (L - L0)^2 - preload (L - L0). Everything else (damping, a spring `function`, applied
// forces and torques) is nonconservative: its power enters the nonconservative work.

#include "model/model.h"
#include "solve/equations/workspace.h"

namespace rlx {

void evaluateMassMatrix(const Model& model, const State& state, Workspace& ws);

// ws.Q at the state; evaluates ws.slotValues. When `nonconservative` is given it receives the
// nonconservative part of Q.
void evaluateAppliedForces(const Model& model, const State& state, Workspace& ws,
                           Eigen::VectorXd* nonconservative = nullptr);

// Power of the nonconservative forces and of the motions (effort times the prescribed rate):
// the rate of work_nonconservative. Uses ws.lambda, which must belong to the state.
double nonconservativePower(const Model& model, const State& state, Workspace& ws);

double kineticEnergy(const Model& model, const State& state);
double potentialEnergy(const Model& model, const State& state);

}  // namespace rlx
