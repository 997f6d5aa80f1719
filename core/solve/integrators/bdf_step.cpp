#include "solve/integrators/bdf_step.h"

#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/equations/forces.h"
#include "solve/integrators/bdf_coefficients.h"
#include "solve/integrators/position_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace rlx {
namespace {

constexpr int kMaxNewton = 8;
constexpr int kRefreshAt = 3;             // a Newton iteration this slow gets a fresh matrix
constexpr double kNewtonFraction = 1e-3;  // weighted correction, fraction of the local tolerance
constexpr double kPhiTolerance = 1e-10;   // max |Phi| at a converged step
constexpr double kRoundoff = 1e-14;       // relative correction of q that counts as converged
constexpr double kStallRate = 0.5;        // a contraction this slow, positions converged: stalled
constexpr double kSingularResolution = 1e-8;  // relative resolution of positions where Phi_q is singular
constexpr double kSafety = 0.05;  // the local error aimed at, as a fraction of the tolerance

}  // namespace

BdfStep::BdfStep(const Model& model, Workspace& ws, double tolerance, RunStats& stats,
                 bool sparse)
    : model_(model),
      ws_(ws),
      stats_(stats),
      tolerance_(tolerance),
      nv_(model.nv),
      nc_(model.nh + model.nn),
      spatial_(model.dimension == 3),
      J_(sparse ? 0 : nv_ + nc_, sparse ? 0 : nv_ + nc_),
      K_(sparse ? 0 : nv_, sparse ? 0 : nv_),
      lu_(sparse ? 0 : nv_ + nc_, sparse ? 0 : nv_ + nc_),
      R_(nv_ + nc_),
      d_(nv_ + nc_),
      rhs_(nv_ + nc_),
      Q0_(nv_),
      G0_(nv_),
      qp_(model.nq),
      vp_(nv_),
      xp_(nv_),
      cq_(nv_),
      cv_(nv_),
      q_(model.nq),
      xi_(nv_),
      v_(nv_),
      vdot_(nv_),
      lambda_(nc_),
      qe_(nv_),
      ve_(nv_),
      qs_(model.nq),
      scratch_(nv_),
      weights_(2 * nv_) {
  for (auto& x : Qh_) x.resize(model.nq);
  for (auto& x : Xh_) x.resize(nv_);
  for (auto& x : Vh_) x.resize(nv_);
  for (auto* x : {&corrQ_, &corrV_, &lastCorrQ_, &lastCorrV_}) x->setZero(nv_);
  point_.q.setZero(model.nq);
  point_.v.setZero(nv_);
  if (!sparse) return;
  sparse_.emplace(model, ws, true);
  active_.setZero(nv_ + static_cast<Eigen::Index>(sparse_->rows().size()));
  product_.setZero(nv_);
}

void BdfStep::start(const State& state) {
  evaluateMassMatrix(model_, state, ws_);  // planar: constant; spatial: at every residual
  vdot0_ = ws_.vdot;
  count_ = 0;
  lastCorrOrder_ = 0;
  push(state);
}

BdfStep::Outcome BdfStep::solve(int k, double tNew) {
  k_ = k;
  t_ = tNew;
  prepare(k, tNew);
  return newton(tNew);
}

// E_k = |y - P_k| / (1 + x_k); 1/2 after the Taylor predictor of the first step.
double BdfStep::error(int k, double tNew) {
  corrQ_ = xi_ - xp_;
  corrV_ = v_ - vp_;
  return projectedNorm(corrQ_, corrV_) / (count_ == 1 ? 2.0 : 1.0 + ratio(k, tNew));
}

bool BdfStep::canRaise(int k) const {
  return k < kMaxOrder && lastCorrOrder_ == k && count_ >= k + 2;
}

void BdfStep::accept(State& state, bool keepCorrection) {
  state.t = t_;
  state.q = q_;
  state.v = v_;
  ws_.vdot = vdot_;
  ws_.lambda = lambda_;
  lastCorrQ_.swap(corrQ_);
  lastCorrV_.swap(corrV_);
  lastCorrOrder_ = keepCorrection ? k_ : 0;
  push(state);
}

