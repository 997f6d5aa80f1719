#pragma once
// Rank-revealing sparse QR of a constraint matrix A (rows = equations), for the large models
// (the small ones use dense decompositions), by SuiteSparseQR: Heath's rank detection moves a
// column whose remaining norm is at most the threshold to the end. With the rows scaled to unit
// length, D A:
//   (D A)^T P = Q R,   R = [R11 R12; 0 ~0],   R11 r x r upper triangular, nonsingular,
// r the rank: the equations P(0 ... r-1) are independent, and each other one, P(r + j), is the
// combination (D A)_P(r+j) = sum_k y_jk (D A)_P(k) of them, with R11 y_j = R12(:, j).
// Minimum-norm solution of the independent equations of A x = b:
//   x = Q [R11^-T (P^T D b)(0 ... r-1); 0].
// Left null space of A (the dependencies): per dependent equation, w = D u with u_P(r+j) = 1 and
// u_P(k) = -y_jk, so that w^T A = 0.

#include "solve/equations/workspace.h"

#include <memory>
#include <vector>

namespace rlx {

// The minimum-norm solution of A x = b for A of full row rank, from the sparse LU (KLU) of
//   [I  (DA)^T; DA  0] [x; y] = [0; D b]   (D: 1 / row norms);
// false when the LU's pivots show A rank deficient (min/max |U_kk| below 1e-9): then use
// SparseRowQR. Faster than the QR when it applies.
bool fullRankMinimumNorm(const SparseMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x);

// The minimum-norm x satisfying A x = b: for `large` problems by fullRankMinimumNorm (when A is
// no taller than wide), or SparseRowQR (threshold 1e-9, dependent rows dropped) when A is rank
// deficient; for small ones by the dense complete orthogonal decomposition (least squares where
// the rows disagree).
Eigen::VectorXd minimumNormSolution(const SparseMatrix& A, const Eigen::VectorXd& b, bool large);

// 1 / |row i| per row of A (1 for a zero row): the scaling D that gives the rows unit length.
Eigen::VectorXd unitRowScales(const SparseMatrix& A);

class SparseRowQR {
 public:
  SparseRowQR(const SparseMatrix& A, double threshold);
  ~SparseRowQR();
  SparseRowQR(const SparseRowQR&) = delete;
  SparseRowQR& operator=(const SparseRowQR&) = delete;

  // False when SuiteSparseQR failed (out of memory): then no row is dependent and the null
  // space is empty.
  bool ok() const { return ok_; }
  Eigen::Index rank() const { return rank_; }

  // The rows that depend on the others, ascending.
  std::vector<Eigen::Index> dependentRows() const;

  // The minimum-norm x satisfying the independent rows of A x = b (NaN if the QR failed); with
  // `gram`, also (A_I A_I^T)^-1 b_I on the independent rows I (zero on the others):
  //   D_I R11^-1 R11^-T (P^T D b)(0 ... r-1), permuted back.
  Eigen::VectorXd minimumNormSolve(const Eigen::VectorXd& b, Eigen::VectorXd* gram = nullptr) const;

  // A basis of the left null space of A (m x (m - rank)): one column w per dependent row, above.
  SparseMatrix leftNullSpace() const;

  // sigma_min / sigma_1 of the unit-length rows D A, from R (R^T R = P^T D A A^T D P): the
  // largest eigenvalues of R^T R and of its inverse (two triangular solves) by Lanczos iteration
  // (a QR of threshold 0 keeps every row; 0 when a row was dropped, 1 without rows, NaN if the
  // QR failed). With `leftVector`, sigma_min's left
  // singular vector of D A.
  double singularValueRatio(Eigen::VectorXd* leftVector = nullptr) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Eigen::VectorXd scale_;  // D: 1 / row norms
  Eigen::Index columns_;   // of A
  Eigen::Index rank_ = 0;
  bool ok_ = false;
};

}  // namespace rlx
