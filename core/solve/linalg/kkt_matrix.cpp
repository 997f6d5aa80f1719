#include "solve/linalg/kkt_matrix.h"

#include "solve/linalg/sparse_pattern.h"

namespace rlx {

KktMatrix::KktMatrix(const Workspace& ws, std::vector<Eigen::Index> rows,
                     const std::vector<std::vector<Eigen::Index>>& topLeft)
    : rows_(std::move(rows)), n_(ws.M.rows()), m_(static_cast<Eigen::Index>(rows_.size())) {
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n_; ++i)
    for (SparseMatrix::InnerIterator it(ws.M, i); it; ++it)
      entries.emplace_back(static_cast<int>(i), static_cast<int>(it.col()), 0.0);
  for (std::size_t j = 0; j < topLeft.size(); ++j)
    for (const Eigen::Index i : topLeft[j])
      entries.emplace_back(static_cast<int>(i), static_cast<int>(j), 0.0);
  for (Eigen::Index k = 0; k < m_; ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it) {
      entries.emplace_back(static_cast<int>(n_ + k), static_cast<int>(it.col()), 0.0);
      entries.emplace_back(static_cast<int>(it.col()), static_cast<int>(n_ + k), 0.0);
    }
  matrix_.resize(n_ + m_, n_ + m_);
  matrix_.setFromTriplets(entries.begin(), entries.end());
  matrix_.makeCompressed();
  for (Eigen::Index i = 0; i < n_; ++i)
    for (SparseMatrix::InnerIterator it(ws.M, i); it; ++it)
      massSlots_.push_back(valuePosition(matrix_, i, it.col()));
  for (Eigen::Index k = 0; k < m_; ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows_[static_cast<std::size_t>(k)]); it; ++it) {
      constraintSlots_.push_back(valuePosition(matrix_, n_ + k, it.col()));
      constraintSlots_.push_back(valuePosition(matrix_, it.col(), n_ + k));
    }
}

void KktMatrix::fill(const Workspace& ws, double massDivisor) {
  // Through the value positions found in the constructor (storage order of ws.M and Phi_q).
  matrix_.coeffs().setZero();
  double* values = matrix_.valuePtr();
  const double* mass = ws.M.valuePtr();
  for (std::size_t t = 0; t < massSlots_.size(); ++t) values[massSlots_[t]] = mass[t] / massDivisor;
  std::size_t t = 0;
  for (Eigen::Index k = 0; k < m_; ++k) {
    const Eigen::Index row = rows_[static_cast<std::size_t>(k)];
    const double* constraint = ws.Phi_q.valuePtr() + ws.Phi_q.outerIndexPtr()[row];
    const double* end = ws.Phi_q.valuePtr() + ws.Phi_q.outerIndexPtr()[row + 1];
    for (; constraint != end; ++constraint, t += 2)
      values[constraintSlots_[t]] = values[constraintSlots_[t + 1]] = *constraint;
  }
}

void KktMatrix::multiplyConstraintTranspose(const Eigen::Ref<const Eigen::VectorXd>& x,
                                            Eigen::VectorXd& out) const {
  // The columns n + k hold Phi_q's row k, all above row n.
  out.setZero();
  const double* values = matrix_.valuePtr();
  const int* rows = matrix_.innerIndexPtr();
  const int* columns = matrix_.outerIndexPtr();
  for (Eigen::Index k = 0; k < m_; ++k)
    for (int p = columns[n_ + k]; p < columns[n_ + k + 1]; ++p) out(rows[p]) += values[p] * x(k);
}

void KktMatrix::multiplyTopLeft(const Eigen::VectorXd& e, Eigen::VectorXd& out) const {
  out.setZero();
  const double* values = matrix_.valuePtr();
  const int* rows = matrix_.innerIndexPtr();
  const int* columns = matrix_.outerIndexPtr();
  for (Eigen::Index j = 0; j < n_; ++j)
    for (int p = columns[j]; p < columns[j + 1] && rows[p] < n_; ++p)
      out(rows[p]) += values[p] * e(j);
}

}  // namespace rlx
