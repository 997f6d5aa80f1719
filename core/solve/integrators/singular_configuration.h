#pragma once
// Where the joints' equations are nearly dependent (a singular configuration: a toggle, a branch
// crossing, a lock-up): measured on the unit-length active rows of Phi_q, for the integrators
// that must step across such configurations (corrected-rk, corrected-rk45) and name the joints.

#include "model/model.h"
#include "solve/equations/workspace.h"

#include <vector>

namespace rlx {

// A singular configuration: the unit-length active rows' sigma_min below kNearlySingular sigma_1
// (the perturbed double four-bars where corrected-rk stops: 3.8e-3 ... 4.4e-3; the crank-rocker
// example at h = 0.05, with no singular configuration: 0.07).
constexpr double kNearlySingular = 0.02;
// Models below this many velocities have sigma_min / sigma_1 from a dense SVD; larger ones from
// Lanczos iteration on a sparse QR's R (SparseRowQR::singularValueRatio).
constexpr Eigen::Index kDenseSvdVelocities = 300;

// The rows that are nearly dependent at `at`: those with a share above a tenth of the largest in
// the left singular vectors of the singular values below kNearlySingular sigma_1 (large models:
// sigma_min's and the dependencies a sparse QR finds at that threshold). `ratio`: sigma_min /
// sigma_1 (NaN if the sparse QR failed), 1 without rows. Evaluates Phi_q in ws.
std::vector<Eigen::Index> nearlyDependentRows(const Model& model, Workspace& ws, const State& at,
                                              double& ratio);

// sigma_min / sigma_1 alone (above; large models skip the rows' naming).
double singularValueRatio(const Model& model, Workspace& ws, const State& at);

// Whether the equations are nearly dependent at `at` (above).
bool nearlySingular(const Model& model, Workspace& ws, const State& at);

}  // namespace rlx
