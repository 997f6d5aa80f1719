#include "solve/linalg/sparse_ldlt.h"

#include "solve/linalg/norm_estimate.h"

#include <cmath>

namespace rlx {
namespace {

constexpr double kSmallestPivot = 1e-13;  // d_k relative to a_kk: not positive definite below

}  // namespace

SparseLdlt::SparseLdlt(const Eigen::SparseMatrix<double>& upper) : n_(upper.cols()) {
  parent_.setConstant(n_, -1);
  count_.setZero(n_);
  flag_.setConstant(n_, -1);
  pattern_.setZero(n_);
  d_.setZero(n_);
  y_.setZero(n_);
  probe_.setZero(n_);
  // Row k of L holds the elimination tree's paths from the entries a_ik (i < k) up to k: walking
  // them builds the tree (a node without a parent gets k) and counts the entries of L's columns.
  for (Eigen::Index k = 0; k < n_; ++k) {
    flag_(k) = k;
    for (Eigen::SparseMatrix<double>::InnerIterator it(upper, k); it; ++it)
      for (Eigen::Index i = it.row(); i < k && flag_(i) != k; i = parent_(i)) {
        if (parent_(i) == -1) parent_(i) = k;
        ++count_(i);
        flag_(i) = k;
      }
  }
  start_.setZero(n_ + 1);
  for (Eigen::Index j = 0; j < n_; ++j) start_(j + 1) = start_(j) + count_(j);
  rows_.setZero(start_(n_));
  values_.setZero(start_(n_));
}

bool SparseLdlt::factor(const Eigen::SparseMatrix<double>& upper) {
  flag_.setConstant(-1);
  for (Eigen::Index k = 0; k < n_; ++k) {
    // Scatter column k of the upper triangle into y, and gather the pattern of row k of L in
    // topological order (pattern_ from top on).
    Eigen::Index top = n_;
    flag_(k) = k;
    count_(k) = 0;
    double diagonal = 0.0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(upper, k); it; ++it) {
      Eigen::Index i = it.row();
      if (i == k) diagonal = it.value();
      y_(i) += it.value();
      Eigen::Index length = 0;
      for (; i < k && flag_(i) != k; i = parent_(i)) {
        pattern_(length++) = i;
        flag_(i) = k;
      }
      while (length > 0) pattern_(--top) = pattern_(--length);
    }
    // d_k and row k of L: the triangular solve with the rows above, a column of L at a time.
    d_(k) = y_(k);
    y_(k) = 0.0;
    for (; top < n_; ++top) {
      const Eigen::Index i = pattern_(top);
      const double yi = y_(i);
      y_(i) = 0.0;
      const Eigen::Index end = start_(i) + count_(i);
      for (Eigen::Index p = start_(i); p < end; ++p) y_(rows_(p)) -= values_(p) * yi;
      const double lki = yi / d_(i);
      d_(k) -= lki * yi;
      rows_(end) = k;
      values_(end) = lki;
      ++count_(i);
    }
    if (!(d_(k) > kSmallestPivot * std::abs(diagonal))) {
      y_.setZero();
      return false;
    }
  }
  return true;
}

void SparseLdlt::solveInPlace(Eigen::VectorXd& x) const {
  // L z = x, D w = z, L^T x = w.
  double* b = x.data();
  const Eigen::Index* rows = rows_.data();
  const double* values = values_.data();
  for (Eigen::Index j = 0; j < n_; ++j) {
    const double bj = b[j];
    for (Eigen::Index p = start_(j); p < start_(j + 1); ++p) b[rows[p]] -= values[p] * bj;
  }
  x.head(n_).array() /= d_.array();
  for (Eigen::Index j = n_ - 1; j >= 0; --j) {
    double bj = b[j];
    for (Eigen::Index p = start_(j); p < start_(j + 1); ++p) bj -= values[p] * b[rows[p]];
    b[j] = bj;
  }
}

double SparseLdlt::inverseNormEstimate() {
  // A symmetric: A^-T = A^-1.
  const auto solve = [this](Eigen::VectorXd& x) { solveInPlace(x); };
  return rlx::inverseNormEstimate(probe_, solve, solve);
}

}  // namespace rlx
