#include "solve/sparse_lu.h"

#include <klu.h>

namespace rlx {
namespace {

// Reused pivots are poor when min/max |U_kk| falls below this fraction of its value at the last
// pivoting: a relative test, as a badly scaled matrix (tiny inertias next to constraint rows)
// has a small ratio with the best pivots.
constexpr double kPoorPivots = 1e-8;

}  // namespace

struct SparseLu::Impl {
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  int n = 0;
  double pivotedRatio = 0.0;  // min/max |U_kk| after the last pivoting
};

SparseLu::SparseLu(const Eigen::SparseMatrix<double>& pattern, bool scaleRows) : impl_(new Impl) {
  klu_defaults(&impl_->common);
  if (!scaleRows) impl_->common.scale = -1;
  impl_->n = static_cast<int>(pattern.rows());
  Eigen::SparseMatrix<double> A = pattern;
  A.makeCompressed();
  impl_->symbolic = klu_analyze(impl_->n, A.outerIndexPtr(), A.innerIndexPtr(), &impl_->common);
}

SparseLu::~SparseLu() {
  if (impl_->numeric) klu_free_numeric(&impl_->numeric, &impl_->common);
  if (impl_->symbolic) klu_free_symbolic(&impl_->symbolic, &impl_->common);
  delete impl_;
}

bool SparseLu::factor(Eigen::SparseMatrix<double>& A) {
  Impl& k = *impl_;
  if (!k.symbolic) return false;
  int* Ap = A.outerIndexPtr();
  int* Ai = A.innerIndexPtr();
  double* Ax = A.valuePtr();
  // Reuse the pivots when they are still good.
  if (k.numeric && klu_refactor(Ap, Ai, Ax, k.symbolic, k.numeric, &k.common) &&
      klu_rcond(k.symbolic, k.numeric, &k.common) && k.common.rcond > kPoorPivots * k.pivotedRatio)
    return true;
  forgetPivots();
  k.numeric = klu_factor(Ap, Ai, Ax, k.symbolic, &k.common);
  if (k.numeric == nullptr || k.common.status != KLU_OK) return false;
  k.pivotedRatio = klu_rcond(k.symbolic, k.numeric, &k.common) ? k.common.rcond : 0.0;
  return true;
}

void SparseLu::forgetPivots() {
  if (impl_->numeric) klu_free_numeric(&impl_->numeric, &impl_->common);
}

double SparseLu::pivotRatio() {
  Impl& k = *impl_;
  if (!k.numeric || !klu_rcond(k.symbolic, k.numeric, &k.common)) return 0.0;
  return k.common.rcond;
}

void SparseLu::solveInPlace(Eigen::VectorXd& x) {
  klu_solve(impl_->symbolic, impl_->numeric, impl_->n, 1, x.data(), &impl_->common);
}

}  // namespace rlx
