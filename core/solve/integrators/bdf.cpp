#include "solve/integrators/bdf.h"

#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/integrators/bdf_step.h"
#include "solve/integrators/integrator_report.h"
#include "solve/linalg/dependent_rows.h"

#include <algorithm>
#include <cmath>
#include <string>

// Step and order control of the BDF (the step itself: solve/integrators/bdf_step.h; derivations and
// numbers: docs/integrators-bdf.md).
//   Accepted when E_k <= 1. With r_j = min(2, (2 E_j)^(-1/(j+1))), the growth order j allows:
//   after k+1 steps at the same order and step, the order falls to k-1 if r_{k-1} > r_k, else
//   rises to k+1 if r_{k+1} > r_k, or, when both are 2 (the step is at its cap), if that halves
//   the velocity constraint defect. The step doubles (at most to options.step) when r_k >= 2 after
//   k+1 steps at the same order and step, shrinks by clamp(r_k, 0.5, 0.9) when r_k < 1, and is
//   kept otherwise. The last two steps before a recorder stop share it evenly.
//   Rejected: an error failure shrinks the step by clamp(0.9 r, 0.25, 0.9) (lowering the order
//   when E_{k-1} <= E_k), by 0.25 from the second failure on, at order 1 from the third; a Newton
//   failure halves it. Below options.minStep the run stops naming the time and the joints.

namespace rlx {
namespace {

constexpr double kDefectFloor = 1e-3;  // weighted velocity defect not worth an order

using Outcome = BdfStep::Outcome;

class BdfControl {
 public:
  BdfControl(const Model& model, Workspace& ws, const DynamicsOptions& options, Recorder& recorder,
             SolveReport& report)
      : model_(model),
        ws_(ws),
        options_(options),
        recorder_(recorder),
        report_(report),
        step_(model, ws, options.tolerance, recorder.stats(), model.nv >= options.sparseFrom),
        redundant_(choosesRowsEveryStep(model, ws)) {}

  void run(State& state);

 private:
  int nextOrder(double error, double tNew, double& nextError);
  bool reject(Outcome outcome, double error, double hTry, double tNew);
  void failAtMinimumStep(const State& last, Outcome outcome, double hTry);
  void chooseRowsAgain(const State& state);

