#pragma once
// The square Jacobian of a fully driven model (kinematic analysis, solve/kinematics/kinematics.h):
// the active rows of Phi_q, one per velocity, factored by a dense pivoted LU for small models and,
// from kSparseFromVelocities velocities on, by a sparse one (KLU, solve/linalg/sparse_lu.h) whose
// pattern, value positions and ordering are set up once and which reuses its pivots while they
// hold.

#include "solve/equations/workspace.h"
#include "solve/linalg/sparse_lu.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <memory>
#include <vector>

namespace rlx {

class DrivenJacobian {
 public:
  // rows: the active rows of ws.Phi_q, as many as its columns.
  DrivenJacobian(const Workspace& ws, std::vector<Eigen::Index> rows);

  // Factors the active rows of ws.Phi_q; false when they are singular or not finite.
  bool factor(const Workspace& ws);

  // J^-1 b and J^-T b with the last factorization.
  Eigen::VectorXd solve(const Eigen::VectorXd& b);
  Eigen::VectorXd solveTransposed(const Eigen::VectorXd& b);

 private:
  std::vector<Eigen::Index> rows_;
  bool sparse_;
  Eigen::MatrixXd dense_;
  Eigen::PartialPivLU<Eigen::MatrixXd> denseLu_;
  Eigen::SparseMatrix<double> matrix_;  // column-major, compressed
  std::vector<Eigen::Index> slots_;     // value position of each active entry of Phi_q
  std::unique_ptr<SparseLu> sparseLu_;
};

}  // namespace rlx
