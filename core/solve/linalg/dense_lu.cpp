#include "solve/linalg/dense_lu.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rlx {

void DenseLu::resize(Eigen::Index n) {
  lu_.setZero(n, n);
  p_.assign(static_cast<std::size_t>(n), 0);
}

bool DenseLu::factor(const Eigen::MatrixXd& A) {
  lu_ = A;
  const Eigen::Index n = lu_.rows();
  double* a = lu_.data();  // column-major: entry (i, j) at a[i + j n]
  bool regular = true;
  for (Eigen::Index k = 0; k < n; ++k) {
    double* columnK = a + k * n;
    // Pivot: the largest entry of column k on or below the diagonal.
    Eigen::Index p = k;
    double largest = std::abs(columnK[k]);
    for (Eigen::Index i = k + 1; i < n; ++i)
      if (std::abs(columnK[i]) > largest) {
        largest = std::abs(columnK[i]);
        p = i;
      }
    p_[static_cast<std::size_t>(k)] = p;
    if (p != k)
      for (Eigen::Index j = 0; j < n; ++j) std::swap(a[k + j * n], a[p + j * n]);
    const double pivot = columnK[k];
    if (pivot == 0.0 || !std::isfinite(pivot)) {
      regular = false;
      continue;
    }
    // Column k of L, then the update of the trailing block, a column at a time.
    const double inverse = 1.0 / pivot;
    for (Eigen::Index i = k + 1; i < n; ++i) columnK[i] *= inverse;
    for (Eigen::Index j = k + 1; j < n; ++j) {
      double* columnJ = a + j * n;
      const double u = columnJ[k];
      if (u == 0.0) continue;
      for (Eigen::Index i = k + 1; i < n; ++i) columnJ[i] -= columnK[i] * u;
    }
  }
  return regular;
}

void DenseLu::solveInPlace(Eigen::VectorXd& x) const {
  const Eigen::Index n = lu_.rows();
  const double* a = lu_.data();
  double* b = x.data();
  // P x, then L y = P x (forward), then U x = y (backward), by columns.
  for (Eigen::Index k = 0; k < n; ++k) std::swap(b[k], b[p_[static_cast<std::size_t>(k)]]);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double bj = b[j];
    if (bj == 0.0) continue;
    const double* column = a + j * n;
    for (Eigen::Index i = j + 1; i < n; ++i) b[i] -= column[i] * bj;
  }
  for (Eigen::Index j = n - 1; j >= 0; --j) {
    const double* column = a + j * n;
    b[j] /= column[j];
    const double bj = b[j];
    for (Eigen::Index i = 0; i < j; ++i) b[i] -= column[i] * bj;
  }
}

void DenseLu::solveTransposedInPlace(Eigen::VectorXd& x) const {
  const Eigen::Index n = lu_.rows();
  // A^T = U^T L^T P: U^T z = x (forward), L^T y = z (backward), then x = P^T y.
  for (Eigen::Index i = 0; i < n; ++i) {
    double s = x(i);
    for (Eigen::Index j = 0; j < i; ++j) s -= lu_(j, i) * x(j);
    x(i) = s / lu_(i, i);
  }
  for (Eigen::Index i = n - 1; i >= 0; --i) {
    double s = x(i);
    for (Eigen::Index j = i + 1; j < n; ++j) s -= lu_(j, i) * x(j);
    x(i) = s;
  }
  for (Eigen::Index k = n - 1; k >= 0; --k) std::swap(x(k), x(p_[static_cast<std::size_t>(k)]));
}

double DenseLu::pivotRatio() const {
  if (lu_.rows() == 0) return 1.0;
  const auto pivots = lu_.diagonal().cwiseAbs();
  const double largest = pivots.maxCoeff();
  return largest > 0 ? pivots.minCoeff() / largest : 0.0;
}

}  // namespace rlx