  const Model& model_;
  Workspace& ws_;
  const DynamicsOptions& options_;
  Recorder& recorder_;
  SolveReport& report_;
  BdfStep step_;
  bool redundant_;  // small, with redundant equations: the rows kept are chosen at every step
  std::vector<bool> kept_;  // the rows kept before they are chosen again
  int k_ = 1, held_ = 0, failures_ = 0;  // order, steps since the last change, failures in a row
  double h_ = 0.0;                       // the nominal step
  Eigen::VectorXd vdot_, lambda_;        // the BDF values at a frame, kept if index-1 fails
};

// The order for the next step (reconsidered when held_ > k_) and its error estimate.
int BdfControl::nextOrder(double error, double tNew, double& nextError) {
  nextError = error;
  if (held_ <= k_) return k_;
  auto growth = [](double e, int j) { return std::min(2.0, std::pow(2.0 * e, -1.0 / (j + 1))); };
  if (k_ > 1) {
    const double below = step_.errorBelow(k_, tNew);
    if (growth(below, k_ - 1) > growth(error, k_)) {
      nextError = below;
      return k_ - 1;
    }
  }
  if (k_ >= options_.bdfMaxOrder || !step_.canRaise(k_)) return k_;
  const double above = step_.errorAbove(k_, tNew);
  const double up = growth(above, k_ + 1), current = growth(error, k_);
  // At the step cap (both growths 2) the local error says nothing: the velocity defect decides.
  bool raise = up > current;
  if (!raise && up == 2.0 && current == 2.0) {
    const double defect = step_.velocityDefect(k_, tNew);
    raise = defect > kDefectFloor && step_.velocityDefect(k_ + 1, tNew) < 0.5 * defect;
  }
  if (!raise) return k_;
  nextError = above;
  return k_ + 1;
}

// A rejected step: the next step and order; false below the minimum step.
bool BdfControl::reject(Outcome outcome, double error, double hTry, double tNew) {
  ++recorder_.stats().rejectedSteps;
  ++failures_;
  held_ = 0;
  if (outcome != Outcome::Converged) {
    h_ = 0.5 * hTry;
  } else {
    if (k_ > 1 && step_.errorBelow(k_, tNew) <= error) --k_;
    if (failures_ >= 3) k_ = 1;
    const double r = 0.9 * std::pow(2.0 * error, -1.0 / (k_ + 1));
    h_ = (failures_ == 1 ? std::clamp(r, 0.25, 0.9) : 0.25) * hTry;
  }
  return h_ >= options_.minStep;
}

// A small model with redundant equations chooses the rows it keeps again at every accepted step:
// those kept at assembly may lose rank along the motion where the dropped row's share in the
// dependency vanishes (the IFToMM Bricard at t = 0.55 s).
void BdfControl::chooseRowsAgain(const State& state) {
  if (!redundant_) return;
  kept_ = ws_.active;
  analyzeRedundancy(model_, state, ws_);
  if (ws_.active != kept_) step_.activeRowsChanged();
}

// The report of a step that cannot be completed at the minimum step.
void BdfControl::failAtMinimumStep(const State& last, Outcome outcome, double hTry) {
  // Every force finite (else the step said NotFinite): an equation not finite at the end of the
  // step is the cause.
  const NonFiniteForce equation =
      outcome == Outcome::Failed
          ? findNonFiniteConstraint(model_, State{last.t + hTry, last.q, last.v}, ws_)
          : NonFiniteForce{};
  if (!equation.element.empty()) return reportNonFiniteForce(equation, last.t + hTry, report_);
  const std::string cause = outcome == Outcome::Singular ? "the iteration matrix is singular"
                            : outcome == Outcome::Failed
                                ? "the Newton iterations do not converge"
                                : "the local error stays above the tolerance";
  reportStepFailure(
      model_, ws_, last, step_.predictor(last.t + hTry),
      outcome == Outcome::Singular ? SolveStatus::Singular : SolveStatus::MaxIterations, cause,
      hTry, report_);
}

void BdfControl::run(State& state) {
  RunStats& stats = recorder_.stats();
  stats.maxOrder = 1;
  step_.start(state);
  h_ = std::min(options_.step, 0.01 * std::sqrt(options_.tolerance));
  while (!recorder_.finished()) {
    // The step: at most options.step; the last two before a stop split it evenly.
    h_ = std::min(h_, options_.step);
    const double remaining = recorder_.nextStop() - state.t;
    double hTry = h_, tNew = state.t + h_;
    if (remaining <= h_ * (1 + 1e-6)) {
      hTry = remaining;
      tNew = recorder_.nextStop();
    } else if (remaining < 2 * h_) {
      hTry = remaining / 2;
      tNew = state.t + hTry;
    }
    const Outcome outcome = step_.solve(k_, tNew);
    if (outcome == Outcome::NotFinite) {
      reportNonFiniteForce(step_.badForce(), tNew, report_);
      return;
    }
    const double error = outcome == Outcome::Converged ? step_.error(k_, tNew) : 0.0;
    if (outcome != Outcome::Converged || error > 1.0) {
      if (!reject(outcome, error, hTry, tNew)) {
        failAtMinimumStep(state, outcome, hTry);
        return;
      }
      continue;
    }
    // Accepted: the next order and step (see the top of the file).
    failures_ = 0;
    ++stats.steps;
    ++held_;
    double nextError = error;
    const int next = nextOrder(error, tNew, nextError);
    const double r = std::pow(2.0 * nextError, -1.0 / (next + 1));
    const double hOld = h_;
    if (r >= 2.0 && held_ > k_) h_ = std::min(2.0 * h_, options_.step);
    if (r < 1.0) h_ = std::clamp(r, 0.5, 0.9) * hTry;
    if (next != k_ || h_ != hOld) held_ = 0;
    k_ = next;
    stats.maxOrder = std::max(stats.maxOrder, k_);
    step_.accept(state, held_ > 0);
    chooseRowsAgain(state);
    // Frames carry the accelerations and multipliers of the index-1 equations at (q, v) (the BDF
    // ones of the index-3 system are a few orders less accurate); kept when that system is
    // singular.
    if (state.t == recorder_.nextStop()) {
      vdot_ = ws_.vdot;
      lambda_ = ws_.lambda;
      ++stats.rhsEvaluations;
      if (!solveAccelerations(model_, state, ws_).ok()) {
        ws_.vdot = vdot_;
        ws_.lambda = lambda_;
      }
    }
    if (!recorder_.accept(state, ws_)) {
      report_.status = SolveStatus::Cancelled;
      report_.time = state.t;
      report_.message = "cancelled at t = " + numberText(state.t) + " s";
      return;
    }
  }
  report_.time = state.t;
}

}  // namespace

void integrateBDF(const Model& model, State& state, Workspace& ws, const DynamicsOptions& options,
                  Recorder& recorder, SolveReport& report) {
  report = SolveReport{};
  report.time = state.t;
  std::string why = checkStepOptions(options);
  if (why.empty() && (options.bdfMaxOrder < 1 || options.bdfMaxOrder > BdfStep::kMaxOrder))
    why = "the highest order must be 1 to " + std::to_string(BdfStep::kMaxOrder) + ", got " +
          std::to_string(options.bdfMaxOrder);
  if (!why.empty()) {
    report.status = SolveStatus::Unsupported;
    report.message = "BDF cannot run: " + why;
    return;
  }
  BdfControl control(model, ws, options, recorder, report);
  control.run(state);
}

}  // namespace rlx
