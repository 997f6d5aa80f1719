#pragma once
// Measures (model.h: Measure) as functions of the state, with the derivatives user constraints
// need. Every measure is a position measure m(q) or a velocity measure u(q, v) = G(q) v:
//   position  (B.x B.y B.z B.angle B.Rij J.q):   mdot = g v,        mddot = g vdot + c
//   velocity  (B.vx B.vy B.vz B.omega B.wi J.qd): u = G v,          udot  = G vdot + c
// g (G) is the gradient with respect to v (for a velocity measure: of u with respect to v, the
// gradient of its position counterpart, J.qd = gradient(J.q) v). The convective term
//   c = B(v, v),   B(v, w) = d/de [g(q (+) e w)] v at e = 0,
// is the derivative of the rate along a direction w of the positions. Planar measures have a
// symmetric B (the Hessian of m), obtained by polarization: B(v, w) = (c(v + w) - c(v - w)) / 4.
// Spatial B.Rij (rotation matrix entries; R' = [w]x R): g v = (omega x R e_j)_i and
// B(v, w) = (omega x (w_rot x R e_j))_i, not symmetric. Spatial J.q and J.qd take g and c from the
// joints' coordinates; their B(v, w) is not supplied (measureCurvature returns 0 for them), so
// compile() keeps J.qd out of 3-D nonholonomic rows, the only rows that need it.

#include "model/model.h"

#include <Eigen/Dense>

namespace rlx {

// A measure at a state. The gradient touches at most two bodies (a joint's).
struct MeasureJet {
  double value = 0.0;
  bool velocity = false;             // a velocity measure u = G v
  int body[2] = {kGround, kGround};  // the bodies the gradient touches (kGround: none)
  Eigen::Matrix<double, 6, 1> gradient[2] = {Eigen::Matrix<double, 6, 1>::Zero(),
                                             Eigen::Matrix<double, 6, 1>::Zero()};
  double rate = 0.0;        // g v (a velocity measure: its value)
  double convective = 0.0;  // c = B(v, v)
};

// Value, gradient, rate and convective term of model.measures[k] at the state.
MeasureJet evaluateMeasure(const Model& model, const State& state, int k);

// g w: the rate of the measure's position along a direction w of v (w sized nv).
double measureRateAlong(const Model& model, const MeasureJet& jet, const Eigen::VectorXd& w);

// B(v, w) of model.measures[k] at the state (v = state.v).
double measureCurvature(const Model& model, const State& state, int k, const Eigen::VectorXd& w);

}  // namespace rlx
