#pragma once
// A whole analysis as a user starts it (reuleaux-cli run, the desktop app): assembly at t0, then
// the model's analysis type.

#include "model/model.h"
#include "results/results.h"
#include "solve/kinematics/kinematics.h"

namespace rlx {

struct AnalysisOutcome {
  Results results;         // frames computed (also before a failure) and the report
  bool assembled = false;  // the assembly at t0 succeeded: results.redundancy is known
};

// Assembles at t0 and runs model.analysis with the model's settings: `assembly` stores the one
// assembled frame; `kinematics`, `statics` and `dynamics` run runKinematics, runStatics and
// runDynamics. The wall time covers the assembly and the run.
AnalysisOutcome runAnalysis(const Model& model, const FrameObserver& observer);

// The assembled frame at a state after assemble(): accelerations and multipliers from `ws`,
// energies, constraint errors.
Frame assembledFrame(const Model& model, const State& state, Workspace& ws);

}  // namespace rlx
