#pragma once
// Static equilibrium and quasi-statics (ADAMS static analysis: the equations of motion with
// velocities and accelerations zero).
//
// Equilibrium at time t: q and lambda with
//   G(q, lambda) = Q(q, 0, t) - Phi_q(q, t)^T lambda = 0    (nv force balances)
//   Phi(q, t) = 0                                           (the active holonomic rows)
// lambda has one entry per active row of Phi_q, holonomic and nonholonomic (a nonholonomic
// equation restricts the virtual velocities, so its multiplier is a reaction as well).
// Newton's matrix is the KKT matrix of the residual F = [G; c Phi]:
//   J = [ -K_T      -Phi_q^T ]     K_T = -dG/dq = -dQ/dq + d(Phi_q^T lambda)/dq
//       [ c Phi_q      0     ]
// with K_T by central finite differences of evaluateAppliedForces and
// evaluateConstraintDerivatives (step 1e-6 along each velocity direction, positions advanced by
// integratePositions; it includes the constraints' geometric stiffness). c = max(1, |Q|_inf) per
// metre weighs a constraint error of 1 m like the largest applied force.
// Iteration: Levenberg-Marquardt on |F|^2. Each step solves
//   minimize |J dx + F|^2 + mu (|F| / |F0|) |D dx|^2,   D^2 = diag(J^T J)   (Marquardt's scaling)
// as a stacked least-squares problem by complete orthogonal decomposition, so that a singular J
// (neutral equilibrium: K_T singular on the free motions) gives the minimum-norm step rather than
// a failure (a neutral coordinate that the other unknowns do not pull along stays where it is;
// one coupled to them, like a slide carrying a pendulum, moves with the steps). mu shrinks when |F|
// falls as the linear model predicts and grows when it does not (Nielsen's rule): a damped descent
// on |F|^2 far from the solution. The factor |F| / |F0| (F0: the residual at the start) removes the
// regularization as the residual vanishes, so that the last steps are Newton's (quadratic
// convergence where J is regular).
// Any equilibrium is found, stable or not: the one the damped descent reaches from the start.
// Converged when |G|_inf <= tolerance * max(1, |Q|_inf) and |Phi|_inf <= tolerance.
// At a stationary point of |F|^2 that is not an equilibrium (a rod pinned at one end and
// horizontal: its unbalanced torque is largest there) the model is let go: moved along its
// accelerations from rest (solveAccelerations), the body moving most by 0.1 model sizes or
// 0.1 rad, and the descent resumes, at most 3 times. Fails with Singular when |F| stops falling
// there again (a force along a free direction that no change of position balances), with
// MaxIterations after maxIterations Jacobians, and with NotFinite on NaN. A model that does not
// depend on time is then relaxed dynamically (solve/statics/static_relaxation.h): released from
// rest and stopped at each peak of its kinetic energy, from where the descent tries again (at most
// 20 Jacobians each); the failure stands when none converges.
// runStatics classifies each equilibrium (Results::equilibria): the symmetric part of the tangent
// stiffness K_T = -dG/dq (at fixed multipliers) on an orthonormal basis of the kernel of the
// active rows; an eigenvalue below -1e-6 s makes it unstable, one within 1e-6 s of zero neutral
// (s: the largest eigenvalue in magnitude, at least max(1, |Q|_inf)).

#include "model/model.h"
#include "results/report.h"
#include "results/results.h"
#include "solve/equations/workspace.h"
#include "solve/kinematics/kinematics.h"

namespace rlx {

struct StaticsOptions {
  double endTime = 1.0;      // quasi-statics only
  double outputStep = 1e-2;  // quasi-statics only: spacing of the equilibria
  double tolerance = 1e-10;
  int maxIterations = 100;
};

// From a state (best an assembled one; ws.active from the assembly selects the rows), the
// equilibrium at state.t. On success: state.q at the equilibrium, state.v = 0, ws.vdot = 0,
// ws.lambda the multipliers of all rows (redundant rows: the minimum-norm solution of
// Phi_q^T lambda = Q, as in solveAccelerations), ws.Phi_q and ws.Q evaluated at the equilibrium,
// so that jointReaction and motionEffort apply. On failure state is the last iterate.
SolveReport equilibrium(const Model& model, State& state, Workspace& ws,
                        const StaticsOptions& options);

// Static analysis. A model that does not depend on time (no motions, no function of t in its
// forces or constraints) has one equilibrium: one frame at t0. A time-dependent one (a driven
// model with free degrees of freedom, loads that vary in time) gets quasi-statics: a sequence of
// equilibria at t0 + k * outputStep and at endTime, each started from the previous one moved along
// the tangent of the equilibrium path (J [dq; dlambda] = [0; c nu h]). Frames are quasi-static:
// v = 0 and vdot = 0 (so the velocity constraint error of a driven row shows its prescribed rate);
// the nonconservative work is the drives' work (effort times prescribed rate, integrated over the
// equilibria, solve/recording/work_integral.h).
void runStatics(const Model& model, const State& assembled, Workspace& ws,
                const StaticsOptions& options, Results& results,
                const FrameObserver& observer = {});

}  // namespace rlx
