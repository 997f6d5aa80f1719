#pragma once
// The pseudoinverse of the corrected equation of motion (solve/integrators/braun_goldfarb.h) on
// large models, where the dense one (solve/linalg/pseudoinverse.h) costs O(m n^2) per evaluation.
// With M = R^T R and C = A R^-1 of full row rank,
//   R^-1 C^+ b = M^-1 A^T S^-1 b,   (C C^T)^-1 b = S^-1 b,   S = A M^-1 A^T,
// the M-weighted minimum-norm solution of A x = b and its multipliers, which is the KKT system
//   [ M  A^T ] [x]   [0]
//   [ A  0   ] [y] = [b],    y = -S^-1 b,
// solved through the Schur complement S (solve/linalg/kkt_schur.h: M is block diagonal, S factored
// by a sparse L D L^T on a pattern analysed once), on a fixed set of rows of Phi_q.
// Accuracy: the normal equations' relative error is about kappa(S) eps = kappa(C)^2 eps. Up to
// kappa_1(S) = 1e8 (estimated when factoring) that is within the 1e-8 the dense QR path allows
// itself (it takes kappa(C) <= 1e8); beyond, every solve is refined on its residual b - A x until
// the backward error |b - A x| <= 1e-14 (|b| + |A| |x|), which makes it about as good as a stable
// solve (x lies in the range of M^-1 A^T by construction). It declines (factor() or apply() false;
// the caller turns to a rank-revealing QR, solve/linalg/sparse_pseudoinverse.h) where S is not
// positive definite, kappa_1(S) > 1e14, or 4 refinements do not reach that: near a singular
// configuration, where the pseudoinverse drops the vanishing singular values.

#include "solve/equations/workspace.h"
#include "solve/linalg/kkt_matrix.h"
#include "solve/linalg/kkt_schur.h"

#include <vector>

namespace rlx {

class MassPseudoinverse {
 public:
  // rows: the rows of Phi_q (ascending); blockSize: the velocities of a body (3 or 6).
  MassPseudoinverse(const Workspace& ws, std::vector<Eigen::Index> rows, int blockSize);

  // Whether the Schur complement applies to the pattern (M block diagonal: always for bodies).
  bool applies() const { return schur_.applies(); }

  const std::vector<Eigen::Index>& rows() const { return matrix_.rows(); }

  // Factors S with ws's M and Phi_q; false when S is not positive definite or too poorly
  // conditioned (above).
  bool factor(const Workspace& ws);

  // x = M^-1 A^T S^-1 b over the rows (b has an entry per row of Phi_q; the others are not read);
  // with `multipliers`, also -S^-1 b on the rows and zero on the others. False when the
  // refinement does not converge (nothing written).
  bool apply(const Eigen::VectorXd& b, Eigen::VectorXd& x, Eigen::VectorXd* multipliers = nullptr);

 private:
  // Whether solution_ meets the backward error; work_ = [0; b - A x] either way.
  bool refined(const Eigen::VectorXd& b);

  KktMatrix matrix_;
  KktSchur schur_;
  Eigen::Index n_ = 0;
  bool refine_ = false;  // kappa_1(S) beyond kAccurateCondition: refine every solve
  Eigen::VectorXd work_, solution_;  // [x; y]: a solve's, and the refined sum
};

}  // namespace rlx
