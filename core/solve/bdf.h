#pragma once
// Variable-order (1-5), variable-step BDF on the index-3 DAE, in the manner of ADAMS GSTIFF.
// (Equations, error control and order selection: see bdf.cpp.)

#include "solve/dynamics.h"

namespace rlx {

void integrateBDF(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report);

}  // namespace rlx
