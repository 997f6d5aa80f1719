#pragma once
// Which applied force makes Q non-finite: for the failure reports of the integrators.

#include "model/model.h"
#include "solve/workspace.h"

namespace rlx {

// Index of the first force whose expressions (vector components, value, spring law) are not
// finite at ws.slotValues, or -1. Call after evaluateAppliedForces at the offending state.
int nonFiniteForce(const Model& model, const Workspace& ws);

}  // namespace rlx
