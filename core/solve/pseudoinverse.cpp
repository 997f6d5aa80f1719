#include "solve/pseudoinverse.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlx {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kMaxCondition = 1e8;  // largest kappa_1(R) the QR path accepts

}  // namespace

PseudoInverse::PseudoInverse(Eigen::Index rows, Eigen::Index cols)
    : m_(rows),
      n_(cols),
      rows_(static_cast<std::size_t>(rows)),
      Ct_(cols, rows),
      Rinv_(rows, rows),
      tau_(rows),
      small_(rows),
      full_(cols),
      C_(rows, cols),
      coeff_(std::max(rows, cols)) {}

void PseudoInverse::compute(const Eigen::MatrixXd& C, const std::vector<bool>& active,
                            Eigen::Index leading) {
  leading_ = leading;
  // The active rows, transposed into the columns of C_a^T.
  ma_ = leadingActive_ = 0;
  for (Eigen::Index i = 0; i < m_; ++i) {
    const auto row = static_cast<std::size_t>(i);
    if (row < active.size() && !active[row]) continue;
    rows_[static_cast<std::size_t>(ma_)] = i;
    Ct_.col(ma_++) = C.row(i).transpose();
    if (i < leading) ++leadingActive_;
  }
  qr_ = ma_ <= n_ && factorQR();
  if (qr_) return;
  // Fallback: the SVD of C with its switched-off rows zeroed (and of C_k when k < m).
  C_ = C;
  for (Eigen::Index i = 0; i < m_; ++i)
    if (static_cast<std::size_t>(i) < active.size() && !active[static_cast<std::size_t>(i)])
      C_.row(i).setZero();
  rank_ = decompose(C_, svd_);
  if (leading_ < m_) rankLeading_ = decompose(C_.topRows(leading_), svdLeading_);
}

bool PseudoInverse::factorQR() {
  // Householder QR of the first ma_ columns of Ct_ in place (Golub-Van Loan 5.1.1): R on and
  // above the diagonal, the reflector H_k = I - tau_k v v^T (v = [1; below R_kk]) below it.
  const Eigen::Index n = n_;
  double* a = Ct_.data();
  for (Eigen::Index k = 0; k < ma_; ++k) {
    double* x = a + k * n + k;
    const Eigen::Index len = n - k;
    double sigma = 0.0;
    for (Eigen::Index i = 1; i < len; ++i) sigma += x[i] * x[i];
    double tau = 0.0;
    if (sigma > 0.0) {
      const double alpha = x[0], mu = std::sqrt(alpha * alpha + sigma);
      const double v0 = alpha <= 0.0 ? alpha - mu : -sigma / (alpha + mu);
      tau = 2.0 * v0 * v0 / (sigma + v0 * v0);
      for (Eigen::Index i = 1; i < len; ++i) x[i] /= v0;
      x[0] = mu;
    }
    tau_(k) = tau;
    // The remaining columns: y <- H_k y, two at a time (the same operations per column).
    Eigen::Index j = k + 1;
    for (; j + 1 < ma_; j += 2) {
      double* y = a + j * n + k;
      double* z = y + n;
      double s = y[0], t = z[0];
      for (Eigen::Index i = 1; i < len; ++i) {
        s += x[i] * y[i];
        t += x[i] * z[i];
      }
      s *= tau;
      t *= tau;
      y[0] -= s;
      z[0] -= t;
      for (Eigen::Index i = 1; i < len; ++i) {
        y[i] -= s * x[i];
        z[i] -= t * x[i];
      }
    }
    if (j < ma_) reflect(k, a + j * n);
  }
  // kappa_1(R) from R^-1 (back substitution per column).
  const auto R = [&](Eigen::Index i, Eigen::Index j) { return a[j * n + i]; };
  double normR = 0.0, normRinv = 0.0;
  for (Eigen::Index j = 0; j < ma_; ++j) {
    if (R(j, j) == 0.0) return false;
    double* inv = Rinv_.data() + j * ma_;
    inv[j] = 1.0 / R(j, j);
    double column = std::abs(R(j, j)), columnInv = std::abs(inv[j]);
    for (Eigen::Index i = j - 1; i >= 0; --i) {
      const double* row = a + i;
      double s = 0.0;
      for (Eigen::Index l = i + 1; l <= j; ++l) s += row[l * n] * inv[l];
      inv[i] = -s / R(i, i);
      column += std::abs(R(i, j));
      columnInv += std::abs(inv[i]);
    }
    normR = std::max(normR, column);
    normRinv = std::max(normRinv, columnInv);
  }
  return normR * normRinv <= kMaxCondition;
}

void PseudoInverse::reflect(Eigen::Index k, double* x) const {
  const double* v = Ct_.data() + k * n_ + k;
  double* y = x + k;
  const Eigen::Index len = n_ - k;
  double s = y[0];
  for (Eigen::Index i = 1; i < len; ++i) s += v[i] * y[i];
  s *= tau_(k);
  y[0] -= s;
  for (Eigen::Index i = 1; i < len; ++i) y[i] -= s * v[i];
}

