#pragma once
// An end stop (`limit` force) on a joint coordinate q: the Adams IMPACT law at each bound.
//
// Past a bound by the penetration delta > 0 (lower: delta = lower - q, upper: delta = q - upper),
// at the penetration rate deltadot, the stop pushes back with
//
//   F = max(0, k delta^e + c(delta) deltadot),   c(delta) = cmax * step(delta / d),
//
// step(x) = x^2 (3 - 2x) on [0, 1] and 1 beyond: the damping rises smoothly from nothing at first
// contact to cmax at the penetration d, so that the force has no jump when contact begins. F never
// pulls (the max): a body leaving the stop fast is not held back. The effort along q is +F at the
// lower bound and -F at the upper. k delta^e is conservative (its potential k delta^(e+1)/(e+1));
// the rest, F - k delta^e, dissipates the power (F - k delta^e) deltadot >= 0.

#include "model/model.h"

namespace rlx {

struct StopContact {
  double effort = 0;        // along q: the stop's total generalized force
  double elastic = 0;       // its conservative part, +-k delta^e
  double effort_q = 0;      // d effort / dq
  double effort_qdot = 0;   // d effort / dqdot
  double penetration = 0;   // delta, 0 when free
  double rate = 0;          // deltadot (positive while entering)
  double dissipation = 0;   // power dissipated, >= 0
  bool upper = false;       // which bound is touched
};

// The stop's contact at the coordinate q and its rate qdot (a `limit` force).
StopContact stopContact(const Force& stop, double q, double qdot);

// A joint's coordinate and its rate at a state of the model (hasCoordinate(joint.type)).
struct CoordinateState {
  double value = 0, rate = 0;
};
CoordinateState jointCoordinateAt(const Model& model, const State& state, int joint);

// The potential of the stop's elastic part at q.
double stopPotential(const Force& stop, double q);

}  // namespace rlx
