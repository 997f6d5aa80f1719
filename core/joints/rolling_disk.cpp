// Rolling disk: body2 is a disk of radius rho with axis a2 (body2 coordinates) rolling without
// slip on body1's plane through s1 with normal z1 (body1 must be ground for now). With n = A2 a2,
// c = z1 . n, s = sqrt(1 - c^2) and e = (z1 - c n) / s (the unit vector in the disk's plane
// towards the plane's normal), the contact point is P = r2 - rho e and
//   row 0 (holonomic, contact height)  Phi = z1 . (r2 - P1) - rho s
//       d/dr = z1,  d/dtheta = rho (c / s) (n x z1),
//       gamma = rho [-(c_dot^2 + c c_q) / s - c^2 c_dot^2 / s^3],
//       c_dot = (n x z1) . omega,  c_q = z1 . (omega x (omega x n));
//   rows 1, 2 (nonholonomic, no slip along x1 and y1 of the plane)
//       A_i v = t_i . (r2_dot + omega x (P - r2)) = t_i . r2_dot - rho (e x t_i) . omega = 0,
//       gamma_i = rho (e_dot x t_i) . omega,
//       e_dot = -(c_dot n + c (omega x n)) / s - e s_dot / s,  s_dot = -c c_dot / s.
// Rows 1 and 2 live at velocity level: their Phi entries are zero. The reaction of all three rows
// is a pure force at the contact point (its moment about P vanishes).
#include "joints/joints.h"

#include <cmath>

namespace rlx {

void spatialRollingDisk(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                        JointEval& out) {
  const spatial::Vec3 k = b1.A * joint.frame1.col(2);
  const spatial::Vec3 n = b2.A * joint.a2;
  const spatial::Vec3 omega = b2.omega;
  const double rho = joint.radius;
  const double c = k.dot(n), s = std::sqrt(std::max(0.0, 1.0 - c * c));
  const spatial::Vec3 e = (k - c * n) / s;
  const spatial::Vec3 nxk = n.cross(k);
  const double cDot = nxk.dot(omega);
  const double cQuadratic = k.dot(omega.cross(omega.cross(n)));
  const double sDot = -c * cDot / s;
  // Contact height.
  out.Phi(0) = k.dot(b2.r - (b1.r + b1.A * joint.s1)) - rho * s;
  out.J2.block<1, 3>(0, 0) = k.transpose();
  out.J2.block<1, 3>(0, 3) = (rho * c / s) * nxk.transpose();
  out.gamma(0) = rho * (-(cDot * cDot + c * cQuadratic) / s - c * c * cDot * cDot / (s * s * s));
  // No slip in the plane.
  const spatial::Vec3 eDot = -(cDot * n + c * omega.cross(n)) / s - e * sDot / s;
  for (int i = 0; i < 2; ++i) {
    const spatial::Vec3 t = b1.A * joint.frame1.col(i);
    out.Phi(1 + i) = 0.0;
    out.J2.block<1, 3>(1 + i, 0) = t.transpose();
    out.J2.block<1, 3>(1 + i, 3) = -rho * e.cross(t).transpose();
    out.gamma(1 + i) = rho * eDot.cross(t).dot(omega);
  }
}

spatial::Vec3 rollingDiskContact(const Joint& joint, const spatial::Body& b1,
                                 const spatial::Body& b2) {
  const spatial::Vec3 k = b1.A * joint.frame1.col(2);
  const spatial::Vec3 n = b2.A * joint.a2;
  const double c = k.dot(n);
  return b2.r - joint.radius * (k - c * n) / std::sqrt(std::max(0.0, 1.0 - c * c));
}

}  // namespace rlx
