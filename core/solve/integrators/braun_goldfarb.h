#pragma once
// Constraint- and energy-corrected equation of motion as a first-order system for explicit
// Runge-Kutta (shared/docs/braun-goldfarb.md, equations (17a), (17b), (20)).
//
// M = R^T R (Cholesky per body block, L = R^T; a spatial body's block is T Mb T^T with Mb the
// constant block in body axes and T = blockdiag(I, A), so R = L_b^T T^T with L_b from Mb),
// a = M^-1 Q, A = Phi_q (every row: holonomic, then nonholonomic A v = b; with respect to v),
// C = A R^-1, C_q = A_q R^-1 its holonomic rows, X^+ the Moore-Penrose pseudoinverse
// (solve/linalg/pseudoinverse.h: QR when well conditioned, else SVD with singular values
// <= max(m, n) eps sigma_1 dropped; applied, never formed), N = I - C^+ C. The
// position correction uses the holonomic rows; the velocity correction, the acceleration and the
// energy term all rows (the note's nu-set).
//
//   qdot = v + R^-1 C_q^+ (nu_q - A_q v - k_q Phi)                                    (17a)
//   vdot = a + R^-1 z,   z = y + w r / (w w^T + mu0^2)                                 (17b)
//          y = C^+ (b_nu - A a - k_nu (A v - nu))
//          b_nu = -(A qdot)_q qdot + nu_t     (holonomic rows: gamma at the corrected qdot)
//          b_nu = -(A v)_q qdot + nu_t        (nonholonomic rows)
//   energy (20): Phi_e = E - E0 - W, s = R v, w^T = N s = s - C^+ (A v),
//          r = b_e - k_e Phi_e - (M v) . (a + R^-1 y),  b_e = Q_c . qdot + P
//          (Q_c the conservative part of Q = -dV/dq; a spatial body's kinetic energy depends on
//          its orientation, dT/dtheta = -g with g = -omega x (J_W omega) the gyroscopic term in
//          Q_c, so b_e uses Q_c - 2 g; the term is skipped, z = y, when
//          w w^T <= max(m, n) eps max(1, s^T s) or when the energy correction is off)
//   Wdot = P = Q_nc . v                        (power of the nonconservative applied forces)
//   lambda: the minimum-norm least-squares solution of Phi_q^T lambda = Q - M vdot, which is
//          C^T lambda = -z, i.e. lambda = -(C^T)^+ z (the energy term drops out: N s is in the
//          null space of C), computed as -(C^T)^+ C^+ b_y = -(C C^T)^+ b_y with b_y the argument
//          of y above (PseudoInverse::apply's `gram`).
//
// Convective term. The exact rate of the velocity error A v - nu along (qdot, vdot) needs
// -(A v)_q qdot; the holonomic rows take -(A qdot)_q qdot instead, i.e. gamma evaluated at the
// velocity qdot. Why: write v = qdot + d (d the velocity error that (17a) removes from qdot,
// A_q qdot = nu_q - k_q Phi) and B(x, w) = (A x)_q w. With -(A v)_q qdot the error obeys
// A d' = -k_nu A d - B(d, qdot). Near a singular configuration a row combination u has
// u^T A = sigma e^T with sigma -> 0, so (e.d)' = -k_nu (e.d) - u^T B(d, qdot) / sigma: d along e
// grows like 1/sigma, and so does y (the double four-bar blew up at a horizontal pass now and
// then). With -(A qdot)_q qdot: A (d' + k_nu d) = k_q (k_nu - k_q) Phi = 0 (equal gains), and d
// decays at the rate k_nu whatever sigma is. Both coincide on the exact solution (d = 0).
// Nonholonomic rows (rolling disks' no-slip rows, nonholonomic user rows) constrain v itself and
// qdot does not satisfy them: they keep the exact -(A v)_q qdot
// (solve/integrators/rolling_disk_rows.h, solve/equations/user_constraints.h).
//
// Energy correction: on when requested and the model has no motions and no user constraint whose
// reaction may do work (UserConstraint::doesWork: one that depends on t, or a nonholonomic one
// with b != 0). With motions the driving constraint forces do work -lambda^T nu whose multipliers
// come from this same corrected acceleration, so the energy balance is not known independently of
// the solution (note section 5).
// Nonconservative applied forces are kept: their power is a function of the state, and W is
// integrated with the state by the same Runge-Kutta scheme.
//
// Large models (sparse): the pseudoinverses are applied through the normal equations on
// S = A M^-1 A^T (solve/linalg/mass_pseudoinverse.h), with the same products in the velocity space,
//   R^-1 C^+ b = M^-1 A^T S^-1 b,   R^-1 w^T = v - R^-1 C^+ (A v),   w w^T = |R^-1 w^T|_M^2,
//   vdot = a + R^-1 y + c R^-1 w^T,   A_e vdot_k = (M v) . (a + R^-1 y),
// at O(n) per evaluation instead of the dense O(m n^2). Where they decline (S not positive
// definite or too poorly conditioned: near a singular configuration), the evaluation takes the
// rank-revealing sparse QR of C (solve/linalg/sparse_pseudoinverse.h) with the equations above as
// written; no dense m x n matrix is formed.
//
// mu0^2 = 2.5e-3 * 2 T_typ, T_typ = max(T(t0) + V_springs(t0), sum_b m_b |g| L): the kinetic
// energy the model can reach from its start (L: largest distance of a body centre or a joint point
// from the origin or its body's centre). Braun-Goldfarb slider-crank: mu0^2 = 0.11 J.

