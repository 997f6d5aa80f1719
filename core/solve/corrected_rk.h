#pragma once
// Braun-Goldfarb constraint- and energy-corrected equation of motion, integrated with explicit
// Runge-Kutta: classical RK4 at the fixed step ("corrected-rk") or adaptive Dormand-Prince 5(4)
// ("corrected-rk45"). (Equations: see corrected_rk.cpp and shared/docs/braun-goldfarb.md.)

#include "solve/dynamics.h"

namespace rlx {

void integrateCorrectedRK(const Model& model, State& state, Workspace& ws,
                          const DynamicsOptions& options, Recorder& recorder, SolveReport& report);

}  // namespace rlx
