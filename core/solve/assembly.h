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
#include "solve/report.h"
#include "solve/workspace.h"

#include <string>
#include <vector>

namespace rlx {

struct AssemblyOptions {
  double tolerance = 1e-10;  // on ||Phi||_inf
  int maxIterations = 50;
  double holdWeight = 1e10;  // relative weight of a held input
};

struct RedundantEquation {
  int row = 0;
  std::string element;   // the joint (motion, constraint) that owns the equation
  std::string equation;  // the row's name, e.g. "pin2.y"
};

struct Redundancy {
  int rank = 0;                              // rank of Phi_q (holonomic and nonholonomic rows)
  int dof = 0;                               // nv - rank: true degrees of freedom
  int dofGrubler = 0;                        // nv - number of equations
  std::vector<RedundantEquation> redundant;  // consistent redundant equations (dropped)
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
// (large models: a sparse LU of the KKT matrix, and the redundant rows' multipliers stay zero).
SolveReport solveAccelerations(const Model& model, const State& state, Workspace& ws);

// Velocities made consistent with the active rows, Phi_q v = nu, by the least change of kinetic
// energy: v += dv with [M A^T; A 0] [dv; mu] = [0; nu - A v]. False (v unchanged) when the KKT
// matrix is singular.
bool projectVelocities(const Model& model, State& state, Workspace& ws);

// The elements (joints, motions) whose equations are linearly dependent in Phi_q: those with a
// share in the left null space of the matrix. Names a lock-up or a conflict.
// Large models (kSparseFromVelocities): the dependent rows of a sparse QR instead.
std::vector<std::string> dependentElements(const Model& model, const SparseMatrix& Phi_q);

// "a", "b" and "c", quoted: for messages.
std::string joinNames(const std::vector<std::string>& names);

// The weights of the assembly, per entry of v (positions 1, angles L^2; held inputs scaled).
Eigen::VectorXd assemblyWeights(const Model& model, bool velocities, double holdWeight);

}  // namespace rlx
