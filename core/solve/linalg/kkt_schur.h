#pragma once
// The KKT system of a model whose top-left block is block diagonal (a block per body: no force
// element or joint stiffness couples two bodies in it), solved through the Schur complement of
// that block:
//   [ A  G^T ] [x]   [r1]      S = G A^-1 G^T,  S y = G A^-1 r1 - r2,  x = A^-1 (r1 - G^T y).
//   [ G  0   ] [y] = [r2]
// With A symmetric positive definite (M / d dominates at the steps the integrators take) and G of
// full row rank, S is symmetric positive definite: no pivoting, factored by a sparse L D L^T
// (solve/linalg/sparse_ldlt.h) in an approximate-minimum-degree order found once. For a chain S is
// block tridiagonal and L has no fill. factor() fails (and the caller turns to a general LU) when a
// block of A is not symmetric positive definite or S is not positive definite. Pattern, ordering
// and memory are set up in the constructor: factor() and solveInPlace() allocate nothing.

#include "solve/linalg/sparse_ldlt.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <memory>
#include <vector>

namespace rlx {

class KktSchur {
 public:
  // J: the KKT pattern (compressed, column-major; G^T in columns n.., G in rows n..); A's blocks
  // are the velocities [b s, (b + 1) s), s = blockSize (3: planar bodies, 6: spatial).
  KktSchur(const Eigen::SparseMatrix<double>& J, Eigen::Index n, int blockSize);

  // False when J's top-left block is not block diagonal (or its bottom-right block is not empty,
  // or the block size is not 3 or 6): this solver does not apply.
  bool applies() const { return applies_; }

  // Factors J (the pattern's values); false when A or S is not positive definite.
  bool factor(const Eigen::SparseMatrix<double>& J);

  // [x; y] <- J^-1 [r1; r2], and force = G^T y when given (in the same pass).
  void solveInPlace(Eigen::VectorXd& x, Eigen::VectorXd* force = nullptr);

  // kappa_1(S) of the factored S, |S^-1|_1 estimated (SparseLdlt::inverseNormEstimate).
  double schurConditionEstimate();

 private:
  template <int S> bool factorBlocks(const Eigen::SparseMatrix<double>& J);
  template <int S> void solveBlocks(Eigen::VectorXd& x, Eigen::VectorXd* force);

  // A row k of G on a block b: g = G(k, b) and w = A_b^-1 g at touchValues_ / touchSolved_
  // (s entries from s t, touch t), its value positions in J at touchSlots_ (-1: not in J).
  struct Touch {
    Eigen::Index orderedRow;  // k in S's order
    Eigen::Index first;       // the block's first velocity
  };
  // S(i, j) += g_first . w_second at position `slot` of S's values.
  struct Product {
    Eigen::Index first, second, slot;
  };

  Eigen::Index n_ = 0, m_ = 0;
  int blockSize_ = 0;
  bool applies_ = true;
  std::vector<Eigen::Index> blockSlots_;  // per block, its s^2 value positions (-1: zero)
  std::vector<Eigen::Index> touchSlots_;
  std::vector<Touch> touches_;
  std::vector<Product> products_;
  Eigen::VectorXd inverses_, touchValues_, touchSolved_;  // A_b^-1 (s^2 each, column-major), g, w
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1> order_;  // row k of G is row order_(k) of S
  Eigen::SparseMatrix<double> S_;                         // upper triangle of S, ordered
  std::unique_ptr<SparseLdlt> ldlt_;
  Eigen::VectorXd u_, y_;  // work: A^-1 r1; y in S's order
  Eigen::VectorXd columnSums_;  // work: |S|'s column sums
};

}  // namespace rlx
