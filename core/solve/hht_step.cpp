#include "solve/hht_step.h"

#include "solve/constraints.h"
#include "solve/force_check.h"
#include "solve/forces.h"
#include "solve/planar_stiffness.h"
#include "solve/sparse_pattern.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlx {
namespace {

constexpr int kMaxIterations = 10;
constexpr int kMaxClosedFormMatrices = 5;    // closed-form J: formed at most this often per step
constexpr double kSlowRate = 0.5;            // contraction rate that triggers a new J
constexpr double kStepChange = 0.25;         // relative change of h that triggers a new J
constexpr double kDifference = 1e-7;         // forward-difference increment (m, rad, m/s, rad/s)
constexpr double kSingularRcond = 1e-14;     // reciprocal condition number of a singular J
constexpr double kPositionRoundoff = 1e-14;  // m or rad: positions cannot be resolved finer
constexpr double kRateGrowth = 0.8;          // assumed rate of the next step: rate^0.8
constexpr double kSingularPivot = 1e-14;     // min/max |U_kk| of a singular refreshed J
constexpr double kMatrixCost = 2.0;          // closed-form J formed and factored, in iterations

// Iterations until the remainder test passes, the first of them with a correction of `norm` and
// every one contracting by `rate`.
double iterationsToConverge(double norm, double rate) {
  if (rate >= 1) return std::numeric_limits<double>::infinity();
  const double remainder = rate / (1 - rate) * norm;
  return remainder <= 1 ? 1 : 1 + std::ceil(std::log(remainder) / -std::log(rate));
}

// Records the body pairs the closed-form K and C add blocks to: for each column body, its row
// bodies.
class PatternSink : public StiffnessSink {
 public:
  explicit PatternSink(std::vector<std::vector<int>>& rowBodies) : rowBodies_(rowBodies) {}
  void add(int rowBody, int colBody, const Eigen::Matrix3d&) override {
    rowBodies_[static_cast<std::size_t>(colBody)].push_back(rowBody);
  }

 private:
  std::vector<std::vector<int>>& rowBodies_;
};

}  // namespace

// Adds 3x3 blocks between two bodies into J's top left block (the sparse pattern holds the
// blocks of blockBodies_: column j's first entries are the velocities of blockBodies_[body of j],
// in order).
class HHTStep::MatrixSink : public StiffnessSink {
 public:
  explicit MatrixSink(HHTStep& step) : step_(step) {}
  void add(int rowBody, int colBody, const Eigen::Matrix3d& block) override {
    const Eigen::Index row = step_.model_.bodies[static_cast<std::size_t>(rowBody)].v;
    const Eigen::Index col = step_.model_.bodies[static_cast<std::size_t>(colBody)].v;
    if (!step_.sparse_) {
      step_.J_.block<3, 3>(row, col) += block;
      return;
    }
    const std::vector<int>& near = step_.blockBodies_[static_cast<std::size_t>(colBody)];
    const auto offset = 3 * (std::lower_bound(near.begin(), near.end(), rowBody) - near.begin());
    for (Eigen::Index k = 0; k < 3; ++k) {
      double* values = step_.sparseJ_.valuePtr() + step_.sparseJ_.outerIndexPtr()[col + k] + offset;
      for (Eigen::Index r = 0; r < 3; ++r) values[r] += block(r, k);
    }
  }

 private:
  HHTStep& step_;
};

