#pragma once
// Rank-revealing sparse QR of a constraint matrix A (rows = equations), for the large models
// (the small ones use dense decompositions). With the rows scaled to unit length, D A:
//   (D A)^T P = Q R,   R upper triangular, its leading r x r block R11 nonsingular,
// r the rank: the equations P(0 ... r-1) are independent, the others depend on them (a column of
// A^T whose remainder after the earlier ones is below the threshold is moved to the end).
// Minimum-norm solution of the independent equations of A x = b:
//   x = Q [R11^-T (P^T D b)(0 ... r-1); 0].

#include "solve/workspace.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseQR>

#include <vector>

namespace rlx {

// The minimum-norm solution of A x = b for A of full row rank, from the sparse LU (KLU) of
//   [I  (DA)^T; DA  0] [x; y] = [0; D b]   (D: 1 / row norms);
// false when the LU's pivots show A rank deficient (min/max |U_kk| below 1e-9): then use
// SparseRowQR. Much faster than the QR when it applies.
bool fullRankMinimumNorm(const SparseMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x);

class SparseRowQR {
 public:
  SparseRowQR(const SparseMatrix& A, double threshold);

  bool ok() const { return ok_; }
  Eigen::Index rank() const { return rank_; }

  // The rows that depend on the others, ascending.
  std::vector<Eigen::Index> dependentRows() const;

  // The minimum-norm x satisfying the independent rows of A x = b.
  Eigen::VectorXd minimumNormSolve(const Eigen::VectorXd& b) const;

 private:
  Eigen::VectorXd scale_;  // D: 1 / row norms
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr_;
  Eigen::Index rank_ = 0;
  bool ok_ = false;
};

}  // namespace rlx
