// Variable-order, variable-step BDF on the index-3 DAE (ADAMS GSTIFF style).
//
// Unknowns of a step from t_n to t_{n+1} = t_n + h at order k: q_{n+1} and lambda_{n+1}.
// Derivatives by the variable-step BDF formula in Lagrange form (bdf_coefficients.h) over the
// times t_{n+1}, t_n, ..., t_{n+1-k}:
//   v_{n+1}    = alpha_0 q_{n+1} + sum_{j>=1} alpha_j q_{n+1-j}
//   vdot_{n+1} = alpha_0 v_{n+1} + sum_{j>=1} alpha_j v_{n+1-j}        (alpha_0 = 1 / (h beta_0))
// Residuals (constraint rows scaled by alpha_0^2 so that both blocks are forces, the matrix is
// well conditioned for small h):
//   R_dyn = M vdot + Phi_q^T lambda - Q(q, v, t)
//   R_pos = alpha_0^2 Phi(q, t)               (holonomic rows)
//   R_vel = alpha_0 (A(q, t) v - b(q, t))     (nonholonomic rows)
// Newton matrix of these residuals, with dv/dq = alpha_0 I, K = (Phi_q^T lambda)_q - Q_q -
// alpha_0 Q_v by finite differences:  [alpha_0^2 M + K, Phi_q^T; alpha_0^2 Phi_q, 0]. Dividing
// all rows by alpha_0^2 and taking d(lambda) / alpha_0^2 as the unknown gives the matrix that is
// factored, whose blocks do not grow as h -> 0:
//   [ M + K / alpha_0^2   Phi_q^T ]  [ dq              ]  =  R / alpha_0^2
//   [ Phi_q               0       ]  [ dlambda / a0^2  ]
// evaluated at the predictor (modified Newton, refreshed once when the iteration is slow).
// Redundant rows (ws.active false) are dropped: lambda = 0 there, identity in the matrix.
// Predictor: the polynomial through the last k+1 accepted points, evaluated at t_{n+1} (at the
// first step: q_0 + h v_0, v_0 + h vdot_0).
// Error: E_j = ||y_{n+1} - P_j(t_{n+1})|| / (j + 1) with y = (q, h v) (never lambda), P_j the
// extrapolation of degree j through the last j+1 points (for equal steps the backward difference
// nabla^{j+1} y_{n+1}, as DASSL), RMS norm with weights 1 / (tol |y| + tol) (|q|, |v| for y).
// The velocities, index-2 variables of the index-3 DAE, enter multiplied by h (as in RADAU5):
// unscaled, their estimate does not vanish as h -> 0 and the step collapses. E_k <= 1 accepts.
// Newton converges when the weighted position correction is below 0.1 % of the tolerance and
// max |Phi| <= 1e-10.
// Order: lower when E_{k-1} <= E_k; raise when k+1 steps were taken at order k and
// E_{k+1} < E_k. Step: r = (2 E + 1e-4)^(-1/(k+1)); double when r >= 2, shrink by
// clamp(r, 0.5, 0.9) when r <= 1, otherwise keep h (DASSL). Newton failure halves the step.
//
// Spatial models: q_{n+1} - q_j differences and v = alpha_0 q + ... assume q and v share a layout
// (planar). Quaternions will need the BDF formula on a local rotation increment and the tangent
// map in dv/dq; M will depend on q. Marked "planar" below.

#include "solve/bdf.h"

#include "model/function.h"
#include "solve/assembly.h"
#include "solve/bdf_coefficients.h"
#include "solve/constraints.h"
#include "solve/forces.h"

#include <Eigen/LU>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace rlx {
namespace {

constexpr int kMaxOrder = 5;
constexpr int kHistory = kMaxOrder + 2;  // points kept: enough for the order k+1 estimate
constexpr int kMaxNewton = 10;
constexpr double kNewtonTolerance = 1e-3; // weighted correction, fraction of the local tolerance
constexpr double kPhiTolerance = 1e-10;    // max |Phi| at a converged step

std::string timeText(double t) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "t = %.6g s", t);
  return buffer;
}

// The forces whose expressions are not finite at the state.
std::vector<std::string> nonFiniteForces(const Model& model, const State& state, Workspace& ws) {
  evaluateSlots(model, state, ws);
  const std::span<const double> slots(ws.slotValues.data(), static_cast<std::size_t>(ws.slotValues.size()));
  std::vector<std::string> names;
  for (const Force& f : model.forces)
    for (const Function& fn : f.functions)
      if (!std::isfinite(evaluate(fn, slots))) {
        names.push_back(f.name);
        break;
      }
  return names;
}

