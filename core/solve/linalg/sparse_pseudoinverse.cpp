#include "solve/linalg/sparse_pseudoinverse.h"

#include <algorithm>
#include <limits>

namespace rlx {

void SparsePseudoInverse::compute(const SparseMatrix& C, const std::vector<bool>& active,
                                  Eigen::Index leading) {
  const Eigen::Index m = C.rows();
  SparseMatrix switched = C;  // row-major: the switched-off rows emptied
  switched.prune([&](Eigen::Index row, Eigen::Index, double) {
    return static_cast<std::size_t>(row) >= active.size() || active[static_cast<std::size_t>(row)];
  });
  const double threshold =
      static_cast<double>(std::max(m, C.cols())) * std::numeric_limits<double>::epsilon();
  all_ = std::make_unique<SparseRowQR>(switched, threshold);
  // The left null space (w^T C = 0: the dependencies of the rows), orthonormalized.
  nullSpace_ = Eigen::MatrixXd(all_->leftNullSpace()).householderQr().householderQ() *
               Eigen::MatrixXd::Identity(m, m - all_->rank());
  leading_ = leading < m ? std::make_unique<SparseRowQR>(SparseMatrix(switched.topRows(leading)),
                                                         threshold)
                         : nullptr;
}

void SparsePseudoInverse::apply(const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                Eigen::VectorXd* gram) {
  x = all_->minimumNormSolve(b, gram);
  // (C_I C_I^T)^-1 b_I padded with zeros gives C^T times it = x, as (C C^T)^+ b does; the latter is
  // the one orthogonal to the left null space.
  if (gram && nullSpace_.cols() > 0) *gram -= nullSpace_ * (nullSpace_.transpose() * *gram);
}

void SparsePseudoInverse::applyLeading(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  x = (leading_ ? leading_ : all_)->minimumNormSolve(b);
}

}  // namespace rlx
