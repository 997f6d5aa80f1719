#pragma once
// Local coordinates of the positions around a base configuration: the chart in which BDF
// differences and extrapolates positions (solve/integrators/bdf_step.h).
//
//   planar body:   xi = q (the identity; q and v share a layout).
//   spatial body:  xi = (r - r_base, theta), r the centre of mass, theta = log(A A_base^T) the
//                  global rotation vector from the base orientation: A = exp([theta]x) A_base.
//                  Both parts are increments, so that both resolve changes far below the
//                  rounding of r (a BDF velocity is a difference of positions over a step).
// xi has the layout of v. Velocities follow from the chart rates through the tangent map
//   v = T(xi) xidot,   T = I for translations and planar bodies, and for a rotation
//   T(theta) = I + (1 - cos a) / a^2 [theta]x + (a - sin a) / a^3 [theta]x^2,  a = |theta|
// (the differential of the exponential: d/dt exp([theta]x) exp(-[theta]x) = [T(theta) thetadot]x).

#include "model/model.h"

#include <Eigen/Dense>

namespace rlx {

// xi of the positions q around base (both of size nq; xi of size nv).
void toChart(const Model& model, const Eigen::VectorXd& base, const Eigen::VectorXd& q,
             Eigen::VectorXd& xi);

// The positions q of xi around base.
void fromChart(const Model& model, const Eigen::VectorXd& base, const Eigen::VectorXd& xi,
               Eigen::VectorXd& q);

// rates <- T(xi) rates: chart rates to velocities, in place (planar: unchanged).
void chartToVelocity(const Model& model, const Eigen::VectorXd& xi, Eigen::VectorXd& rates);

// v <- T(xi)^-1 v: velocities (or tangent increments) to chart rates, in place, with
//   T(theta)^-1 = I - 1/2 [theta]x + (1 / a^2 - (1 + cos a) / (2 a sin a)) [theta]x^2.
void velocityToChart(const Model& model, const Eigen::VectorXd& xi, Eigen::VectorXd& v);

}  // namespace rlx
