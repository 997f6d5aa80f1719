#pragma once
// One step of the HHT-alpha method on the index-3 DAE (used by integrateHHT,
// solve/integrators/hht.h).
//
// Coefficients: alpha in [-1/3, 0], gamma = (1 - 2 alpha)/2, beta = (1 - alpha)^2/4.
// Unknowns of a step: a = vdot_{n+1} and lambda_{n+1}. Newmark updates:
//   q_{n+1} = q_n (+) [h v_n + h^2 ((1/2 - beta) a_n + beta a)]
//   v_{n+1} = v_n + h ((1 - gamma) a_n + gamma a)
// a_n approximates vdot(t_n + alpha h_n): a step of another length h first moves it to
// t_n + alpha h, a_n + alpha (h - h_n) (a_n - a_{n-1}) / h_n, which keeps the method second order
// when h changes.
// Equations: the acceleration at t_{n+1} is vdot_{n+1} = (a + alpha vdot_n) / (1 + alpha) (so that
// a = (1 + alpha) vdot_{n+1} - alpha vdot_n ~ vdot(t_{n+1} + alpha h)), and
//   e1 = M(q_{n+1}) vdot_{n+1} + Phi_q^T lambda - Q = 0                     (nv)
// Weighing the forces at t_n and t_{n+1} instead (M a + (1 + alpha) r_{n+1} - alpha r_n = 0,
// r = Phi_q^T lambda - Q) is the same where M is constant (planar) but first order where it
// turns with the bodies (spatial): it mixes M(q_n) vdot_n into the step at q_{n+1}.
//   e2 = Phi(q_{n+1}, t_{n+1}) / (beta h^2) = 0                            (holonomic rows)
//        (A(q_{n+1}) v_{n+1} - b) / (gamma h) = 0                          (nonholonomic rows)
// Newton on [e1; e2] with the iteration matrix (solve/integrators/iteration_matrix.h)
//   J = [ M / (1 + alpha) + beta h^2 K + gamma h C   Phi_q^T ]
//       [ Phi_q                                       0       ]
//   K = d(Phi_q^T lambda - Q)/dq,  C = -dQ/dv,
// dense for small models, sparse (Schur complement or KLU, solve/integrators/iteration_matrix.h)
// for large ones (nv >= sparseFrom).
// Predictor: a and lambda extrapolated linearly from the last two steps. Modified Newton: J is kept
// across iterations and steps and formed again at the current iterate when the contraction rate of
// the corrections exceeds 1/2 or is too slow to converge within 10 iterations, and before a step
// whose h differs from J's by more than 25 %. A J formed in this step that still contracts too
// slowly fails the step, except a closed-form one, which is formed again at the current iterate up
// to 5 times per step. A closed-form J is also formed again at the next iterate when that is
// expected to cost less in all: a J formed where the correction is x contracts by about c x
// (Newton's quadratic convergence, c measured at the last J formed in a step), forming one costs
// about 2 iterations, and n iterations from a correction x at rate r end when
// r / (1 - r) x r^(n-1) <= 1. Dense J: at the first iteration of every step, its M and Phi_q blocks
// are replaced by those at the predictor (K and C kept) and it is factored again (a tiny pivot:
// formed instead); the first iteration then assumes the rate measured last, grown as
// rate <- rate^0.8 per step, so that it is measured again (by a second iteration) every few steps.
// Converged when every correction, or its rate-extrapolated remainder rate / (1 - rate)
// |correction| (the rate measured in this step, or the assumed one), is within
//   |da_i| <= tol (1 + |a_i|) + f,   |dF_i| <= tol (1 + |F_i|) + f max(1, M_ii),
// F = Phi_q^T lambda, dF = Phi_q^T dlambda, f = max(1e-14, 16 eps max |q_n|) / (beta h^2) (the
// rounding of positions as seen in a, eps = 2.2e-16: 16 ulps of the largest coordinate).
// Measuring the multipliers through F ignores the part of lambda that Phi_q^T cannot see near a
// singular configuration. Only the active rows (see analyzeRedundancy) enter; the
// multipliers of redundant rows are zero here (the recorded frames re-solve them, see hht.cpp).
// Also converged when the iteration has stalled at rounding (a measured rate above 0.9) with the
// constraints |Phi| <= 1e-14 (1 + |q|) and the position correction beta h^2 |da| within
// max(tol, 1e-8) (1 + |q|): near a singular configuration the solve amplifies the rounding of Phi
// by the inverse of Phi_q's smallest singular value (the N-four-bar at tol 1e-10: |da| stalls at
// 5e-8 to 6e-6 with |Phi| at 1e-15 m), more than any tolerance on a or F can admit, and the
// constraints fix the positions along the direction Phi_q loses only to about sqrt(eps) (Phi is
// quadratic there; at tol 1e-12 and h = 1e-4 the corrections stall at 6.6e-11 m > tol (1 + |q|)).
// A slow but contracting iteration (rate 1/2 to 0.9: a chain 100 km out) is not a stall.
// A converged a whose step moves a body by more than 100 times the model's size (modelSize,
// solve/equations/constraints.h) or turns it by more than 100 rad is a spurious root of a violent
// step (a whipping chain's tip at a step too long for it, with accelerations of 1e13 and the
// constraints broken by 6e-2 m): the step fails like a Newton failure and a shorter one is tried.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/force_check.h"
#include "solve/equations/workspace.h"
#include "solve/integrators/iteration_matrix.h"

