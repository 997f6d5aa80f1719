#pragma once
// Closed-form stiffness and damping of planar models, for iteration matrices
// (solve/integrators/hht_step.h):
//
//   K = d(Phi_q^T lambda - Q)/dq,   C = -dQ/dv        (q, v: the velocities' layout, planar)
//
// delivered as 3x3 blocks between two bodies (rows: the velocities of one, columns: of the other).
// A point pair d = r2 + A2 s2 - r1 - A1 s1 has D = dd/dq = [-I, -R p1 | I, R p2] (2 x 6 over
// the two bodies, p_i = A_i s_i, R the rotation by +90 degrees) and second derivatives
// d2d/dphi1^2 = p1, d2d/dphi2^2 = -p2, all others zero. Per equation, lambda times its Hessian:
//   point coincidence (revolute, fixed)  mu . d2d                          (mu: its 2 multipliers)
//   distance (d.d - L^2)/(2L)            (D^T D + d . d2d) / L
//   projection u^T d, u = A1 n           (R u)^T D in row and column phi1, plus u . d2d - u . d at
//                                        (phi1, phi1) (point_on_line, translational, travel)
//   relative angle, body angle           0
//   body point x or y (motions)          -p_axis at (phi, phi)
// Forces, Q = D^T g for a spring-damper with g = F e, e = d / |d|, F = -k (L - L0) + preload
// - c Ldot:
//   K = -(D^T G_d D + D^T G_ddot Ddot_q + g . d2d),   C = -D^T G_ddot D
//   G_d = e F_d^T + F (I - e e^T) / L,  F_d = -k e - c (I - e e^T) ddot / L,  G_ddot = -c e e^T,
//   Ddot_q = d(ddot)/dq: column phi1 = omega1 p1, column phi2 = -omega2 p2.
// A torsion spring on a joint coordinate c (g = c_q, H its Hessian), T = -k (c - c0) + preload
// - c_d cdot:  K = k g^T g + c_d g^T (H v)^T - T H,  C = c_d g^T g.
// A joint force T(t): K = -T H. A force f(t) at p = A2 s2 of body2: global axes,
// K(phi2, phi2) = p . f; body axes, K(r2, phi2) = -R f. A torque: nothing. Gravity: nothing.

#include "model/model.h"

#include <Eigen/Dense>

namespace rlx {

// Receives the blocks: `block` adds to the rows of body rowBody and the columns of colBody. Which
// blocks the functions below add depends on the model only (zero blocks included), never on the
// state: one evaluation with a recording sink finds the pattern.
class StiffnessSink {
 public:
  virtual ~StiffnessSink() = default;
  virtual void add(int rowBody, int colBody, const Eigen::Matrix3d& block) = 0;
};

// Whether the constraint part of K has a closed form here: planar, no user constraints.
bool closedFormConstraintStiffness(const Model& model);

// Whether the applied forces' K and C have: planar, and every force a spring_damper without a
// `function` law, a torsion_spring, or a joint_force, force or torque of time only.
bool closedFormForceStiffness(const Model& model);

// Adds scale * d(Phi_q^T lambda)/dq at the state (lambda: one multiplier per row).
void addConstraintStiffness(const Model& model, const State& state, const Eigen::VectorXd& lambda,
                            double scale, StiffnessSink& sink);

// Adds scaleK * (-dQ/dq) + scaleC * (-dQ/dv) at the state.
void addForceStiffness(const Model& model, const State& state, double scaleK, double scaleC,
                       StiffnessSink& sink);

}  // namespace rlx