// The owners of the rows along Phi_q's weakest left singular direction (when no row is
// dependent to the tolerance of dependentElements).
std::vector<std::string> weakestElements(const Model& model, const Eigen::MatrixXd& Phi_q) {
  std::vector<std::string> names = dependentElements(model, Phi_q);
  if (!names.empty() || Phi_q.rows() == 0) return names;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Phi_q, Eigen::ComputeFullU);
  const Eigen::VectorXd u = svd.matrixU().col(std::min(Phi_q.rows(), Phi_q.cols()) - 1);
  for (Eigen::Index i = 0; i < u.size(); ++i)
    if (std::abs(u(i)) > 0.1 * u.cwiseAbs().maxCoeff()) {
      const std::string& owner = model.rowOwners[static_cast<std::size_t>(i)];
      if (std::find(names.begin(), names.end(), owner) == names.end()) names.push_back(owner);
    }
  return names;
}

enum class StepOutcome { Converged, Failed, Singular, NotFinite };

class Bdf {
 public:
  Bdf(const Model& model, Workspace& ws, const DynamicsOptions& options, Recorder& recorder,
      SolveReport& report)
      : model_(model), ws_(ws), options_(options), recorder_(recorder), report_(report),
        nv_(model.nv), nc_(model.nh + model.nn), J_(nv_ + nc_, nv_ + nc_), lu_(nv_ + nc_, nv_ + nc_),
        K_(nv_, nv_), R_(nv_ + nc_), d_(nv_ + nc_), Q0_(nv_), G0_(nv_), qp_(nv_), vp_(nv_),
        cq_(nv_), cv_(nv_), q_(nv_), v_(nv_), vdot_(nv_), lambda_(nc_), qe_(nv_), ve_(nv_),
        scratch_(nv_), weights_(2 * nv_) {
    for (auto& x : Qh_) x.resize(nv_);
    for (auto& x : Vh_) x.resize(nv_);
  }

  void run(State& state);

 private:
  void push(const State& state);
  void prepare(int k, double tNew);
  void extrapolate(int degree, double tNew, Eigen::VectorXd& q, Eigen::VectorXd& v);
  bool residual(double tNew);
  bool buildMatrix(double tNew);
  StepOutcome newton(double tNew);
  double errorOf(int degree, double tNew);
  void fail(SolveStatus status, double t, std::vector<std::string> elements, const std::string& why);

  const Model& model_;
  Workspace& ws_;
  const DynamicsOptions& options_;
  Recorder& recorder_;
  SolveReport& report_;
  const int nv_, nc_;

  // Accepted points, newest first.
  std::array<double, kHistory> T_{};
  std::array<Eigen::VectorXd, kHistory> Qh_, Vh_;
  int count_ = 0;
  Eigen::VectorXd vdot0_;  // accelerations at t0 (first predictor)

  std::array<double, kHistory + 1> times_{}, alpha_{}, w_{};
  double a0_ = 0.0;
  Eigen::MatrixXd J_;
  Eigen::FullPivLU<Eigen::MatrixXd> lu_;
  Eigen::MatrixXd K_;
  Eigen::VectorXd R_, d_, Q0_, G0_, qp_, vp_, cq_, cv_, q_, v_, vdot_, lambda_, qe_, ve_, scratch_,
      weights_;
  std::vector<std::string> badForces_;
};

