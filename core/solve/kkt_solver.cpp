#include "solve/kkt_solver.h"

namespace rlx {

KktSolver::KktSolver(const Workspace& ws, std::vector<Eigen::Index> rows)
    : matrix_(ws, std::move(rows)), lu_(matrix_.matrix()) {}

bool KktSolver::solve(const Workspace& ws, const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  matrix_.fill(ws, 1.0);
  if (factorAndSolve(rhs, x)) return true;
  // The reused pivots may have become poor for this matrix: pivot afresh.
  lu_.forgetPivots();
  return factorAndSolve(rhs, x);
}

bool KktSolver::factorAndSolve(const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  Eigen::SparseMatrix<double>& K = matrix_.matrix();
  if (!lu_.factor(K)) return false;
  x = rhs;
  lu_.solveInPlace(x);
  return x.allFinite() && (K * x - rhs).norm() <= 1e-8 * (1 + rhs.norm()) * (1 + K.norm());
}

}  // namespace rlx
