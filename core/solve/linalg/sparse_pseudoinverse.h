#pragma once
// Moore-Penrose pseudoinverse of a sparse matrix C (m x n) whose rows may be switched off, with
// the interface of the dense one (solve/linalg/pseudoinverse.h), by the rank-revealing sparse QR of
// its rows scaled to unit length (solve/linalg/sparse_qr.h): C^+ b is the minimum-norm solution of
// the independent rows I, and (C C^T)^+ b is (C_I C_I^T)^-1 b_I (zero on the dependent rows) less
// its part in the left null space of C. For a consistent b (b on the dependent rows the
// combination of b_I that the rows are) both are the pseudoinverse's. A row counts as dependent when its remaining norm in the QR falls to
// max(m, n) eps (the dense SVD's rank threshold, for unit rows).
// Each compute() factors afresh (SuiteSparseQR allocates): it serves the large models'
// corrected equation where its normal equations decline (solve/integrators/braun_goldfarb.h), at
// most a few evaluations near a singular configuration.

#include "solve/equations/workspace.h"
#include "solve/linalg/sparse_qr.h"

#include <memory>
#include <vector>

namespace rlx {

class SparsePseudoInverse {
 public:
  // Decomposes C; active[i] false switches row i off (missing entries: on); `leading` = k.
  void compute(const SparseMatrix& C, const std::vector<bool>& active, Eigen::Index leading);

  // x = C^+ b; with `gram` also (C C^T)^+ b.
  void apply(const Eigen::VectorXd& b, Eigen::VectorXd& x, Eigen::VectorXd* gram = nullptr);
  void applyLeading(const Eigen::VectorXd& b, Eigen::VectorXd& x);  // x = C_k^+ b (k entries)

 private:
  std::unique_ptr<SparseRowQR> all_, leading_;  // leading_: null when k = m
  Eigen::MatrixXd nullSpace_;  // orthonormal basis of the left null space (m x (m - rank))
};

}  // namespace rlx
