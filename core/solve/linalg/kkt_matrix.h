#pragma once
// A sparse KKT matrix on the active rows of Phi_q,
//   [ M / d + B   Phi_q^T ]
//   [ Phi_q       0       ]
// whose pattern is fixed at construction: M's and Phi_q's (fixed themselves,
// solve/equations/workspace.h) and the entries of B the caller names (the K and C blocks of the
// implicit integrators, solve/integrators/iteration_matrix.h). fill() writes M / d and Phi_q
// through value positions found once (solve/linalg/sparse_pattern.h): plain stores, no search, no
// allocation. Column j < nv holds its top-left entries first (ascending rows), then the rows nv + k
// of the Phi_q rows touching j; column nv + k holds Phi_q's active row k, all above row nv.

#include "solve/equations/workspace.h"

#include <Eigen/SparseCore>

#include <vector>

namespace rlx {

class KktMatrix {
 public:
  // topLeft: per velocity j, rows i < nv of further entries (i, j) of the top-left block.
  KktMatrix(const Workspace& ws, std::vector<Eigen::Index> rows,
            const std::vector<std::vector<Eigen::Index>>& topLeft = {});

  // Zeroes the matrix, then writes M / massDivisor and the active rows of Phi_q from ws.
  void fill(const Workspace& ws, double massDivisor);

  Eigen::SparseMatrix<double>& matrix() { return matrix_; }
  const Eigen::SparseMatrix<double>& matrix() const { return matrix_; }
  const std::vector<Eigen::Index>& rows() const { return rows_; }  // active rows of Phi_q

  // out = Phi_q^T x over the active rows (the top-right block).
  void multiplyConstraintTranspose(const Eigen::Ref<const Eigen::VectorXd>& x,
                                   Eigen::VectorXd& out) const;

  // out = the top-left block times e.
  void multiplyTopLeft(const Eigen::VectorXd& e, Eigen::VectorXd& out) const;

 private:
  std::vector<Eigen::Index> rows_;
  Eigen::Index n_ = 0, m_ = 0;
  Eigen::SparseMatrix<double> matrix_;  // column-major, compressed (as KLU takes it)
  // Value positions: of each entry of ws.M, and per entry of Phi_q's active rows (storage order)
  // of (n + k, j) and (j, n + k).
  std::vector<Eigen::Index> massSlots_, constraintSlots_;
};

}  // namespace rlx
