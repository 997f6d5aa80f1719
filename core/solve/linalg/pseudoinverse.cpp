#include "solve/linalg/pseudoinverse.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace rlx {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kMaxCondition = 1e8;  // largest kappa_1(R) the QR path accepts

// Reflector k is stored at full length, v = [0 (k entries); 1; below R_kk], so that with the
// length N known at compile time its products are unrolled straight-line code. The sums run in
// the same order as over the entries from k on (the leading products are zeros), so both give
// the same numbers.
template <std::size_t... I>
double unrolledDot(const double* v, const double* y, std::index_sequence<I...>) {
  double s = 0.0;
  ((s += v[I] * y[I]), ...);
  return s;
}

// y <- H_k y = y - tau v (v . y) for reflector v (k leading zeros) over n = N entries (N = 0:
// n at run time, the loops start at k).
template <int N>
void reflect(const double* v, double tau, Eigen::Index k, Eigen::Index n, double* y) {
  if constexpr (N > 0) {
    const double s = tau * unrolledDot(v, y, std::make_index_sequence<N>());
    Eigen::Map<Eigen::Matrix<double, N, 1>>(y) -=
        s * Eigen::Map<const Eigen::Matrix<double, N, 1>>(v);
  } else {
    double s = 0.0;
    for (Eigen::Index i = k; i < n; ++i) s += v[i] * y[i];
    s *= tau;
    for (Eigen::Index i = k; i < n; ++i) y[i] -= s * v[i];
  }
}

