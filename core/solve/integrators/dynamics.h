#pragma once
// Dynamic analysis: integrates the equations of motion of the constrained system
//
//   M(q) vdot + Phi_q^T lambda = Q(q, v, t),   Phi(q, t) = 0   (index-3 DAE; planar: qdot = v)
//
// from an assembled state (see assemble) with the integrator named in the options:
//   hht             HHT-alpha on the index-3 DAE with Newton iterations (solve/integrators/hht.h)
//   bdf             variable-order, variable-step BDF on the index-3 DAE (solve/integrators/bdf.h)
//   corrected-rk    Braun-Goldfarb corrected equation of motion, classical RK4
//                   (solve/integrators/corrected_rk.h)
//   corrected-rk45  the same with adaptive Dormand-Prince 5(4)
// Integrators share the Recorder: frames at the output times, the nonconservative work,
// cancellation and statistics.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"
#include "solve/integrators/dynamics_options.h"
#include "solve/kinematics/kinematics.h"
#include "solve/recording/recorder.h"

namespace rlx {

// Runs the analysis; fills results.frames, results.report and results.stats.
void runDynamics(const Model& model, const State& assembled, Workspace& ws,
                 const DynamicsOptions& options, Results& results, const FrameObserver& observer = {});

}  // namespace rlx
