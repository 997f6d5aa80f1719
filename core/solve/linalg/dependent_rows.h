#pragma once
// The rows of a constraint Jacobian that are linearly dependent: the indices behind
// dependentElements (solve/assembly/assembly.h), for callers that pass a selection of the model's
// rows.

#include "model/model.h"
#include "solve/equations/workspace.h"

#include <algorithm>
#include <vector>

namespace rlx {

// A small model (below kSparseFromVelocities) whose assembly dropped redundant rows: the rows kept
// may lose rank along the motion where a dropped row's share in the dependency vanishes (the
// IFToMM Bricard at t = 0.55 s), so bdf and corrected-rk choose them again at every step.
inline bool choosesRowsEveryStep(const Model& model, const Workspace& ws) {
  return model.nv < kSparseFromVelocities &&
         std::find(ws.active.begin(), ws.active.end(), false) != ws.active.end();
}

// The rows of Phi_q with a share above `share` (relative to the largest) in a vector of the left
// null space of Phi_q with its rows scaled to unit length, the singular values at most
// rankTolerance sigma_1 taken as zero (large models: SparseRowQR with that threshold).
std::vector<Eigen::Index> dependentRows(const Model& model, const SparseMatrix& Phi_q,
                                        double rankTolerance, double share);

}  // namespace rlx