// Calls f(std::integral_constant<int, N>{}) with N = n for the small sizes a model has (multiples
// of 3 velocities up to 18), else N = 0.
template <typename F>
decltype(auto) withLength(Eigen::Index n, F&& f) {
  switch (n) {
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 6:
      return f(std::integral_constant<int, 6>{});
    case 9:
      return f(std::integral_constant<int, 9>{});
    case 12:
      return f(std::integral_constant<int, 12>{});
    case 15:
      return f(std::integral_constant<int, 15>{});
    case 18:
      return f(std::integral_constant<int, 18>{});
    default:
      return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace

PseudoInverse::PseudoInverse(Eigen::Index rows, Eigen::Index cols)
    : m_(rows),
      n_(cols),
      rows_(static_cast<std::size_t>(rows)),
      Ct_(cols, rows),
      V_(Eigen::MatrixXd::Zero(cols, rows)),
      Rinv_(rows, rows),
      tau_(rows),
      small_(rows),
      full_(cols),
      C_(rows, cols),
      coeff_(std::max(rows, cols)) {}

void PseudoInverse::compute(const Eigen::MatrixXd& C, const std::vector<bool>& active,
                            Eigen::Index leading) {
  decompose(C.transpose(), active, leading);
}

void PseudoInverse::computeTransposed(const Eigen::MatrixXd& Ct, const std::vector<bool>& active,
                                      Eigen::Index leading) {
  decompose(Ct, active, leading);
}

template <typename Transposed>
void PseudoInverse::decompose(const Transposed& Ct, const std::vector<bool>& active,
                              Eigen::Index leading) {
  leading_ = leading;
  // The active rows of C, as the columns of C_a^T.
  ma_ = leadingActive_ = 0;
  for (Eigen::Index i = 0; i < m_; ++i) {
    const auto row = static_cast<std::size_t>(i);
    if (row < active.size() && !active[row]) continue;
    rows_[static_cast<std::size_t>(ma_)] = i;
    if constexpr (std::is_same_v<Transposed, Eigen::MatrixXd>)
      std::copy_n(Ct.col(i).data(), n_, Ct_.col(ma_).data());  // contiguous
    else
      Ct_.col(ma_) = Ct.col(i);
    ++ma_;
    if (i < leading) ++leadingActive_;
  }
  qr_ = ma_ <= n_ &&
        withLength(n_, [this](auto N) { return this->template factorQR<decltype(N)::value>(); });
  if (qr_) return;
  // Fallback: the SVD of C with its switched-off rows zeroed (and of C_k when k < m).
  C_ = Ct.transpose();
  for (Eigen::Index i = 0; i < m_; ++i)
    if (static_cast<std::size_t>(i) < active.size() && !active[static_cast<std::size_t>(i)])
      C_.row(i).setZero();
  rank_ = decomposeSvd(C_, svd_);
  if (leading_ < m_) rankLeading_ = decomposeSvd(C_.topRows(leading_), svdLeading_);
}

template <int N>
bool PseudoInverse::factorQR() {
  // Householder QR of the first ma_ columns of Ct_ in place (Golub-Van Loan 5.1.1): R on and
  // above the diagonal; the reflector H_k = I - tau_k v v^T in column k of V_ (V_ starts zero
  // and its entries above row k of column k are never written).
  const Eigen::Index n = n_;
  double* a = Ct_.data();
  for (Eigen::Index k = 0; k < ma_; ++k) {
    double* x = a + k * n;
    double* v = V_.data() + k * n;
    double sigma = 0.0;
    for (Eigen::Index i = k + 1; i < n; ++i) sigma += x[i] * x[i];
    double tau = 0.0, scale = 1.0;
    if (sigma > 0.0) {
      const double alpha = x[k], mu = std::sqrt(alpha * alpha + sigma);
      const double v0 = alpha <= 0.0 ? alpha - mu : -sigma / (alpha + mu);
      tau = 2.0 * v0 * v0 / (sigma + v0 * v0);
      scale = v0;
      x[k] = mu;
    }
    v[k] = 1.0;
    for (Eigen::Index i = k + 1; i < n; ++i) v[i] = x[i] / scale;
    tau_(k) = tau;
    // The remaining columns: y <- H_k y.
    for (Eigen::Index j = k + 1; j < ma_; ++j) reflect<N>(v, tau, k, n, a + j * n);
  }
  return conditionAccepted(a, n);
}

bool PseudoInverse::conditionAccepted(const double* a, Eigen::Index n) {
  const auto R = [&](Eigen::Index i, Eigen::Index j) { return a[j * n + i]; };
  // Cheap test first: |R^-1| <= M(R)^-1 entrywise for the comparison matrix M(R) (|r_ii| on the
  // diagonal, -|r_ij| above), so |R^-1|_1 <= max_j x_j with M(R)^T x = e (x >= 0). Bounds within
  // the limit accept exactly what the exact test below accepts.
  double normR = 0.0, bound = 0.0;
  for (Eigen::Index j = 0; j < ma_; ++j) {
    if (R(j, j) == 0.0) return false;
    double column = std::abs(R(j, j)), s = 1.0;
    for (Eigen::Index i = 0; i < j; ++i) {
      column += std::abs(R(i, j));
      s += std::abs(R(i, j)) * small_(i);
    }
    small_(j) = s / std::abs(R(j, j));
    normR = std::max(normR, column);
    bound = std::max(bound, small_(j));
  }
  if (normR * bound <= kMaxCondition) return true;
  // kappa_1(R) from R^-1 (back substitution per column).
  double normRinv = 0.0;
  for (Eigen::Index j = 0; j < ma_; ++j) {
    double* inv = Rinv_.data() + j * ma_;
    inv[j] = 1.0 / R(j, j);
    double columnInv = std::abs(inv[j]);
    for (Eigen::Index i = j - 1; i >= 0; --i) {
      const double* row = a + i;
      double s = 0.0;
      for (Eigen::Index l = i + 1; l <= j; ++l) s += row[l * n] * inv[l];
      inv[i] = -s / R(i, i);
      columnInv += std::abs(inv[i]);
    }
    normRinv = std::max(normRinv, columnInv);
  }
  return normR * normRinv <= kMaxCondition;
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
  withLength(n_, [&](auto N) { applyQR<decltype(N)::value>(b, ma_, x); });
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
  withLength(n_, [&](auto N) { applyQR<decltype(N)::value>(b, leadingActive_, x); });
}

template <int N>
void PseudoInverse::applyQR(const Eigen::VectorXd& b, Eigen::Index count, Eigen::VectorXd& x) {
  // x = Q [R_kk^-T b_a; 0] over the first `count` active rows: the reflectors after them leave it
  // unchanged. small_ keeps R_kk^-T b_a.
  const double* a = Ct_.data();
  x.resize(n_);
  double* f = x.data();
  if constexpr (N > 0)
    Eigen::Map<Eigen::Matrix<double, N, 1>>(f).setZero();
  else
    x.setZero();
  for (Eigen::Index i = 0; i < count; ++i) {
    const double* column = a + i * n_;
    double s = b(rows_[static_cast<std::size_t>(i)]);
    for (Eigen::Index l = 0; l < i; ++l) s -= column[l] * f[l];
    f[i] = s / column[i];
    small_(i) = f[i];
  }
  for (Eigen::Index k = count - 1; k >= 0; --k) reflect<N>(V_.data() + k * n_, tau_(k), k, n_, f);
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
  for (Eigen::Index k = 0; k < ma_; ++k) reflect<0>(V_.data() + k * n_, tau_(k), k, n_, f);
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

Eigen::Index PseudoInverse::decomposeSvd(const Eigen::Ref<const Eigen::MatrixXd>& C,
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
