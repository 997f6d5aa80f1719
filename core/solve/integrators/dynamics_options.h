#pragma once
// The options of a dynamic analysis (solve/integrators/dynamics.h), for the integrators, the CLI
// and the GUI.

#include "model/integrator.h"
#include "solve/equations/workspace.h"

namespace rlx {

struct DynamicsOptions {
  Integrator integrator = Integrator::HHT;
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

}  // namespace rlx
