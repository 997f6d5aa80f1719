#pragma once
// Everything a solver computes from a state, preallocated once per model so that a step does not
// allocate. Rows of the constraint arrays: the nh holonomic equations first (joints, motions,
// holonomic user constraints, in the model's row order), then the nn nonholonomic ones.
//
// Phi_q and M are sparse with a pattern fixed here, from the model's structure: a row of Phi_q
// holds the velocities of every body its joint, motion or user constraint touches, and M one
// dense block per body. The evaluations zero the values and add into the pattern (addBlock), so
// they never allocate. Solvers for small models copy them into dense matrices of their own.

#include "model/model.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <algorithm>
#include <memory>
#include <vector>

namespace rlx {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// Models with at least this many velocities take the sparse paths of the assembly, the
// redundancy analysis and the accelerations; smaller ones factor dense matrices.
constexpr int kSparseFromVelocities = 100;

// The same for hht's iteration matrix (DynamicsOptions::sparseFrom), measured on pendulum chains
// with KLU: per step, nv = 15: dense 9.8 us, sparse 12.6 us; nv = 30: 27 / 22 us; nv = 99: 289 /
// 104 us. Through the Schur complement (a J with a block per body) the sparse path is as fast
// from nv = 9 (dense / sparse: 1.8 / 1.4 us at nv = 9, 4.2 / 4.1 at 15); the threshold is KLU's.
constexpr int kSparseHHTFromVelocities = 24;

struct Workspace {
  Eigen::VectorXd slotValues;  // the expression slots: [t, model.measures...]

  Eigen::VectorXd Phi;  // nh: holonomic residuals Phi(q, t)
  SparseMatrix Phi_q;   // (nh + nn) x nv: d(Phi)/dq mapped to v, then the nonholonomic A(q, t)
  Eigen::VectorXd nu;     // nh + nn: Phi_q v = nu (nu = -Phi_t; nonholonomic: b)
  Eigen::VectorXd gamma;  // nh + nn: Phi_q vdot = gamma

  SparseMatrix M;       // nv x nv mass matrix: one dense block per body
  Eigen::VectorXd Q;    // nv generalized applied forces (gravity, force elements, gyroscopic)
  Eigen::VectorXd Qn;   // nv the nonconservative part of Q (damping, applied forces)

  Eigen::VectorXd vdot;    // nv accelerations
  Eigen::VectorXd lambda;  // nh + nn Lagrange multipliers: M vdot + Phi_q^T lambda = Q

  std::vector<bool> active;  // per row: false for a consistent redundant equation (dropped)
  // Large models: the KKT solver of the accelerations and the velocity projection (assembly.h),
  // made at their first call and kept while the active rows stay (solve/linalg/kkt_solver.h).
  std::shared_ptr<class KktSolver> kkt;

  explicit Workspace(const Model& model);
};

// The rows of Phi_q the redundancy analysis kept (Workspace::active), ascending; the same of any
// such per-row vector.
std::vector<Eigen::Index> activeRows(const std::vector<bool>& active);
std::vector<Eigen::Index> activeRows(const Workspace& ws);

// The bodies each row of Phi_q touches (ascending, ground left out): the pattern of Phi_q.
std::vector<std::vector<int>> rowBodies(const Model& model);

// For each body, the bodies whose generalized forces (applied or of the constraints) depend on its
// state, itself included, ascending: those sharing a row of Phi_q or a force element with it
// (a force's bodies, its joint's, and those of the measures its expressions read).
std::vector<std::vector<int>> bodyNeighbours(const Model& model);

// A += block at (row, col): every entry of the block must be in A's pattern.
template <typename Block>
void addBlock(SparseMatrix& A, Eigen::Index row, Eigen::Index col, const Block& block) {
  for (Eigen::Index r = 0; r < block.rows(); ++r) {
    const Eigen::Index begin = A.outerIndexPtr()[row + r], end = A.outerIndexPtr()[row + r + 1];
    const int* columns = A.innerIndexPtr();
    const int* first = std::lower_bound(columns + begin, columns + end, static_cast<int>(col));
    double* values = A.valuePtr() + (first - columns);
    for (Eigen::Index c = 0; c < block.cols(); ++c) values[c] += block(r, c);
  }
}

// A = block at (row, col), the other entries unchanged: the block must be in A's pattern.
template <typename Block>
void setBlock(SparseMatrix& A, Eigen::Index row, Eigen::Index col, const Block& block) {
  for (Eigen::Index r = 0; r < block.rows(); ++r)
    for (Eigen::Index c = 0; c < block.cols(); ++c) A.coeffRef(row + r, col + c) = block(r, c);
}

// The entries of block (row, col, rows, cols) of A, dense.
Eigen::MatrixXd denseBlock(const SparseMatrix& A, Eigen::Index row, Eigen::Index col,
                           Eigen::Index rows, Eigen::Index cols);

}  // namespace rlx
