// Rolling disk: body2 is a disk of radius rho with axis a2 (body2 coordinates) rolling without
// slip on body1's plane through p1 = A1 s1 with normal k = A1 z1 and tangents t_i = A1 x1, A1 y1
// (body1 may move, or be ground). With n = A2 a2, c = k . n, s = sqrt(1 - c^2) and
// e = (k - c n) / s (the unit vector in the disk's plane towards the plane's normal), the contact
// point is P = r2 - rho e, and with d = r2 - P1, P1 = r1 + p1, u = P - r1:
//   row 0 (holonomic, contact height)  Phi = k . d - rho s
//       d/dr1 = -k,  d/dtheta1 = k x (r2 - r1) - rho (c / s) (n x k),
//       d/dr2 = k,   d/dtheta2 = rho (c / s) (n x k),
//       gamma = -[(w1 x (w1 x k)) . d + 2 (w1 x k) . d_dot - k . (w1 x (w1 x p1))
//                 + rho c_dot^2 / s^3 + rho (c / s) ((w2 x n) x k + n x (w1 x k)) . (w2 - w1)],
//       c_dot = (n x k) . (w2 - w1),  d_dot = r2_dot - r1_dot - w1 x p1;
//   rows 1, 2 (nonholonomic, no slip along t_i: the disk's and the plane's material points at P
//   move alike)
//       A_i v = t_i . (r2_dot - r1_dot) - rho (e x t_i) . w2 - (u x t_i) . w1 = 0,
//       d/dr1 = -t_i,  d/dtheta1 = t_i x u,  d/dr2 = t_i,  d/dtheta2 = -rho (e x t_i).
// Their convective term along a direction (dr_b, dtheta_b) of the positions, v held:
//   b_i = -(A_i v)_q w = -[dt . (r2_dot - r1_dot) - rho w2 . (de x t + e x dt)
//                          - w1 . (du x t + u x dt)],
//   dt = dtheta1 x t, dk = dtheta1 x k, dn = dtheta2 x n, dc = (n x k) . (dtheta2 - dtheta1),
//   ds = -c dc / s, de = (dk - dc n - c dn) / s - e ds / s, du = dr2 - rho de - dr1;
// gamma_i = b_i at w = v. Rows 1 and 2 live at velocity level: their Phi entries are zero. The
// reaction of all three rows is a pure force at the contact point (its moment about P vanishes).
#include "joints/joints.h"

#include <cmath>

namespace rlx {
namespace {

using spatial::Vec3;

// The plane's and the disk's directions at the state.
struct DiskGeometry {
  Vec3 k, n, e, nxk;
  double c = 0.0, s = 0.0;

  DiskGeometry(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2)
      : k(b1.A * joint.frame1.col(2)), n(b2.A * joint.a2) {
    c = k.dot(n);
    s = std::sqrt(std::max(0.0, 1.0 - c * c));
    e = (k - c * n) / s;
    nxk = n.cross(k);
  }
};

}  // namespace

Eigen::Vector2d rollingDiskSlipConvective(const Joint& joint, const spatial::Body& b1,
                                          const spatial::Body& b2,
                                          const Eigen::Matrix<double, 6, 1>& w1,
                                          const Eigen::Matrix<double, 6, 1>& w2) {
  const DiskGeometry g(joint, b1, b2);
  const double rho = joint.radius;
  const Vec3 u = b2.r - rho * g.e - b1.r;
  const Vec3 dTheta1 = w1.tail<3>(), dTheta2 = w2.tail<3>();
  const Vec3 dk = dTheta1.cross(g.k), dn = dTheta2.cross(g.n);
  const double dc = g.nxk.dot(dTheta2 - dTheta1), ds = -g.c * dc / g.s;
  const Vec3 de = (dk - dc * g.n - g.c * dn) / g.s - g.e * ds / g.s;
  const Vec3 du = w2.head<3>() - rho * de - w1.head<3>();
  Eigen::Vector2d out;
  for (int i = 0; i < 2; ++i) {
    const Vec3 t = b1.A * joint.frame1.col(i);
    const Vec3 dt = dTheta1.cross(t);
    out(i) = -(dt.dot(b2.rdot - b1.rdot) - rho * b2.omega.dot(de.cross(t) + g.e.cross(dt)) -
               b1.omega.dot(du.cross(t) + u.cross(dt)));
  }
  return out;
}

void spatialRollingDisk(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                        JointEval& out) {
  const DiskGeometry g(joint, b1, b2);
  const Vec3 &k = g.k, &n = g.n, &e = g.e, &nxk = g.nxk, &w1 = b1.omega, &w2 = b2.omega;
  const double rho = joint.radius, c = g.c, s = g.s;
  const Vec3 p1 = b1.A * joint.s1;
  const Vec3 d = b2.r - b1.r - p1;
  const Vec3 dDot = b2.rdot - b1.rdot - w1.cross(p1);
  const double cDot = nxk.dot(w2 - w1);
  // Contact height.
  out.Phi(0) = k.dot(d) - rho * s;
  out.J1.block<1, 3>(0, 0) = -k.transpose();
  out.J1.block<1, 3>(0, 3) = (k.cross(b2.r - b1.r) - (rho * c / s) * nxk).transpose();
  out.J2.block<1, 3>(0, 0) = k.transpose();
  out.J2.block<1, 3>(0, 3) = (rho * c / s) * nxk.transpose();
  const Vec3 nxkDot = w2.cross(n).cross(k) + n.cross(w1.cross(k));
  out.gamma(0) =
      -(w1.cross(w1.cross(k)).dot(d) + 2 * w1.cross(k).dot(dDot) - k.dot(w1.cross(w1.cross(p1))) +
        rho * cDot * cDot / (s * s * s) + rho * (c / s) * nxkDot.dot(w2 - w1));
  // No slip in the plane.
  const Vec3 u = b2.r - rho * e - b1.r;
  const Eigen::Vector2d gamma =
      rollingDiskSlipConvective(joint, b1, b2, b1.velocity(), b2.velocity());
  for (int i = 0; i < 2; ++i) {
    const Vec3 t = b1.A * joint.frame1.col(i);
    out.Phi(1 + i) = 0.0;
    out.J1.block<1, 3>(1 + i, 0) = -t.transpose();
    out.J1.block<1, 3>(1 + i, 3) = t.cross(u).transpose();
    out.J2.block<1, 3>(1 + i, 0) = t.transpose();
    out.J2.block<1, 3>(1 + i, 3) = -rho * e.cross(t).transpose();
    out.gamma(1 + i) = gamma(i);
  }
}

spatial::Vec3 rollingDiskContact(const Joint& joint, const spatial::Body& b1,
                                 const spatial::Body& b2) {
  const DiskGeometry g(joint, b1, b2);
  return b2.r - joint.radius * g.e;
}

namespace {

constexpr const char* kRows[] = {"contact", "slip_x", "slip_y"};

// The reaction of all three rows is a pure force at the contact point.
constexpr SpatialFamily kSpatial{
    .rows = 1, .velocityRows = 2, .rowNames = kRows, .axes = SpatialAxes::PlaneAndDisk,
    .evaluate = spatialRollingDisk, .reactionPoint = rollingDiskContact,
    .symbol = SpatialSymbol::RollingContact};

}  // namespace

namespace families {
extern const JointFamily rollingDisk{.name = "rolling_disk", .points = JointPoints::Body1WhenGiven,
                                    .radius = true, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