HHTStep::HHTStep(const Model& model, Workspace& ws, double alpha, double tolerance, bool sparse)
    : model_(model),
      ws_(ws),
      alpha_(alpha),
      beta_((1 - alpha) * (1 - alpha) / 4),
      gamma_((1 - 2 * alpha) / 2),
      tolerance_(tolerance),
      sparse_(sparse),
      closedFormConstraints_(sparse && closedFormConstraintStiffness(model)),
      closedFormForces_(closedFormConstraints_ && closedFormForceStiffness(model)) {
  for (std::size_t i = 0; i < ws.active.size(); ++i)
    if (ws.active[i]) rows_.push_back(static_cast<Eigen::Index>(i));
  fusedConstraints_ = closedFormConstraints_ && (rows_.empty() || rows_.back() < model.nh);
  n_ = model.nv;
  m_ = static_cast<Eigen::Index>(rows_.size());
  an_.setZero(n_);
  anStep_.setZero(n_);
  aRate_.setZero(n_);
  lambdaRate_.setZero(m_);
  a_.setZero(n_);
  rn_.setZero(n_);
  lambdan_.setZero(m_);
  lambda_.setZero(m_);
  lambdaAll_.setZero(ws.lambda.size());
  increment_.setZero(n_);
  residual_.setZero(n_ + m_);
  delta_.setZero(n_ + m_);
  force0_.setZero(n_);
  appliedForce0_.setZero(n_);
  force_.setZero(n_);
  F_.setZero(n_);
  constraintForce_.setZero(n_);
  dF_.setZero(n_);
  unit_.setZero(n_);
  trial_.q.setZero(model.nq);
  trial_.v.setZero(n_);
  perturbed_ = trial_;
  predictor_ = trial_;
  near_ = bodyNeighbours(model);
  blockBodies_ = closedFormForces_ ? stiffnessPattern() : near_;
  buildColumnGroups();
  evaluateMassMatrix(model_, trial_, ws_);
  massScale_ = std::max(1.0, ws_.M.diagonal().maxCoeff());
  constantMass_ = ws_.M.pruned();
  if (!sparse_) {
    J_.setZero(n_ + m_, n_ + m_);
    stiffness_.setZero(n_, n_);
    lu_.resize(n_ + m_);
    return;
  }
  // The pattern of J: K and C on the blocks of blockBodies_ (M's blocks among them), then Phi_q on
  // the active rows and its transpose.
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index j = 0; j < n_; ++j)
    for (const Eigen::Index i : columnRows_[static_cast<std::size_t>(j)])
      entries.emplace_back(static_cast<int>(i), static_cast<int>(j), 0.0);
  for (Eigen::Index k = 0; k < m_; ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it) {
      entries.emplace_back(static_cast<int>(n_ + k), static_cast<int>(it.col()), 0.0);
      entries.emplace_back(static_cast<int>(it.col()), static_cast<int>(n_ + k), 0.0);
    }
  sparseJ_.resize(n_ + m_, n_ + m_);
  sparseJ_.setFromTriplets(entries.begin(), entries.end());
  sparseJ_.makeCompressed();
  // J's value positions of M's entries and of Phi_q's active entries and their transposes.
  for (Eigen::Index i = 0; i < n_; ++i)
    for (SparseMatrix::InnerIterator it(ws.M, i); it; ++it)
      massSlots_.push_back(valuePosition(sparseJ_, i, it.col()));
  for (Eigen::Index k = 0; k < m_; ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it) {
      constraintSlots_.push_back(valuePosition(sparseJ_, n_ + k, it.col()));
      constraintSlots_.push_back(valuePosition(sparseJ_, it.col(), n_ + k));
    }
  // Rows not scaled: M, beta h^2 K and Phi_q keep their relative sizes from step to step.
  sparseLu_ = std::make_unique<SparseLu>(sparseJ_, false);
}

