#pragma once
// Everything a solver computes from a state, preallocated once per model so that a step does not
// allocate. Rows of the constraint arrays: the nh holonomic equations first (joints, motions,
// holonomic user constraints, in the model's row order), then the nn nonholonomic ones.

#include "model/model.h"

#include <Eigen/Dense>

#include <vector>

namespace rlx {

struct Workspace {
  Eigen::VectorXd slotValues;  // the expression slots: [t, model.measures...]

  Eigen::VectorXd Phi;    // nh: holonomic residuals Phi(q, t)
  Eigen::MatrixXd Phi_q;  // (nh + nn) x nv: d(Phi)/dq mapped to v, then the nonholonomic A(q, t)
  Eigen::VectorXd nu;     // nh + nn: Phi_q v = nu (nu = -Phi_t; nonholonomic: b)
  Eigen::VectorXd gamma;  // nh + nn: Phi_q vdot = gamma

  Eigen::MatrixXd M;      // nv x nv mass matrix (block diagonal)
  Eigen::VectorXd Q;      // nv generalized applied forces (gravity, force elements, gyroscopic)
  Eigen::VectorXd Qn;     // nv the nonconservative part of Q (damping, applied forces)

  Eigen::VectorXd vdot;    // nv accelerations
  Eigen::VectorXd lambda;  // nh + nn Lagrange multipliers: M vdot + Phi_q^T lambda = Q

  std::vector<bool> active;  // per row: false for a consistent redundant equation (dropped)

  explicit Workspace(const Model& model);
};

}  // namespace rlx
