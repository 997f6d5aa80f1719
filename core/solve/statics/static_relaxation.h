#pragma once
// Dynamic relaxation with kinetic damping: where the static analysis's descent on its residual
// finds no equilibrium (solve/statics/statics.h), the model is released from rest and moves under
// its forces (HHT, alpha = -1/3, steps from 1e-2 s doubling after 4 accepted ones up to 0.16 s and
// halved after a Newton failure); each time its kinetic energy passes a peak, where the potential
// energy along its path is lowest, it is stopped there, and that rest is a new start for the
// descent. A conservative model comes to rest ever closer to a stable equilibrium; one with no
// equilibrium (a block on a vertical slide) moves on until the budget of steps is spent.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"
#include "solve/integrators/hht_step.h"

namespace rlx {

class StaticRelaxation {
 public:
  // From `start` (its velocities are ignored); ws.active selects the rows, as in the descent.
  StaticRelaxation(const Model& model, Workspace& ws, const State& start);

  // Releases the model from its last rest and stops it at the next peak of its kinetic energy.
  // False when it cannot move (no acceleration, a step that fails at 1e-6 s) or after 2000 steps
  // in all.
  bool nextRest(RunStats& stats);

  // The last rest: velocities zero, at the time of the start.
  const State& rest() const { return rest_; }

 private:
  const Model& model_;
  Workspace& ws_;
  HHTStep step_;
  State state_, rest_;
  double h_;
  int accepted_ = 0;  // accepted steps since h last changed
  int steps_ = 0;     // steps tried in all
};

}  // namespace rlx
