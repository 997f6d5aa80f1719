#include "solve/linalg/mass_pseudoinverse.h"

#include <algorithm>
#include <cmath>

namespace rlx {
namespace {

constexpr double kAccurateCondition = 1e8;  // kappa_1(S) up to which one solve is accurate enough
constexpr double kMaxCondition = 1e14;      // beyond it refinement is not relied upon
constexpr double kBackwardError = 1e-14;    // |b - A x| against |b| + |A| |x| after refinement
constexpr int kMaxRefinements = 4;

}  // namespace

MassPseudoinverse::MassPseudoinverse(const Workspace& ws, std::vector<Eigen::Index> rows,
                                     int blockSize)
    : matrix_(ws, std::move(rows)),
      schur_(matrix_.matrix(), ws.M.rows(), blockSize),
      n_(ws.M.rows()),
      work_(Eigen::VectorXd::Zero(matrix_.matrix().rows())),
      solution_(Eigen::VectorXd::Zero(matrix_.matrix().rows())) {}

bool MassPseudoinverse::factor(const Workspace& ws) {
  matrix_.fill(ws, 1.0);
  if (!schur_.applies() || !schur_.factor(matrix_.matrix())) return false;
  const double condition = schur_.schurConditionEstimate();
  refine_ = condition > kAccurateCondition;
  return condition <= kMaxCondition;
}

bool MassPseudoinverse::apply(const Eigen::VectorXd& b, Eigen::VectorXd& x,
                              Eigen::VectorXd* multipliers) {
  const std::vector<Eigen::Index>& rows = matrix_.rows();
  const auto m = static_cast<Eigen::Index>(rows.size());
  work_.head(n_).setZero();
  for (Eigen::Index k = 0; k < m; ++k) work_(n_ + k) = b(rows[static_cast<std::size_t>(k)]);
  schur_.solveInPlace(work_);
  solution_ = work_;
  // Poorly conditioned S: refined on the residual r = b - A x by [dx; dy] = K^-1 [0; r] until the
  // backward error is at the level of a stable solve.
  for (int k = 0; refine_ && k <= kMaxRefinements; ++k) {
    if (refined(b)) break;
    if (k == kMaxRefinements) return false;
    schur_.solveInPlace(work_);
    solution_ += work_;
  }
  x = solution_.head(n_);
  if (multipliers) {
    multipliers->setZero(b.size());
    for (Eigen::Index k = 0; k < m; ++k)
      (*multipliers)(rows[static_cast<std::size_t>(k)]) = solution_(n_ + k);
  }
  return true;
}

bool MassPseudoinverse::refined(const Eigen::VectorXd& b) {
  // Row k of A is column n + k of the KKT matrix (above row n). work_ <- [0; b - A x].
  const Eigen::SparseMatrix<double>& K = matrix_.matrix();
  const std::vector<Eigen::Index>& rows = matrix_.rows();
  double residual = 0.0, scale = 0.0;
  work_.head(n_).setZero();
  for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(rows.size()); ++k) {
    const double bk = b(rows[static_cast<std::size_t>(k)]);
    double r = bk, size = std::abs(bk);
    for (Eigen::SparseMatrix<double>::InnerIterator it(K, n_ + k); it; ++it) {
      r -= it.value() * solution_(it.row());
      size += std::abs(it.value() * solution_(it.row()));
    }
    work_(n_ + k) = r;
    residual = std::max(residual, std::abs(r));
    scale = std::max(scale, size);
  }
  return residual <= kBackwardError * scale;
}

}  // namespace rlx