#include <Eigen/Dense>

#include <vector>

namespace rlx {

enum class StepOutcome { Converged, MaxIterations, Singular, NotFinite };

class HHTStep {
 public:
  // sparse: the sparse storage and factorization of J (see above).
  HHTStep(const Model& model, Workspace& ws, double alpha, double tolerance, bool sparse);

  // Takes a_n = vdot_n = ws.vdot and lambda_n = ws.lambda at the accepted state: call after
  // solveAccelerations there.
  void start();

  // Solves the step from `accepted` to tNext = accepted.t + h; the result stays in the trial.
  StepOutcome solve(const State& accepted, double h, double tNext, RunStats& stats);

  // Local position error estimate of the solved step: |beta - 1/6| h^3 max |q'''|.
  double errorEstimate(double h) const;

  // Makes the solved trial the accepted state; ws.vdot and ws.lambda belong to it afterwards.
  void accept(State& state);

  // The element that made the forces not finite in the last NotFinite outcome (or none).
  const NonFiniteForce& nonFiniteForce() const { return badForce_; }

  // The state of the first Newton iterate of the last step (the Newmark predictor).
  const State& predictor() const { return predictor_; }

 private:
  void updateTrial(const State& accepted, double h);
  bool evaluateResidual(const State& accepted, double h, RunStats& stats);
  void expandMultipliers(const Eigen::VectorXd& active);
  bool formIterationMatrix(double h, RunStats& stats);
  double correctionNorm(double h);
  bool stalledAtRounding(double h) const;
  bool runaway() const;
  bool renewalPays(double norm, double rate) const;

  const Model& model_;
  Workspace& ws_;
  double alpha_, beta_, gamma_, tolerance_;
  bool sparse_;
  IterationMatrix matrix_;
  const std::vector<Eigen::Index>& rows_;  // active rows of Phi_q
  bool fusedConstraints_ = false;  // residuals by evaluatePhiAndConstraintForce (Phi_q for J only)
  bool phiQCurrent_ = true;        // sparse: ws.Phi_q belongs to the trial
  Eigen::Index n_ = 0, m_ = 0;

  Eigen::VectorXd an_, lambdan_;        // accepted step: a_n, lambda_n (active rows)
  Eigen::VectorXd vdotn_;               // the acceleration at t_n (see the equations above)
  Eigen::VectorXd weightedA_;           // (a + alpha vdot_n) / (1 + alpha) of the iterate
  Eigen::VectorXd aRate_, lambdaRate_;  // their rates over the last step (the predictor)
  Eigen::VectorXd anStep_;              // a_n referred to this step's h (see solve)
  double hn_ = 0.0;                     // the last accepted step (0: none since start)
  Eigen::VectorXd a_, lambda_;          // iterate
  Eigen::VectorXd displacementLimit_;   // per velocity: largest displacement of a step (runaway)
  Eigen::VectorXd lambdaAll_;           // a multiplier vector on every row (zero on inactive ones)
  State trial_, predictor_;
  Eigen::VectorXd increment_;         // h v_n + h^2 ((1/2 - beta) a_n + beta a)
  Eigen::VectorXd residual_, delta_;  // [e1; e2], J^-1 [e1; e2]
  Eigen::VectorXd F_, dF_;           // Phi_q^T lambda, Phi_q^T dlambda (J's Phi_q)
  Eigen::VectorXd constraintForce_;  // sparse: Phi_q^T lambda at the trial (the residual's)
  SparseMatrix constantMass_;        // planar M without its structural zeros
  double massScale_ = 1.0;     // max(1, max M_ii)
  double positionRoundoff_ = 0.0;  // the rounding of this step's positions (m or rad)
  double assumedRate_ = 1.0;   // dense: contraction rate assumed for a step's first iteration
  double nonlinearity_ = 0.0;  // c: a J formed where the correction is x contracts by c x
  bool factored_ = false;
  double hJ_ = 0.0;  // the step J was formed for
  NonFiniteForce badForce_;
};

}  // namespace rlx
