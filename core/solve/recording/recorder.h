#pragma once
// What every time-stepping analysis (kinematics, dynamics, quasi-statics) does with its accepted
// steps: store frames at the output times, integrate the nonconservative work, count, cancel.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"
#include "solve/recording/work_integral.h"

#include <functional>
#include <vector>

namespace rlx {

// Called with each stored frame; return false to cancel.
using FrameObserver = std::function<bool(const Frame&)>;

// Frames at t0 + k * outputStep and at the end time, the nonconservative work from the power at
// the accepted steps (solve/recording/work_integral.h; the end stops' dissipation, whose power
// has kinks, by the trapezoidal rule), the end stops' impacts (results.impacts) and the run's
// statistics.
class Recorder {
 public:
  Recorder(const Model& model, Results& results, const FrameObserver& observer, double t0,
           double endTime, double outputStep);

  // Call at t0 and after every accepted step with ws.vdot and ws.lambda belonging to `state`.
  // Stores a frame when state.t is the next output time. Returns false when the observer cancels.
  bool accept(const State& state, Workspace& ws);

  // The time the integrator must land on next (an output time or the end); never step past it.
  double nextStop() const;
  bool finished() const;  // the end time has been recorded

  RunStats& stats();

 private:
  // An end stop's last accepted sample, the energy it has dissipated and its contact in
  // progress.
  struct StopTrack {
    int force = -1;
    double t = 0, q = 0, qdot = 0, power = 0;
    bool sampled = false;
    double dissipated = 0;      // since t0
    int impact = -1;            // in results.impacts while in contact
    double energyAtStart = 0;
  };
  // Updates the stop's track and impacts with an accepted state; returns its dissipated power.
  double trackStop(StopTrack& track, const State& state);

  const Model& model_;
  Results& results_;
  FrameObserver observer_;
  std::vector<double> outputs_;  // remaining output times, ascending
  std::size_t next_ = 0;
  WorkIntegral work_;
  std::vector<StopTrack> stops_;
  double lastTime_ = 0.0;
  bool started_ = false;
};

}  // namespace rlx
