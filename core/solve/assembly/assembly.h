#pragma once
// Assembly (ADAMS initial-condition analysis).
//
// Positions: minimize 1/2 (q - q0)^T W (q - q0) subject to Phi(q, t0) = 0, by successive
// linearization: each iteration takes the least-change step d with Phi_q d = -Phi, i.e.
//   [W  Phi_q^T; Phi_q  0] [d; mu] = [0; -Phi],   d = -W^-1/2 pinv(Phi_q W^-1/2) Phi,
// until ||Phi||_inf < tolerance. W is diagonal: 1 for positions, L^2 for angles (L = the model's
// size, so that metres and radians compare), times holdWeight for held inputs.
// Velocities: the same with the linear constraint Phi_q v = nu (one solve).
// Then redundancy analysis of Phi_q (rank-revealing QR) and accelerations with multipliers:
//   [M  Phi_q^T; Phi_q  0] [vdot; lambda] = [Q; gamma].

#include "model/model.h"
#include "results/redundancy.h"
#include "results/report.h"
#include "solve/equations/workspace.h"

#include <string>
#include <vector>

namespace rlx {

struct AssemblyOptions {
  double tolerance = 1e-10;  // on ||Phi||_inf
  int maxIterations = 50;
  double holdWeight = 1e10;  // relative weight of a held input
};

// Rank-revealing analysis of Phi_q at the state (large models: sparse QR); marks ws.active.
Redundancy analyzeRedundancy(const Model& model, const State& state, Workspace& ws);

struct AssemblyReport : SolveReport {
  Redundancy redundancy;
};

// Assembles positions and velocities of `state` (in: the guess, out: consistent), then computes
// ws.vdot and ws.lambda. Status Inconsistent when the constraints cannot be satisfied, naming the
// joints involved.
AssemblyReport assemble(const Model& model, State& state, Workspace& ws,
                        const AssemblyOptions& options = {});

// Accelerations and multipliers at a consistent state, using only the active rows; the
// multipliers of redundant rows are the minimum-norm solution of Phi_q^T lambda = Q - M vdot
// (minimumNormMultipliers; large models: a sparse LU of the KKT matrix).
SolveReport solveAccelerations(const Model& model, const State& state, Workspace& ws);

// The minimum-norm multipliers of every row, Phi_q^T lambda = f (the reactions of redundant rows
// shared), given in `lambda` a solution that is zero on the rows the redundancy analysis dropped.
// Small models: a complete orthogonal decomposition of Phi_q^T. Large ones: lambda minus its
// projection onto the left null space W of Phi_q (SparseRowQR), lambda - W (W^T W)^-1 W^T lambda.
void minimumNormMultipliers(const Model& model, const Workspace& ws, const Eigen::VectorXd& f,
                            Eigen::VectorXd& lambda);

// Velocities made consistent with the active rows, Phi_q v = nu, by the least change of kinetic
// energy: v += dv with [M A^T; A 0] [dv; mu] = [0; nu - A v]. False (v unchanged) when the KKT
// matrix is singular.
bool projectVelocities(const Model& model, State& state, Workspace& ws);

// The elements (joints, motions) whose equations are linearly dependent in Phi_q: those with a
// share above `share` (relative to the largest) in a vector of the left null space of the matrix
// with its rows scaled to unit length, the singular values at most rankTolerance sigma_1 taken
// as zero (large models, kSparseFromVelocities: SparseRowQR with that threshold). Names a
// lock-up or a conflict (defaults: at a configuration that is singular only to the solver's
// accuracy), or the joints whose reactions are not unique (1e-9, 1e-8).
std::vector<std::string> dependentElements(const Model& model, const SparseMatrix& Phi_q,
                                           double rankTolerance = 1e-4, double share = 1e-3);

// "a", "b" and "c", quoted: for messages.
std::string joinNames(const std::vector<std::string>& names);

// The weights of the assembly, per entry of v (positions 1, angles L^2; held inputs scaled).
Eigen::VectorXd assemblyWeights(const Model& model, bool velocities, double holdWeight);

}  // namespace rlx
