#include "solve/recording/frame.h"

#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"

namespace rlx {

Frame makeFrame(const Model& model, const State& state, Workspace& ws, double workNonconservative) {
  Frame frame;
  frame.state = state;
  frame.vdot = ws.vdot;
  frame.lambda = ws.lambda;
  frame.kinetic = kineticEnergy(model, state);
  frame.potential = potentialEnergy(model, state);
  frame.workNonconservative = workNonconservative;
  const ConstraintErrors errors = constraintErrors(model, state, ws);
  frame.constraintError = errors.position;
  frame.velocityConstraintError = errors.velocity;
  return frame;
}

}  // namespace rlx
