#pragma once
// Evaluation of all constraint equations of a model at a state.
//
//   holonomic     Phi(q, t) = 0         velocity  Phi_q v = nu     acceleration  Phi_q vdot = gamma
//   nonholonomic  A(q, t) v = b(q, t)                              acceleration  A vdot = gamma
//
// Phi_q is the derivative with respect to the velocity variables v (for a planar body the same as
// d/dq; for a spatial body it maps angular velocity, not quaternion rates).
// gamma = -(Phi_q v)_q v - 2 Phi_qt v - Phi_tt.

#include "joints/planar.h"
#include "model/model.h"
#include "solve/equations/workspace.h"

namespace rlx {

// Values of the expression slots: ws.slotValues = [t, measures of the model at the state].
void evaluateSlots(const Model& model, const State& state, Workspace& ws);

// Pose and velocity of a planar body (kGround: at rest at the origin).
planar::Body planarBody(const Model& model, const State& state, int body);

// Phi only (cheap; for Newton residuals).
void evaluatePhi(const Model& model, const State& state, Workspace& ws);

// Phi_q, nu and gamma (gamma uses state.v).
void evaluateConstraintDerivatives(const Model& model, const State& state, Workspace& ws);

// Phi, Phi_q, nu and gamma together: planar poses and joints are evaluated once for all of them.
void evaluateConstraints(const Model& model, const State& state, Workspace& ws);

// Planar models without user constraints: Phi, nu and gamma as evaluateConstraints, and Phi_q
// written dense and transposed, each velocity's row scaled: PhiqT(v, i) = Phi_q(i, v) scale(v)
// (ws.Phi_q untouched; entries outside Phi_q's pattern are never written: zero them once).
void evaluatePlanarConstraintsTransposed(const Model& model, const State& state,
                                         const Eigen::VectorXd& scale, Workspace& ws,
                                         Eigen::MatrixXd& PhiqT);

// Phi and the generalized constraint force Phi_q^T lambda (lambda: one multiplier per row). Planar
// models without user constraints: in one pass over the joints, without forming Phi_q (ws.Phi_q,
// nu and gamma untouched); otherwise by evaluateConstraints and a product.
void evaluatePhiAndConstraintForce(const Model& model, const State& state,
                                   const Eigen::VectorXd& lambda, Workspace& ws,
                                   Eigen::VectorXd& force);

// Planar models: gamma alone on the joint and motion rows, at state.v, the poses evaluated once
// (cheaper than evaluateConstraintDerivatives). Other rows untouched.
void evaluatePlanarGamma(const Model& model, const State& state, Eigen::VectorXd& gamma);

// Adds h * v to the positions: q <- q (+) h v. Planar: plain addition. Spatial: the orientation
// is advanced on the rotation group (never q += h v for quaternions).
void integratePositions(const Model& model, Eigen::VectorXd& q, const Eigen::VectorXd& v, double h);

// The model's size at q: the largest distance of a body centre from the origin or of a joint
// point from its body's centre (1 when all are zero). Scales lengths in tolerances and bounds.
double modelSize(const Model& model, const Eigen::VectorXd& q);

// max |Phi| and max |Phi_q v - nu| over all rows (redundant ones included), from one
// evaluateConstraints.
struct ConstraintErrors {
  double position = 0.0, velocity = 0.0;
};
ConstraintErrors constraintErrors(const Model& model, const State& state, Workspace& ws);

}  // namespace rlx
