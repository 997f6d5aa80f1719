#pragma once
// A result frame (results/results.h) from a solved state.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"

namespace rlx {

// The frame of a solved state: ws.vdot and ws.lambda must belong to it. Evaluates the energies
// and the position and velocity constraint errors.
Frame makeFrame(const Model& model, const State& state, Workspace& ws, double workNonconservative);

}  // namespace rlx