void BdfStep::activeRowsChanged() {
  if (!sparse_) return;  // the dense matrix reads ws.active when it is built
  sparse_.emplace(model_, ws_, true);
  active_.setZero(nv_ + static_cast<Eigen::Index>(sparse_->rows().size()));
}

void BdfStep::push(const State& state) {
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
  // The past positions in the chart around the newest one.
  for (std::size_t j = 0; j < static_cast<std::size_t>(count_); ++j)
    toChart(model_, Qh_[0], Qh_[j], Xh_[j]);
}

// alpha_0 of the given order at tNew: sum over the last `order` points of 1 / (tNew - t_j).
double BdfStep::leading(int order, double tNew) const {
  double sum = 0.0;
  for (int j = 0; j < order; ++j) sum += 1.0 / (tNew - T_[static_cast<std::size_t>(j)]);
  return sum;
}

// x_j = alpha_0^(j) (tNew - t_{n+1-j}): the predictor error over the corrector error at order j.
double BdfStep::ratio(int order, double tNew) const {
  return leading(order, tNew) * (tNew - T_[static_cast<std::size_t>(order)]);
}

// The polynomial of the given degree through the newest degree+1 points, at tNew: positions in
// the chart around the newest point (xi), velocities as vectors. With a single point: the Taylor
// step from v_0 and vdot_0.
void BdfStep::extrapolate(int degree, double tNew, Eigen::VectorXd& xi, Eigen::VectorXd& v) {
  if (count_ == 1) {
    qs_ = Qh_[0];
    integratePositions(model_, qs_, Vh_[0], tNew - T_[0]);
    toChart(model_, Qh_[0], qs_, xi);
    v = Vh_[0] + (tNew - T_[0]) * vdot0_;
    return;
  }
  const auto n = static_cast<std::size_t>(degree + 1);
  lagrangeWeights(std::span<const double>(T_.data(), n), tNew, std::span<double>(w_.data(), n));
  xi.setZero();
  v.setZero();
  for (std::size_t j = 0; j < n; ++j) {
    xi += w_[j] * Xh_[j];
    v += w_[j] * Vh_[j];
  }
}

// BDF weights of order k, the predictor, the constant parts of v and vdot, the error weights.
void BdfStep::prepare(int k, double tNew) {
  const auto n = static_cast<std::size_t>(k + 1);
  times_[0] = tNew;
  for (std::size_t j = 1; j < n; ++j) times_[j] = T_[j - 1];
  bdfDerivativeWeights(std::span<const double>(times_.data(), n),
                       std::span<double>(alpha_.data(), n));
  a0_ = alpha_[0];
  cq_.setZero();
  cv_.setZero();
  for (std::size_t j = 1; j < n; ++j) {
    cq_ += alpha_[j] * Xh_[j - 1];
    cv_ += alpha_[j] * Vh_[j - 1];
  }
  extrapolate(k, tNew, xp_, vp_);
  fromChart(model_, Qh_[0], xp_, qp_);
  const double tol = kSafety * tolerance_;
  for (int i = 0; i < nv_; ++i) {
    weights_(i) = 1.0 / (tol * (1.0 + std::abs(Qh_[0](i))));
    weights_(nv_ + i) = 1.0 / (tol * (1.0 + std::abs(Vh_[0](i))));
  }
  // Spatial: the centre of mass scales its own error; rotations are absolute (radians).
  if (spatial_) {
    for (const Body& b : model_.bodies) {
      for (int i = 0; i < 3; ++i)
        weights_(b.v + i) = 1.0 / (tol * (1.0 + std::abs(Qh_[0](b.q + i))));
      weights_.segment<3>(b.v + 3).setConstant(1.0 / tol);
    }
  }
}

