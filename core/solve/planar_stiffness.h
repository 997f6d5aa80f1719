#pragma once
// Closed-form stiffness and damping of planar models, for iteration matrices
// (solve/integrators/hht_step.h):
//
//   K = d(Phi_q^T lambda - Q)/dq,   C = -dQ/dv        (q, v: the velocities' layout, planar)
//
// delivered as 3x3 blocks between two bodies (rows: the velocities of one, columns: of the other;
// joints/planar_hessian.h: the sink, D and d2d). Per equation, lambda times its Hessian: each
// joint family's own (its `stiffness` in joints/family.h: point coincidence mu . d2d, distance
// (D^T D + d . d2d) / L, projection u^T d; a joint coordinate's: its `coordinateHessian`), and
//   body angle                           0
//   body point x or y (motions)          -p_axis at (phi, phi)
// Forces, Q = D^T g for a spring-damper with g = F e, e = d / |d|, F = -k (L - L0) + preload
// - c Ldot:
//   K = -(D^T G_d D + D^T G_ddot Ddot_q + g . d2d),   C = -D^T G_ddot D
//   G_d = e F_d^T + F (I - e e^T) / L,  F_d = -k e - c (I - e e^T) ddot / L,  G_ddot = -c e e^T,
//   Ddot_q = d(ddot)/dq: column phi1 = omega1 p1, column phi2 = -omega2 p2.
// An effort T(c, cdot) along a joint coordinate c (g = c_q, H its Hessian, cdot = g v):
//   K = -T_c g^T g - T_cdot g^T (H v)^T - T H,  C = -T_cdot g^T g;
// a torsion spring T = -k (c - c0) + preload - c_d cdot, an end stop (solve/equations/stop_law.h),
// a joint force T(t). A force f(t) at p = A2 s2 of body2: global axes,
// K(phi2, phi2) = p . f; body axes, K(r2, phi2) = -R f. A torque: nothing. Gravity: nothing.

#include "joints/planar_hessian.h"
#include "model/model.h"

#include <Eigen/Dense>

namespace rlx {

// Whether the constraint part of K has a closed form here: planar, no user constraints.
bool closedFormConstraintStiffness(const Model& model);

// Whether the applied forces' K and C have: planar, and every force a spring_damper without a
// `function` law, a torsion_spring, a limit, or a joint_force, force or torque of time only.
bool closedFormForceStiffness(const Model& model);

// Adds scale * d(Phi_q^T lambda)/dq at the state (lambda: one multiplier per row).
void addConstraintStiffness(const Model& model, const State& state, const Eigen::VectorXd& lambda,
                            double scale, StiffnessSink& sink);

// Adds scaleK * (-dQ/dq) + scaleC * (-dQ/dv) at the state.
void addForceStiffness(const Model& model, const State& state, double scaleK, double scaleC,
                       StiffnessSink& sink);

}  // namespace rlx
