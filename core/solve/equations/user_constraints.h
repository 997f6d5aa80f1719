#pragma once
// User-defined constraints (model.h: UserConstraint): equations written as expressions of t,
// parameters and measures (solve/equations/measures.h), with every derivative the solvers need
// taken from the exact symbolic derivatives of the expression (model.h: Function d, dd) and the
// measures' gradients g_i, rates mdot_i = g_i v and convective terms c_i. Time t counts as a
// variable with g = 0, rate 1 and c = 0, so that sums over "all variables i" include it.
//
// Holonomic f(m(q), t) = 0 (one row of Phi; a 3-D coupler's f modulo its period):
//   Phi_q = sum_i f_i g_i,   nu = -f_t,
//   gamma = -(sum_ij f_ij mdot_i mdot_j + sum_i f_i c_i)
// Nonholonomic f(m(q), u(q, v), t) = 0, linear in the velocity measures u_k (checked by compile):
//   A = sum_k f_uk G_k,   b = sum_k f_uk u_k - f   (so A v - b = f),
//   gamma = -(sum_{i position} f_i mdot_i + sum_k f_uk c_k)        (= -(Adot v - bdot))
// Braun-Goldfarb convective term of a row's velocity form Phi_nu (Phi_q v - nu, or A v - b) along a
// direction w of the positions (w = the corrected qdot):
//   b_nu(w) = -(dPhi_nu/dq w + dPhi_nu/dt)
//     holonomic     -(sum_ij f_ij mdot_i mdot_j(w) + sum_i f_i B_i(v, w))
//     nonholonomic  -(sum_{i position} f_i mdot_i(w) + sum_k f_uk B_k(v, w))
//   with mdot_t(w) = 1; at w = v both are gamma.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"

#include <vector>

namespace rlx {

// ws.Phi on the rows of the holonomic user constraints.
void evaluateUserPhi(const Model& model, const State& state, Workspace& ws);

// Adds the user rows of Phi_q (the caller zeroes it) and sets their nu and gamma.
void evaluateUserConstraintDerivatives(const Model& model, const State& state, Workspace& ws);

// Sets b_nu(w) on the user rows of out (sized nh + nn); other rows are left alone.
void userConstraintConvective(const Model& model, const State& state, const Eigen::VectorXd& w,
                              Workspace& ws, Eigen::VectorXd& out);

// The generalized constraint force -Phi_q^T lambda of a user constraint's rows on each body it
// involves: force (global axes) and torque about the body's centre of mass, in the order of
// constraint.bodies. Uses ws.Phi_q and ws.lambda evaluated at the state.
std::vector<Reaction> userConstraintReactions(const Model& model, const Workspace& ws,
                                              int constraint);

}  // namespace rlx