std::vector<std::vector<int>> HHTStep::stiffnessPattern() const {
  // One evaluation at the initial state records the blocks (they do not depend on the state),
  // with the diagonal blocks of M.
  std::vector<std::vector<int>> rowBodies(model_.bodies.size());
  PatternSink sink(rowBodies);
  const State initial{0.0, model_.q0, model_.v0};
  addConstraintStiffness(model_, initial, Eigen::VectorXd::Ones(ws_.lambda.size()), 1.0, sink);
  addForceStiffness(model_, initial, 1.0, 1.0, sink);
  for (std::size_t b = 0; b < rowBodies.size(); ++b) {
    std::vector<int>& rows = rowBodies[b];
    rows.push_back(static_cast<int>(b));
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  return rowBodies;
}

void HHTStep::buildColumnGroups() {
  // Distance-2 colouring of the bodies, greedy in body order.
  const std::vector<std::vector<int>>& near = near_;
  std::vector<int> colour(model_.bodies.size(), -1);
  int colours = 0;
  for (std::size_t b = 0; b < near.size(); ++b) {
    std::vector<bool> taken(static_cast<std::size_t>(colours) + 1, false);
    for (const int a : near[b])
      for (const int c : near[static_cast<std::size_t>(a)])
        if (colour[static_cast<std::size_t>(c)] >= 0)
          taken[static_cast<std::size_t>(colour[static_cast<std::size_t>(c)])] = true;
    int free = 0;
    while (taken[static_cast<std::size_t>(free)]) ++free;
    colour[b] = free;
    colours = std::max(colours, free + 1);
  }
  // One group per colour and direction of a body; the rows each direction moves.
  const int d = model_.bodyDofs();
  groups_.assign(static_cast<std::size_t>(colours * d), {});
  columnRows_.assign(static_cast<std::size_t>(n_), {});
  for (std::size_t b = 0; b < near.size(); ++b) {
    std::vector<Eigen::Index> rows;
    for (const int a : blockBodies_[b])
      for (int k = 0; k < d; ++k) rows.push_back(model_.bodies[static_cast<std::size_t>(a)].v + k);
    std::sort(rows.begin(), rows.end());
    for (int k = 0; k < d; ++k) {
      const Eigen::Index column = model_.bodies[b].v + k;
      groups_[static_cast<std::size_t>(colour[b] * d + k)].push_back(column);
      columnRows_[static_cast<std::size_t>(column)] = rows;
    }
  }
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
  rn_.noalias() = ws_.Phi_q.transpose() * ws_.lambda;
  rn_ -= ws_.Q;
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
  // e1 = M a / (1 + alpha) + Phi_q^T lambda - Q - alpha / (1 + alpha) r_n
  auto e1 = residual_.head(n_);
  if (!sparse_) {
    evaluateConstraints(model_, trial_, ws_);
    e1.noalias() = ws_.M * a_;
    e1 = (e1 - alpha_ * rn_) / (1 + alpha_) - ws_.Q;
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
      for (int p = massRows[i]; p < massRows[i + 1]; ++p) Ma += mass[p] * a_(massColumns[p]);
      e1(i) = (Ma - alpha_ * rn_(i)) / (1 + alpha_) - ws_.Q(i) + constraintForce_(i);
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

void HHTStep::addDifference(Eigen::Index column, double scale, const Eigen::VectorXd& difference) {
  const std::vector<Eigen::Index>& rows = columnRows_[static_cast<std::size_t>(column)];
  // Sparse: the column's first entries are these rows, in this order (the pattern's top block).
  if (sparse_) {
    double* values = sparseJ_.valuePtr() + sparseJ_.outerIndexPtr()[column];
    for (std::size_t t = 0; t < rows.size(); ++t) values[t] += scale * difference(rows[t]);
    return;
  }
  for (const Eigen::Index i : rows) J_(i, column) += scale * difference(i);
}

void HHTStep::addDifferences(double h, RunStats& stats) {
  // F = Q - Phi_q^T lambda at the iterate (Q alone when the constraints' part is in closed form),
  // the base of the differences.
  const auto netForce = [&](Eigen::VectorXd& out) {
    out = ws_.Q;
    if (!closedFormConstraints_) out.noalias() -= ws_.Phi_q.transpose() * lambdaAll_;
  };
  appliedForce0_ = ws_.Q;
  netForce(force0_);
  perturbed_.t = trial_.t;
  // beta h^2 K, K = -dF/dq, a group of directions at a time.
  for (const std::vector<Eigen::Index>& group : groups_) {
    unit_.setZero();
    for (const Eigen::Index j : group) unit_(j) = 1.0;
    perturbed_.q = trial_.q;
    integratePositions(model_, perturbed_.q, unit_, kDifference);
    perturbed_.v = trial_.v;
    evaluateAppliedForces(model_, perturbed_, ws_);
    if (!closedFormConstraints_) evaluateConstraintDerivatives(model_, perturbed_, ws_);
    netForce(force_);
    force_ = force0_ - force_;
    for (const Eigen::Index j : group) addDifference(j, beta_ * h * h / kDifference, force_);
  }
  // gamma h C, C = -dQ/dv (the constraint forces do not depend on v).
  perturbed_.q = trial_.q;
  for (const std::vector<Eigen::Index>& group : groups_) {
    perturbed_.v = trial_.v;
    for (const Eigen::Index j : group) perturbed_.v(j) += kDifference;
    evaluateAppliedForces(model_, perturbed_, ws_);
    force_ = appliedForce0_ - ws_.Q;
    for (const Eigen::Index j : group) addDifference(j, gamma_ * h / kDifference, force_);
  }
  stats.rhsEvaluations += static_cast<int>(2 * groups_.size());
}

bool HHTStep::formIterationMatrix(double h, RunStats& stats) {
  // Constraint blocks and M / (1 + alpha), from the residual evaluation at the iterate.
  if (sparse_) {
    if (!phiQCurrent_) evaluateConstraintDerivatives(model_, trial_, ws_);
    fillSparseBlocks();
  } else {
    J_.setZero();
    J_.topLeftCorner(n_, n_) = ws_.M / (1 + alpha_);
    for (Eigen::Index k = 0; k < m_; ++k) {
      const Eigen::Index row = rows_[static_cast<std::size_t>(k)];
      J_.block(n_ + k, 0, 1, n_) = ws_.Phi_q.row(row);
      J_.block(0, n_ + k, n_, 1) = ws_.Phi_q.row(row).transpose();
    }
  }
  // beta h^2 K and gamma h C: in closed form where the model allows it, else by differences.
  expandMultipliers(lambda_);
  MatrixSink sink(*this);
  if (closedFormConstraints_)
    addConstraintStiffness(model_, trial_, lambdaAll_, beta_ * h * h, sink);
  if (closedFormForces_)
    addForceStiffness(model_, trial_, beta_ * h * h, gamma_ * h, sink);
  else
    addDifferences(h, stats);
  hJ_ = h;
  ++formed_;
  if (sparse_) {
    factored_ = sparseJ_.coeffs().allFinite() && sparseLu_->factor(sparseJ_);
    return factored_;
  }
  // beta h^2 K + gamma h C, kept for the refreshes of a spatial model's M.
  if (model_.dimension == 3) {
    stiffness_ = J_.topLeftCorner(n_, n_);
    addScaledMass(-1.0, stiffness_);
  }
  factored_ = J_.allFinite() && lu_.factor(J_) && reciprocalCondition() > kSingularRcond;
  return factored_;
}

void HHTStep::fillSparseBlocks() {
  // Through the value positions found in the constructor (storage order of ws.M and Phi_q).
  sparseJ_.coeffs().setZero();
  double* values = sparseJ_.valuePtr();
  const double* mass = ws_.M.valuePtr();
  for (std::size_t t = 0; t < massSlots_.size(); ++t)
    values[massSlots_[t]] = mass[t] / (1 + alpha_);
  std::size_t t = 0;
  for (Eigen::Index k = 0; k < m_; ++k) {
    const Eigen::Index row = rows_[static_cast<std::size_t>(k)];
    const double* constraint = ws_.Phi_q.valuePtr() + ws_.Phi_q.outerIndexPtr()[row];
    const double* end = ws_.Phi_q.valuePtr() + ws_.Phi_q.outerIndexPtr()[row + 1];
    for (; constraint != end; ++constraint, t += 2)
      values[constraintSlots_[t]] = values[constraintSlots_[t + 1]] = *constraint;
  }
}

void HHTStep::addScaledMass(double sign, Eigen::MatrixXd& target) const {
  for (Eigen::Index i = 0; i < n_; ++i)
    for (SparseMatrix::InnerIterator it(ws_.M, i); it; ++it)
      target(i, it.col()) += sign * it.value() / (1 + alpha_);
}

bool HHTStep::refreshIterationMatrix() {
  // M / (1 + alpha) (spatial: planar M is constant) and Phi_q at the iterate, K and C as J was
  // formed (dense J only).
  if (model_.dimension == 3) {
    J_.topLeftCorner(n_, n_) = stiffness_;
    addScaledMass(1.0, J_);
  }
  for (Eigen::Index k = 0; k < m_; ++k)
    for (SparseMatrix::InnerIterator it(ws_.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it) {
      J_(n_ + k, it.col()) = it.value();
      J_(it.col(), n_ + k) = it.value();
    }
  // Singular or not finite: J is formed again, and its condition estimated, at this iterate.
  factored_ = lu_.factor(J_) && lu_.pivotRatio() > kSingularPivot;
  return factored_;
}

double HHTStep::reciprocalCondition() {
  // 1 / (|J|_1 |J^-1|_1), |J^-1|_1 estimated by Hager's method (as Eigen's rcond, without its
  // temporaries): the largest |J^-1 x|_1 over sign vectors x / size, then over unit vectors.
  const Eigen::Index size = n_ + m_;
  if (size == 0) return 1.0;
  const double normJ = J_.cwiseAbs().colwise().sum().maxCoeff();
  delta_.setConstant(1.0 / static_cast<double>(size));
  lu_.solveInPlace(delta_);
  double estimate = delta_.lpNorm<1>();
  Eigen::Index previous = -1;
  for (int k = 0; k < 5; ++k) {
    // delta = J^-T sign(delta), and its largest entry as the next unit vector.
    delta_ = delta_.cwiseSign();
    lu_.solveTransposedInPlace(delta_);
    Eigen::Index largest = 0;
    delta_.cwiseAbs().maxCoeff(&largest);
    if (largest == previous) break;
    previous = largest;
    delta_.setZero();
    delta_(largest) = 1.0;
    lu_.solveInPlace(delta_);
    const double next = delta_.lpNorm<1>();
    if (next <= estimate) break;
    estimate = next;
  }
  return normJ > 0 && estimate > 0 ? 1.0 / (normJ * estimate) : 0.0;
}

void HHTStep::solveIterationMatrix() {
  // delta = J^-1 residual.
  delta_ = residual_;
  if (sparse_)
    sparseLu_->solveInPlace(delta_);
  else
    lu_.solveInPlace(delta_);
}

double HHTStep::correctionNorm(double h) {
  // Corrections of the multipliers count through the generalized forces Phi_q^T dlambda: a
  // component Phi_q^T cannot see (near a singular configuration) does not move the system.
  // Phi_q^T is J's top right block (as J was formed); its bottom right block is zero.
  if (sparse_) {
    // The columns n + k of the compressed J hold Phi_q's row k, all above row n. F: the
    // residual's Phi_q^T lambda less dF.
    dF_.setZero();
    const double* values = sparseJ_.valuePtr();
    const int* rows = sparseJ_.innerIndexPtr();
    const int* columns = sparseJ_.outerIndexPtr();
    for (Eigen::Index k = 0; k < m_; ++k) {
      const double dlambda = delta_(n_ + k);
      for (int p = columns[n_ + k]; p < columns[n_ + k + 1]; ++p)
        dF_(rows[p]) += values[p] * dlambda;
    }
    F_ = constraintForce_ - dF_;
  } else {
    // Plain loops over the columns of the block: cheaper than Eigen's products at these sizes.
    dF_.setZero();
    F_.setZero();
    for (Eigen::Index k = 0; k < m_; ++k) {
      const double* column = J_.data() + (n_ + k) * J_.rows();
      const double dlambda = delta_(n_ + k), lambda = lambda_(k);
      for (Eigen::Index i = 0; i < n_; ++i) {
        dF_(i) += column[i] * dlambda;
        F_(i) += column[i] * lambda;
      }
    }
  }
  // Corrections below the rounding of positions (a q / (beta h^2)) cannot be resolved.
  const double floorA = kPositionRoundoff / (beta_ * h * h);
  const double floorF = floorA * massScale_;
  double norm = 0.0;
  for (Eigen::Index i = 0; i < n_; ++i)
    norm = std::max({norm, std::abs(delta_(i)) / (tolerance_ * (1 + std::abs(a_(i))) + floorA),
                     std::abs(dF_(i)) / (tolerance_ * (1 + std::abs(F_(i))) + floorF)});
  return norm;
}

StepOutcome HHTStep::solve(const State& accepted, double h, double tNext, RunStats& stats) {
  badForce_ = -1;
  trial_.t = tNext;
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
      badForce_ = nonFiniteForce(model_, ws_);
      return StepOutcome::NotFinite;
    }
    if (k == 0) predictor_ = trial_;
    // Dense J: its mass and constraint blocks at the predictor, factored again.
    if (k == 0 && refresh && factored_) refreshIterationMatrix();
    if (!factored_) {
      if (!formIterationMatrix(h, stats)) return StepOutcome::Singular;
      fresh = true;
      ++formedInStep;
      sinceFactor = 0;
    }
    // Newton update [a; lambda] -= J^-1 [e1; e2]
    solveIterationMatrix();
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
    if (norm <= 1 || (extrapolated < 1 && extrapolated / (1 - extrapolated) * norm <= 1)) {
      updateTrial(accepted, h);
      return StepOutcome::Converged;
    }
    // Too slow to converge within the iterations left, or diverging: a fresh J at the current
    // iterate, unless this one is fresh already. A closed-form J is cheap: formed again at the
    // current iterate (Newton's own matrix) a few times before the step fails.
    const int left = kMaxIterations - sinceFactor;
    const bool slow = rate > kSlowRate || (sinceFactor > 1 && norm * std::pow(rate, left) > 1);
    const bool again = closedFormConstraints_ && formedInStep < kMaxClosedFormMatrices;
    if (fresh && !again && (rate >= 1 || left <= 0)) return StepOutcome::MaxIterations;
    if (slow && (!fresh || again)) factored_ = false;
    // A closed-form J is also formed again at the next iterate when that costs less in all.
    if (factored_ && again && sinceFactor > 1 && renewalPays(norm, rate)) factored_ = false;
  }
  return StepOutcome::MaxIterations;
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
  // r_{n+1} from e1 = 0: (alpha r_n - M a) / (1 + alpha)
  rn_ *= alpha_;
  rn_.noalias() -= ws_.M * a_;
  rn_ /= 1 + alpha_;
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
