#pragma once
// Moore-Penrose pseudoinverse of a dense matrix C (m x n) whose rows may be switched off,
// applied, never formed:  C^+ b,  C_k^+ b (C_k: the first k rows),  (C^T)^+ z.
// A switched-off row counts as a zero row: C^+ has a zero column there and (C^T)^+ z a zero entry.
//
// Well conditioned (the usual case): Householder QR of the active rows' transpose,
//   C_a^T = Q R,  R (m_a x m_a) upper triangular,
//   C_a^+ b = Q [R^-T b; 0],   (C_a^T)^+ z = R^-1 (Q^T z)_(1..m_a),
//   (C_a C_a^T)^-1 b = R^-1 R^-T b,
//   C_ka^+ b = Q [R_11^-T b; 0]  (without pivoting the leading columns are factored first, so
//                                 R_11 is the factor of C_ka^T).
// It is used when kappa_1(R) = |R|_1 |R^-1|_1 <= 1e8 (checked first against the upper bound
// |R^-1|_1 <= |M(R)^-1|_1, M(R) the comparison matrix, one triangular solve; R^-1 is formed only
// when the bound exceeds the limit, so the decision is exactly that of the exact test). Then
// kappa_2(C_a) <= m_a 1e8, far below the rank threshold of the SVD, which would keep every row:
// both give the same pseudoinverse to rounding (both are backward stable).
// Otherwise (near a singular configuration, more active rows than columns): the SVD of C (zero
// rows where switched off), singular values <= max(m, n) eps sigma_1 dropped; C_k is decomposed
// on its own.

#include <Eigen/Dense>

#include <vector>

namespace rlx {

class PseudoInverse {
 public:
  PseudoInverse(Eigen::Index rows, Eigen::Index cols);

  // Decomposes C; active[i] false switches row i off (missing entries: on); `leading` = k.
  void compute(const Eigen::MatrixXd& C, const std::vector<bool>& active, Eigen::Index leading);
  // The same from C^T (n x m), as a caller that forms C^T directly has it.
  void computeTransposed(const Eigen::MatrixXd& Ct, const std::vector<bool>& active,
                         Eigen::Index leading);

  // x = C^+ b (x must not be b); with `gram` also (C C^T)^+ b = (C^T)^+ C^+ b, which costs one
  // triangular solve more (QR: R^-1 of the intermediate R^-T b; SVD: U_r S_r^-2 U_r^T b).
  void apply(const Eigen::VectorXd& b, Eigen::VectorXd& x, Eigen::VectorXd* gram = nullptr);
  void applyLeading(const Eigen::VectorXd& b, Eigen::VectorXd& x);    // x = C_k^+ b (k entries)
  void applyTranspose(const Eigen::VectorXd& z, Eigen::VectorXd& y);  // y = (C^T)^+ z

  bool factoredByQR() const { return qr_; }

 private:
  template <typename Transposed>
  void decompose(const Transposed& Ct, const std::vector<bool>& active, Eigen::Index leading);
  // N: the column length n when known at compile time (small models), else 0.
  template <int N>
  bool factorQR();  // false when R is too badly conditioned
  // kappa_1(R) <= kMaxCondition for R in the first ma_ columns of a (leading dimension n).
  bool conditionAccepted(const double* a, Eigen::Index n);
  template <int N>
  void applyQR(const Eigen::VectorXd& b, Eigen::Index count, Eigen::VectorXd& x);
  void solveSvd(const Eigen::JacobiSVD<Eigen::MatrixXd>& svd, Eigen::Index rank,
                const Eigen::Ref<const Eigen::VectorXd>& b, Eigen::VectorXd& x);
  static Eigen::Index decomposeSvd(const Eigen::Ref<const Eigen::MatrixXd>& C,
                                   Eigen::JacobiSVD<Eigen::MatrixXd>& svd);

  Eigen::Index m_, n_, leading_ = 0;
  bool qr_ = false;
  // QR: the active rows (holonomic first), their count, C_a^T factored (R on and above the
  // diagonal), the reflectors at full length (column k: k zeros, 1, the rest), R^-1.
  std::vector<Eigen::Index> rows_;
  Eigen::Index ma_ = 0, leadingActive_ = 0;
  Eigen::MatrixXd Ct_, V_, Rinv_;
  Eigen::VectorXd tau_, small_, full_;
  // SVD fallback: C with zero rows, its SVD and that of C_k, their ranks.
  Eigen::MatrixXd C_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_, svdLeading_;
  Eigen::Index rank_ = 0, rankLeading_ = 0;
  Eigen::VectorXd coeff_;
};

}  // namespace rlx
