#include "solve/integrators/position_chart.h"

#include "joints/rotation.h"

#include <cmath>

namespace rlx {

void toChart(const Model& model, const Eigen::VectorXd& base, const Eigen::VectorXd& q,
             Eigen::VectorXd& xi) {
  if (model.dimension != 3) {
    xi = q;
    return;
  }
  for (const Body& b : model.bodies) {
    xi.segment<3>(b.v) = q.segment<3>(b.q) - base.segment<3>(b.q);
    const Eigen::Quaterniond turn = rotation::fromCoordinates(q.segment<4>(b.q + 3)) *
                                    rotation::fromCoordinates(base.segment<4>(b.q + 3)).conjugate();
    xi.segment<3>(b.v + 3) = rotation::logarithm(turn);
  }
}

void fromChart(const Model& model, const Eigen::VectorXd& base, const Eigen::VectorXd& xi,
               Eigen::VectorXd& q) {
  if (model.dimension != 3) {
    q = xi;
    return;
  }
  for (const Body& b : model.bodies) {
    q.segment<3>(b.q) = base.segment<3>(b.q) + xi.segment<3>(b.v);
    const Eigen::Quaterniond turned = rotation::exponential(xi.segment<3>(b.v + 3)) *
                                      rotation::fromCoordinates(base.segment<4>(b.q + 3));
    rotation::toCoordinates(turned.normalized(), q.segment<4>(b.q + 3));
  }
}

void chartToVelocity(const Model& model, const Eigen::VectorXd& xi, Eigen::VectorXd& rates) {
  if (model.dimension != 3) return;
  for (const Body& b : model.bodies) {
    const Eigen::Vector3d theta = xi.segment<3>(b.v + 3);
    const double a2 = theta.squaredNorm(), a = std::sqrt(a2);
    // (1 - cos a) / a^2 and (a - sin a) / a^3, with their series for small angles.
    const double c1 = a < 1e-4 ? 0.5 - a2 / 24.0 : (1.0 - std::cos(a)) / a2;
    const double c2 = a < 1e-4 ? 1.0 / 6.0 - a2 / 120.0 : (a - std::sin(a)) / (a2 * a);
    const Eigen::Vector3d w = rates.segment<3>(b.v + 3);
    const Eigen::Vector3d tw = theta.cross(w);
    rates.segment<3>(b.v + 3) = w + c1 * tw + c2 * theta.cross(tw);
  }
}

void velocityToChart(const Model& model, const Eigen::VectorXd& xi, Eigen::VectorXd& v) {
  if (model.dimension != 3) return;
  for (const Body& b : model.bodies) {
    const Eigen::Vector3d theta = xi.segment<3>(b.v + 3);
    const double a2 = theta.squaredNorm(), a = std::sqrt(a2);
    // 1 / a^2 - (1 + cos a) / (2 a sin a), with its series for small angles.
    const double c2 = a < 1e-3 ? 1.0 / 12.0 + a2 / 720.0
                               : 1.0 / a2 - (1.0 + std::cos(a)) / (2.0 * a * std::sin(a));
    const Eigen::Vector3d w = v.segment<3>(b.v + 3);
    const Eigen::Vector3d tw = theta.cross(w);
    v.segment<3>(b.v + 3) = w - 0.5 * tw + c2 * theta.cross(tw);
  }
}

}  // namespace rlx
