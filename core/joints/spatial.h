#pragma once
// Spatial kinematics shared by the joint families, forces and measures. Velocities are
// v_i = (r_i dot, omega_i) with omega in global axes; every derivative "with respect to v" is
// with respect to the virtual displacement (dr, dtheta), dtheta a small global rotation, so that
// a unit vector u = A a fixed in a body varies as du = dtheta x u.
//
//   p_i = A_i s_i,  d = r2 + p2 - r1 - p1
//   d_dot  = r2_dot + omega2 x p2 - r1_dot - omega1 x p1
//   d_ddot = J vdot + omega2 x (omega2 x p2) - omega1 x (omega1 x p1)   (the last terms: quadratic)
//   d(d)/d(v1) = [-I, [p1]x],  d(d)/d(v2) = [I, -[p2]x]
//
// Basic scalar constraints (Haug's dot-1 and dot-2), with u_i = A_i a_i:
//   dot1 = u1 . u2:  g1 = [0, (u1 x u2)^T],  g2 = [0, (u2 x u1)^T]
//                    quadratic = (w1 x (w1 x u1)) . u2 + 2 (w1 x u1) . (w2 x u2) + u1 . (w2 x (w2 x
//                    u2))
//   dot2 = u1 . d:   g1 = u1^T d(d)/d(v1) + [0, (u1 x d)^T],  g2 = u1^T d(d)/d(v2)
//                    quadratic = (w1 x (w1 x u1)) . d + 2 (w1 x u1) . d_dot + u1 . d_quadratic
// and gamma = -quadratic (scleronomic). The angle between two body-fixed vectors about an axis,
// theta = atan2(s, c) with s = y1 . x2, c = x1 . x2, has
//   g = (c g_s - s g_c) / rho,  gamma = (c gamma_s - s gamma_c) / rho + theta_dot rho_dot / rho,
//   rho = c^2 + s^2,  rho_dot = 2 (c c_dot + s s_dot).

#include <Eigen/Dense>

namespace rlx::spatial {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Row = Eigen::Matrix<double, 1, 6>;
using Block3 = Eigen::Matrix<double, 3, 6>;

// Pose and velocity of one body (ground: at rest at the origin).
struct Body {
  Vec3 r = Vec3::Zero();
  Mat3 A = Mat3::Identity();  // body -> global
  Vec3 rdot = Vec3::Zero();
  Vec3 omega = Vec3::Zero();  // global axes

  Eigen::Matrix<double, 6, 1> velocity() const {
    Eigen::Matrix<double, 6, 1> v;
    v << rdot, omega;
    return v;
  }
};

// A vector fixed in a body: u = A a, its rate and the velocity-only part of its acceleration.
struct Direction {
  Vec3 u, rate, quadratic;
  Direction(const Body& b, const Vec3& a);
};

// d between point s1 of body1 and s2 of body2, with its derivatives.
struct PointPair {
  Vec3 p1, p2, d, ddot, quadratic;
  Block3 dd1, dd2;
  PointPair(const Body& b1, const Vec3& s1, const Body& b2, const Vec3& s2);
};

// A scalar function of two bodies' poses: value, derivative blocks, rate and gamma.
struct Scalar {
  double value = 0.0;
  Row g1 = Row::Zero(), g2 = Row::Zero();
  double rate = 0.0;   // g1 v1 + g2 v2
  double gamma = 0.0;  // -(velocity-only part of the second derivative)
};

// into += k term: value, derivative blocks, rate and gamma.
void addScaled(Scalar& into, double k, const Scalar& term);

Scalar dot1(const Body& b1, const Vec3& a1, const Body& b2, const Vec3& a2);
Scalar dot2(const Body& b1, const Vec3& a1, const PointPair& pair);

// atan2(s, c) of two scalars, with its derivatives (the formulas above).
Scalar angleOf(const Scalar& s, const Scalar& c);

// Rotation of body2's x2 about body1's z1, measured from x1 towards y1 (columns of the frames,
// body coordinates), in (-pi, pi].
Scalar angleAbout(const Body& b1, const Mat3& frame1, const Body& b2, const Mat3& frame2);

// An orthonormal frame (columns x, y, z) whose z is the unit vector `axis`.
Mat3 frameAround(const Vec3& axis);

}  // namespace rlx::spatial
