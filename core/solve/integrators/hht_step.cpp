#include "solve/integrators/hht_step.h"

#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/equations/forces.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlx {
namespace {

constexpr int kMaxIterations = 10;
constexpr int kMaxClosedFormMatrices = 5;    // closed-form J: formed at most this often per step
constexpr double kSlowRate = 0.5;            // contraction rate that triggers a new J
constexpr double kStepChange = 0.25;         // relative change of h that triggers a new J
constexpr double kPositionRoundoff = 1e-14;  // m or rad: positions cannot be resolved finer
constexpr double kPositionUlps = 16;         // nor finer than this many ulps of the largest
constexpr double kStallRate = 0.9;           // corrections that no longer contract: a stall
// Positions at a singular configuration are fixed by the constraints only to about sqrt(eps)
// relative: Phi is quadratic along the direction Phi_q loses.
constexpr double kSingularResolution = 1e-8;
constexpr double kRateGrowth = 0.8;          // assumed rate of the next step: rate^0.8
constexpr double kMatrixCost = 2.0;          // closed-form J formed and factored, in iterations
constexpr double kRunawayFactor = 100.0;     // a step displacing a body more (sizes, rad) fails

// Iterations until the remainder test passes, the first of them with a correction of `norm` and
// every one contracting by `rate`.
double iterationsToConverge(double norm, double rate) {
  if (rate >= 1) return std::numeric_limits<double>::infinity();
  const double remainder = rate / (1 - rate) * norm;
  return remainder <= 1 ? 1 : 1 + std::ceil(std::log(remainder) / -std::log(rate));
}

}  // namespace

HHTStep::HHTStep(const Model& model, Workspace& ws, double alpha, double tolerance, bool sparse)
    : model_(model),
      ws_(ws),
      alpha_(alpha),
      beta_((1 - alpha) * (1 - alpha) / 4),
      gamma_((1 - 2 * alpha) / 2),
      tolerance_(tolerance),
      sparse_(sparse),
      matrix_(model, ws, sparse),
      rows_(matrix_.rows()) {
  fusedConstraints_ =
      matrix_.closedFormConstraints() && (rows_.empty() || rows_.back() < model.nh);
  n_ = model.nv;
  m_ = static_cast<Eigen::Index>(rows_.size());
  an_.setZero(n_);
  anStep_.setZero(n_);
  aRate_.setZero(n_);
  lambdaRate_.setZero(m_);
  a_.setZero(n_);
  // A step's displacement limit: kRunawayFactor model sizes or radians.
  displacementLimit_.setConstant(n_, kRunawayFactor);
  const double size = kRunawayFactor * modelSize(model, model.q0);
  for (const Body& b : model.bodies)
    displacementLimit_.segment(b.v, model.dimension).setConstant(size);
  vdotn_.setZero(n_);
  weightedA_.setZero(n_);
  lambdan_.setZero(m_);
  lambda_.setZero(m_);
  lambdaAll_.setZero(ws.lambda.size());
  increment_.setZero(n_);
  residual_.setZero(n_ + m_);
  delta_.setZero(n_ + m_);
  F_.setZero(n_);
  constraintForce_.setZero(n_);
  dF_.setZero(n_);
  trial_.q.setZero(model.nq);
  trial_.v.setZero(n_);
  predictor_ = trial_;
  evaluateMassMatrix(model_, trial_, ws_);
  massScale_ = std::max(1.0, ws_.M.diagonal().maxCoeff());
  constantMass_ = ws_.M.pruned();
}

void HHTStep::start() {
  assumedRate_ = 1.0;
  an_ = ws_.vdot;
  anStep_ = an_;
  hn_ = 0.0;
  aRate_.setZero();
  lambdaRate_.setZero();
  for (Eigen::Index k = 0; k < m_; ++k)
    lambdan_(k) = ws_.lambda(rows_[static_cast<std::size_t>(k)]);
  vdotn_ = ws_.vdot;
}

