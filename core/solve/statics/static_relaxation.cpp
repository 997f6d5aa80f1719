#include "solve/statics/static_relaxation.h"

#include "solve/assembly/assembly.h"
#include "solve/equations/forces.h"

namespace rlx {
namespace {

constexpr double kAlpha = -1.0 / 3.0;  // the most numerical damping
constexpr double kNewtonTolerance = 1e-6;
constexpr double kFirstStep = 1e-2, kLongestStep = 0.16, kShortestStep = 1e-6;
constexpr int kGrowAfter = 4;
constexpr int kBudget = 2000;  // steps in all

}  // namespace

StaticRelaxation::StaticRelaxation(const Model& model, Workspace& ws, const State& start)
    : model_(model),
      ws_(ws),
      step_(model, ws, kAlpha, kNewtonTolerance, model.nv >= kSparseHHTFromVelocities),
      state_(start),
      rest_(start),
      h_(kFirstStep) {
  rest_.v.setZero();
}

bool StaticRelaxation::nextRest(RunStats& stats) {
  state_ = rest_;
  if (!solveAccelerations(model_, state_, ws_).ok() || !ws_.vdot.allFinite()) return false;
  step_.start();
  double peak = 0.0;
  while (steps_ < kBudget) {
    ++steps_;
    if (step_.solve(state_, h_, state_.t + h_, stats) != StepOutcome::Converged) {
      h_ /= 2;
      accepted_ = 0;
      if (h_ < kShortestStep) return false;
      continue;
    }
    step_.accept(state_);
    if (++accepted_ == kGrowAfter && h_ < kLongestStep) {
      h_ *= 2;
      accepted_ = 0;
    }
    const double kinetic = kineticEnergy(model_, state_);
    if (kinetic == 0.0) return false;  // nothing moves it
    if (kinetic < peak) {
      rest_.q = state_.q;
      return true;
    }
    peak = kinetic;
  }
  return false;
}

}  // namespace rlx
