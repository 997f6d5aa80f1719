// Variable-order, variable-step BDF on the index-3 DAE (ADAMS GSTIFF style). The equations, the
// error estimates and the step and order controller are derived in docs/integrators-bdf.md.
//
// Step from t_n to t = t_n + h at order k, unknowns q and lambda at t. With the variable-step
// derivative weights alpha_j over t, t_n, ..., t_{n+1-k} (bdf_coefficients.h):
//   v    = alpha_0 q + sum_{j>=1} alpha_j q_{n+1-j}       (planar: q and v share a layout)
//   vdot = alpha_0 v + sum_{j>=1} alpha_j v_{n+1-j}
//   M vdot + Phi_q^T lambda - Q(q, v, t) = 0,   Phi(q, t) = 0,   A v - b = 0 (nonholonomic).
// Newton from the predictor (the polynomial through the last k+1 points), with the matrix
//   [ M + K / alpha_0^2   Phi_q^T ]  [ dq                 ]      K = (Phi_q^T lambda)_q - Q_q
//   [ Phi_q               0       ]  [ dlambda / alpha_0^2 ]        - alpha_0 Q_v
// (residual rows divided by alpha_0^2, so that the blocks do not grow as h -> 0); converged when
// the weighted corrections of q and of v = alpha_0 dq are below kNewtonFraction and max |Phi| is
// below kPhiTolerance.
// Local error of order j, from the difference to the predictor P_j through j+1 past points,
//   x_j = alpha_0^(j) (t - t_{n+1-j}),   LTE_k ~ (y - P_k) / (1 + x_k),   y = (q, v),
// projected onto the tangent space Phi_q dy = 0 (the normal part of the index-3 velocities is
// O(h^k), set by the constraints, and does not propagate), in the weighted RMS norm with weights
// 1 / (tol (1 + |y_i|)). Accepted when the estimate is <= 1.

#include "solve/bdf.h"

#include "solve/assembly.h"
#include "solve/bdf_coefficients.h"
#include "solve/constraints.h"
#include "solve/force_check.h"
#include "solve/forces.h"

#include <Eigen/LU>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace rlx {
namespace {

constexpr int kMaxOrder = 5;
constexpr int kHistory = kMaxOrder + 2;  // points kept: enough for the order k+1 estimate
constexpr int kMaxNewton = 8;
constexpr int kRefreshAt = 3;             // a Newton iteration this slow gets a fresh matrix
constexpr double kNewtonFraction = 1e-3;  // weighted correction, fraction of the local tolerance
constexpr double kPhiTolerance = 1e-10;   // max |Phi| at a converged step
constexpr double kRoundoff = 1e-14;       // relative correction of q that counts as converged
constexpr double kSafety = 0.05;           // the local error aimed at, as a fraction of the tolerance

std::string number(double x) {
  std::ostringstream out;
  out.precision(6);
  out << x;
  return out.str();
}

std::string failurePrefix(double t) { return "dynamic analysis failed at t = " + number(t) + " s: "; }

enum class Outcome { Converged, Failed, Singular, NotFinite };

class Bdf {
 public:
  Bdf(const Model& model, Workspace& ws, const DynamicsOptions& options, Recorder& recorder,
      SolveReport& report);

  void run(State& state);

 private:
  void push(const State& state);
  double leading(int order, double tNew) const;
  double ratio(int order, double tNew) const;
  void extrapolate(int degree, double tNew, Eigen::VectorXd& q, Eigen::VectorXd& v);
  void prepare(int k, double tNew);
  bool residual(double tNew);
  bool buildMatrix(double tNew);
  Outcome newton(double tNew);
  double projectedNorm(const Eigen::VectorXd& eq, const Eigen::VectorXd& ev);
  double errorBelow(int k, double tNew);
  double errorAbove(int k, double tNew);
  double velocityDefect(int order, double tNew);
  void failNewton(const State& last, Outcome outcome, double h);

  const Model& model_;
  Workspace& ws_;
  const DynamicsOptions& options_;
  Recorder& recorder_;
  SolveReport& report_;
  const int nv_, nc_;