void Bdf::push(const State& state) {
  for (int j = std::min(count_, kHistory - 1); j > 0; --j) {
    T_[static_cast<std::size_t>(j)] = T_[static_cast<std::size_t>(j - 1)];
    Qh_[static_cast<std::size_t>(j)].swap(Qh_[static_cast<std::size_t>(j - 1)]);
    Vh_[static_cast<std::size_t>(j)].swap(Vh_[static_cast<std::size_t>(j - 1)]);
  }
  T_[0] = state.t;
  Qh_[0] = state.q;
  Vh_[0] = state.v;
  count_ = std::min(count_ + 1, kHistory);
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

// BDF weights for order k, the predictor, and the constant parts of v and vdot.
void Bdf::prepare(int k, double tNew) {
  const auto n = static_cast<std::size_t>(k + 1);
  times_[0] = tNew;
  for (std::size_t j = 1; j < n; ++j) times_[j] = T_[j - 1];
  bdfDerivativeWeights(std::span<const double>(times_.data(), n), std::span<double>(alpha_.data(), n));
  a0_ = alpha_[0];
  cq_.setZero();
  cv_.setZero();
  for (std::size_t j = 1; j < n; ++j) {
    cq_ += alpha_[j] * Qh_[j - 1];  // planar
    cv_ += alpha_[j] * Vh_[j - 1];
  }
  extrapolate(k, tNew, qp_, vp_);
  // Error weights from the last accepted point.
  for (int i = 0; i < nv_; ++i) {
    weights_(i) = 1.0 / (options_.tolerance * std::abs(Qh_[0](i)) + options_.tolerance);
    weights_(nv_ + i) = 1.0 / (options_.tolerance * std::abs(Vh_[0](i)) + options_.tolerance);
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
  K_.setZero();
  for (int j = 0; j < nv_; ++j) {
    // Position column: the state moves along v's direction j.
    scratch_.setZero();
    scratch_(j) = 1.0;
    const double eq = 1e-7 * std::max(1.0, std::abs(q_(j)));
    s.q = q_;
    integratePositions(model_, s.q, scratch_, eq);
    evaluateAppliedForces(model_, s, ws_);
    evaluateConstraintDerivatives(model_, s, ws_);
    K_.col(j).noalias() -= (ws_.Q - Q0_) / eq;
    K_.col(j).noalias() += (ws_.Phi_q.transpose() * lambda_ - G0_) / eq;
    // Velocity column.
    s.q = q_;
    const double ev = 1e-7 * std::max(1.0, std::abs(v_(j)));
    s.v = v_;
    s.v(j) += ev;
    evaluateAppliedForces(model_, s, ws_);
    K_.col(j).noalias() -= (a0_ / ev) * (ws_.Q - Q0_);
    s.v = v_;
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
StepOutcome Bdf::newton(double tNew) {
  q_ = qp_;
  v_ = a0_ * q_ + cq_;  // planar
  vdot_ = a0_ * v_ + cv_;
  lambda_ = ws_.lambda;
  for (int i = 0; i < nc_; ++i)
    if (!ws_.active[static_cast<std::size_t>(i)]) lambda_(i) = 0.0;
  double correction = std::numeric_limits<double>::infinity();
  for (int iteration = 0;; ++iteration) {
    if (!residual(tNew)) {
      badForces_ = nonFiniteForces(model_, State{tNew, q_, v_}, ws_);
      return badForces_.empty() ? StepOutcome::Failed : StepOutcome::NotFinite;
    }
    const double phi = model_.nh ? ws_.Phi.cwiseAbs().maxCoeff() : 0.0;
    const double nonholonomic = model_.nn ? R_.tail(model_.nn).cwiseAbs().maxCoeff() / a0_ : 0.0;
    report_.residualNorm = R_.cwiseAbs().maxCoeff();
    if (correction <= kNewtonTolerance && std::max(phi, nonholonomic) <= kPhiTolerance)
      return StepOutcome::Converged;
    if (iteration == kMaxNewton) return StepOutcome::Failed;
    // The matrix at the predictor; a slow iteration gets a fresh one once.
    if ((iteration == 0 || iteration == 4) && !buildMatrix(tNew))
      return J_.allFinite() ? StepOutcome::Singular : StepOutcome::Failed;
    d_.noalias() = lu_.solve(R_ / (a0_ * a0_));
    ++recorder_.stats().newtonIterations;
    const auto dq = d_.head(nv_);
    scratch_ = -dq;
    integratePositions(model_, q_, scratch_, 1.0);
    v_.noalias() -= a0_ * dq;  // planar: dv/dq = alpha_0 I
    vdot_.noalias() -= a0_ * a0_ * dq;
    lambda_ -= a0_ * a0_ * d_.tail(nc_);
    correction = std::sqrt(dq.cwiseProduct(weights_.head(nv_)).squaredNorm() / nv_);
    if (!std::isfinite(correction)) return StepOutcome::Failed;
  }
}

// E_degree of the converged point: ||y - P_degree(tNew)|| / (degree + 1).
double Bdf::errorOf(int degree, double tNew) {
  extrapolate(degree, tNew, qe_, ve_);
  const double h = tNew - T_[0];
  const double sum = (q_ - qe_).cwiseProduct(weights_.head(nv_)).squaredNorm() +
                     (h * (v_ - ve_)).cwiseProduct(weights_.tail(nv_)).squaredNorm();
  return std::sqrt(sum / (2.0 * nv_)) / (degree + 1);
}

void Bdf::fail(SolveStatus status, double t, std::vector<std::string> elements, const std::string& why) {
  report_.status = status;
  report_.time = t;
  report_.elements = std::move(elements);
  report_.message = "dynamic analysis failed at " + timeText(t) + ": " + why;
}

void Bdf::run(State& state) {
  evaluateMassMatrix(model_, ws_);  // planar: constant
  vdot0_ = ws_.vdot;
  push(state);
  int k = 1, stepsAtOrder = 0, failures = 0;
  double h = std::min(options_.step, 0.01 * std::sqrt(options_.tolerance));
  recorder_.stats().maxOrder = 1;
  while (!recorder_.finished()) {
    // The step: at most options.step, landing exactly on the recorder's next stop.
    const double stop = recorder_.nextStop();
    h = std::min(h, options_.step);
    double hTry = h, tNew = state.t + h;
    const bool lands = state.t + 1.1 * h >= stop && stop - state.t <= options_.step;
    if (lands) {
      hTry = stop - state.t;
      tNew = stop;
    }
    prepare(k, tNew);
    const StepOutcome outcome = newton(tNew);
    if (outcome == StepOutcome::NotFinite) {
      fail(SolveStatus::NotFinite, tNew, badForces_,
           "the force " + joinNames(badForces_) + " is not finite (NaN or infinity)");
      return;
    }
    double error = outcome == StepOutcome::Converged ? errorOf(k, tNew) : 0.0;
    if (outcome != StepOutcome::Converged || error > 1.0) {
      // Rejected: Newton failure halves the step, an error failure shrinks it as DASSL.
      ++recorder_.stats().rejectedSteps;
      ++failures;
      if (outcome != StepOutcome::Converged) {
        h = 0.5 * hTry;
      } else {
        if (k > 1 && errorOf(k - 1, tNew) <= error) {
          --k;
          error = errorOf(k, tNew);
        }
        const double r = failures == 1 ? 0.9 * std::pow(2.0 * error + 1e-4, -1.0 / (k + 1)) : 0.25;
        if (failures >= 3) k = 1;
        h = std::clamp(r, 0.25, 0.9) * hTry;
        stepsAtOrder = 0;
      }
      if (h < options_.minStep) {
        const State last{state.t, Qh_[0], Vh_[0]};
        evaluateConstraintDerivatives(model_, last, ws_);
        std::vector<std::string> joints = weakestElements(model_, ws_.Phi_q);
        const std::string why = outcome == StepOutcome::Singular
                                    ? "the iteration matrix is singular"
                                    : outcome == StepOutcome::Failed ? "Newton iterations do not converge"
                                                                      : "the local error stays above the tolerance";
        fail(outcome == StepOutcome::Singular ? SolveStatus::Singular : SolveStatus::MaxIterations,
             state.t, joints,
             why + " with the step below the minimum step (" + std::to_string(options_.minStep) + " s)" +
                 (joints.empty() ? "" : "; joints involved: " + joinNames(joints)));
        return;
      }
      continue;
    }
    // Accepted: the recorder gets the state with its accelerations and multipliers.
    failures = 0;
    state.t = tNew;
    state.q = q_;
    state.v = v_;
    ws_.vdot = vdot_;
    ws_.lambda = lambda_;
    ++recorder_.stats().steps;
    ++stepsAtOrder;
    // Order and step selection from the estimates of orders k-1, k, k+1 (before the push).
    int next = k;
    double nextError = error;
    if (k > 1 && errorOf(k - 1, tNew) <= error) {
      next = k - 1;
      nextError = errorOf(k - 1, tNew);
    } else if (k < kMaxOrder && stepsAtOrder > k && count_ >= k + 2) {
      const double up = errorOf(k + 1, tNew);
      if (up < error) {
        next = k + 1;
        nextError = up;
      }
    }
    if (next != k) stepsAtOrder = 0;
    k = next;
    recorder_.stats().maxOrder = std::max(recorder_.stats().maxOrder, k);
    const double r = std::pow(2.0 * nextError + 1e-4, -1.0 / (k + 1));
    const double hNext = r >= 2.0 ? 2.0 * hTry : r <= 1.0 ? std::clamp(r, 0.5, 0.9) * hTry : hTry;
    h = lands ? (r < 1.0 ? std::min(h, hNext) : h) : hNext;
    push(state);
    if (!recorder_.accept(state, ws_)) {
      report_.status = SolveStatus::Cancelled;
      report_.time = state.t;
      report_.message = "cancelled at " + timeText(state.t);
      return;
    }
  }
}

}  // namespace

void integrateBDF(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report) {
  Bdf bdf(model, ws, options, recorder, report);
  bdf.run(state);
}

}  // namespace rlx
