#pragma once
// Which element makes the applied forces Q, or the constraint equations, non-finite: for the
// failure reports of the analyses.

#include "model/model.h"
#include "solve/equations/workspace.h"

#include <string>

namespace rlx {

struct NonFiniteForce {
  std::string element;  // the body or force element; empty: none found
  std::string cause;    // "the weight of body \"b\" (mass 1e+308 kg) is not finite", ...
};

// The first element whose share of Q is not finite at `state`: a body's weight (mass times
// gravity), a spatial body's inertia forces (omega x J omega), or a force element (its expressions
// or the force they give, such as a stiffness times a stretch). Leaves ws.Q evaluated at `state`.
NonFiniteForce findNonFiniteForce(const Model& model, const State& state, Workspace& ws);

// The first element (joint, motion or user constraint) with an equation whose value, Jacobian
// row, velocity term nu or acceleration term gamma is not finite at `state`: "the constraint
// \"pin\" is not finite: equation pin.1 is NaN". Leaves Phi, Phi_q, nu and gamma evaluated.
NonFiniteForce findNonFiniteConstraint(const Model& model, const State& state, Workspace& ws);

// findNonFiniteForce, then findNonFiniteConstraint: the element a non-finite residual comes from.
NonFiniteForce findNonFiniteElement(const Model& model, const State& state, Workspace& ws);

}  // namespace rlx