  // Accepted points, newest first, and the correction y - P_k of the newest (order corrOrder_).
  std::array<double, kHistory> T_{};
  std::array<Eigen::VectorXd, kHistory> Qh_, Vh_;
  int count_ = 0;
  Eigen::VectorXd vdot0_;  // accelerations at the start (first predictor)
  Eigen::VectorXd corrQ_, corrV_, lastCorrQ_, lastCorrV_;
  int lastCorrOrder_ = 0;

  // The current step: weights, predictor, iterate.
  std::array<double, kHistory + 1> times_{}, alpha_{}, w_{};
  double a0_ = 0.0;
  Eigen::MatrixXd J_, K_;
  Eigen::FullPivLU<Eigen::MatrixXd> lu_;
  Eigen::VectorXd R_, d_, rhs_, Q0_, G0_, qp_, vp_, cq_, cv_, q_, v_, vdot_, lambda_, qe_, ve_,
      scratch_, weights_;
  int badForce_ = -1;
};

Bdf::Bdf(const Model& model, Workspace& ws, const DynamicsOptions& options, Recorder& recorder,
         SolveReport& report)
    : model_(model), ws_(ws), options_(options), recorder_(recorder), report_(report),
      nv_(model.nv), nc_(model.nh + model.nn), J_(nv_ + nc_, nv_ + nc_), K_(nv_, nv_),
      lu_(nv_ + nc_, nv_ + nc_), R_(nv_ + nc_), d_(nv_ + nc_), rhs_(nv_ + nc_), Q0_(nv_), G0_(nv_),
      qp_(nv_), vp_(nv_), cq_(nv_), cv_(nv_), q_(nv_), v_(nv_), vdot_(nv_), lambda_(nc_),
      qe_(nv_), ve_(nv_), scratch_(nv_), weights_(2 * nv_) {
  for (auto& x : Qh_) x.resize(nv_);
  for (auto& x : Vh_) x.resize(nv_);
  for (auto* x : {&corrQ_, &corrV_, &lastCorrQ_, &lastCorrV_}) x->setZero(nv_);
}

void Bdf::push(const State& state) {
  for (int j = std::min(count_, kHistory - 1); j > 0; --j) {
    const auto i = static_cast<std::size_t>(j);
    T_[i] = T_[i - 1];
    Qh_[i].swap(Qh_[i - 1]);
    Vh_[i].swap(Vh_[i - 1]);
  }
  T_[0] = state.t;
  Qh_[0] = state.q;
  Vh_[0] = state.v;
  count_ = std::min(count_ + 1, kHistory);
}

// alpha_0 of the given order at tNew: sum over the last `order` points of 1 / (tNew - t_j).
double Bdf::leading(int order, double tNew) const {
  double sum = 0.0;
  for (int j = 0; j < order; ++j) sum += 1.0 / (tNew - T_[static_cast<std::size_t>(j)]);
  return sum;
}

// x_j = alpha_0^(j) (tNew - t_{n+1-j}): the predictor error over the corrector error at order j.
double Bdf::ratio(int order, double tNew) const {
  return leading(order, tNew) * (tNew - T_[static_cast<std::size_t>(order)]);
}

// The polynomial of the given degree through the newest degree+1 points, at tNew (planar: q is
// extrapolated like a vector). With a single point: the Taylor step from v_0 and vdot_0.
void Bdf::extrapolate(int degree, double tNew, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  if (count_ == 1) {
    q = Qh_[0];
    integratePositions(model_, q, Vh_[0], tNew - T_[0]);
    v = Vh_[0] + (tNew - T_[0]) * vdot0_;
    return;
  }
  const auto n = static_cast<std::size_t>(degree + 1);
  lagrangeWeights(std::span<const double>(T_.data(), n), tNew, std::span<double>(w_.data(), n));
  q.setZero();
  v.setZero();
  for (std::size_t j = 0; j < n; ++j) {
    q += w_[j] * Qh_[j];
    v += w_[j] * Vh_[j];
  }
}

// BDF weights of order k, the predictor, the constant parts of v and vdot, the error weights.
void Bdf::prepare(int k, double tNew) {
  const auto n = static_cast<std::size_t>(k + 1);
  times_[0] = tNew;
  for (std::size_t j = 1; j < n; ++j) times_[j] = T_[j - 1];
  bdfDerivativeWeights(std::span<const double>(times_.data(), n),
                       std::span<double>(alpha_.data(), n));
  a0_ = alpha_[0];
  cq_.setZero();
  cv_.setZero();
  for (std::size_t j = 1; j < n; ++j) {
    cq_ += alpha_[j] * Qh_[j - 1];  // planar
    cv_ += alpha_[j] * Vh_[j - 1];
  }
  extrapolate(k, tNew, qp_, vp_);
  const double tol = kSafety * options_.tolerance;
  for (int i = 0; i < nv_; ++i) {
    weights_(i) = 1.0 / (tol * (1.0 + std::abs(Qh_[0](i))));
    weights_(nv_ + i) = 1.0 / (tol * (1.0 + std::abs(Vh_[0](i))));
  }
}

// R_ at (q_, v_, vdot_, lambda_); false if not finite.
bool Bdf::residual(double tNew) {
  const State s{tNew, q_, v_};
  evaluatePhi(model_, s, ws_);
  evaluateConstraintDerivatives(model_, s, ws_);
  evaluateAppliedForces(model_, s, ws_);
  ++recorder_.stats().rhsEvaluations;
  R_.head(nv_).noalias() = ws_.M * vdot_ - ws_.Q;
  R_.head(nv_).noalias() += ws_.Phi_q.transpose() * lambda_;
  for (int i = 0; i < nc_; ++i) {
    const double value = i < model_.nh ? a0_ * a0_ * ws_.Phi(i)
                                       : a0_ * (ws_.Phi_q.row(i).dot(v_) - ws_.nu(i));
    R_(nv_ + i) = ws_.active[static_cast<std::size_t>(i)] ? value : 0.0;
  }
  return R_.allFinite();
}

// The iteration matrix at (q_, v_, lambda_), by forward differences of Q and Phi_q^T lambda.
bool Bdf::buildMatrix(double tNew) {
  State s{tNew, q_, v_};
  evaluateAppliedForces(model_, s, ws_);
  Q0_ = ws_.Q;
  evaluateConstraintDerivatives(model_, s, ws_);
  G0_.noalias() = ws_.Phi_q.transpose() * lambda_;
  for (int j = 0; j < nv_; ++j) {
    // Position column: the state moves along v's direction j.
    scratch_.setZero();
    scratch_(j) = 1.0;
    const double eq = 1e-7 * std::max(1.0, std::abs(q_(j)));
    integratePositions(model_, s.q, scratch_, eq);
    evaluateAppliedForces(model_, s, ws_);
    evaluateConstraintDerivatives(model_, s, ws_);
    K_.col(j).noalias() = (ws_.Phi_q.transpose() * lambda_ - G0_ - (ws_.Q - Q0_)) / eq;
    s.q = q_;
    // Velocity column.
    const double ev = 1e-7 * std::max(1.0, std::abs(v_(j)));
    s.v(j) += ev;
    evaluateAppliedForces(model_, s, ws_);
    K_.col(j).noalias() -= (a0_ / ev) * (ws_.Q - Q0_);
    s.v(j) = v_(j);
  }
  recorder_.stats().rhsEvaluations += 2 * nv_ + 1;
  evaluateConstraintDerivatives(model_, s, ws_);
  J_.setZero();
  J_.topLeftCorner(nv_, nv_) = ws_.M + K_ / (a0_ * a0_);  // planar: M constant
  for (int i = 0; i < nc_; ++i) {
    if (!ws_.active[static_cast<std::size_t>(i)]) {
      J_(nv_ + i, nv_ + i) = 1.0;
      continue;
    }
    J_.block(0, nv_ + i, nv_, 1) = ws_.Phi_q.row(i).transpose();
    J_.block(nv_ + i, 0, 1, nv_) = ws_.Phi_q.row(i);
  }
  if (!J_.allFinite()) return false;
  lu_.compute(J_);
  return lu_.isInvertible();
}

// Newton iterations from the predictor; on success q_, v_, vdot_, lambda_ hold the new point.
Outcome Bdf::newton(double tNew) {
  q_ = qp_;
  v_ = a0_ * q_ + cq_;  // planar
  vdot_ = a0_ * v_ + cv_;
  lambda_ = ws_.lambda;
  for (int i = 0; i < nc_; ++i)
    if (!ws_.active[static_cast<std::size_t>(i)]) lambda_(i) = 0.0;
  double correction = std::numeric_limits<double>::infinity();
  bool roundoff = false;
  for (int iteration = 0;; ++iteration) {
    if (!residual(tNew)) {
      badForce_ = nonFiniteForce(model_, ws_);
      return badForce_ >= 0 ? Outcome::NotFinite : Outcome::Failed;
    }
    const double phi = model_.nh ? ws_.Phi.cwiseAbs().maxCoeff() : 0.0;
    const double nonholonomic = model_.nn ? R_.tail(model_.nn).cwiseAbs().maxCoeff() / a0_ : 0.0;
    report_.residualNorm = R_.cwiseAbs().maxCoeff();
    if ((correction <= kNewtonFraction || roundoff) && std::max(phi, nonholonomic) <= kPhiTolerance)
      return Outcome::Converged;
    if (iteration == kMaxNewton) return Outcome::Failed;
    // The matrix at the predictor; a slow iteration gets a fresh one once.
    if ((iteration == 0 || iteration == kRefreshAt) && !buildMatrix(tNew))
      return J_.allFinite() ? Outcome::Singular : Outcome::Failed;
    d_.noalias() = lu_.solve(R_ / (a0_ * a0_));
    ++recorder_.stats().newtonIterations;
    const auto dq = d_.head(nv_);
    scratch_ = -dq;
    integratePositions(model_, q_, scratch_, 1.0);
    v_.noalias() -= a0_ * dq;  // planar: dv/dq = alpha_0 I
    vdot_.noalias() -= a0_ * a0_ * dq;
    lambda_.noalias() -= a0_ * a0_ * d_.tail(nc_);
    // The larger of the weighted corrections of q and of v.
    const double cq = dq.cwiseProduct(weights_.head(nv_)).cwiseAbs().maxCoeff();
    const double cv = a0_ * dq.cwiseProduct(weights_.tail(nv_)).cwiseAbs().maxCoeff();
    correction = std::max(cq, cv);
    roundoff = dq.cwiseAbs().maxCoeff() <= kRoundoff * (1.0 + q_.cwiseAbs().maxCoeff());
    if (!std::isfinite(correction)) return Outcome::Failed;
  }
}

// Weighted RMS norm of (eq, ev) after projection onto the tangent space Phi_q e = 0 (through the
// factored iteration matrix: the projection in the metric of its upper-left block).
double Bdf::projectedNorm(const Eigen::VectorXd& eq, const Eigen::VectorXd& ev) {
  double sum = 0.0;
  for (int part = 0; part < 2; ++part) {
    const Eigen::VectorXd& e = part == 0 ? eq : ev;
    rhs_.head(nv_).noalias() = J_.topLeftCorner(nv_, nv_) * e;
    rhs_.tail(nc_).setZero();
    d_.noalias() = lu_.solve(rhs_);
    sum += d_.head(nv_).cwiseProduct(weights_.segment(part * nv_, nv_)).squaredNorm();
  }
  return std::sqrt(sum / (2.0 * nv_));
}

// Local error estimate of order k-1 at the converged point: (y - P_{k-1}) / x_{k-1}.
double Bdf::errorBelow(int k, double tNew) {
  extrapolate(k - 1, tNew, qe_, ve_);
  qe_ = q_ - qe_;
  ve_ = v_ - ve_;
  return projectedNorm(qe_, ve_) / ratio(k - 1, tNew);
}

// Local error estimate of order k+1: the change of the correction y - P_k since the last step,
// scaled by x_k / ((1 + x_k) x_{k+1}) (docs/integrators-bdf.md).
double Bdf::errorAbove(int k, double tNew) {
  qe_ = corrQ_ - lastCorrQ_;
  ve_ = corrV_ - lastCorrV_;
  const double xk = ratio(k, tNew), xk1 = ratio(k + 1, tNew);
  return projectedNorm(qe_, ve_) * xk / ((1.0 + xk) * xk1);
}

// The velocity constraint defect max |Phi_q v^(j) - nu| over the holonomic rows, of the order-j BDF
// velocities v^(j) = D_j q at the new point, weighted like the velocities: the O(h^j) error of the
// index-3 velocities that the projected estimates leave out. ws_ holds Phi_q and nu at q_.
double Bdf::velocityDefect(int order, double tNew) {
  const auto n = static_cast<std::size_t>(order + 1);
  times_[0] = tNew;
  for (std::size_t j = 1; j < n; ++j) times_[j] = T_[j - 1];
  bdfDerivativeWeights(std::span<const double>(times_.data(), n),
                       std::span<double>(alpha_.data(), n));
  ve_ = alpha_[0] * q_;
  for (std::size_t j = 1; j < n; ++j) ve_ += alpha_[j] * Qh_[j - 1];  // planar
  double worst = 0.0;
  for (int i = 0; i < model_.nh; ++i)
    if (ws_.active[static_cast<std::size_t>(i)])
      worst = std::max(worst, std::abs(ws_.Phi_q.row(i).dot(ve_) - ws_.nu(i)));
  return worst / (kSafety * options_.tolerance * (1.0 + v_.cwiseAbs().maxCoeff()));
}

// The report of a step that cannot be completed at the minimum step.
void Bdf::failNewton(const State& last, Outcome outcome, double h) {
  report_.status = outcome == Outcome::Singular ? SolveStatus::Singular : SolveStatus::MaxIterations;
  report_.time = last.t;
  // The joints whose equations are dependent at the last state, or else at the predictor.
  evaluateConstraintDerivatives(model_, last, ws_);
  report_.elements = dependentElements(model_, ws_.Phi_q);
  if (report_.elements.empty()) {
    evaluateConstraintDerivatives(model_, State{last.t + h, qp_, vp_}, ws_);
    report_.elements = dependentElements(model_, ws_.Phi_q);
  }
  const std::string cause = outcome == Outcome::Singular ? "the iteration matrix is singular"
                            : outcome == Outcome::Failed ? "the Newton iterations do not converge"
                                                         : "the local error stays above the tolerance";
  report_.message = failurePrefix(last.t) + cause + " even with the step reduced to " + number(h) +
                    " s" +
                    (report_.elements.empty()
                         ? ""
                         : ": the mechanism locks up (joints involved: " +
                               joinNames(report_.elements) + ")");
}

void Bdf::run(State& state) {
  evaluateMassMatrix(model_, ws_);  // planar: constant
  vdot0_ = ws_.vdot;
  push(state);
  RunStats& stats = recorder_.stats();
  stats.maxOrder = 1;
  int k = 1, held = 0, failures = 0;
  double h = std::min(options_.step, 0.01 * std::sqrt(options_.tolerance));
  while (!recorder_.finished()) {
    // The step: at most options.step; the last two before a stop split it evenly.
    h = std::min(h, options_.step);
    const double remaining = recorder_.nextStop() - state.t;
    double hTry = h, tNew = state.t + h;
    if (remaining <= h * (1 + 1e-6)) {
      hTry = remaining;
      tNew = recorder_.nextStop();
    } else if (remaining < 2 * h) {
      hTry = remaining / 2;
      tNew = state.t + hTry;
    }
    prepare(k, tNew);
    const Outcome outcome = newton(tNew);
    if (outcome == Outcome::NotFinite) {
      report_.status = SolveStatus::NotFinite;
      report_.time = tNew;
      report_.elements = {model_.forces[static_cast<std::size_t>(badForce_)].name};
      report_.message = failurePrefix(tNew) + "the force \"" + report_.elements[0] +
                        "\" is not finite (NaN or infinity)";
      return;
    }
    // The local error of order k: (y - P_k) / (1 + x_k); 1/2 after the Taylor predictor.
    double error = 0.0;
    if (outcome == Outcome::Converged) {
      corrQ_ = q_ - qp_;
      corrV_ = v_ - vp_;
      error = projectedNorm(corrQ_, corrV_) / (count_ == 1 ? 2.0 : 1.0 + ratio(k, tNew));
    }
    if (outcome != Outcome::Converged || error > 1.0) {
      // Rejected: a Newton failure halves the step; an error failure shrinks it (and may lower
      // the order), by a quarter from the third failure on, at order 1.
      ++stats.rejectedSteps;
      ++failures;
      held = 0;
      if (outcome != Outcome::Converged) {
        h = 0.5 * hTry;
      } else {
        if (k > 1 && errorBelow(k, tNew) <= error) --k;
        if (failures >= 3) k = 1;
        const double r = 0.9 * std::pow(2.0 * error, -1.0 / (k + 1));
        h = (failures == 1 ? std::clamp(r, 0.25, 0.9) : 0.25) * hTry;
      }
      if (h < options_.minStep) {
        failNewton(state, outcome, hTry);
        return;
      }
      continue;
    }
    // Accepted: the recorder gets the state with its accelerations and multipliers.
    failures = 0;
    ++stats.steps;
    ++held;
    state.t = tNew;
    state.q = q_;
    state.v = v_;
    ws_.vdot = vdot_;
    ws_.lambda = lambda_;
    // Frames carry the accelerations and multipliers of the index-1 equations at (q, v) (the BDF
    // ones of the index-3 system are a few orders less accurate); kept when that system is singular.
    if (tNew == recorder_.nextStop()) {
      ++stats.rhsEvaluations;
      if (!solveAccelerations(model_, state, ws_).ok()) {
        ws_.vdot = vdot_;
        ws_.lambda = lambda_;
      }
    }
    // Order: after k+1 steps at this order and step, the neighbour order that allows the larger
    // step, r_j = min(2, (2 E_j)^(-1/(j+1))). When both allow the largest growth (the step is at
    // its cap), the order rises if that halves the velocity constraint defect.
    int next = k;
    double nextError = error;
    if (held > k) {
      auto growth = [](double e, int j) { return std::min(2.0, std::pow(2.0 * e, -1.0 / (j + 1))); };
      const double below = k > 1 ? errorBelow(k, tNew) : 0.0;
      if (k > 1 && growth(below, k - 1) > growth(error, k)) {
        next = k - 1;
        nextError = below;
      } else if (k < kMaxOrder && lastCorrOrder_ == k && count_ >= k + 2) {
        const double above = errorAbove(k, tNew);
        const bool capped = growth(above, k + 1) == 2.0 && growth(error, k) == 2.0;
        const double defect = capped ? velocityDefect(k, tNew) : 0.0;
        if (growth(above, k + 1) > growth(error, k) ||
            (defect > kNewtonFraction && velocityDefect(k + 1, tNew) < 0.5 * defect)) {
          next = k + 1;
          nextError = above;
        }
      }
    }
    // Step: doubled when the error allows twice the step, shrunk when it is above half the
    // tolerance, otherwise kept; a change of step or order holds both for k+1 steps.
    const double r = std::pow(2.0 * nextError, -1.0 / (next + 1));
    const double factor = r >= 2.0 && held > k ? 2.0 : r < 1.0 ? std::clamp(r, 0.5, 0.9) : 1.0;
    const double hOld = h;
    if (factor > 1.0) h = std::min(factor * h, options_.step);
    if (factor < 1.0) h = factor * hTry;
    if (next != k || h != hOld) held = 0;
    k = next;
    stats.maxOrder = std::max(stats.maxOrder, k);
    lastCorrQ_.swap(corrQ_);
    lastCorrV_.swap(corrV_);
    lastCorrOrder_ = held == 0 ? 0 : k;
    push(state);
    if (!recorder_.accept(state, ws_)) {
      report_.status = SolveStatus::Cancelled;
      report_.time = state.t;
      report_.message = "cancelled at t = " + number(state.t) + " s";
      return;
    }
  }
  report_.time = state.t;
}

}  // namespace

void integrateBDF(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report) {
  report = SolveReport{};
  report.time = state.t;
  Bdf bdf(model, ws, options, recorder, report);
  bdf.run(state);
}

}  // namespace rlx
