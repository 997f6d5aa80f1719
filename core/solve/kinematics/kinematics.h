#pragma once
// Kinematic analysis of a fully driven mechanism (dof = 0 with the motions): at each time,
// Newton-Raphson on Phi(q, t) = 0 from the predictor q + h v + h^2/2 vdot, then
// Phi_q v = nu, Phi_q vdot = gamma, and the multipliers (efforts and reactions) from
// Phi_q^T lambda = Q - M vdot.
// Nonholonomic rows (A v = b) take part in the square systems for v, vdot and lambda; in the
// Newton steps their rows ask for no change (A dq = 0). The positions they leave free follow from
// q' = v alone: with nonholonomic rows each step is corrected once by the Hermite rule
//   q_{n+1} = q_n (+) [h/2 (v_n + v_{n+1}) + h^2/12 (vdot_n - vdot_{n+1})]
// with the rates of the predicted step (error O(h^3)), then Newton and the rates again: local
// error O(h^4), global O(h^3).

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"
#include "solve/recording/recorder.h"

#include <functional>

namespace rlx {

struct KinematicsOptions {
  double endTime = 1.0;
  double step = 1e-3;        // spacing of the solved configurations
  double outputStep = 1e-2;  // spacing of stored frames
  double tolerance = 1e-10;  // Newton tolerance on ||Phi||_inf
  int maxIterations = 25;
};

// Starts from an assembled state (see assemble). Fills results.frames and results.report.
void runKinematics(const Model& model, const State& assembled, Workspace& ws,
                   const KinematicsOptions& options, Results& results,
                   const FrameObserver& observer = {});

}  // namespace rlx