#include "model/model.h"
#include "solve/equations/workspace.h"
#include "solve/integrators/runge_kutta.h"
#include "solve/linalg/mass_pseudoinverse.h"
#include "solve/linalg/pseudoinverse.h"
#include "solve/linalg/sparse_pseudoinverse.h"

#include <Eigen/Dense>

#include <memory>
#include <string>
#include <vector>

namespace rlx {

struct CorrectionGains {
  double kq = 1.0;  // 1/s, position feedback in (17a)
  double kv = 1.0;  // 1/s, velocity feedback in (17b)
  double ke = 5.0;  // 1/s, energy feedback in (20)
};

class CorrectedEquation {
 public:
  // sparse: the pseudoinverses through the normal equations where they are well conditioned.
  explicit CorrectedEquation(const Model& model, bool sparse = false,
                             const CorrectionGains& gains = {});

  // Factors the mass matrix; false if a body's block is not positive definite (its name is
  // returned in `body`).
  bool factorMassMatrix(std::string& body);

  // Sets E0 = E(start), W(start) = 0 and mu0^2 from the start; turns the energy term on when
  // `energyCorrection` and the model allows it (see above). Returns whether it is on.
  bool setStart(const State& start, bool energyCorrection);

  // The corrected rates (qdot, vdot, Wdot) and the multipliers at a point.
  void evaluate(const RkPoint& y, RkRate& out);

  double mu0Squared() const { return mu0Squared_; }

  // |qdot - v|_M / sqrt(2 T_typ) at the point last evaluated (out its rates): the velocity
  // correction (17a) asks for, relative to the velocities the model can reach (T_typ of mu0); 0
  // when T_typ = 0.
  double velocityCorrection(const RkPoint& y, const RkRate& out);

  // Keeps only the rows marked active (analyzeRedundancy): a redundant row enters C as zeros, so
  // that a redundancy that holds only on the constraint manifold (Bricard's linkage) does not
  // show as a tiny singular value of C off it.
  // Sparse: sets up the normal equations of the active rows (and of the active holonomic rows
  // when the model has nonholonomic ones). Until called, every row is active.
  void setActiveRows(const std::vector<bool>& active);

