#include "solve/kinematics/driven_jacobian.h"

#include "solve/linalg/sparse_pattern.h"

#include <cmath>

namespace rlx {

DrivenJacobian::DrivenJacobian(const Workspace& ws, std::vector<Eigen::Index> rows)
    : rows_(std::move(rows)), sparse_(ws.Phi_q.cols() >= kSparseFromVelocities) {
  const auto n = static_cast<Eigen::Index>(rows_.size());
  if (!sparse_) {
    dense_.setZero(n, n);
    return;
  }
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index k = 0; k < n; ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it)
      entries.emplace_back(static_cast<int>(k), static_cast<int>(it.col()), 0.0);
  matrix_.resize(n, ws.Phi_q.cols());
  matrix_.setFromTriplets(entries.begin(), entries.end());
  matrix_.makeCompressed();
  for (Eigen::Index k = 0; k < n; ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it)
      slots_.push_back(valuePosition(matrix_, k, it.col()));
  sparseLu_ = std::make_unique<SparseLu>(matrix_);
}

bool DrivenJacobian::factor(const Workspace& ws) {
  const auto n = static_cast<Eigen::Index>(rows_.size());
  if (!sparse_) {
    for (Eigen::Index k = 0; k < n; ++k)
      dense_.row(k) = ws.Phi_q.row(rows_[static_cast<std::size_t>(k)]);
    denseLu_.compute(dense_);
    const double determinant = denseLu_.determinant();
    return std::abs(determinant) > 0 && std::isfinite(determinant);
  }
  double* values = matrix_.valuePtr();
  std::size_t t = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index row = rows_[static_cast<std::size_t>(k)];
    for (int p = ws.Phi_q.outerIndexPtr()[row]; p < ws.Phi_q.outerIndexPtr()[row + 1]; ++p)
      values[slots_[t++]] = ws.Phi_q.valuePtr()[p];
  }
  return matrix_.coeffs().allFinite() && sparseLu_->factor(matrix_);
}

Eigen::VectorXd DrivenJacobian::solve(const Eigen::VectorXd& b) {
  if (!sparse_) return denseLu_.solve(b);
  Eigen::VectorXd x = b;
  sparseLu_->solveInPlace(x);
  return x;
}

Eigen::VectorXd DrivenJacobian::solveTransposed(const Eigen::VectorXd& b) {
  if (!sparse_) return denseLu_.transpose().solve(b);
  Eigen::VectorXd x = b;
  sparseLu_->solveTransposedInPlace(x);
  return x;
}

}  // namespace rlx
