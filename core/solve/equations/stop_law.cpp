#include "solve/equations/stop_law.h"

#include "joints/joints.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"

#include <algorithm>
#include <cmath>

namespace rlx {

StopContact stopContact(const Force& stop, double q, double qdot) {
  StopContact contact;
  contact.upper = q > stop.upper;
  if (!contact.upper && !(q < stop.lower)) return contact;
  // sign: the effort's direction along q; delta and deltadot as seen from the bound
  const double sign = contact.upper ? -1.0 : 1.0;
  const double delta = contact.upper ? q - stop.upper : stop.lower - q;
  const double deltadot = -sign * qdot;
  const double x = std::min(delta / stop.penetration, 1.0);
  const double step = x * x * (3 - 2 * x);
  const double step_delta = x < 1 ? 6 * x * (1 - x) / stop.penetration : 0.0;
  const double spring = stop.stiffness * std::pow(delta, stop.exponent);
  const double F = spring + stop.damping * step * deltadot;
  contact.penetration = delta;
  contact.rate = deltadot;
  contact.elastic = sign * spring;
  if (F <= 0) {  // leaving faster than the spring pushes: no force, the spring's energy is lost
    contact.dissipation = -spring * deltadot;
    return contact;
  }
  const double F_delta = stop.stiffness * stop.exponent * std::pow(delta, stop.exponent - 1) +
                         stop.damping * step_delta * deltadot;
  contact.effort = sign * F;
  contact.effort_q = -F_delta;  // d/dq = -sign d/ddelta, times sign
  contact.effort_qdot = -stop.damping * step;
  contact.dissipation = (F - spring) * deltadot;
  return contact;
}

CoordinateState jointCoordinateAt(const Model& model, const State& state, int joint) {
  const Joint& j = model.joints[static_cast<std::size_t>(joint)];
  if (model.dimension == 3) {
    const spatial::Scalar c = spatialJointCoordinate(j, spatialBody(model, state, j.body1),
                                                     spatialBody(model, state, j.body2));
    return {c.value, c.rate};
  }
  const planar::Body b1 = planarBody(model, state, j.body1), b2 = planarBody(model, state, j.body2);
  const planar::Scalar c = planarJointCoordinate(j, b1, b2);
  return {c.value, c.g1.dot(Eigen::Vector3d(b1.rdot.x(), b1.rdot.y(), b1.omega)) +
                       c.g2.dot(Eigen::Vector3d(b2.rdot.x(), b2.rdot.y(), b2.omega))};
}

double stopPotential(const Force& stop, double q) {
  const double delta = q > stop.upper ? q - stop.upper : q < stop.lower ? stop.lower - q : 0.0;
  return delta > 0 ? stop.stiffness * std::pow(delta, stop.exponent + 1) / (stop.exponent + 1) : 0.0;
}

}  // namespace rlx
