#include "joints/planar.h"

namespace rlx::planar {

PointPair::PointPair(const Body& b1, const Vec2& s1, const Body& b2, const Vec2& s2) {
  p1 = b1.A * s1;
  p2 = b2.A * s2;
  d = b2.r + p2 - b1.r - p1;
  ddot = b2.rdot + b2.omega * perp(p2) - b1.rdot - b1.omega * perp(p1);
  quadratic = b1.omega * b1.omega * p1 - b2.omega * b2.omega * p2;
  dd1 << -Mat2::Identity(), -perp(p1);
  dd2 << Mat2::Identity(), perp(p2);
}

namespace {

// c_ddot = u_ddot.d + 2 u_dot.d_dot + u.d_ddot with u_ddot = omega1_dot R u - omega1^2 u: the
// velocity-only part.
double gammaOfProjection(double w1, const Vec2& u, const Vec2& Ru, const PointPair& pair) {
  return w1 * w1 * u.dot(pair.d) - 2.0 * w1 * Ru.dot(pair.ddot) - u.dot(pair.quadratic);
}

}  // namespace

void addScaled(Scalar& into, double k, const Scalar& term) {
  into.value += k * term.value;
  into.g1 += k * term.g1;
  into.g2 += k * term.g2;
  into.gamma += k * term.gamma;
}

Scalar projection(const Body& b1, const Vec2& n, const PointPair& pair) {
  // c = u^T d, u = A1 n, u_dot = omega1 R u.
  const Vec2 u = b1.A * n;
  const Vec2 Ru = perp(u);
  Scalar c;
  c.value = u.dot(pair.d);
  c.g1 = u.transpose() * pair.dd1;
  c.g1(2) += Ru.dot(pair.d);
  c.g2 = u.transpose() * pair.dd2;
  c.gamma = gammaOfProjection(b1.omega, u, Ru, pair);
  return c;
}

double projectionGamma(const Body& b1, const Vec2& n, const PointPair& pair) {
  const Vec2 u = b1.A * n;
  return gammaOfProjection(b1.omega, u, perp(u), pair);
}

Scalar relativeAngle(const Body& b1, const Body& b2, double offset) {
  Scalar c;
  c.value = b2.phi - b1.phi - offset;
  c.g1 << 0, 0, -1;
  c.g2 << 0, 0, 1;
  return c;
}

}  // namespace rlx::planar
