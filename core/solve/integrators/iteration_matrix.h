#pragma once
// The iteration matrix of the implicit integrators' Newton (hht, bdf) on the index-3 DAE:
//   J = [ M / d + cK K + cC C   Phi_q^T ]      K = d(Phi_q^T lambda - Q)/dq,  C = -dQ/dv,
//       [ Phi_q                 0       ]
// on the active rows of Phi_q (Workspace::active), with the integrator's scalars d, cK, cC
// (hht: 1 + alpha, beta h^2, gamma h; bdf: 1, 1 / alpha_0^2, 1 / alpha_0).
// K and C: on the sparse path of planar models in closed form (solve/planar_stiffness.h: the
// constraint forces' geometric stiffness always, the applied forces' K and C when every force
// element has one), otherwise by forward differences of evaluateAppliedForces and
// evaluateConstraintDerivatives (K includes the geometric stiffness). The columns are perturbed in
// groups: the bodies are coloured so that no two of a colour share a neighbour (bodyNeighbours, a
// distance-2 colouring), and one evaluation perturbs direction k of every body of a colour at
// once; the change of the force on body i then comes from its one perturbed neighbour. Forming J
// costs 2 d (colours) evaluations, independent of the number of bodies for a chain or a tree.
// Storage: dense J and a pivoted LU for small models; for large ones a sparse J
// (solve/linalg/kkt_matrix.h) whose pattern (the neighbour blocks, Phi_q's active rows and their
// transposes) is fixed in the constructor. Where J's top-left block is block diagonal (a chain or
// tree of pins, forces on single bodies) it is factored through the Schur complement of that
// block (solve/linalg/kkt_schur.h); otherwise, or when that factorization fails, by a sparse LU
// (KLU, solve/linalg/sparse_lu.h) whose ordering is analysed once and which is factored again, with
// the memory and pivots of the last time, when J is formed. No allocation after the constructor.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"
#include "solve/linalg/dense_lu.h"
#include "solve/linalg/kkt_matrix.h"
#include "solve/linalg/kkt_schur.h"
#include "solve/linalg/sparse_lu.h"

#include <Eigen/Dense>

#include <memory>
#include <vector>

namespace rlx {

class IterationMatrix {
 public:
  IterationMatrix(const Model& model, Workspace& ws, bool sparse);

  // Forms J at `at` and factors it. ws.M and ws.Phi_q must be those at `at`; `lambda` holds the
  // multipliers of every row (zero on inactive ones). The differences leave ws evaluated at
  // perturbed states. False when J is not finite or singular.
  bool form(const State& at, const Eigen::VectorXd& lambda, double massDivisor, double cK,
            double cC, RunStats& stats);

  // Dense J: its M / d and Phi_q blocks replaced by ws.M and ws.Phi_q (K and C as formed) and
  // factored again. False when singular.
  bool refresh();

  // x <- J^-1 x (n + m entries: velocities, then the active rows).
  void solveInPlace(Eigen::VectorXd& x);

  // The same, and force = Phi_q^T times x's active-row part (as J was formed): through the
  // Schur complement in the solve's own pass.
  void solveInPlace(Eigen::VectorXd& x, Eigen::VectorXd& force);

  // out = Phi_q^T x over the active rows (J's top right block, as formed).
  void multiplyConstraintTranspose(const Eigen::Ref<const Eigen::VectorXd>& x,
                                   Eigen::VectorXd& out) const;

  // out = J's top left block times e.
  void multiplyTopLeft(const Eigen::VectorXd& e, Eigen::VectorXd& out) const;

  bool finite() const { return sparse_ ? kkt_->matrix().coeffs().allFinite() : J_.allFinite(); }
  bool closedFormConstraints() const { return closedFormConstraints_; }
  const std::vector<Eigen::Index>& rows() const { return rows_; }  // active rows of Phi_q

 private:
  class Sink;
  std::vector<std::vector<int>> stiffnessPattern() const;
  void buildColumnGroups();
  void addScaledMass(double sign, Eigen::MatrixXd& target) const;  // target += sign M / d
  void addDifference(Eigen::Index column, double scale, const Eigen::VectorXd& difference);
  void addDifferences(const State& at, const Eigen::VectorXd& lambda, double cK, double cC,
                      RunStats& stats);
  double reciprocalCondition();

  const Model& model_;
  Workspace& ws_;
  bool sparse_;
  bool closedFormConstraints_, closedFormForces_;  // K, C in closed form (solve/planar_stiffness.h)
  std::vector<std::vector<int>> near_;  // bodyNeighbours
  // Per body, the bodies whose rows its columns of K and C may fill: the blocks the closed-form
  // K and C add (sparse path, every part in closed form), else its neighbours.
  std::vector<std::vector<int>> blockBodies_;
  std::vector<Eigen::Index> rows_;  // active rows of Phi_q
  Eigen::Index n_ = 0, m_ = 0;
  std::vector<std::vector<Eigen::Index>> groups_;  // directions perturbed together
  // Per direction: the rows of K and C it moves (of blockBodies_).
  std::vector<std::vector<Eigen::Index>> columnRows_;
  double massDivisor_ = 1.0;
  State perturbed_;
  Eigen::VectorXd force0_, force_, appliedForce0_, unit_, scratch_;  // differences, estimates
  Eigen::MatrixXd J_;
  Eigen::MatrixXd stiffness_;  // dense, spatial: cK K + cC C as J was formed
  DenseLu lu_;
  std::unique_ptr<KktMatrix> kkt_;  // sparse J (its M and Phi_q blocks, the K and C blocks)
  std::unique_ptr<SparseLu> sparseLu_;
  std::unique_ptr<KktSchur> schur_;  // when J's top-left block is block diagonal
  bool schurFactored_ = false;       // the last J factored through schur_
};

}  // namespace rlx