void PseudoInverse::apply(const Eigen::VectorXd& b, Eigen::VectorXd& x, Eigen::VectorXd* gram) {
  if (!qr_) {
    solveSvd(svd_, rank_, b, x);
    if (!gram) return;
    // (C C^T)^+ b = U_r S_r^-2 U_r^T b (coeff_ holds S_r^-1 U_r^T b).
    coeff_.head(rank_).array() /= svd_.singularValues().head(rank_).array();
    gram->noalias() = svd_.matrixU().leftCols(rank_) * coeff_.head(rank_);
    return;
  }
  applyQR(b, ma_, x);
  if (!gram) return;
  // (C_a C_a^T)^-1 b_a = R^-1 (R^-T b_a), with R^-T b_a kept by applyQR in small_.
  const double* a = Ct_.data();
  gram->setZero(m_);
  for (Eigen::Index i = ma_ - 1; i >= 0; --i) {
    double s = small_(i);
    for (Eigen::Index l = i + 1; l < ma_; ++l) s -= a[l * n_ + i] * small_(l);
    small_(i) = s / a[i * n_ + i];
    (*gram)(rows_[static_cast<std::size_t>(i)]) = small_(i);
  }
}

void PseudoInverse::applyLeading(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  if (!qr_) {
    if (leading_ < m_) return solveSvd(svdLeading_, rankLeading_, b, x);
    return solveSvd(svd_, rank_, b, x);
  }
  applyQR(b, leadingActive_, x);
}

void PseudoInverse::applyQR(const Eigen::VectorXd& b, Eigen::Index count, Eigen::VectorXd& x) {
  // x = Q [R_kk^-T b_a; 0] over the first `count` active rows: the reflectors after them leave it
  // unchanged.
  const double* a = Ct_.data();
  x.resize(n_);
  double* f = x.data();
  for (Eigen::Index i = 0; i < count; ++i) {
    const double* column = a + i * n_;
    double s = b(rows_[static_cast<std::size_t>(i)]);
    for (Eigen::Index l = 0; l < i; ++l) s -= column[l] * f[l];
    f[i] = s / column[i];
    small_(i) = f[i];
  }
  for (Eigen::Index i = count; i < n_; ++i) f[i] = 0.0;
  for (Eigen::Index k = count - 1; k >= 0; --k) reflect(k, f);
}

void PseudoInverse::applyTranspose(const Eigen::VectorXd& z, Eigen::VectorXd& y) {
  if (!qr_) {
    // (C^T)^+ z = U_r S_r^-1 V_r^T z.
    coeff_.head(rank_).noalias() = svd_.matrixV().leftCols(rank_).transpose() * z;
    coeff_.head(rank_).array() /= svd_.singularValues().head(rank_).array();
    y.noalias() = svd_.matrixU().leftCols(rank_) * coeff_.head(rank_);
    return;
  }
  // y_a = R^-1 (Q^T z)_(1..m_a), zero on the switched-off rows.
  full_ = z;
  double* f = full_.data();
  for (Eigen::Index k = 0; k < ma_; ++k) reflect(k, f);
  const double* a = Ct_.data();
  y.setZero(m_);
  for (Eigen::Index i = ma_ - 1; i >= 0; --i) {
    double s = f[i];
    for (Eigen::Index l = i + 1; l < ma_; ++l) s -= a[l * n_ + i] * small_(l);
    small_(i) = s / a[i * n_ + i];
    y(rows_[static_cast<std::size_t>(i)]) = small_(i);
  }
}

void PseudoInverse::solveSvd(const Eigen::JacobiSVD<Eigen::MatrixXd>& svd, Eigen::Index rank,
                             const Eigen::Ref<const Eigen::VectorXd>& b, Eigen::VectorXd& x) {
  // C^+ b = V_r S_r^-1 U_r^T b (zero without rows of rank).
  if (rank == 0) {
    x.setZero(n_);
    return;
  }
  coeff_.head(rank).noalias() = svd.matrixU().leftCols(rank).transpose() * b;
  coeff_.head(rank).array() /= svd.singularValues().head(rank).array();
  x.noalias() = svd.matrixV().leftCols(rank) * coeff_.head(rank);
}

Eigen::Index PseudoInverse::decompose(const Eigen::Ref<const Eigen::MatrixXd>& C,
                                      Eigen::JacobiSVD<Eigen::MatrixXd>& svd) {
  if (C.rows() == 0) return 0;
  svd.compute(C, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  const double tiny =
      static_cast<double>(std::max(C.rows(), C.cols())) * kEps * (sigma.size() ? sigma(0) : 0.0);
  Eigen::Index rank = 0;
  while (rank < sigma.size() && sigma(rank) > tiny) ++rank;
  return rank;
}

}  // namespace rlx
