#pragma once
// The rows of a constraint Jacobian that are linearly dependent: the indices behind
// dependentElements (solve/assembly.h), for callers that pass a selection of the model's rows.

#include "model/model.h"
#include "solve/workspace.h"

#include <vector>

namespace rlx {

// The rows of Phi_q with a share above `share` (relative to the largest) in a vector of the left
// null space of Phi_q with its rows scaled to unit length, the singular values at most
// rankTolerance sigma_1 taken as zero (large models: SparseRowQR with that threshold).
std::vector<Eigen::Index> dependentRows(const Model& model, const SparseMatrix& Phi_q,
                                        double rankTolerance, double share);

}  // namespace rlx
