#include "solve/linalg/kkt_solver.h"

namespace rlx {

KktSolver::KktSolver(const Workspace& ws, std::vector<Eigen::Index> rows, int blockSize)
    : matrix_(ws, std::move(rows)),
      schur_(matrix_.matrix(), ws.M.rows(), blockSize),
      lu_(matrix_.matrix()) {}

bool KktSolver::solve(const Workspace& ws, const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  matrix_.fill(ws, 1.0);
  if (schur_.applies() && schur_.factor(matrix_.matrix())) {
    x = rhs;
    schur_.solveInPlace(x);
    if (solvesKkt(matrix_.matrix(), x, rhs)) return true;
  }
  if (factorAndSolve(rhs, x)) return true;
  // The reused pivots may have become poor for this matrix: pivot afresh.
  lu_.forgetPivots();
  return factorAndSolve(rhs, x);
}

bool KktSolver::factorAndSolve(const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  if (!lu_.factor(matrix_.matrix())) return false;
  x = rhs;
  lu_.solveInPlace(x);
  return solvesKkt(matrix_.matrix(), x, rhs);
}

}  // namespace rlx
