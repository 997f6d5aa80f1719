#pragma once
// The multipliers reactions are read from (solve/equations/reactions.h).
//
// Teeth cut at a pressure angle push the wheels apart (a rack and its pinion likewise) with
// |F| tan(alpha) at the pitch point, F the tangential tooth force of the mesh's row
// (joints/family.h, `separation`). The pair of separating forces does no work while the joints hold
// the centre distance, so it leaves the motion as the integrators found it and only loads those
// joints. Their share is the minimum-norm dlambda over the rows of every joint but the meshes, and
// of the user constraints (the motions' efforts stay as they are), with
//   Phi_q^T dlambda = g,
// g the generalized force of the pairs (on body2 at the pitch point, the opposite on body1). Where
// nothing holds the centres apart the meshes report their separating forces and no joint carries
// them (the least-squares dlambda).

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"

namespace rlx {

// Evaluates Phi_q at `state` into ws and sets ws.lambda to `lambda` plus the joints' share of the
// meshes' separating forces.
void loadReactionMultipliers(const Model& model, const State& state, const Eigen::VectorXd& lambda,
                             Workspace& ws);

}  // namespace rlx