void HHTStep::updateTrial(const State& accepted, double h) {
  // Newmark: q = q_n (+) [h v_n + h^2 ((1/2 - beta) a_n + beta a)], v = v_n + h ((1 - gamma) a_n +
  // gamma a)
  increment_ = h * accepted.v + (h * h) * ((0.5 - beta_) * anStep_ + beta_ * a_);
  trial_.q = accepted.q;
  integratePositions(model_, trial_.q, increment_, 1.0);
  trial_.v = accepted.v + h * ((1 - gamma_) * anStep_ + gamma_ * a_);
}

bool HHTStep::evaluateResidual(const State& accepted, double h, RunStats& stats) {
  updateTrial(accepted, h);
  // Planar M is constant (evaluated in the constructor).
  if (model_.dimension == 3) {
    evaluateMassMatrix(model_, trial_, ws_);
    massScale_ = std::max(1.0, ws_.M.diagonal().maxCoeff());
  }
  evaluateAppliedForces(model_, trial_, ws_);
  ++stats.rhsEvaluations;
  expandMultipliers(lambda_);
  // e1 = M(q_{n+1}) (a + alpha vdot_n) / (1 + alpha) + Phi_q^T lambda - Q
  weightedA_ = (a_ + alpha_ * vdotn_) / (1 + alpha_);
  auto e1 = residual_.head(n_);
  if (!sparse_) {
    evaluateConstraints(model_, trial_, ws_);
    e1.noalias() = ws_.M * weightedA_;
    e1 -= ws_.Q;
    e1.noalias() += ws_.Phi_q.transpose() * lambdaAll_;
  } else {
    // Phi and Phi_q^T lambda in one pass where J is kept (Phi_q itself only to form J).
    phiQCurrent_ = !(fusedConstraints_ && factored_);
    if (phiQCurrent_) {
      evaluateConstraints(model_, trial_, ws_);
      constraintForce_.noalias() = ws_.Phi_q.transpose() * lambdaAll_;
    } else {
      evaluatePhiAndConstraintForce(model_, trial_, lambdaAll_, ws_, constraintForce_);
    }
    // M a row by row over its nonzeros (planar: the constant M without its structural zeros).
    const SparseMatrix& M = model_.dimension == 3 ? ws_.M : constantMass_;
    const double* mass = M.valuePtr();
    const int* massColumns = M.innerIndexPtr();
    const int* massRows = M.outerIndexPtr();
    for (Eigen::Index i = 0; i < n_; ++i) {
      double Ma = 0.0;
      for (int p = massRows[i]; p < massRows[i + 1]; ++p)
        Ma += mass[p] * weightedA_(massColumns[p]);
      e1(i) = Ma - ws_.Q(i) + constraintForce_(i);
    }
  }
  // e2: holonomic Phi / (beta h^2), nonholonomic (A v - b) / (gamma h)
  for (Eigen::Index k = 0; k < m_; ++k) {
    const Eigen::Index row = rows_[static_cast<std::size_t>(k)];
    residual_(n_ + k) = row < model_.nh
                            ? ws_.Phi(row) / (beta_ * h * h)
                            : (ws_.Phi_q.row(row).dot(trial_.v) - ws_.nu(row)) / (gamma_ * h);
  }
  return residual_.allFinite() && trial_.q.allFinite() && trial_.v.allFinite();
}

void HHTStep::expandMultipliers(const Eigen::VectorXd& active) {
  for (Eigen::Index k = 0; k < m_; ++k) lambdaAll_(rows_[static_cast<std::size_t>(k)]) = active(k);
}

bool HHTStep::formIterationMatrix(double h, RunStats& stats) {
  // At the iterate: ws holds M and the residual's Phi_q (sparse and fused: Phi_q evaluated here).
  if (sparse_ && !phiQCurrent_) evaluateConstraintDerivatives(model_, trial_, ws_);
  expandMultipliers(lambda_);
  factored_ = matrix_.form(trial_, lambdaAll_, 1 + alpha_, beta_ * h * h, gamma_ * h, stats);
  hJ_ = h;
  ++stats.iterationMatrices;
  return factored_;
}

