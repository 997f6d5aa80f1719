#pragma once
// HHT-alpha integration of the index-3 DAE  M vdot + Phi_q^T lambda = Q,  Phi(q, t) = 0.
// (Equations and the iteration matrix: see hht.cpp.)

#include "solve/integrators/dynamics.h"

namespace rlx {

// Advances `state` to the end time, reporting every accepted step to the recorder. On failure
// (Newton not converging at the minimum step, non-finite state) fills `report` with the time,
// the cause and the elements involved.
void integrateHHT(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report);

}  // namespace rlx
