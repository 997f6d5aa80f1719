#pragma once
// One step of the variable-order BDF on the index-3 DAE and its error estimates (used by
// integrateBDF, solve/integrators/bdf.h; derivations in docs/integrators-bdf.md).
//
// Step from t_n to t = t_n + h at order k, unknowns q and lambda at t. Positions are differenced
// in the chart xi around the newest accepted point q_n (solve/integrators/position_chart.h: planar
// xi = q; spatial xi = (r - r_n, log(A A_n^T)) per body, q = q_n (+) xi), with the tangent map
// T(xi) of the rotations. With the variable-step derivative weights alpha_j over t, t_n, ...,
// t_{n+1-k} (bdf_coefficients.h):
//   v    = T(xi) (alpha_0 xi + sum_{j>=1} alpha_j xi_{n+1-j})
//   vdot = alpha_0 v + sum_{j>=1} alpha_j v_{n+1-j}
//   M(q) vdot + Phi_q^T lambda - Q(q, v, t) = 0,   Phi(q, t) = 0,   A v - b = 0 (nonholonomic).
// Newton from the predictor (the polynomial through the last k+1 points), on a tangent
// increment dq (q <- q (+) (-dq)), with the matrix
//   [ M + K / alpha_0^2   Phi_q^T ]  [ dq                  ]     K = (M vdot + Phi_q^T lambda)_q
//   [ Phi_q               0       ]  [ dlambda / alpha_0^2 ]         - Q_q - alpha_0 Q_v
// (residual rows divided by alpha_0^2, so that the blocks do not grow as h -> 0; dv/dq taken as
// alpha_0 I, exact for planar models, T = I + O(h) for rotations), formed at the predictor and
// again once when the iteration is slow; converged when max |Phi| <= 1e-10 and the weighted
// corrections of q and of v = alpha_0 dq are below 1e-3, or dq is at the rounding of q, or the
// correction of q is below 1e-3 and the whole contracts by less than 1/2 (stalled: alpha_0 times
// the noise of the solve). Small models: K by a forward difference
// per column, dense J, full-pivoting LU. Large ones (nv >= sparseFrom): hht's iteration matrix
// (solve/integrators/iteration_matrix.h) with d = 1, cK = 1 / alpha_0^2, cC = 1 / alpha_0:
// closed-form or coloured K and C, sparse J through the Schur complement or KLU, on the active rows
// only; it leaves out the term (M vdot)_q of a spatial model's K (a modified Newton).
// Local error of order j from the difference to the predictor P_j through j+1 past points, with
// x_j = alpha_0^(j) (t - t_{n+1-j}) and y = (xi, v) (never lambda):
//   E_k = |y - P_k| / (1 + x_k),   E_{k-1} = |y - P_{k-1}| / x_{k-1},
//   E_{k+1} = |(y - P_k) - (y - P_k)_previous| x_k / ((1 + x_k) x_{k+1}),
// |.| the weighted RMS norm (weights 1 / (s tol (1 + |y_i|)), s = 0.05) of the difference
// projected onto the tangent space Phi_q e = 0: the normal part of the index-3 velocities is an
// O(h^k) error set by the constraints that does not propagate.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/force_check.h"
#include "solve/equations/workspace.h"
#include "solve/integrators/iteration_matrix.h"

#include <Eigen/Dense>

#include <array>
#include <optional>

namespace rlx {

class BdfStep {
 public:
  enum class Outcome { Converged, Failed, Singular, NotFinite };
  static constexpr int kMaxOrder = 5;

  // sparse: the sparse iteration matrix (see above).
  BdfStep(const Model& model, Workspace& ws, double tolerance, RunStats& stats, bool sparse);

  // The first point: the assembled state with ws.vdot and ws.lambda belonging to it.
  void start(const State& state);

  // Solves the step of order k to tNew; the result stays in the trial.
  Outcome solve(int k, double tNew);

  // Error estimates of the solved step for orders k, k-1 and k+1 (canRaise first).
  double error(int k, double tNew);
  double errorBelow(int k, double tNew);
  double errorAbove(int k, double tNew);
  bool canRaise(int k) const;

  // max |Phi_q v^(j) - nu| of the order-j BDF velocities of the solved positions, weighted like
  // the velocities: the O(h^j) index-3 velocity error that the projected estimates leave out.
  double velocityDefect(int order, double tNew);

  // Makes the solved step the newest point: state, ws.vdot and ws.lambda. keepCorrection: the
  // next step may estimate order k+1 from this step's correction (same order and step).
  void accept(State& state, bool keepCorrection);

  // Workspace::active has changed (the rows kept of a redundant set chosen again): the sparse
  // iteration matrix is set up for the new rows.
  void activeRowsChanged();

  // The force that was not finite in the last NotFinite outcome.
  const NonFiniteForce& badForce() const { return badForce_; }
  // The predicted state of the last step.
  State predictor(double tNew) const { return State{tNew, qp_, vp_}; }

 private:
  static constexpr int kHistory = kMaxOrder + 2;  // points kept: enough for order k+1

  void push(const State& state);
  double leading(int order, double tNew) const;
  double ratio(int order, double tNew) const;
  void extrapolate(int degree, double tNew, Eigen::VectorXd& q, Eigen::VectorXd& v);
  void prepare(int k, double tNew);
  void velocities();
  bool residual(double tNew);
  bool buildMatrix(double tNew);
  bool buildSparseMatrix(double tNew);
  void solveMatrix(Eigen::VectorXd& x);  // x <- J^-1 x (nv + nc entries)
  Outcome newton(double tNew);
  double projectedNorm(const Eigen::VectorXd& eq, const Eigen::VectorXd& ev);
  void floorErrorWeights(double dq);

  const Model& model_;
  Workspace& ws_;
  RunStats& stats_;
  const double tolerance_;
  const int nv_, nc_;
  const bool spatial_;

  // Accepted points, newest first; the corrections y - P_k of this step and the last.
  std::array<double, kHistory> T_{};
  std::array<Eigen::VectorXd, kHistory> Qh_, Vh_;
  std::array<Eigen::VectorXd, kHistory> Xh_;  // Qh_ in the chart around Qh_[0]
  int count_ = 0;
  Eigen::VectorXd vdot0_;  // accelerations at the start (first predictor)
  Eigen::VectorXd corrQ_, corrV_, lastCorrQ_, lastCorrV_;
  int lastCorrOrder_ = 0;  // 0: no usable last correction

  // The current step: weights, predictor, iterate, matrix.
  std::array<double, kHistory + 1> times_{}, alpha_{}, w_{};
  int k_ = 1;
  double t_ = 0.0, a0_ = 0.0;
  Eigen::MatrixXd J_, K_;  // dense path
  Eigen::FullPivLU<Eigen::MatrixXd> lu_;
  std::optional<IterationMatrix> sparse_;  // sparse path
  Eigen::VectorXd active_, product_;       // sparse: J's unknowns on the active rows, J11 e
  State point_;                            // the iterate (t, q_, v_) of the last residual
  // Positions q_, qp_, qs_ (nq); chart coordinates xi_, xp_, cq_, qe_ (nv).
  Eigen::VectorXd R_, d_, rhs_, Q0_, G0_, qp_, vp_, xp_, cq_, cv_, q_, xi_, v_, vdot_, lambda_, qe_,
      ve_, qs_, scratch_, weights_;
  NonFiniteForce badForce_;
};

}  // namespace rlx
