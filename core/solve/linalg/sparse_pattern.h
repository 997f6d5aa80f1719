#pragma once
// Positions in the value array of a compressed sparse matrix with a fixed pattern: computed once,
// they let a matrix be filled by plain stores instead of a search per entry (coeffRef).

#include <Eigen/SparseCore>

namespace rlx {

// Position of entry (row, col) in A's value array (A compressed, column-major), or -1 when the
// entry is not in A's pattern.
Eigen::Index valuePosition(const Eigen::SparseMatrix<double>& A, Eigen::Index row,
                           Eigen::Index col);

}  // namespace rlx
