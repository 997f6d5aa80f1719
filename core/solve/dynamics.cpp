#include "solve/dynamics.h"

#include "solve/corrected_rk.h"
#include "solve/forces.h"
#include "solve/hht.h"

#include <chrono>
#include <cmath>

namespace rlx {

Recorder::Recorder(const Model& model, Results& results, const FrameObserver& observer, double t0,
                   double endTime, double outputStep)
    : model_(model), results_(results), observer_(observer), lastTime_(t0) {
  for (long k = 1;; ++k) {
    const double t = t0 + static_cast<double>(k) * outputStep;
    if (t > endTime - 1e-9 * outputStep) break;
    outputs_.push_back(t);
  }
  if (endTime > t0) outputs_.push_back(endTime);
}

bool Recorder::accept(const State& state, Workspace& ws) {
  const double power = nonconservativePower(model_, state, ws);
  if (started_) work_ += 0.5 * (state.t - lastTime_) * (power + lastPower_);
  lastPower_ = power;
  lastTime_ = state.t;
  const bool atOutput = !started_ || (next_ < outputs_.size() &&
                                      std::abs(state.t - outputs_[next_]) <= 1e-12 * std::max(1.0, std::abs(state.t)));
  if (started_ && atOutput) ++next_;
  started_ = true;
  if (!atOutput) return true;
  results_.frames.push_back(makeFrame(model_, state, ws, work_));
  return !observer_ || observer_(results_.frames.back());
}

double Recorder::nextStop() const { return next_ < outputs_.size() ? outputs_[next_] : lastTime_; }

bool Recorder::finished() const { return next_ >= outputs_.size(); }

RunStats& Recorder::stats() { return results_.stats; }

void runDynamics(const Model& model, const State& assembled, Workspace& ws,
                 const DynamicsOptions& options, Results& results, const FrameObserver& observer) {
  const auto start = std::chrono::steady_clock::now();
  results.analysis = "dynamics";
  results.integrator = options.integrator;
  Recorder recorder(model, results, observer, assembled.t, options.endTime, options.outputStep);
  State state = assembled;
  if (recorder.accept(state, ws)) {
    if (options.integrator == "hht")
      integrateHHT(model, state, ws, options, recorder, results.report);
    else if (options.integrator == "corrected-rk" || options.integrator == "corrected-rk45")
      integrateCorrectedRK(model, state, ws, options, recorder, results.report);
    else {
      results.report.status = SolveStatus::Unsupported;
      results.report.message = "the integrator \"" + options.integrator + "\" is not available";
    }
  } else {
    results.report.status = SolveStatus::Cancelled;
    results.report.message = "cancelled at t = 0";
  }
  results.stats.wallTime = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rlx
