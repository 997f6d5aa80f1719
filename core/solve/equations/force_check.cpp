#include "solve/equations/force_check.h"

#include "model/function.h"
#include "results/report.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"

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

// "a NaN" or "an infinite": what a non-finite number is.
const char* nonFiniteKind(double x) { return std::isnan(x) ? "a NaN" : "an infinite"; }

// The quantities of a constraint row, in the order they are computed from each other: the
// velocities come from nu, gamma from the velocities, so the first non-finite one is the cause.
enum class RowPart { Value, Jacobian, VelocityTerm, AccelerationTerm };

// What is not finite in `part` of row `row` of the evaluated constraints ("is NaN", "has an
// infinite Jacobian", ...); empty when it is finite.
std::string nonFinitePart(const Model& model, const Workspace& ws, Eigen::Index row, RowPart part) {
  switch (part) {
    case RowPart::Value:
      if (row < model.nh && !std::isfinite(ws.Phi(row)))
        return std::isnan(ws.Phi(row)) ? "is NaN" : "is infinite";
      return {};
    case RowPart::Jacobian:
      for (SparseMatrix::InnerIterator it(ws.Phi_q, row); it; ++it)
        if (!std::isfinite(it.value())) return std::string("has ") + nonFiniteKind(it.value()) + " Jacobian";
      return {};
    case RowPart::VelocityTerm:
      if (!std::isfinite(ws.nu(row))) return std::string("has ") + nonFiniteKind(ws.nu(row)) + " velocity term";
      return {};
    case RowPart::AccelerationTerm:
      if (!std::isfinite(ws.gamma(row)))
        return std::string("has ") + nonFiniteKind(ws.gamma(row)) + " acceleration term";
      return {};
  }
  return {};
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

NonFiniteForce findNonFiniteConstraint(const Model& model, const State& state, Workspace& ws) {
  // At a state that is not finite every equation is: none is to blame.
  if (!state.q.allFinite() || !state.v.allFinite()) return {};
  evaluateConstraints(model, state, ws);
  for (const RowPart part : {RowPart::Value, RowPart::Jacobian, RowPart::VelocityTerm,
                             RowPart::AccelerationTerm})
    for (Eigen::Index row = 0; row < ws.Phi_q.rows(); ++row) {
      const std::string what = nonFinitePart(model, ws, row, part);
      if (what.empty()) continue;
      // A one-row element (a motion) has its own name as row name.
      const std::string& owner = model.rowOwners[static_cast<std::size_t>(row)];
      const std::string& equation = model.rowNames[static_cast<std::size_t>(row)];
      return {owner, "the constraint " + quoted(owner) + " is not finite: " +
                         (equation == owner ? std::string("it") : "equation " + equation) + " " + what};
    }
  return {};
}

NonFiniteForce findNonFiniteElement(const Model& model, const State& state, Workspace& ws) {
  const NonFiniteForce force = findNonFiniteForce(model, state, ws);
  if (!force.element.empty()) return force;
  return findNonFiniteConstraint(model, state, ws);
}

}  // namespace rlx
