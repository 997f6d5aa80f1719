#include "joints/spatial.h"

#include "joints/rotation.h"

#include <cmath>

namespace rlx::spatial {

Direction::Direction(const Body& b, const Vec3& a)
    : u(b.A * a), rate(b.omega.cross(u)), quadratic(b.omega.cross(rate)) {}

PointPair::PointPair(const Body& b1, const Vec3& s1, const Body& b2, const Vec3& s2) {
  p1 = b1.A * s1;
  p2 = b2.A * s2;
  d = b2.r + p2 - b1.r - p1;
  ddot = b2.rdot + b2.omega.cross(p2) - b1.rdot - b1.omega.cross(p1);
  quadratic = b2.omega.cross(b2.omega.cross(p2)) - b1.omega.cross(b1.omega.cross(p1));
  dd1 << -Mat3::Identity(), rotation::skew(p1);
  dd2 << Mat3::Identity(), -rotation::skew(p2);
}

Scalar dot1(const Body& b1, const Vec3& a1, const Body& b2, const Vec3& a2) {
  const Direction u1(b1, a1), u2(b2, a2);
  Scalar c;
  c.value = u1.u.dot(u2.u);
  c.g1.tail<3>() = u1.u.cross(u2.u).transpose();
  c.g2.tail<3>() = -c.g1.tail<3>();
  c.rate = u1.rate.dot(u2.u) + u1.u.dot(u2.rate);
  c.gamma = -(u1.quadratic.dot(u2.u) + 2.0 * u1.rate.dot(u2.rate) + u1.u.dot(u2.quadratic));
  return c;
}

void addScaled(Scalar& into, double k, const Scalar& term) {
  into.value += k * term.value;
  into.g1 += k * term.g1;
  into.g2 += k * term.g2;
  into.rate += k * term.rate;
  into.gamma += k * term.gamma;
}

Scalar dot2(const Body& b1, const Vec3& a1, const PointPair& pair) {
  const Direction u1(b1, a1);
  Scalar c;
  c.value = u1.u.dot(pair.d);
  c.g1 = u1.u.transpose() * pair.dd1;
  c.g1.tail<3>() += u1.u.cross(pair.d).transpose();
  c.g2 = u1.u.transpose() * pair.dd2;
  c.rate = u1.rate.dot(pair.d) + u1.u.dot(pair.ddot);
  c.gamma = -(u1.quadratic.dot(pair.d) + 2.0 * u1.rate.dot(pair.ddot) + u1.u.dot(pair.quadratic));
  return c;
}

Scalar angleAbout(const Body& b1, const Mat3& frame1, const Body& b2, const Mat3& frame2) {
  return angleOf(dot1(b1, frame1.col(1), b2, frame2.col(0)),
                 dot1(b1, frame1.col(0), b2, frame2.col(0)));
}

Scalar angleOf(const Scalar& s, const Scalar& c) {
  const double rho = c.value * c.value + s.value * s.value;
  Scalar out;
  out.value = std::atan2(s.value, c.value);
  out.g1 = (c.value * s.g1 - s.value * c.g1) / rho;
  out.g2 = (c.value * s.g2 - s.value * c.g2) / rho;
  out.rate = (c.value * s.rate - s.value * c.rate) / rho;
  const double rhoRate = 2.0 * (c.value * c.rate + s.value * s.rate);
  out.gamma = (c.value * s.gamma - s.value * c.gamma) / rho + out.rate * rhoRate / rho;
  return out;
}

Mat3 frameAround(const Vec3& axis) {
  const Vec3 z = axis.normalized();
  // x: the global x (or y, when z is close to x) made perpendicular to z.
  const Vec3 seed = std::abs(z.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 x = (seed - seed.dot(z) * z).normalized();
  Mat3 frame;
  frame << x, z.cross(x), z;
  return frame;
}

}  // namespace rlx::spatial
