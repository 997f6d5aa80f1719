#include "solve/force_check.h"

#include "model/function.h"
#include "solve/forces.h"
#include "solve/report.h"

#include <cmath>

namespace rlx {
namespace {

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

bool expressionsFinite(const Force& force, const Workspace& ws) {
  const std::span<const double> slots(ws.slotValues.data(),
                                      static_cast<std::size_t>(ws.slotValues.size()));
  for (const Function& f : force.functions)
    if (!std::isfinite(evaluate(f, slots))) return false;
  return true;
}

}  // namespace

NonFiniteForce findNonFiniteForce(const Model& model, const State& state, Workspace& ws) {
  NonFiniteForce found;
  for (const Body& b : model.bodies)
    if (!(b.mass * model.gravity).allFinite()) {
      found = {b.name, "the weight of body " + quoted(b.name) + " (mass " + numberText(b.mass) +
                           " kg) is not finite"};
      break;
    }
  // Each element's share alone: the model without gravity and with one force element at most.
  Model alone = model;
  alone.gravity.setZero();
  alone.forces.clear();
  if (found.element.empty()) {
    evaluateAppliedForces(alone, state, ws);
    const int size = model.dimension == 3 ? 6 : 3;
    for (const Body& b : model.bodies)
      if (!ws.Q.segment(b.v, size).allFinite()) {
        found = {b.name, "the inertia forces of body " + quoted(b.name) +
                             " (its angular velocity times its inertia) are not finite"};
        break;
      }
  }
  for (std::size_t i = 0; i < model.forces.size() && found.element.empty(); ++i) {
    const Force& force = model.forces[i];
    alone.forces = {force};
    evaluateAppliedForces(alone, state, ws);
    if (!expressionsFinite(force, ws) || !ws.Q.allFinite())
      found = {force.name, "the force " + quoted(force.name) + " is not finite"};
  }
  evaluateAppliedForces(model, state, ws);
  return found;
}

}  // namespace rlx
