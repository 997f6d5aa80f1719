#pragma once
// What the time integrators (hht, bdf) share when they check their options and when a run cannot
// go on: one wording for the user, and the joints named the same way.

#include "model/model.h"
#include "results/report.h"
#include "solve/equations/force_check.h"
#include "solve/equations/workspace.h"
#include "solve/integrators/dynamics.h"

#include <string>

namespace rlx {

// Why the step options cannot run (step, tolerance, minimum step), or "".
std::string checkStepOptions(const DynamicsOptions& options);

// "dynamic analysis failed at t = 1.234 s: "
std::string dynamicsFailurePrefix(double t);

// Names the element that makes the applied forces not finite at time t (findNonFiniteForce).
void reportNonFiniteForce(const NonFiniteForce& bad, double t, SolveReport& report);

// A step that cannot be completed even at step h: `cause` says why ("the Newton iterations do not
// converge"), and the elements whose active equations (Workspace::active) are dependent at `last`
// — or else at `predictor`, the first iterate of the failed step — are named: as locking up when
// a motion is among them (it drives the mechanism into the configuration), else as a singular
// configuration. A redundant equation dropped at assembly is dependent everywhere and is not
// named. Sets report.time = last.t.
void reportStepFailure(const Model& model, Workspace& ws, const State& last,
                       const State& predictor, SolveStatus status, const std::string& cause,
                       double h, SolveReport& report);

}  // namespace rlx
