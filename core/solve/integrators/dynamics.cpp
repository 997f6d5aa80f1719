#include "solve/integrators/dynamics.h"

#include "solve/integrators/bdf.h"
#include "solve/integrators/corrected_rk.h"
#include "solve/integrators/hht.h"
#include "solve/linalg/subnormals.h"

#include <chrono>
#include <cmath>

namespace rlx {

void runDynamics(const Model& model, const State& assembled, Workspace& ws,
                 const DynamicsOptions& options, Results& results, const FrameObserver& observer) {
  const auto start = std::chrono::steady_clock::now();
  const FlushSubnormals flush;
  results.analysis = AnalysisType::Dynamics;
  results.integrator = options.integrator;
  Recorder recorder(model, results, observer, assembled.t, options.endTime, options.outputStep);
  State state = assembled;
  if (recorder.accept(state, ws)) {
    switch (options.integrator) {
      case Integrator::HHT:
        integrateHHT(model, state, ws, options, recorder, results.report);
        break;
      case Integrator::BDF:
        integrateBDF(model, state, ws, options, recorder, results.report);
        break;
      case Integrator::CorrectedRK:
      case Integrator::CorrectedRK45:
        integrateCorrectedRK(model, state, ws, options, recorder, results.report);
        break;
    }
  } else {
    results.report.status = SolveStatus::Cancelled;
    results.report.message = "cancelled at t = 0";
  }
  results.stats.wallTime = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rlx
