#pragma once
// Dynamic analysis: integrates the equations of motion of the constrained system
//
//   M(q) vdot + Phi_q^T lambda = Q(q, v, t),   Phi(q, t) = 0   (index-3 DAE; planar: qdot = v)
//
// from an assembled state (see assemble) with the integrator named in the options:
//   hht             HHT-alpha on the index-3 DAE with Newton iterations (solve/hht.h)
//   bdf             variable-order, variable-step BDF on the index-3 DAE (solve/bdf.h)
//   corrected-rk    Braun-Goldfarb corrected equation of motion, classical RK4 (solve/corrected_rk.h)
//   corrected-rk45  the same with adaptive Dormand-Prince 5(4)
// Integrators share the Recorder: frames at the output times, the nonconservative work,
// cancellation and statistics.

#include "model/model.h"
#include "results/results.h"
#include "solve/kinematics.h"
#include "solve/recorder.h"
#include "solve/workspace.h"

#include <string>

namespace rlx {

struct DynamicsOptions {
  std::string integrator = "hht";
  double endTime = 1.0;
  double step = 1e-3;        // fixed step, or the largest step of a variable-step method
  double outputStep = 1e-2;
  double tolerance = 1e-6;   // local error (variable step) or Newton tolerance (fixed step)
  double minStep = 1e-10;    // below it a variable-step method gives up
  double hhtAlpha = -0.1;    // in [-1/3, 0]
  bool variableStep = false; // hht: error-controlled steps
  bool energyCorrection = true;  // corrected-rk*: Braun-Goldfarb energy term
  int bdfMaxOrder = 5;           // bdf: the highest order it may use, 1 to 5 (library only)
  // Sparse linear algebra from this many velocities: hht's and bdf's iteration matrix, the
  // corrected equation's pseudoinverses (normal equations).
  int sparseFrom = kSparseHHTFromVelocities;
};

// Runs the analysis; fills results.frames, results.report and results.stats.
void runDynamics(const Model& model, const State& assembled, Workspace& ws,
                 const DynamicsOptions& options, Results& results, const FrameObserver& observer = {});

}  // namespace rlx
