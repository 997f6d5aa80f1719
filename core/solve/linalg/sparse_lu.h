#pragma once
// LU factorization of a square sparse matrix with a fixed pattern, by KLU (SuiteSparse). The
// fill-reducing ordering is analysed once, from the pattern (with KLU's block triangular form
// unless the pattern is symmetric, as a KKT matrix's is); the first factorization chooses the
// pivots; later ones reuse the pivot sequence and the memory (klu_refactor: no allocation) and
// pivot afresh (allocating) only when the reused pivots have become poor: min/max |U_kk| below
// 1e-8 times its value after the last pivoting. Rows are scaled by their largest entry before
// each factorization unless the constructor is told not to (a matrix whose magnitudes the caller
// keeps balanced: the scaling pass costs about a third of a refactorization).

#include <Eigen/Dense>
#include <Eigen/SparseCore>

namespace rlx {

class SparseLu {
 public:
  explicit SparseLu(const Eigen::SparseMatrix<double>& pattern, bool scaleRows = true);
  ~SparseLu();
  SparseLu(const SparseLu&) = delete;
  SparseLu& operator=(const SparseLu&) = delete;

  // Factors A (the pattern's structure, compressed); false when A is singular.
  bool factor(Eigen::SparseMatrix<double>& A);

  // The next factorization chooses its pivots afresh.
  void forgetPivots();

  // x = A^-1 x.
  void solveInPlace(Eigen::VectorXd& x);

  // x = A^-T x.
  void solveTransposedInPlace(Eigen::VectorXd& x);

  // min/max |U_kk| of the last factorization: near zero when A is nearly singular.
  double pivotRatio();

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace rlx
