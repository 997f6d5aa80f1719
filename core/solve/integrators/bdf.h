#pragma once
// Variable-order (1-5), variable-step BDF on the index-3 DAE  M vdot + Phi_q^T lambda = Q,
// Phi(q, t) = 0, in the manner of ADAMS GSTIFF: the error test is on positions and velocities.
// (The step and its error estimates: solve/integrators/bdf_step.h; step and order control: bdf.cpp;
// derivations and numbers: docs/integrators-bdf.md.)

#include "solve/integrators/dynamics.h"

namespace rlx {

// Advances `state` to the end time with options.step the largest step and options.tolerance the
// local error tolerance, reporting every accepted step to the recorder (frames carry the index-1
// accelerations and multipliers). On failure (Newton not converging or a singular matrix at the
// minimum step, a force that is not finite) fills `report` with the time, the cause and the
// elements involved; options it cannot use give Unsupported. Planar and spatial models (spatial
// positions are differenced in a chart around the newest point:
// solve/integrators/position_chart.h).
void integrateBDF(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report);

}  // namespace rlx