double HHTStep::correctionNorm(double h) {
  // Corrections of the multipliers count through the generalized forces Phi_q^T dlambda: a
  // component Phi_q^T cannot see (near a singular configuration) does not move the system.
  // dF: Phi_q^T as J was formed (by the solve); F: sparse, the residual's Phi_q^T lambda less dF.
  if (sparse_)
    F_ = constraintForce_ - dF_;
  else
    matrix_.multiplyConstraintTranspose(lambda_, F_);
  // Corrections below the rounding of positions (a q / (beta h^2)) cannot be resolved.
  const double floorA = positionRoundoff_ / (beta_ * h * h);
  const double floorF = floorA * massScale_;
  double norm = 0.0;
  for (Eigen::Index i = 0; i < n_; ++i)
    norm = std::max({norm, std::abs(delta_(i)) / (tolerance_ * (1 + std::abs(a_(i))) + floorA),
                     std::abs(dF_(i)) / (tolerance_ * (1 + std::abs(F_(i))) + floorF)});
  return norm;
}

StepOutcome HHTStep::solve(const State& accepted, double h, double tNext, RunStats& stats) {
  badForce_ = {};
  trial_.t = tNext;
  // The rounding of positions grows with the largest coordinate: Phi carries the rounding of the
  // coordinates it combines (a 5 km chain: 9e-13 m, Newton's corrections up to 6e-12 m).
  const double largest = accepted.q.cwiseAbs().maxCoeff();
  positionRoundoff_ =
      std::max(kPositionRoundoff, kPositionUlps * std::numeric_limits<double>::epsilon() * largest);
  // a_n approximates vdot(t_n + alpha h_n); a step of another length needs it at t_n + alpha h:
  // moved along the last step's rate, so that the method stays second order as h changes.
  anStep_ = an_;
  if (hn_ > 0 && h != hn_) anStep_ += (alpha_ * (h - hn_)) * aRate_;
  // Predictor: a and lambda extrapolated linearly from the last two steps.
  a_ = anStep_ + h * aRate_;
  lambda_ = lambdan_ + h * lambdaRate_;
  if (factored_ && std::abs(h / hJ_ - 1) > kStepChange) factored_ = false;
  // Dense J: the contraction rate last measured, grown, is assumed for the first iteration.
  const bool refresh = !sparse_;
  if (refresh) assumedRate_ = std::pow(std::max(assumedRate_, 1e-16), kRateGrowth);
  bool fresh = false;   // J formed during this step
  int formedInStep = 0;
  int sinceFactor = 0;  // iterations with the current J
  double previous = 0.0;
  for (int k = 0; k < 2 * kMaxIterations; ++k) {
    if (!evaluateResidual(accepted, h, stats)) {
      badForce_ = findNonFiniteForce(model_, trial_, ws_);
      return StepOutcome::NotFinite;
    }
    if (k == 0) predictor_ = trial_;
    // Dense J: its mass and constraint blocks at the predictor, factored again.
    if (k == 0 && refresh && factored_) factored_ = matrix_.refresh();
    if (!factored_) {
      if (!formIterationMatrix(h, stats)) return StepOutcome::Singular;
      fresh = true;
      ++formedInStep;
      sinceFactor = 0;
    }
    // Newton update [a; lambda] -= J^-1 [e1; e2]
    delta_ = residual_;
    matrix_.solveInPlace(delta_, dF_);
    a_ -= delta_.head(n_);
    lambda_ -= delta_.tail(m_);
    ++stats.newtonIterations;
    const double norm = correctionNorm(h);
    if (!std::isfinite(norm)) return StepOutcome::Singular;
    const double rate = sinceFactor > 0 ? norm / previous : 0.0;
    if (refresh && sinceFactor > 0) assumedRate_ = rate;
    const double extrapolated = sinceFactor > 0 ? rate : k == 0 && refresh ? assumedRate_ : 1.0;
    // Newton's quadratic convergence: a J formed at an iterate whose correction was x contracts by
    // about c x.
    if (fresh && sinceFactor == 1) nonlinearity_ = rate / previous;
    previous = norm;
    ++sinceFactor;
    if (norm <= 1 || (extrapolated < 1 && extrapolated / (1 - extrapolated) * norm <= 1) ||
        (sinceFactor > 1 && rate > kStallRate && stalledAtRounding(h))) {
      updateTrial(accepted, h);
      return runaway() ? StepOutcome::MaxIterations : StepOutcome::Converged;
    }
    // Too slow to converge within the iterations left, or diverging: a fresh J at the current
    // iterate, unless this one is fresh already. A closed-form J is cheap: formed again at the
    // current iterate (Newton's own matrix) a few times before the step fails.
    const int left = kMaxIterations - sinceFactor;
    const bool slow = rate > kSlowRate || (sinceFactor > 1 && norm * std::pow(rate, left) > 1);
    const bool again = matrix_.closedFormConstraints() && formedInStep < kMaxClosedFormMatrices;
    if (fresh && !again && (rate >= 1 || left <= 0)) return StepOutcome::MaxIterations;
    if (slow && (!fresh || again)) factored_ = false;
    // A closed-form J is also formed again at the next iterate when that costs less in all.
    if (factored_ && again && sinceFactor > 1 && renewalPays(norm, rate)) factored_ = false;
  }
  return StepOutcome::MaxIterations;
}

