#pragma once
// Reaction forces from the Lagrange multipliers (ME451, "Reaction forces").
//
// With M vdot + Phi_q^T lambda = Q, the generalized constraint force of the rows of an element
// on a body i is Q^C_i = -Phi_{q_i}^T lambda: its first entries are the force F (global axes) and
// the last the moment about the body's centre of mass. Reported on body2 of the element, from
// body1, at the element's point on body2 (P2 = r2 + A2 s2):
//   F = -Phi_{r2}^T lambda,   T_P = -Phi_{phi2}^T lambda - (A2 s2) x F.
// Spatial: F = -Phi_{r2}^T lambda, T_P = -Phi_{theta2}^T lambda - (A2 s2) x F, both in global axes
// (theta2: the small global rotation of body2 that v's angular velocity entries measure).
// If body2 is ground, the same follows from body1's share by action and reaction.
// A motion's effort is -lambda of its row: the force or torque it applies along its coordinate.
// Teeth cut at a pressure angle (gear, internal_gear, rack_pinion: joints/family.h, `separation`)
// add to their rows' tangential force the separating force |F| tan(alpha) at the pitch point;
// the other joints carry it when ws.lambda comes from loadReactionMultipliers
// (solve/recording/reaction_multipliers.h).

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"

namespace rlx {

// Uses ws.Phi_q and ws.lambda, which must have been evaluated at `state`.
Reaction jointReaction(const Model& model, const State& state, const Workspace& ws, int joint);

// Whether the joint's family separates (above), and its separating force on body2 at `point`
// (global; zero at a pressure angle of 0).
bool separates(const Model& model, int joint);
struct Separation {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
};
Separation separatingForce(const Model& model, const State& state, const Workspace& ws, int joint);

double motionEffort(const Model& model, const Workspace& ws, int motion);

}  // namespace rlx
