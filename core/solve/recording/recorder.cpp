#include "solve/recording/recorder.h"

#include "solve/equations/forces.h"
#include "solve/equations/stop_law.h"
#include "solve/recording/frame.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlx {
namespace {

// Where q crossed `bound` between two samples, by linear interpolation.
double crossing(double t0, double q0, double t1, double q1, double bound) {
  const double s = q1 != q0 ? std::clamp((bound - q0) / (q1 - q0), 0.0, 1.0) : 1.0;
  return t0 + s * (t1 - t0);
}

}  // namespace

Recorder::Recorder(const Model& model, Results& results, const FrameObserver& observer, double t0,
                   double endTime, double outputStep)
    : model_(model), results_(results), observer_(observer), lastTime_(t0) {
  for (long k = 1;; ++k) {
    const double t = t0 + static_cast<double>(k) * outputStep;
    if (t > endTime - 1e-9 * outputStep) break;
    outputs_.push_back(t);
  }
  if (endTime > t0) outputs_.push_back(endTime);
  for (std::size_t i = 0; i < model.forces.size(); ++i)
    if (model.forces[i].type == ForceType::Limit) stops_.push_back({.force = static_cast<int>(i)});
}

double Recorder::trackStop(StopTrack& track, const State& state) {
  const Force& stop = model_.forces[static_cast<std::size_t>(track.force)];
  const CoordinateState c = jointCoordinateAt(model_, state, stop.joint);
  const StopContact contact = stopContact(stop, c.value, c.rate);
  // The trapezoidal rule: the power has kinks where contact begins and where the stop lets go,
  // which a cubic through four samples turns into wiggles of the order of the power times a step.
  const double before = track.dissipated;
  if (track.sampled) track.dissipated += 0.5 * (state.t - track.t) * (contact.dissipation + track.power);
  if (contact.penetration > 0 && track.impact < 0) {
    // In free flight until the bound: the speed is the last sample's, the time where q crossed.
    Impact impact;
    impact.force = track.force;
    impact.upper = contact.upper;
    const double bound = contact.upper ? stop.upper : stop.lower;
    impact.start = track.sampled ? crossing(track.t, track.q, state.t, c.value, bound) : state.t;
    impact.approachSpeed = std::abs(track.sampled ? track.qdot : c.rate);
    impact.end = impact.reboundSpeed = std::numeric_limits<double>::quiet_NaN();
    track.energyAtStart = before;  // the step into contact is part of it
    track.impact = static_cast<int>(results_.impacts.size());
    results_.impacts.push_back(impact);
  }
  if (track.impact >= 0) {
    Impact& impact = results_.impacts[static_cast<std::size_t>(track.impact)];
    impact.maxPenetration = std::max(impact.maxPenetration, contact.penetration);
    impact.energyLost = track.dissipated - track.energyAtStart;
    if (!(contact.penetration > 0)) {  // free again: this sample's speed is the rebound's
      impact.end = crossing(track.t, track.q, state.t, c.value, impact.upper ? stop.upper : stop.lower);
      impact.reboundSpeed = std::abs(c.rate);
      track.impact = -1;
    }
  }
  track.t = state.t;
  track.q = c.value;
  track.qdot = c.rate;
  track.power = contact.dissipation;
  track.sampled = true;
  return contact.dissipation;
}

bool Recorder::accept(const State& state, Workspace& ws) {
  // The stops' dissipation is integrated apart (trackStop), the rest of the power here.
  double stopPower = 0, dissipated = 0;
  for (StopTrack& track : stops_) {
    stopPower += trackStop(track, state);
    dissipated += track.dissipated;
  }
  work_.add(state.t, nonconservativePower(model_, state, ws) + stopPower);
  lastTime_ = state.t;
  const bool atOutput = !started_ || (next_ < outputs_.size() &&
                                      std::abs(state.t - outputs_[next_]) <= 1e-12 * std::max(1.0, std::abs(state.t)));
  if (started_ && atOutput) ++next_;
  started_ = true;
  if (!atOutput) return true;
  results_.frames.push_back(makeFrame(model_, state, ws, work_.value() - dissipated));
  return !observer_ || observer_(results_.frames.back());
}

double Recorder::nextStop() const { return next_ < outputs_.size() ? outputs_[next_] : lastTime_; }

bool Recorder::finished() const { return next_ >= outputs_.size(); }

RunStats& Recorder::stats() { return results_.stats; }

}  // namespace rlx
