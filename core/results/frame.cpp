#include "results/results.h"

#include "solve/constraints.h"
#include "solve/forces.h"

namespace rlx {

Frame makeFrame(const Model& model, const State& state, Workspace& ws, double workNonconservative) {
  Frame frame;
  frame.state = state;
  frame.vdot = ws.vdot;
  frame.lambda = ws.lambda;
  frame.kinetic = kineticEnergy(model, state);
  frame.potential = potentialEnergy(model, state);
  frame.workNonconservative = workNonconservative;
  frame.constraintError = positionError(model, state, ws);
  frame.velocityConstraintError = velocityError(model, state, ws);
  return frame;
}

}  // namespace rlx