// R_ at (q_, v_, vdot_, lambda_); false if not finite.
bool BdfStep::residual(double tNew) {
  State& s = point_;
  s.t = tNew;
  s.q = q_;
  s.v = v_;
  if (spatial_) evaluateMassMatrix(model_, s, ws_);
  evaluatePhi(model_, s, ws_);
  evaluateConstraintDerivatives(model_, s, ws_);
  evaluateAppliedForces(model_, s, ws_);
  ++stats_.rhsEvaluations;
  R_.head(nv_).noalias() = ws_.M * vdot_;
  R_.head(nv_) -= ws_.Q;
  R_.head(nv_).noalias() += ws_.Phi_q.transpose() * lambda_;
  for (int i = 0; i < nc_; ++i) {
    const double value =
        i < model_.nh ? a0_ * a0_ * ws_.Phi(i) : a0_ * (ws_.Phi_q.row(i).dot(v_) - ws_.nu(i));
    R_(nv_ + i) = ws_.active[static_cast<std::size_t>(i)] ? value : 0.0;
  }
  return R_.allFinite();
}

// The iteration matrix at (q_, v_, lambda_), by forward differences of Q and Phi_q^T lambda
// (large models: buildSparseMatrix).
bool BdfStep::buildMatrix(double tNew) {
  ++stats_.iterationMatrices;
  if (sparse_) return buildSparseMatrix(tNew);
  State s{tNew, q_, v_};
  evaluateAppliedForces(model_, s, ws_);
  Q0_ = ws_.Q;
  evaluateConstraintDerivatives(model_, s, ws_);
  G0_.noalias() = ws_.Phi_q.transpose() * lambda_;
  if (spatial_) {
    evaluateMassMatrix(model_, s, ws_);
    G0_.noalias() += ws_.M * vdot_;
  }
  for (int j = 0; j < nv_; ++j) {
    // Position column: the state moves along v's direction j (spatial: M depends on it too).
    scratch_.setZero();
    scratch_(j) = 1.0;
    const double eq = 1e-7 * std::max(1.0, std::abs(xi_(j)));
    integratePositions(model_, s.q, scratch_, eq);
    evaluateAppliedForces(model_, s, ws_);
    evaluateConstraintDerivatives(model_, s, ws_);
    K_.col(j).noalias() = ws_.Phi_q.transpose() * lambda_ - G0_ - (ws_.Q - Q0_);
    if (spatial_) {
      evaluateMassMatrix(model_, s, ws_);
      K_.col(j).noalias() += ws_.M * vdot_;
    }
    K_.col(j) /= eq;
    s.q = q_;
    // Velocity column.
    const double ev = 1e-7 * std::max(1.0, std::abs(v_(j)));
    s.v(j) += ev;
    evaluateAppliedForces(model_, s, ws_);
    K_.col(j).noalias() -= (a0_ / ev) * (ws_.Q - Q0_);
    s.v(j) = v_(j);
  }
  stats_.rhsEvaluations += 2 * nv_ + 1;
  evaluateConstraintDerivatives(model_, s, ws_);
  if (spatial_) evaluateMassMatrix(model_, s, ws_);
  J_.setZero();
  J_.topLeftCorner(nv_, nv_) = ws_.M + K_ / (a0_ * a0_);
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

// The sparse iteration matrix at (q_, v_, lambda_): ws holds M, Phi_q and Q there (residual).
bool BdfStep::buildSparseMatrix(double tNew) {
  point_.t = tNew;  // point_ holds q_ and v_ (residual)
  return sparse_->form(point_, lambda_, 1.0, 1.0 / (a0_ * a0_), 1.0 / a0_, stats_);
}

void BdfStep::solveMatrix(Eigen::VectorXd& x) {
  if (!sparse_) {
    const Eigen::VectorXd b = x;
    x.noalias() = lu_.solve(b);
    return;
  }
  // J's unknowns: the velocities, then the active rows; the others' corrections are zero.
  const std::vector<Eigen::Index>& rows = sparse_->rows();
  const auto m = static_cast<Eigen::Index>(rows.size());
  active_.head(nv_) = x.head(nv_);
  for (Eigen::Index k = 0; k < m; ++k)
    active_(nv_ + k) = x(nv_ + rows[static_cast<std::size_t>(k)]);
  sparse_->solveInPlace(active_);
  x.head(nv_) = active_.head(nv_);
  x.tail(nc_).setZero();
  for (Eigen::Index k = 0; k < m; ++k)
    x(nv_ + rows[static_cast<std::size_t>(k)]) = active_(nv_ + k);
}

// Newton iterations from the predictor; on success q_, v_, vdot_, lambda_ hold the new point.
BdfStep::Outcome BdfStep::newton(double tNew) {
  q_ = qp_;
  xi_ = xp_;
  velocities();
  lambda_ = ws_.lambda;
  for (int i = 0; i < nc_; ++i)
    if (!ws_.active[static_cast<std::size_t>(i)]) lambda_(i) = 0.0;
  double correction = std::numeric_limits<double>::infinity();
  bool roundoff = false, stalled = false, noisy = false;
  for (int iteration = 0;; ++iteration) {
    if (!residual(tNew)) {
      badForce_ = findNonFiniteForce(model_, point_, ws_);
      return badForce_.element.empty() ? Outcome::Failed : Outcome::NotFinite;
    }
    // The active rows' |Phi| (R_ holds alpha_0^2 Phi on them, zero on redundant rows).
    const double phi =
        model_.nh ? R_.segment(nv_, model_.nh).cwiseAbs().maxCoeff() / (a0_ * a0_) : 0.0;
    const double nonholonomic = model_.nn ? R_.tail(model_.nn).cwiseAbs().maxCoeff() / a0_ : 0.0;
    const double positionRounding = kRoundoff * (1.0 + q_.cwiseAbs().maxCoeff());
    const bool atNoise = noisy && phi <= positionRounding;
    if ((correction <= kNewtonFraction || roundoff || stalled || atNoise) &&
        std::max(phi, nonholonomic) <= kPhiTolerance) {
      // At the noise, the error estimates measure only what lies above it (the last correction).
      if (atNoise) floorErrorWeights(d_.head(nv_).cwiseAbs().maxCoeff());
      return Outcome::Converged;
    }
    if (iteration == kMaxNewton) return Outcome::Failed;
    // The matrix at the predictor; a slow iteration gets a fresh one once.
    if ((iteration == 0 || iteration == kRefreshAt) && !buildMatrix(tNew))
      return (sparse_ ? sparse_->finite() : J_.allFinite()) ? Outcome::Singular : Outcome::Failed;
    d_ = R_ / (a0_ * a0_);
    solveMatrix(d_);
    ++stats_.newtonIterations;
    const auto dq = d_.head(nv_);
    // The tangent increment in the chart: xi <- xi - T(xi)^-1 dq.
    scratch_ = dq;
    velocityToChart(model_, xi_, scratch_);
    xi_ -= scratch_;
    fromChart(model_, Qh_[0], xi_, q_);
    if (spatial_) {
      velocities();
    } else {
      v_.noalias() -= a0_ * dq;  // planar: dv/dq = alpha_0 I
      vdot_.noalias() -= a0_ * a0_ * dq;
    }
    lambda_.noalias() -= a0_ * a0_ * d_.tail(nc_);
    // The larger of the weighted corrections of q and of v.
    const double cq = dq.cwiseProduct(weights_.head(nv_)).cwiseAbs().maxCoeff();
    const double cv = a0_ * dq.cwiseProduct(weights_.tail(nv_)).cwiseAbs().maxCoeff();
    const double previous = correction;
    correction = std::max(cq, cv);
    // Positions converged and the velocity correction no longer contracting: it is alpha_0 times
    // the noise of the solve (stalled).
    stalled = iteration > 0 && cq <= kNewtonFraction && correction > kStallRate * previous;
    roundoff = dq.cwiseAbs().maxCoeff() <= kRoundoff * (1.0 + q_.cwiseAbs().maxCoeff());
    // Near a singular configuration the solve amplifies the rounding of Phi: a correction of q
    // within max(tol, 1e-8) (1 + |q|) that no longer contracts, with Phi at rounding (checked
    // above), is noise (Phi is quadratic along the direction Phi_q loses: it fixes positions
    // there only to about sqrt(eps)).
    noisy = iteration > 0 && correction > kStallRate * previous &&
            dq.cwiseAbs().maxCoeff() <=
                std::max(tolerance_, kSingularResolution) * (1.0 + q_.cwiseAbs().maxCoeff());
    if (!std::isfinite(correction)) return Outcome::Failed;
  }
}

// The error weights with the Newton noise `dq` (m or rad, of the positions; alpha_0 dq of the
// velocities) added to their scales.
void BdfStep::floorErrorWeights(double dq) {
  weights_.head(nv_) = (weights_.head(nv_).cwiseInverse().array() + dq).inverse().matrix();
  weights_.tail(nv_) = (weights_.tail(nv_).cwiseInverse().array() + a0_ * dq).inverse().matrix();
}

// v and vdot of the BDF formula at the iterate xi_: v = T(xi) (alpha_0 xi + cq), vdot = alpha_0 v
// + cv.
void BdfStep::velocities() {
  v_ = a0_ * xi_ + cq_;
  chartToVelocity(model_, xi_, v_);
  vdot_ = a0_ * v_ + cv_;
}

// Weighted RMS norm of (eq, ev) after projection onto the tangent space Phi_q e = 0 (through the
// factored iteration matrix: the projection in the metric of its upper-left block).
double BdfStep::projectedNorm(const Eigen::VectorXd& eq, const Eigen::VectorXd& ev) {
  double sum = 0.0;
  for (int part = 0; part < 2; ++part) {
    const Eigen::VectorXd& e = part == 0 ? eq : ev;
    if (sparse_) {
      sparse_->multiplyTopLeft(e, product_);
      rhs_.head(nv_) = product_;
    } else {
      rhs_.head(nv_).noalias() = J_.topLeftCorner(nv_, nv_) * e;
    }
    rhs_.tail(nc_).setZero();
    d_ = rhs_;
    solveMatrix(d_);
    sum += d_.head(nv_).cwiseProduct(weights_.segment(part * nv_, nv_)).squaredNorm();
  }
  return std::sqrt(sum / (2.0 * nv_));
}

// Local error estimate of order k-1 at the converged point: (y - P_{k-1}) / x_{k-1}.
double BdfStep::errorBelow(int k, double tNew) {
  extrapolate(k - 1, tNew, qe_, ve_);
  qe_ = xi_ - qe_;
  ve_ = v_ - ve_;
  return projectedNorm(qe_, ve_) / ratio(k - 1, tNew);
}

// Local error estimate of order k+1: the change of the correction y - P_k since the last step,
// scaled by x_k / ((1 + x_k) x_{k+1}) (docs/integrators-bdf.md).
double BdfStep::errorAbove(int k, double tNew) {
  qe_ = corrQ_ - lastCorrQ_;
  ve_ = corrV_ - lastCorrV_;
  const double xk = ratio(k, tNew), xk1 = ratio(k + 1, tNew);
  return projectedNorm(qe_, ve_) * xk / ((1.0 + xk) * xk1);
}

// The velocity constraint defect max |Phi_q v^(j) - nu| over the holonomic rows, of the order-j BDF
// velocities v^(j) = D_j q at the new point, weighted like the velocities: the O(h^j) error of the
// index-3 velocities that the projected estimates leave out. ws_ holds Phi_q and nu at q_.
double BdfStep::velocityDefect(int order, double tNew) {
  const auto n = static_cast<std::size_t>(order + 1);
  times_[0] = tNew;
  for (std::size_t j = 1; j < n; ++j) times_[j] = T_[j - 1];
  bdfDerivativeWeights(std::span<const double>(times_.data(), n),
                       std::span<double>(alpha_.data(), n));
  ve_ = alpha_[0] * xi_;
  for (std::size_t j = 1; j < n; ++j) ve_ += alpha_[j] * Xh_[j - 1];
  chartToVelocity(model_, xi_, ve_);
  double worst = 0.0;
  for (int i = 0; i < model_.nh; ++i)
    if (ws_.active[static_cast<std::size_t>(i)])
      worst = std::max(worst, std::abs(ws_.Phi_q.row(i).dot(ve_) - ws_.nu(i)));
  return worst / (kSafety * tolerance_ * (1.0 + v_.cwiseAbs().maxCoeff()));
}

}  // namespace rlx