  // Sparse: evaluations that took the sparse QR (near singular configurations).
  int rankRevealingEvaluations() const { return rankRevealingEvaluations_; }

 private:
  // Sparse: the corrections at the point through the normal equations (qdot, vdot, lambda), with
  // Phi, Phi_q, nu, Av_ and Aa_ evaluated; false when S is not positive definite or too poorly
  // conditioned (what was written is to be overwritten).
  bool correctSparse(const RkPoint& y, RkRate& out);
  void multiplyMass(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;  // out = M x
  // b_e - k_e Phi_e of the energy correction (20) at the point, ss = v^T M v.
  double energyRate(const RkPoint& y, const RkRate& out, double ss);
  // Sparse: C = A R^-1 at the point.
  SparseMatrix sparseConstraintMatrix() const;
  // (17a), (17b) and (20) with a decomposed pseudoinverse of C (dense or sparse QR), Av_, Aa_ set.
  template <typename Pseudoinverse>
  void correctWith(Pseudoinverse& pinv, const RkPoint& y, RkRate& out);
  void solveR(Eigen::VectorXd& x) const;  // x <- R^-1 x
  // b_nu at the point at_ with the corrected rate qdot (lent to at_.v meanwhile).
  void convectiveTerm(Eigen::VectorXd& qdot, Eigen::VectorXd& b_nu);
  void formConstraintMatrix();  // C_ = A R^-1 from ws_.Phi_q (diagonal R: Ct_ = its transpose)
  void multiplyConstraints(const Eigen::VectorXd& v, const Eigen::VectorXd& a);  // Av_, Aa_
  // Phi, nu, C (Ct_ when diagonal), Av_ and Aa_ at at_ (velocity v; a_, Ra_, s_ already set).
  void evaluateConstraintRows(const Eigen::VectorXd& v);
  // Spatial bodies: rotation entries from body to global axes and back (planar: no-op).
  void toGlobal(Eigen::Ref<Eigen::VectorXd> x) const;
  void toBody(Eigen::Ref<Eigen::VectorXd> x) const;

  const Model& model_;
  CorrectionGains gains_;
  Workspace ws_, scratch_;
  // Per body: lower Cholesky factor L of its mass block and L^-1 (top-left bodyDofs entries).
  std::vector<Eigen::Matrix<double, 6, 6>> L_, Linv_;
  bool energyOn_ = false;
  std::vector<bool> active_;
  double E0_ = 0.0, mu0Squared_ = 0.0;
  PseudoInverse pinv_;  // of C (all rows) and C_q (its holonomic rows); sparse: unused
  bool sparse_ = false;
  // Sparse: R^-1 C^+ over the active rows and over the active holonomic rows (null: the same),
  // and the sparse QR where they decline.
  std::unique_ptr<MassPseudoinverse> sparseAll_, sparseHolonomic_;
  SparsePseudoInverse sparsePinv_;
  Eigen::VectorXd correction_;  // sparse: R^-1 w^T = v - R^-1 C^+ (A v)
  int rankRevealingEvaluations_ = 0;
  State at_;
  Eigen::MatrixXd denseA_, C_, Ct_;  // Phi_q as a dense matrix, C = A R^-1 and C^T
  Eigen::VectorXd Qn_, a_, Ra_, rhs_, rhsQ_, y_, s_, w_, Av_, Aa_, Mv_, work_;
  Eigen::VectorXd gyroscopic_, nonholonomic_;
  std::vector<Eigen::Matrix3d> turn_;  // per body: its rotation at the evaluated point
  // Diagonal M (planar bodies): R = diag(rootMass_), R^-1 = diag(rootMassInv_), M = diag(mass_).
  bool diagonal_ = false;
  bool planarRows_ = false;  // diagonal_ without user constraints: C^T straight from the joints
  Eigen::VectorXd rootMass_, rootMassInv_, mass_;
};

}  // namespace rlx
