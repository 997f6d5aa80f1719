#include "solve/linalg/sparse_pattern.h"

#include <algorithm>

namespace rlx {

Eigen::Index valuePosition(const Eigen::SparseMatrix<double>& A, Eigen::Index row,
                           Eigen::Index col) {
  // Binary search among the column's row indices (sorted in a compressed matrix).
  const int* begin = A.innerIndexPtr() + A.outerIndexPtr()[col];
  const int* end = A.innerIndexPtr() + A.outerIndexPtr()[col + 1];
  const int* found = std::lower_bound(begin, end, static_cast<int>(row));
  if (found == end || *found != row) return -1;
  return found - A.innerIndexPtr();
}

}  // namespace rlx
