#pragma once
// LU factorization with partial pivoting, P A = L U, of a small dense square matrix (up to a few
// dozen rows), in plain loops: at these sizes Eigen's blocked kernels cost several times the
// arithmetic. Storage is sized once (resize); factor and the solves do not allocate.

#include <Eigen/Dense>

#include <vector>

namespace rlx {

class DenseLu {
 public:
  void resize(Eigen::Index n);

  // Factors A (n x n); false when a pivot is zero or not finite.
  bool factor(const Eigen::MatrixXd& A);

  // x = A^-1 x.
  void solveInPlace(Eigen::VectorXd& x) const;

  // x = A^-T x.
  void solveTransposedInPlace(Eigen::VectorXd& x) const;

  // min/max |U_kk|: near zero when A is nearly singular.
  double pivotRatio() const;

 private:
  Eigen::MatrixXd lu_;           // L below the diagonal (unit diagonal implied), U on and above
  std::vector<Eigen::Index> p_;  // row k was swapped with row p_[k] at elimination step k
};

}  // namespace rlx
