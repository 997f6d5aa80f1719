#include "solve/linalg/kkt_schur.h"

#include "solve/linalg/sparse_pattern.h"

#include <Eigen/OrderingMethods>

#include <algorithm>
#include <cmath>

namespace rlx {
namespace {

constexpr double kAsymmetry = 1e-12;  // |A - A^T| relative to |A| of a symmetric block

// A <- A^-1 for a symmetric positive definite A (its lower triangle read), by Cholesky A = L L^T
// and A^-1 = L^-T L^-1, in plain loops (Eigen's solve against the identity takes its general
// triangular kernel, several times slower at these sizes). False when A is not positive definite.
template <int S>
bool invertPositiveDefinite(Eigen::Matrix<double, S, S>& A) {
  Eigen::Matrix<double, S, S> L = Eigen::Matrix<double, S, S>::Zero();
  for (int j = 0; j < S; ++j) {
    double d = A(j, j);
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    if (!(d > 0)) return false;
    L(j, j) = std::sqrt(d);
    for (int i = j + 1; i < S; ++i) {
      double sum = A(i, j);
      for (int k = 0; k < j; ++k) sum -= L(i, k) * L(j, k);
      L(i, j) = sum / L(j, j);
    }
  }
  // L <- L^-1 (lower triangular), column by column.
  for (int j = 0; j < S; ++j) {
    L(j, j) = 1.0 / L(j, j);
    for (int i = j + 1; i < S; ++i) {
      double sum = 0.0;
      for (int k = j; k < i; ++k) sum -= L(i, k) * L(k, j);
      L(i, j) = sum / L(i, i);
    }
  }
  A.noalias() = L.transpose() * L;
  return true;
}

}  // namespace

KktSchur::KktSchur(const Eigen::SparseMatrix<double>& J, Eigen::Index n, int blockSize)
    : n_(n), m_(J.cols() - n), blockSize_(blockSize) {
  const Eigen::Index s = blockSize;
  // A block diagonal, the bottom-right block empty.
  applies_ = (s == 3 || s == 6) && n_ % s == 0;
  const int* outer = J.outerIndexPtr();
  const int* inner = J.innerIndexPtr();
  for (Eigen::Index j = 0; j < n_ + m_ && applies_; ++j)
    for (Eigen::Index p = outer[j]; p < outer[j + 1]; ++p)
      if (j < n_ ? inner[p] < n_ && inner[p] / s != j / s : inner[p] >= n_) applies_ = false;
  if (!applies_) return;
  // A's blocks: their value positions, column by column.
  for (Eigen::Index first = 0; first < n_; first += s)
    for (Eigen::Index c = first; c < first + s; ++c)
      for (Eigen::Index r = first; r < first + s; ++r) blockSlots_.push_back(valuePosition(J, r, c));
  // G's rows on the blocks (column n + k of J holds row k of G, by block in order); the rows of
  // every block.
  std::vector<Eigen::Index> rowOfTouch;
  std::vector<std::vector<std::size_t>> touchesOfBlock(static_cast<std::size_t>(n_ / s));
  for (Eigen::Index k = 0; k < m_; ++k)
    for (Eigen::Index p = outer[n_ + k]; p < outer[n_ + k + 1]; ++p) {
      const Eigen::Index first = inner[p] / s * s;
      if (rowOfTouch.empty() || rowOfTouch.back() != k || touches_.back().first != first) {
        touchesOfBlock[static_cast<std::size_t>(first / s)].push_back(touches_.size());
        touches_.push_back({k, first});
        rowOfTouch.push_back(k);
        touchSlots_.resize(touchSlots_.size() + static_cast<std::size_t>(s), -1);
      }
      touchSlots_[touchSlots_.size() - static_cast<std::size_t>(first + s - inner[p])] = p;
    }
  // S's pattern: rows of G meeting on a block. Ordered by approximate minimum degree.
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto& onBlock : touchesOfBlock)
    for (const std::size_t t1 : onBlock)
      for (const std::size_t t2 : onBlock)
        entries.emplace_back(static_cast<int>(rowOfTouch[t1]), static_cast<int>(rowOfTouch[t2]), 1.0);
  Eigen::SparseMatrix<double> pattern(m_, m_);
  pattern.setFromTriplets(entries.begin(), entries.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> elimination;
  Eigen::AMDOrdering<int>()(pattern, elimination);
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order = elimination.inverse();
  order_ = order.indices().cast<Eigen::Index>();
  for (Touch& t : touches_) t.orderedRow = order_(t.orderedRow);
  // The ordered upper triangle of S, and where each product adds to it.
  entries.clear();
  for (const auto& onBlock : touchesOfBlock)
    for (const std::size_t t1 : onBlock)
      for (const std::size_t t2 : onBlock)
        if (touches_[t1].orderedRow <= touches_[t2].orderedRow)
          entries.emplace_back(static_cast<int>(touches_[t1].orderedRow),
                               static_cast<int>(touches_[t2].orderedRow), 1.0);
  S_.resize(m_, m_);
  S_.setFromTriplets(entries.begin(), entries.end());
  S_.makeCompressed();
  for (const auto& onBlock : touchesOfBlock)
    for (const std::size_t t1 : onBlock)
      for (const std::size_t t2 : onBlock)
        if (touches_[t1].orderedRow <= touches_[t2].orderedRow)
          products_.push_back({static_cast<Eigen::Index>(t1), static_cast<Eigen::Index>(t2),
                               valuePosition(S_, touches_[t1].orderedRow, touches_[t2].orderedRow)});
  ldlt_ = std::make_unique<SparseLdlt>(S_);
  inverses_.setZero(n_ * s);
  touchValues_.setZero(static_cast<Eigen::Index>(touchSlots_.size()));
  touchSolved_.setZero(static_cast<Eigen::Index>(touchSlots_.size()));
  u_.setZero(n_);
  y_.setZero(m_);
  columnSums_.setZero(m_);
}

bool KktSchur::factor(const Eigen::SparseMatrix<double>& J) {
  return blockSize_ == 3 ? factorBlocks<3>(J) : factorBlocks<6>(J);
}

void KktSchur::solveInPlace(Eigen::VectorXd& x, Eigen::VectorXd* force) {
  if (blockSize_ == 3)
    solveBlocks<3>(x, force);
  else
    solveBlocks<6>(x, force);
}

double KktSchur::schurConditionEstimate() {
  // |S|_1 from its upper triangle: an entry off the diagonal counts in its column and its row.
  columnSums_.setZero();
  for (Eigen::Index j = 0; j < m_; ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(S_, j); it; ++it) {
      columnSums_(j) += std::abs(it.value());
      if (it.row() != j) columnSums_(it.row()) += std::abs(it.value());
    }
  return m_ ? columnSums_.maxCoeff() * ldlt_->inverseNormEstimate() : 1.0;
}

template <int S>
bool KktSchur::factorBlocks(const Eigen::SparseMatrix<double>& J) {
  using Block = Eigen::Matrix<double, S, S>;
  using Vector = Eigen::Matrix<double, S, 1>;
  const double* values = J.valuePtr();
  const auto value = [&](Eigen::Index slot) { return slot < 0 ? 0.0 : values[slot]; };
  // A_b^-1 by Cholesky: each block symmetric positive definite.
  const Eigen::Index* slot = blockSlots_.data();
  for (Eigen::Index first = 0; first < n_; first += S) {
    Block A;
    for (Eigen::Index c = 0; c < S; ++c)
      for (Eigen::Index r = 0; r < S; ++r) A(r, c) = value(*slot++);
    if (!((A - A.transpose()).cwiseAbs().maxCoeff() <= kAsymmetry * A.cwiseAbs().maxCoeff()) ||
        !invertPositiveDefinite(A))
      return false;
    Eigen::Map<Block>(inverses_.data() + first * S) = A;
  }
  // g and w = A_b^-1 g of every row of G on a block.
  for (std::size_t t = 0; t < touches_.size(); ++t) {
    const Eigen::Index at = static_cast<Eigen::Index>(t) * S;
    Eigen::Map<Vector> g(touchValues_.data() + at);
    for (Eigen::Index r = 0; r < S; ++r) g(r) = value(touchSlots_[static_cast<std::size_t>(at + r)]);
    Eigen::Map<Vector>(touchSolved_.data() + at).noalias() =
        Eigen::Map<const Block>(inverses_.data() + touches_[t].first * S) * g;
  }
  // S = G A^-1 G^T, block by block.
  S_.coeffs().setZero();
  double* s = S_.valuePtr();
  for (const Product& p : products_)
    s[p.slot] += Eigen::Map<const Vector>(touchValues_.data() + p.first * S)
                     .dot(Eigen::Map<const Vector>(touchSolved_.data() + p.second * S));
  return ldlt_->factor(S_);
}

template <int S>
void KktSchur::solveBlocks(Eigen::VectorXd& x, Eigen::VectorXd* force) {
  using Block = Eigen::Matrix<double, S, S>;
  using Vector = Eigen::Matrix<double, S, 1>;
  // u = A^-1 r1
  for (Eigen::Index first = 0; first < n_; first += S)
    u_.segment<S>(first).noalias() =
        Eigen::Map<const Block>(inverses_.data() + first * S) * x.segment<S>(first);
  // S y = G u - r2
  for (Eigen::Index k = 0; k < m_; ++k) y_(order_(k)) = -x(n_ + k);
  const double* g = touchValues_.data();
  for (const Touch& t : touches_) {
    y_(t.orderedRow) += Eigen::Map<const Vector>(g).dot(u_.segment<S>(t.first));
    g += S;
  }
  ldlt_->solveInPlace(y_);
  // x = u - A^-1 G^T y (and G^T y)
  x.head(n_) = u_;
  if (force) force->setZero(n_);
  const double* w = touchSolved_.data();
  g = touchValues_.data();
  for (const Touch& t : touches_) {
    const double y = y_(t.orderedRow);
    x.segment<S>(t.first) -= y * Eigen::Map<const Vector>(w);
    if (force) force->segment<S>(t.first) += y * Eigen::Map<const Vector>(g);
    w += S;
    g += S;
  }
  for (Eigen::Index k = 0; k < m_; ++k) x(n_ + k) = y_(order_(k));
}

}  // namespace rlx