bool HHTStep::stalledAtRounding(double h) const {
  // The constraints at the rounding of the positions, and the positions' corrections within the
  // tolerance or the resolution of a singular configuration: what is left is the rounding of a
  // near-singular solve.
  const double scale = beta_ * h * h;
  double phi = 0.0;
  for (Eigen::Index k = 0; k < m_; ++k)
    if (rows_[static_cast<std::size_t>(k)] < model_.nh)
      phi = std::max(phi, std::abs(residual_(n_ + k)) * scale);
  const double size = 1.0 + trial_.q.cwiseAbs().maxCoeff();
  return phi <= kPositionRoundoff * size &&
         scale * delta_.head(n_).cwiseAbs().maxCoeff() <=
             std::max(tolerance_, kSingularResolution) * size;
}

bool HHTStep::runaway() const {
  // The step's displacement (the trial's increment) against its limit.
  return (increment_.array().abs() > displacementLimit_.array()).any();
}

bool HHTStep::renewalPays(double norm, double rate) const {
  // The next correction is about rate norm with either J; a J formed there contracts by c times
  // it, and only its second iteration has a measured rate.
  if (nonlinearity_ <= 0) return false;
  const double next = rate * norm;
  const double renewedRate = nonlinearity_ * next;
  const double keep = iterationsToConverge(next, rate);
  const double renew =
      kMatrixCost + (next <= 1 ? 1 : 1 + iterationsToConverge(renewedRate * next, renewedRate));
  return renew < keep;
}

double HHTStep::errorEstimate(double h) const {
  // q''' from the change of a over the last two steps, (a - a_{n-1}) / (h + h_n), a_{n-1} =
  // a_n - h_n aRate (the first step: over this one alone). Over one step the estimate would carry
  // the parasitic root of the index-3 method (a - a_n alternates about its trend after every
  // change of h); over two, most of that cancels.
  double largest = 0.0;
  for (Eigen::Index i = 0; i < n_; ++i)
    largest = std::max(largest, std::abs(a_(i) - anStep_(i) + hn_ * aRate_(i)));
  return std::abs(beta_ - 1.0 / 6.0) * h * h * h * largest / (h + hn_);
}

void HHTStep::accept(State& state) {
  // vdot_{n+1}, the acceleration e1 = 0 holds with at t_{n+1}
  vdotn_ = (a_ + alpha_ * vdotn_) / (1 + alpha_);
  const double h = trial_.t - state.t;
  aRate_ = (a_ - anStep_) / h;
  lambdaRate_ = (lambda_ - lambdan_) / h;
  an_ = a_;
  hn_ = h;
  lambdan_ = lambda_;
  state = trial_;
  ws_.vdot = a_;
  ws_.lambda.setZero();
  for (Eigen::Index k = 0; k < m_; ++k) ws_.lambda(rows_[static_cast<std::size_t>(k)]) = lambda_(k);
}

}  // namespace rlx
