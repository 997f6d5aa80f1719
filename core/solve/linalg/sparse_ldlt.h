#pragma once
// L D L^T factorization of a sparse symmetric positive definite matrix with a fixed pattern
// (up-looking, in the order given: the caller orders the matrix for little fill). The pattern is
// analysed once in the constructor (elimination tree, the count of every column of L) and the
// memory for L and the work vectors is taken there: factor() and solveInPlace() allocate nothing.
// No pivoting: factor() fails when a pivot d_k is not positive, relative to its diagonal entry.

#include <Eigen/Dense>
#include <Eigen/SparseCore>

namespace rlx {

class SparseLdlt {
 public:
  // upper: the matrix's upper triangle (entries (i, j), i <= j, diagonal included), compressed
  // column-major; its values are ignored.
  explicit SparseLdlt(const Eigen::SparseMatrix<double>& upper);

  // Factors the matrix whose upper triangle is `upper` (the constructor's pattern); false when it
  // is not positive definite (or not finite).
  bool factor(const Eigen::SparseMatrix<double>& upper);

  // x <- A^-1 x.
  void solveInPlace(Eigen::VectorXd& x) const;

  // |A^-1|_1 of the factored matrix, estimated (solve/linalg/norm_estimate.h).
  double inverseNormEstimate();

  Eigen::Index size() const { return n_; }

 private:
  using Indices = Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1>;
  Eigen::Index n_ = 0;
  Indices parent_;          // elimination tree (-1 at a root)
  Indices start_;           // start of column j of L in rows_ / values_
  Indices count_;           // entries of column j of L filled so far
  Indices rows_;            // L's strictly lower entries: rows,
  Eigen::VectorXd values_;  // and values, by column
  Eigen::VectorXd d_;       // D
  Eigen::VectorXd y_;       // work: row k of L D being formed
  Indices flag_, pattern_;  // work: visited marks, the pattern of row k
  Eigen::VectorXd probe_;   // work: the estimate's vectors
};

}  // namespace rlx
