#include "solve/integrators/iteration_matrix.h"

#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/linalg/norm_estimate.h"
#include "solve/planar_stiffness.h"

#include <algorithm>
#include <cmath>

namespace rlx {
namespace {

constexpr double kDifference = 1e-7;      // forward-difference increment (m, rad, m/s, rad/s)
constexpr double kSingularRcond = 1e-14;  // reciprocal condition number of a singular J
constexpr double kSingularPivot = 1e-14;  // min/max |U_kk| of a singular refreshed J

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
class IterationMatrix::Sink : public StiffnessSink {
 public:
  explicit Sink(IterationMatrix& matrix) : matrix_(matrix) {}
  void add(int rowBody, int colBody, const Eigen::Matrix3d& block) override {
    const Eigen::Index row = matrix_.model_.bodies[static_cast<std::size_t>(rowBody)].v;
    const Eigen::Index col = matrix_.model_.bodies[static_cast<std::size_t>(colBody)].v;
    if (!matrix_.sparse_) {
      matrix_.J_.block<3, 3>(row, col) += block;
      return;
    }
    const std::vector<int>& near = matrix_.blockBodies_[static_cast<std::size_t>(colBody)];
    const auto offset = 3 * (std::lower_bound(near.begin(), near.end(), rowBody) - near.begin());
    Eigen::SparseMatrix<double>& J = matrix_.kkt_->matrix();
    for (Eigen::Index k = 0; k < 3; ++k) {
      double* values = J.valuePtr() + J.outerIndexPtr()[col + k] + offset;
      for (Eigen::Index r = 0; r < 3; ++r) values[r] += block(r, k);
    }
  }

