#pragma once
// The KKT systems of the accelerations and the velocity projection on large models,
//   [ M       Phi_q^T ] [x]   [f]
//   [ Phi_q   0       ] [y] = [g]      (the active rows of Phi_q),
// kept by the workspace between calls (Workspace::kkt) so that a run records its frames without
// analysing the matrix again: the pattern is fixed once (solve/kkt_matrix.h) and KLU's ordering
// analysed once (solve/sparse_lu.h); every solve fills the values and factors again with the
// pivots of the last time while they hold. A solution whose residual is too large is computed
// again with fresh pivots.

#include "solve/kkt_matrix.h"
#include "solve/sparse_lu.h"
#include "solve/workspace.h"

#include <vector>

namespace rlx {

class KktSolver {
 public:
  KktSolver(const Workspace& ws, std::vector<Eigen::Index> rows);

  const std::vector<Eigen::Index>& rows() const { return matrix_.rows(); }

  // x = K^-1 rhs with ws's M and Phi_q. False when K is singular or the residual of x exceeds
  // 1e-8 (1 + |rhs|) (1 + |K|).
  bool solve(const Workspace& ws, const Eigen::VectorXd& rhs, Eigen::VectorXd& x);

 private:
  bool factorAndSolve(const Eigen::VectorXd& rhs, Eigen::VectorXd& x);

  KktMatrix matrix_;
  SparseLu lu_;
};

}  // namespace rlx
