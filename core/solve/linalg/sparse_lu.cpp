#include "solve/linalg/sparse_lu.h"

#include <klu.h>

#include <algorithm>

namespace rlx {
namespace {

// Reused pivots are poor when min/max |U_kk| falls below this fraction of its value at the last
// pivoting: a relative test, as a badly scaled matrix (tiny inertias next to constraint rows)
// has a small ratio with the best pivots.
constexpr double kPoorPivots = 1e-8;

// Whether A's pattern equals its transpose's (A compressed).
bool symmetricPattern(const Eigen::SparseMatrix<double>& A) {
  const Eigen::SparseMatrix<double> At = A.transpose();
  const int nonzeros = static_cast<int>(A.nonZeros());
  return At.nonZeros() == nonzeros &&
         std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1, At.outerIndexPtr()) &&
         std::equal(A.innerIndexPtr(), A.innerIndexPtr() + nonzeros, At.innerIndexPtr());
}

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
  // A symmetric pattern (the KKT matrices) has no block triangular form beyond its connected
  // parts, which the ordering keeps apart anyway, and the search for one (a maximum transversal
  // past the zero diagonal block) grew quadratically: 0.5 s in the assembly of a chain of 3000
  // driven links, against 0.03 s without it.
  if (symmetricPattern(A)) impl_->common.btf = 0;
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

void SparseLu::solveTransposedInPlace(Eigen::VectorXd& x) {
  klu_tsolve(impl_->symbolic, impl_->numeric, impl_->n, 1, x.data(), &impl_->common);
}

}  // namespace rlx
