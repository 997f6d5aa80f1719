#pragma once
// Planar kinematics shared by the joint families: a body's pose and velocity, the rotation
// A(phi), and the vector d between a point of body1 and a point of body2 with its derivatives.
//
//   p_i = A_i s_i (point offset from the centre of mass, global axes)
//   d   = r2 + p2 - r1 - p1
//   d_dot = r2_dot + omega2 R p2 - r1_dot - omega1 R p1        (R: rotation by +90 degrees)
//   d_ddot = J vdot + (omega1^2 p1 - omega2^2 p2)              (the second term enters gamma)

#include <Eigen/Dense>

namespace rlx::planar {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

// Rotation by +90 degrees: R (x, y) = (-y, x); B = dA/dphi = R A.
inline Vec2 perp(const Vec2& a) { return {-a.y(), a.x()}; }

inline Mat2 rotation(double phi) {
  const double c = std::cos(phi), s = std::sin(phi);
  Mat2 A;
  A << c, -s, s, c;
  return A;
}

// Position and velocity of one body (ground: all zero).
struct Body {
  Vec2 r = Vec2::Zero();
  double phi = 0.0;
  Vec2 rdot = Vec2::Zero();
  double omega = 0.0;
  Mat2 A = Mat2::Identity();
};

// A 1x3 (or 2x3) block of derivatives with respect to one body's (xdot, ydot, omega).
using Row = Eigen::RowVector3d;
using Block2 = Eigen::Matrix<double, 2, 3>;

// d = r2 + p2 - r1 - p1 between point s1 of body1 and s2 of body2, with its derivatives.
struct PointPair {
  Vec2 p1, p2;      // offsets in global axes
  Vec2 d, ddot;     // vector and its rate
  Vec2 quadratic;   // velocity-only part of d_ddot: omega1^2 p1 - omega2^2 p2
  Block2 dd1, dd2;  // d(d)/d(v1), d(d)/d(v2)

  PointPair(const Body& b1, const Vec2& s1, const Body& b2, const Vec2& s2);
};

// A scalar constraint or coordinate: value, derivative blocks, rate and gamma contribution.
// For c(q, t): c_dot = g1 v1 + g2 v2 + c_t and c_ddot = g1 v1dot + g2 v2dot - gamma.
struct Scalar {
  double value = 0.0;
  Row g1 = Row::Zero(), g2 = Row::Zero();
  double gamma = 0.0;  // -(c_q v)_q v  (no explicit time dependence here)
};

// into += k term: value, derivative blocks and gamma.
void addScaled(Scalar& into, double k, const Scalar& term);

// u^T d with u = A1 n (n a unit direction fixed in body1): the signed distance of body2's
// point from body1's line (n = normal) or the travel along it (n = axis).
Scalar projection(const Body& b1, const Vec2& n, const PointPair& pair);

// Its gamma alone (as projection(...).gamma, without value and derivative blocks).
double projectionGamma(const Body& b1, const Vec2& n, const PointPair& pair);

// phi2 - phi1 - offset.
Scalar relativeAngle(const Body& b1, const Body& b2, double offset);

}  // namespace rlx::planar
