#pragma once
// The KKT systems of the accelerations and the velocity projection on large models,
//   [ M       Phi_q^T ] [x]   [f]
//   [ Phi_q   0       ] [y] = [g]      (the active rows of Phi_q),
// kept by the workspace between calls (Workspace::kkt) so that a run records its frames without
// analysing the matrix again: the pattern is fixed once (solve/linalg/kkt_matrix.h). M is block
// diagonal (a block per body), so every solve fills the values and goes through the Schur
// complement Phi_q M^-1 Phi_q^T (solve/linalg/kkt_schur.h, its ordering found once); where that
// fails (a body without mass or inertia, dependent rows) or its residual is too large, through KLU
// (its ordering analysed once, solve/linalg/sparse_lu.h), factored again with the pivots of the
// last time and, when the residual is still too large, with fresh pivots.

#include "solve/equations/workspace.h"
#include "solve/linalg/kkt_matrix.h"
#include "solve/linalg/kkt_schur.h"
#include "solve/linalg/sparse_lu.h"

#include <vector>

namespace rlx {

// Whether x solves K x = rhs: finite, with a residual within 1e-8 (1 + |rhs|) (1 + |K|) (a
// singular or poorly factored KKT matrix shows here). K dense or sparse.
template <typename Matrix>
bool solvesKkt(const Matrix& K, const Eigen::VectorXd& x, const Eigen::VectorXd& rhs) {
  return x.allFinite() && (K * x - rhs).norm() <= 1e-8 * (1 + rhs.norm()) * (1 + K.norm());
}

class KktSolver {
 public:
  // blockSize: the velocities of a body (3 planar, 6 spatial).
  KktSolver(const Workspace& ws, std::vector<Eigen::Index> rows, int blockSize);

  const std::vector<Eigen::Index>& rows() const { return matrix_.rows(); }

  // x = K^-1 rhs with ws's M and Phi_q. False when K is singular or the residual of x exceeds
  // 1e-8 (1 + |rhs|) (1 + |K|).
  bool solve(const Workspace& ws, const Eigen::VectorXd& rhs, Eigen::VectorXd& x);

 private:
  bool factorAndSolve(const Eigen::VectorXd& rhs, Eigen::VectorXd& x);

  KktMatrix matrix_;
  KktSchur schur_;
  SparseLu lu_;
};

}  // namespace rlx
