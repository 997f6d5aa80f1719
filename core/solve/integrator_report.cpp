#include "solve/integrator_report.h"

#include "solve/assembly.h"
#include "solve/constraints.h"

#include <cmath>

namespace rlx {

std::string checkStepOptions(const DynamicsOptions& options) {
  if (!(options.step > 0) || !std::isfinite(options.step))
    return "the step must be positive, got " + numberText(options.step);
  if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
    return "the tolerance must be positive, got " + numberText(options.tolerance);
  if (!(options.minStep > 0) || options.minStep > options.step)
    return "the minimum step must be in (0, step], got " + numberText(options.minStep);
  return {};
}

std::string dynamicsFailurePrefix(double t) {
  return "dynamic analysis failed at t = " + numberText(t) + " s: ";
}

void reportNonFiniteForce(const NonFiniteForce& bad, double t, SolveReport& report) {
  report.status = SolveStatus::NotFinite;
  report.time = t;
  report.elements = {bad.element};
  report.message = dynamicsFailurePrefix(t) + bad.cause;
}

void reportStepFailure(const Model& model, Workspace& ws, const State& last,
                       const State& predictor, SolveStatus status, const std::string& cause,
                       double h, SolveReport& report) {
  report.status = status;
  report.time = last.t;
  evaluateConstraintDerivatives(model, last, ws);
  report.elements = dependentElements(model, ws.Phi_q);
  if (report.elements.empty()) {
    evaluateConstraintDerivatives(model, predictor, ws);
    report.elements = dependentElements(model, ws.Phi_q);
  }
  report.message =
      dynamicsFailurePrefix(last.t) + cause + " even with the step reduced to " + numberText(h) +
      " s" +
      (report.elements.empty()
           ? ""
           : ": the mechanism locks up (joints involved: " + joinNames(report.elements) + ")");
}

}  // namespace rlx
