#include "joints/rotation.h"

#include <cmath>
#include <numbers>

namespace rlx::rotation {

Eigen::Matrix3d fromEuler313(const Eigen::Vector3d& angles) {
  const Eigen::Vector3d z = Eigen::Vector3d::UnitZ(), x = Eigen::Vector3d::UnitX();
  return (Eigen::AngleAxisd(angles(0), z) * Eigen::AngleAxisd(angles(1), x) *
          Eigen::AngleAxisd(angles(2), z))
      .toRotationMatrix();
}

Eigen::Vector3d toEuler313(const Eigen::Matrix3d& R) {
  // R = [.. .. s(psi)s(th); .. .. -c(psi)s(th); s(th)s(phi) s(th)c(phi) c(th)].
  const double sinTheta = std::hypot(R(0, 2), R(1, 2));
  const double theta = std::atan2(sinTheta, R(2, 2));
  // psi + phi from (1 + cos theta) (sin, cos)(psi + phi); psi - phi from (1 - cos theta).
  const double sum = std::atan2(R(1, 0) - R(0, 1), R(0, 0) + R(1, 1));
  const double difference = std::atan2(R(1, 0) + R(0, 1), R(0, 0) - R(1, 1));
  if (sinTheta == 0.0)
    return R(2, 2) > 0 ? Eigen::Vector3d(sum, 0.0, 0.0)
                       : Eigen::Vector3d(difference, std::numbers::pi, 0.0);
  const double psi = std::atan2(R(0, 2), -R(1, 2));
  // phi from the better-conditioned of the two combinations.
  const double phi = R(2, 2) > 0 ? std::remainder(sum - psi, 2 * std::numbers::pi)
                                 : std::remainder(psi - difference, 2 * std::numbers::pi);
  return {psi, theta, phi};
}

Eigen::Quaterniond fromMatrix(const Eigen::Matrix3d& R) {
  Eigen::Quaterniond q(R);
  q.normalize();
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  return q;
}

Eigen::Quaterniond fromCoordinates(const Eigen::Ref<const Eigen::VectorXd>& wxyz) {
  return {wxyz(0), wxyz(1), wxyz(2), wxyz(3)};
}

void toCoordinates(const Eigen::Quaterniond& q, Eigen::Ref<Eigen::VectorXd> wxyz) {
  wxyz << q.w(), q.x(), q.y(), q.z();
}

Eigen::Quaterniond exponential(const Eigen::Vector3d& theta) {
  const double angle = theta.norm();
  const double half = 0.5 * angle;
  // sin(half) / angle, with its series for small angles.
  const double s = angle < 1e-4 ? 0.5 - angle * angle / 48.0 : std::sin(half) / angle;
  return {std::cos(half), s * theta.x(), s * theta.y(), s * theta.z()};
}

Eigen::Vector3d logarithm(const Eigen::Quaterniond& q) {
  const Eigen::Quaterniond p = q.w() < 0 ? Eigen::Quaterniond(-q.coeffs()) : q;
  const double s = p.vec().norm();
  if (s == 0.0) return Eigen::Vector3d::Zero();
  return (2.0 * std::atan2(s, p.w()) / s) * p.vec();
}

Eigen::Matrix3d skew(const Eigen::Vector3d& a) {
  Eigen::Matrix3d m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

}  // namespace rlx::rotation
