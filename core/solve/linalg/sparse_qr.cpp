#include "solve/linalg/sparse_qr.h"

#include "solve/linalg/sparse_lu.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SPQRSupport>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlx {
namespace {

// The largest eigenvalue of a symmetric positive semi-definite operator of size m by Lanczos
// iteration with full reorthogonalization, to 1e-12 relative (NaN where the operator's values
// are not finite); with `vector`, its unit eigenvector.
template <class Apply>
double largestEigenvalue(Eigen::Index m, const Apply& apply, Eigen::VectorXd* vector) {
  constexpr Eigen::Index kMaxSteps = 80;
  constexpr double kConverged = 1e-12;
  const Eigen::Index steps = std::min(m, kMaxSteps);
  Eigen::MatrixXd V(m, steps);
  Eigen::VectorXd alpha(steps), beta(steps), w;
  // A start with a share of every eigenvector, also in symmetric models.
  for (Eigen::Index k = 0; k < m; ++k) V(k, 0) = 1.0 + 0.5 * std::sin(1.7 * static_cast<double>(k));
  V.col(0).normalize();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ritz;
  double largest = 0.0;
  for (Eigen::Index j = 0; j < steps; ++j) {
    apply(V.col(j), w);
    if (!w.allFinite()) return std::numeric_limits<double>::quiet_NaN();
    alpha(j) = V.col(j).dot(w);
    for (int pass = 0; pass < 2; ++pass)
      w -= V.leftCols(j + 1) * (V.leftCols(j + 1).transpose() * w);
    beta(j) = w.norm();
    ritz.computeFromTridiagonal(alpha.head(j + 1), beta.head(j),
                                vector ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
    const double estimate = ritz.eigenvalues()(j);
    const bool done = std::abs(estimate - largest) <= kConverged * estimate ||
                      beta(j) <= kConverged * estimate || j + 1 == steps;
    largest = estimate;
    if (done) {
      if (vector) *vector = (V.leftCols(j + 1) * ritz.eigenvectors().col(j)).normalized();
      return largest;
    }
    V.col(j + 1) = w / beta(j);
  }
  return largest;
}

}  // namespace

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

Eigen::VectorXd unitRowScales(const SparseMatrix& A) {
  Eigen::VectorXd scale(A.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    const double n = A.row(i).norm();
    scale(i) = n > 0 ? 1.0 / n : 1.0;
  }
  return scale;
}

struct SparseRowQR::Impl {
  Eigen::SPQR<Eigen::SparseMatrix<double>> qr;
};

SparseRowQR::SparseRowQR(const SparseMatrix& A, double threshold)
    : impl_(std::make_unique<Impl>()), scale_(unitRowScales(A)), columns_(A.cols()) {
  // Rows scaled to unit length, so that units do not matter.
  Eigen::SparseMatrix<double> At = (scale_.asDiagonal() * A).transpose();
  At.makeCompressed();
  impl_->qr.setPivotThreshold(threshold);
  impl_->qr.compute(At);
  ok_ = impl_->qr.info() == Eigen::Success;
  rank_ = ok_ ? impl_->qr.rank() : 0;
}

SparseRowQR::~SparseRowQR() = default;

std::vector<Eigen::Index> SparseRowQR::dependentRows() const {
  std::vector<Eigen::Index> rows;
  if (!ok_) return rows;
  const auto permutation = impl_->qr.colsPermutation().indices();
  for (Eigen::Index k = rank_; k < permutation.size(); ++k) rows.push_back(permutation(k));
  std::sort(rows.begin(), rows.end());
  return rows;
}

Eigen::VectorXd SparseRowQR::minimumNormSolve(const Eigen::VectorXd& b, Eigen::VectorXd* gram) const {
  // y1 = R11^-T (P^T D b)(0 ... r-1), x = Q [y1; 0].
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  if (!ok_) {
    if (gram) gram->setConstant(b.size(), nan);
    return Eigen::VectorXd::Constant(columns_, nan);
  }
  const auto& qr = impl_->qr;
  const Eigen::VectorXd permuted = qr.colsPermutation().transpose() * scale_.cwiseProduct(b);
  Eigen::VectorXd y1 = permuted.head(rank_);
  const auto R = qr.matrixR();
  const auto R11 = R.topLeftCorner(rank_, rank_);
  R11.transpose().triangularView<Eigen::Lower>().solveInPlace(y1);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(qr.rows());
  y.head(rank_) = y1;
  if (gram) {
    R11.triangularView<Eigen::Upper>().solveInPlace(y1);
    const auto permutation = qr.colsPermutation().indices();
    gram->setZero(b.size());
    for (Eigen::Index k = 0; k < rank_; ++k)
      (*gram)(permutation(k)) = scale_(permutation(k)) * y1(k);
  }
  return qr.matrixQ() * y;
}

SparseMatrix SparseRowQR::leftNullSpace() const {
  if (!ok_) return SparseMatrix(scale_.size(), 0);
  const auto& qr = impl_->qr;
  const auto permutation = qr.colsPermutation().indices();
  const Eigen::Index m = permutation.size(), dependent = m - rank_;
  const auto R = qr.matrixR();
  const auto R11 = R.topLeftCorner(rank_, rank_);
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd y(rank_);
  for (Eigen::Index j = 0; j < dependent; ++j) {
    y = R.block(0, rank_ + j, rank_, 1);
    R11.triangularView<Eigen::Upper>().solveInPlace(y);
    for (Eigen::Index k = 0; k < rank_; ++k)
      if (y(k) != 0.0) entries.emplace_back(permutation(k), j, -y(k) * scale_(permutation(k)));
    entries.emplace_back(permutation(rank_ + j), j, scale_(permutation(rank_ + j)));
  }
  SparseMatrix W(m, dependent);
  W.setFromTriplets(entries.begin(), entries.end());
  return W;
}

double SparseRowQR::singularValueRatio(Eigen::VectorXd* leftVector) const {
  const Eigen::Index m = scale_.size();
  if (leftVector) leftVector->setZero(m);
  if (!ok_) return std::numeric_limits<double>::quiet_NaN();
  if (m == 0) return 1.0;
  if (rank_ < m) return 0.0;
  const Eigen::SparseMatrix<double> R = impl_->qr.matrixR().topLeftCorner(m, m);
  Eigen::VectorXd vector;
  const double sigma1 = std::sqrt(largestEigenvalue(
      m, [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = R.transpose() * (R * x); },
      nullptr));
  const double inverse = largestEigenvalue(
      m,
      [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
        y = x;
        R.transpose().triangularView<Eigen::Lower>().solveInPlace(y);
        R.triangularView<Eigen::Upper>().solveInPlace(y);
      },
      &vector);
  if (!(std::isfinite(inverse) && inverse > 0.0)) return 0.0;
  if (leftVector) {
    const auto permutation = impl_->qr.colsPermutation().indices();
    for (Eigen::Index k = 0; k < m; ++k) (*leftVector)(permutation(k)) = vector(k);
  }
  return 1.0 / (std::sqrt(inverse) * sigma1);
}

Eigen::VectorXd minimumNormSolution(const SparseMatrix& A, const Eigen::VectorXd& b, bool large) {
  // Full row rank needs no more rows than columns.
  if (Eigen::VectorXd x; large && A.rows() <= A.cols() && fullRankMinimumNorm(A, b, x)) return x;
  if (large) return SparseRowQR(A, 1e-9).minimumNormSolve(b);
  return Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(Eigen::MatrixXd(A)).solve(b);
}

}  // namespace rlx
