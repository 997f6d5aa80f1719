#include "solve/recording/recorder.h"

#include "solve/equations/forces.h"
#include "solve/recording/frame.h"

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
  work_.add(state.t, nonconservativePower(model_, state, ws));
  lastTime_ = state.t;
  const bool atOutput = !started_ || (next_ < outputs_.size() &&
                                      std::abs(state.t - outputs_[next_]) <= 1e-12 * std::max(1.0, std::abs(state.t)));
  if (started_ && atOutput) ++next_;
  started_ = true;
  if (!atOutput) return true;
  results_.frames.push_back(makeFrame(model_, state, ws, work_.value()));
  return !observer_ || observer_(results_.frames.back());
}

double Recorder::nextStop() const { return next_ < outputs_.size() ? outputs_[next_] : lastTime_; }

bool Recorder::finished() const { return next_ >= outputs_.size(); }

RunStats& Recorder::stats() { return results_.stats; }

}  // namespace rlx
