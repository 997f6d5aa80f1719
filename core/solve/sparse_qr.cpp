#include "solve/sparse_qr.h"

#include "solve/sparse_lu.h"

#include <algorithm>

namespace rlx {

bool fullRankMinimumNorm(const SparseMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  const Eigen::Index m = A.rows(), n = A.cols();
  Eigen::VectorXd scale(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const double norm = A.row(i).norm();
    if (!(norm > 0)) return false;
    scale(i) = 1.0 / norm;
  }
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index j = 0; j < n; ++j) entries.emplace_back(static_cast<int>(j), static_cast<int>(j), 1.0);
  for (Eigen::Index i = 0; i < m; ++i)
    for (SparseMatrix::InnerIterator it(A, i); it; ++it) {
      entries.emplace_back(static_cast<int>(n + i), static_cast<int>(it.col()), scale(i) * it.value());
      entries.emplace_back(static_cast<int>(it.col()), static_cast<int>(n + i), scale(i) * it.value());
    }
  Eigen::SparseMatrix<double> K(n + m, n + m);
  K.setFromTriplets(entries.begin(), entries.end());
  K.makeCompressed();
  SparseLu lu(K);
  if (!lu.factor(K) || !(lu.pivotRatio() > 1e-9)) return false;
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + m);
  rhs.tail(m) = scale.cwiseProduct(b);
  lu.solveInPlace(rhs);
  x = rhs.head(n);
  return x.allFinite();
}

SparseRowQR::SparseRowQR(const SparseMatrix& A, double threshold) : scale_(A.rows()) {
  // Rows scaled to unit length, so that units do not matter.
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const double n = A.row(i).norm();
    scale_(i) = n > 0 ? 1.0 / n : 1.0;
  }
  const Eigen::SparseMatrix<double> At = (scale_.asDiagonal() * A).transpose();
  qr_.setPivotThreshold(threshold);
  qr_.compute(At);
  ok_ = qr_.info() == Eigen::Success;
  rank_ = ok_ ? qr_.rank() : 0;
}

std::vector<Eigen::Index> SparseRowQR::dependentRows() const {
  std::vector<Eigen::Index> rows;
  const auto& permutation = qr_.colsPermutation().indices();
  for (Eigen::Index k = rank_; k < permutation.size(); ++k) rows.push_back(permutation(k));
  std::sort(rows.begin(), rows.end());
  return rows;
}

Eigen::VectorXd SparseRowQR::minimumNormSolve(const Eigen::VectorXd& b) const {
  // y1 = R11^-T (P^T D b)(0 ... r-1), x = Q [y1; 0].
  const Eigen::VectorXd permuted = qr_.colsPermutation().transpose() * scale_.cwiseProduct(b);
  Eigen::VectorXd y1 = permuted.head(rank_);
  const Eigen::SparseMatrix<double> R11 = qr_.matrixR().topLeftCorner(rank_, rank_);
  R11.transpose().triangularView<Eigen::Lower>().solveInPlace(y1);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(qr_.rows());
  y.head(rank_) = y1;
  return qr_.matrixQ() * y;
}

}  // namespace rlx
