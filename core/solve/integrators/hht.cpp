#include "solve/integrators/hht.h"

#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/integrators/hht_step.h"
#include "solve/integrators/integrator_report.h"

#include <algorithm>
#include <cmath>

// Time stepping of the HHT-alpha method (the step itself: solve/integrators/hht_step.h).
//   Fixed step (default): h = options.step, shortened to land on the recorder's stops. A step
//   whose Newton iterations fail is retried with h / 2; after 4 accepted steps the step doubles
//   again, up to options.step.
//   Variable step: the local position error estimate err = |beta - 1/6| h^3 ||q'''||_inf (m or rad),
//   q''' from the accelerations of the last two steps (HHTStep::errorEstimate), is held below
//   options.tolerance; h <- h min(2, max(0.2, 0.9 (tol / err)^(1/3))).
//   Both: after the first failure of the Newton iterations since the last accepted step, the
//   retried steps start from velocities projected onto the constraints (restartFrom).
//   Below options.minStep the run stops with MaxIterations, Singular or NotFinite.
// Every stop of the recorder (output times, the end) is landed on exactly.

namespace rlx {
namespace {

constexpr int kGrowAfter = 4;  // accepted steps at a halved step before it doubles again

// Fills the report of a run that cannot continue from `state`.
void reportFailure(const Model& model, const State& state, Workspace& ws, const HHTStep& step,
                   StepOutcome outcome, double h, SolveReport& report) {
  report.time = state.t;
  if (outcome == StepOutcome::NotFinite) {
    if (!step.nonFiniteForce().element.empty())
      return reportNonFiniteForce(step.nonFiniteForce(), state.t, report);
    // Every force finite: an equation not finite at the end of the step is the cause.
    const NonFiniteForce equation =
        findNonFiniteConstraint(model, State{state.t + h, state.q, state.v}, ws);
    if (!equation.element.empty()) return reportNonFiniteForce(equation, state.t, report);
    report.status = SolveStatus::NotFinite;
    report.message =
        dynamicsFailurePrefix(state.t) + "the state became non-finite (step " + numberText(h) + " s)";
    return;
  }
  const bool singular = outcome == StepOutcome::Singular;
  reportStepFailure(model, ws, state, step.predictor(),
                    singular ? SolveStatus::Singular : SolveStatus::MaxIterations,
                    singular ? "the iteration matrix is singular"
                             : "the Newton iterations do not converge",
                    h, report);
}

// The options HHT accepts, or a message saying why not.
std::string checkOptions(const DynamicsOptions& options) {
  if (!hhtAlphaInRange(options.hhtAlpha))
    return "the HHT parameter alpha = " + numberText(options.hhtAlpha) + " is outside [-1/3, 0]";
  return checkStepOptions(options);
}

// Starts the HHT history afresh at `state` with its velocities projected onto Phi_q v = nu and
// the accelerations and multipliers solved there. The index-3 method holds only the positions on
// the constraints; Phi_q v - nu grows where the motion is violent (a chain's whipping tip), and a
// retried shorter step would need a correction of a of that error / (beta h). Nothing changes when
// either solve is singular.
void restartFrom(const Model& model, State& state, Workspace& ws, HHTStep& step) {
  State projected = state;
  if (!projectVelocities(model, projected, ws) || !solveAccelerations(model, projected, ws).ok())
    return;
  state = projected;
  step.start();
}

}  // namespace

void integrateHHT(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report) {
  report = SolveReport{};
  report.time = state.t;
  if (const std::string why = checkOptions(options); !why.empty()) {
    report.status = SolveStatus::Unsupported;
    report.message = "HHT cannot run: " + why;
    return;
  }
  HHTStep step(model, ws, options.hhtAlpha, options.tolerance, model.nv >= options.sparseFrom);
  // Accelerations and multipliers of the initial state: a_0, lambda_0, r_0.
  const SolveReport initial = solveAccelerations(model, state, ws);
  if (!initial.ok()) {
    report = initial;
    report.time = state.t;
    const NonFiniteForce bad = initial.status == SolveStatus::NotFinite
                                   ? findNonFiniteForce(model, state, ws)
                                   : NonFiniteForce{};
    if (!bad.element.empty())
      reportNonFiniteForce(bad, state.t, report);
    else
      report.message = dynamicsFailurePrefix(state.t) + initial.message;
    return;
  }
  step.start();

  RunStats& stats = recorder.stats();
  double h = options.step;
  int streak = 0;         // accepted steps since the step was last cut
  bool restarted = false;  // since the last accepted step
  while (!recorder.finished()) {
    // Land exactly on the next stop; split the last two steps before it evenly.
    const double remaining = recorder.nextStop() - state.t;
    double hTry = h, tNext = state.t + h;
    const bool landing = remaining <= h * (1 + 1e-6);
    if (landing) {
      hTry = remaining;
      tNext = recorder.nextStop();
    } else if (remaining < 2 * h) {
      hTry = remaining / 2;
      tNext = state.t + hTry;
    }
    const StepOutcome outcome = step.solve(state, hTry, tNext, stats);
    const double error = outcome == StepOutcome::Converged && options.variableStep
                             ? step.errorEstimate(hTry) / options.tolerance
                             : 0.0;
    // Rejected: Newton failed (halve) or the error estimate is too large (shrink).
    if (outcome != StepOutcome::Converged || error > 1) {
      ++stats.rejectedSteps;
      streak = 0;
      h = outcome == StepOutcome::Converged ? hTry * std::max(0.2, 0.9 * std::cbrt(1 / error))
                                            : hTry / 2;
      if (h < options.minStep) {
        reportFailure(model, state, ws, step, outcome, hTry, report);
        return;
      }
      // Newton failed: once per accepted step, the shorter steps start from consistent velocities.
      if (outcome == StepOutcome::MaxIterations && !restarted) {
        restartFrom(model, state, ws, step);
        restarted = true;
      }
      continue;
    }
    step.accept(state);
    ++stats.steps;
    restarted = false;
    // Frames carry the accelerations and multipliers of the index-1 equations at the accepted
    // (q, v): the HHT's own a and lambda lag by about |alpha| h. Kept when that system is singular.
    if (landing) {
      solveAccelerations(model, state, ws);
      ++stats.rhsEvaluations;
    }
    if (!recorder.accept(state, ws)) {
      report.status = SolveStatus::Cancelled;
      report.time = state.t;
      report.message = "cancelled at t = " + numberText(state.t) + " s";
      return;
    }
    // The next step.
    if (options.variableStep) {
      const double factor = error > 0 ? std::min(2.0, 0.9 * std::cbrt(1 / error)) : 2.0;
      h = std::min(options.step, factor >= 1 ? std::max(h, hTry * factor) : hTry * factor);
    } else if (h < options.step && ++streak >= kGrowAfter) {
      h = std::min(options.step, 2 * h);
      streak = 0;
    }
  }
  report.time = state.t;
}

}  // namespace rlx
