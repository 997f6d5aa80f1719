#pragma once
// The spatial (dimension 3) side of solve/equations/forces.h; forces.cpp forwards here for 3-D
// models.
//
//   M = blockdiag(m I, J_W) per body, J_W = A J A^T (J: inertia about the centre of mass, body
//   axes) Q: gravity m g; a force f (global) at offset p from the centre of mass adds (f, p x f);
//      a torque n adds (0, n); the gyroscopic term -omega x (J_W omega) (it does no work:
//      Euler's equation J_W omega_dot + omega x (J_W omega) = n in global axes).
//   T = 1/2 m |r_dot|^2 + 1/2 omega^T J_W omega,   V = -m g . r + springs (as in 2-D).

#include "model/model.h"
#include "solve/equations/workspace.h"

namespace rlx {

void evaluateSpatialMassMatrix(const Model& model, const State& state, Workspace& ws);
void evaluateSpatialAppliedForces(const Model& model, const State& state, Workspace& ws);
double spatialKineticEnergy(const Model& model, const State& state);
double spatialPotentialEnergy(const Model& model, const State& state);

// The gyroscopic part of Q (the rotation entries -omega x (J_W omega)) added to `Q`.
void addGyroscopicForces(const Model& model, const State& state, Eigen::VectorXd& Q);

}  // namespace rlx