 private:
  IterationMatrix& matrix_;
};

IterationMatrix::IterationMatrix(const Model& model, Workspace& ws, bool sparse)
    : model_(model),
      ws_(ws),
      sparse_(sparse),
      closedFormConstraints_(sparse && closedFormConstraintStiffness(model)),
      closedFormForces_(closedFormConstraints_ && closedFormForceStiffness(model)),
      rows_(activeRows(ws)) {
  n_ = model.nv;
  m_ = static_cast<Eigen::Index>(rows_.size());
  force0_.setZero(n_);
  appliedForce0_.setZero(n_);
  force_.setZero(n_);
  unit_.setZero(n_);
  scratch_.setZero(n_ + m_);
  perturbed_.q.setZero(model.nq);
  perturbed_.v.setZero(n_);
  near_ = bodyNeighbours(model);
  blockBodies_ = closedFormForces_ ? stiffnessPattern() : near_;
  buildColumnGroups();
  if (!sparse_) {
    J_.setZero(n_ + m_, n_ + m_);
    stiffness_.setZero(n_, n_);
    lu_.resize(n_ + m_);
    return;
  }
  // The pattern of J: K and C on the blocks of blockBodies_ (M's blocks among them), then Phi_q on
  // the active rows and its transpose.
  kkt_ = std::make_unique<KktMatrix>(ws, rows_, columnRows_);
  // Rows not scaled: M, cK K and Phi_q keep their relative sizes from step to step.
  sparseLu_ = std::make_unique<SparseLu>(kkt_->matrix(), false);
  // Through the Schur complement of the top-left block where it is block diagonal.
  schur_ = std::make_unique<KktSchur>(kkt_->matrix(), n_, model.bodyDofs());
  if (!schur_->applies()) schur_.reset();
}

std::vector<std::vector<int>> IterationMatrix::stiffnessPattern() const {
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

void IterationMatrix::buildColumnGroups() {
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

bool IterationMatrix::form(const State& at, const Eigen::VectorXd& lambda, double massDivisor,
                           double cK, double cC, RunStats& stats) {
  massDivisor_ = massDivisor;
  // Constraint blocks and M / d, from ws at `at`.
  if (sparse_) {
    kkt_->fill(ws_, massDivisor_);
  } else {
    J_.setZero();
    J_.topLeftCorner(n_, n_) = ws_.M / massDivisor_;
    for (Eigen::Index k = 0; k < m_; ++k) {
      const Eigen::Index row = rows_[static_cast<std::size_t>(k)];
      J_.block(n_ + k, 0, 1, n_) = ws_.Phi_q.row(row);
      J_.block(0, n_ + k, n_, 1) = ws_.Phi_q.row(row).transpose();
    }
  }
  // cK K and cC C: in closed form where the model allows it, else by differences.
  Sink sink(*this);
  if (closedFormConstraints_) addConstraintStiffness(model_, at, lambda, cK, sink);
  if (closedFormForces_)
    addForceStiffness(model_, at, cK, cC, sink);
  else
    addDifferences(at, lambda, cK, cC, stats);
  if (sparse_) {
    if (!finite()) return false;
    schurFactored_ = schur_ && schur_->factor(kkt_->matrix());
    return schurFactored_ || sparseLu_->factor(kkt_->matrix());
  }
  // cK K + cC C, kept for the refreshes of a spatial model's M.
  if (model_.dimension == 3) {
    stiffness_ = J_.topLeftCorner(n_, n_);
    addScaledMass(-1.0, stiffness_);
  }
  return J_.allFinite() && lu_.factor(J_) && reciprocalCondition() > kSingularRcond;
}

void IterationMatrix::addDifference(Eigen::Index column, double scale,
                                    const Eigen::VectorXd& difference) {
  const std::vector<Eigen::Index>& rows = columnRows_[static_cast<std::size_t>(column)];
  // Sparse: the column's first entries are these rows, in this order (the pattern's top block).
  if (sparse_) {
    Eigen::SparseMatrix<double>& J = kkt_->matrix();
    double* values = J.valuePtr() + J.outerIndexPtr()[column];
    for (std::size_t t = 0; t < rows.size(); ++t) values[t] += scale * difference(rows[t]);
    return;
  }
  for (const Eigen::Index i : rows) J_(i, column) += scale * difference(i);
}

void IterationMatrix::addDifferences(const State& at, const Eigen::VectorXd& lambda, double cK,
                                     double cC, RunStats& stats) {
  // F = Q - Phi_q^T lambda at `at` (Q alone when the constraints' part is in closed form), the
  // base of the differences.
  const auto netForce = [&](Eigen::VectorXd& out) {
    out = ws_.Q;
    if (!closedFormConstraints_) out.noalias() -= ws_.Phi_q.transpose() * lambda;
  };
  appliedForce0_ = ws_.Q;
  netForce(force0_);
  perturbed_.t = at.t;
  // cK K, K = -dF/dq, a group of directions at a time.
  for (const std::vector<Eigen::Index>& group : groups_) {
    unit_.setZero();
    for (const Eigen::Index j : group) unit_(j) = 1.0;
    perturbed_.q = at.q;
    integratePositions(model_, perturbed_.q, unit_, kDifference);
    perturbed_.v = at.v;
    evaluateAppliedForces(model_, perturbed_, ws_);
    if (!closedFormConstraints_) evaluateConstraintDerivatives(model_, perturbed_, ws_);
    netForce(force_);
    force_ = force0_ - force_;
    for (const Eigen::Index j : group) addDifference(j, cK / kDifference, force_);
  }
  // cC C, C = -dQ/dv (the constraint forces do not depend on v).
  perturbed_.q = at.q;
  for (const std::vector<Eigen::Index>& group : groups_) {
    perturbed_.v = at.v;
    for (const Eigen::Index j : group) perturbed_.v(j) += kDifference;
    evaluateAppliedForces(model_, perturbed_, ws_);
    force_ = appliedForce0_ - ws_.Q;
    for (const Eigen::Index j : group) addDifference(j, cC / kDifference, force_);
  }
  stats.rhsEvaluations += static_cast<int>(2 * groups_.size());
}

void IterationMatrix::addScaledMass(double sign, Eigen::MatrixXd& target) const {
  for (Eigen::Index i = 0; i < n_; ++i)
    for (SparseMatrix::InnerIterator it(ws_.M, i); it; ++it)
      target(i, it.col()) += sign * it.value() / massDivisor_;
}

bool IterationMatrix::refresh() {
  // M / d (spatial: planar M is constant) and Phi_q from ws, K and C as J was formed.
  if (model_.dimension == 3) {
    J_.topLeftCorner(n_, n_) = stiffness_;
    addScaledMass(1.0, J_);
  }
  for (Eigen::Index k = 0; k < m_; ++k)
    for (SparseMatrix::InnerIterator it(ws_.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it) {
      J_(n_ + k, it.col()) = it.value();
      J_(it.col(), n_ + k) = it.value();
    }
  // Singular or not finite: the caller forms J again, and its condition is estimated then.
  return lu_.factor(J_) && lu_.pivotRatio() > kSingularPivot;
}

double IterationMatrix::reciprocalCondition() {
  // 1 / (|J|_1 |J^-1|_1), |J^-1|_1 estimated by Hager's method (solve/linalg/norm_estimate.h).
  if (n_ + m_ == 0) return 1.0;
  const double normJ = J_.cwiseAbs().colwise().sum().maxCoeff();
  const double estimate = inverseNormEstimate(
      scratch_, [this](Eigen::VectorXd& x) { lu_.solveInPlace(x); },
      [this](Eigen::VectorXd& x) { lu_.solveTransposedInPlace(x); });
  return normJ > 0 && estimate > 0 ? 1.0 / (normJ * estimate) : 0.0;
}

void IterationMatrix::solveInPlace(Eigen::VectorXd& x, Eigen::VectorXd& force) {
  if (schurFactored_) return schur_->solveInPlace(x, &force);
  solveInPlace(x);
  multiplyConstraintTranspose(x.tail(m_), force);
}

void IterationMatrix::solveInPlace(Eigen::VectorXd& x) {
  if (schurFactored_)
    schur_->solveInPlace(x);
  else if (sparse_)
    sparseLu_->solveInPlace(x);
  else
    lu_.solveInPlace(x);
}

void IterationMatrix::multiplyConstraintTranspose(const Eigen::Ref<const Eigen::VectorXd>& x,
                                                  Eigen::VectorXd& out) const {
  if (sparse_) return kkt_->multiplyConstraintTranspose(x, out);
  // Plain loops over the columns of the block: cheaper than Eigen's products at these sizes.
  out.setZero();
  for (Eigen::Index k = 0; k < m_; ++k) {
    const double* column = J_.data() + (n_ + k) * J_.rows();
    const double xk = x(k);
    for (Eigen::Index i = 0; i < n_; ++i) out(i) += column[i] * xk;
  }
}

void IterationMatrix::multiplyTopLeft(const Eigen::VectorXd& e, Eigen::VectorXd& out) const {
  if (sparse_) return kkt_->multiplyTopLeft(e, out);
  out.noalias() = J_.topLeftCorner(n_, n_) * e;
}

}  // namespace rlx
