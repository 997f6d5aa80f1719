#pragma once
// The spatial (dimension 3) side of solve/equations/constraints.h: bodies' poses from the state,
// the expression slots, the joints' and motions' equations, and positions advanced on the rotation
// group. constraints.cpp forwards here for 3-D models.
//
// Body b: q = (r, quaternion w x y z), v = (r_dot, omega) with omega in global axes.
//   integratePositions: r <- r + h r_dot,  quaternion <- exp(h omega / 2) (x) quaternion,
//   normalized.
// Motions: Phi = c(q) - f(t) with c a joint coordinate or a body point's x, y or z; an angle
// coordinate is compared modulo 2 pi (Phi in (-pi, pi]), so a crank may turn on for ever.
// A body point P = r + A s: dP_k = dr_k + dtheta . (p x e_k), quadratic part (w x (w x p))_k.

#include "joints/spatial.h"
#include "model/model.h"
#include "solve/equations/workspace.h"

namespace rlx {

spatial::Body spatialBody(const Model& model, const State& state, int body);

// The rotation matrix of body b at positions q (body -> global).
Eigen::Matrix3d bodyRotation(const Model& model, const Eigen::VectorXd& q, int body);

void evaluateSpatialSlots(const Model& model, const State& state, Workspace& ws);
void evaluateSpatialPhi(const Model& model, const State& state, Workspace& ws);
void evaluateSpatialConstraintDerivatives(const Model& model, const State& state, Workspace& ws);
void integrateSpatialPositions(const Model& model, Eigen::VectorXd& q, const Eigen::VectorXd& v,
                               double h);

// The angular entries of `rate` (a qdot in v layout) mapped by dexp^-1 at the rotation vectors in
// `offset`: omega - 1/2 Theta x omega + 1/12 Theta x (Theta x omega) (exact to O(|Theta|^3)).
void correctRotationRates(const Model& model, const Eigen::VectorXd& offset, Eigen::VectorXd& rate);

// The coordinate a motion prescribes (without the function of time).
spatial::Scalar spatialMotionCoordinate(const Model& model, const Motion& motion,
                                        const State& state);

}  // namespace rlx
