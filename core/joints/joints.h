#pragma once
// The joint families. Each family lives in one file (revolute.cpp, translational.cpp, ...) with
// its record in the table (joints/family.h) and supplies, at the poses of its two bodies, its
// equations Phi (rows), their derivative blocks with respect to each body's velocities, and gamma;
// and, where the joint has one, its coordinate (J.q: relative rotation or travel, zero in the
// file's configuration). Reactions need nothing joint-specific beyond the point where they act
// (reactionPoint): see solve/equations/reactions.h.
//
// Planar equations (p_i = A_i s_i, d = r2 + p2 - r1 - p1, u_i = A_i a_i, n_i = R u_i):
//   revolute       d = 0                                           (2)
//   translational  n1 . d = 0,  phi2 - phi1 - angle0 = 0           (2)
//   fixed          d = 0,       phi2 - phi1 - angle0 = 0           (3)
//   distance       (d . d - L^2) / (2 L) = 0                       (1)
//   point_on_line  n1 . d = 0                                      (1)
//
// Spatial equations (joints/spatial.h: d, dot1, dot2; x_i y_i z_i the columns of joint.frame_i
// in global axes; z is the joint's axis):
//   revolute       d = 0,  x1 . z2 = 0,  y1 . z2 = 0                            (5)
//   translational  x1 . d = 0,  y1 . d = 0,  x1 . z2 = 0,  y1 . z2 = 0,  x1 . y2 = 0  (5)
//   fixed          d = 0,  y1 . z2 = 0,  z1 . x2 = 0,  x1 . y2 = 0              (6)
//   distance       (d . d - L^2) / (2 L) = 0                                  (1)
//   point_on_line  x1 . d = 0,  y1 . d = 0                                    (2)
//   spherical      d = 0                                                      (3)
//   cylindrical    x1 . d = 0,  y1 . d = 0,  x1 . z2 = 0,  y1 . z2 = 0          (4)
//   universal      d = 0,  z1 . z2 = 0                                        (4)
//   planar         z1 . d = 0,  x1 . z2 = 0,  y1 . z2 = 0                      (3)
//   point_on_plane z1 . d = 0                                                 (1)
//   parallel_axes  x1 . z2 = 0,  y1 . z2 = 0                                  (2)
//   perpendicular  z1 . z2 = 0                                                (1)
//   orientation    y1 . z2 = 0,  z1 . x2 = 0,  x1 . y2 = 0                      (3)
//   constant_velocity  d = 0,  x1 . y2 + y1 . x2 = 0                          (4)
// Coordinates: the angle of x2 about z1 from x1 (revolute, cylindrical; in (-pi, pi]) and the
// travel z1 . d - q0 (translational, point_on_line).

#include "joints/family.h"

#include <Eigen/Dense>

#include <utility>

namespace rlx {

// The rational p / q within 1e-13 of a / b (relative; a, b > 0) with the least q, p and q up to
// kMaxWholeRatio, or {0, 0}: 3-D gears and couplers need angles' multiples with a common period.
constexpr long long kMaxWholeRatio = 10000;
std::pair<long long, long long> wholeRatio(double a, double b);

// Name of equation `row` of a joint type, for messages and results ("x", "normal", "angle").
const char* jointRowName(JointType type, int row, int dimension);

// Through the family table (joints/family.h): Phi, Phi_q, gamma of a joint at its bodies' poses.
void evaluatePlanarJoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out);

// out.gamma alone, as evaluatePlanarJoint puts it (Phi and the blocks untouched; cheaper, e.g.
// gamma at other velocities).
void evaluatePlanarJointGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                              JointEval& out);

// The joint coordinate J.q (minus its offset q0). Requires hasCoordinate(joint.type).
planar::Scalar planarJointCoordinate(const Joint& joint, const planar::Body& b1,
                                     const planar::Body& b2);

// Parts of the families that other families reuse (a fixed joint is a revolute one and a lock).
void planarRevolute(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarTranslational(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarFixed(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarDistance(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarPointOnLine(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarRevoluteGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarTranslationalGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarFixedGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarDistanceGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarPointOnLineGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
// Closed-form stiffness (family.h): the point coincidence's (revolute, fixed) and the off-line
// row's (translational, point_on_line); the travel's Hessian.
void planarRevoluteStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                             const double* mu, double scale, StiffnessSink& sink);
void planarOffLineStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                            const double* mu, double scale, StiffnessSink& sink);
planar::Mat6 planarTravelHessian(const Joint& joint, const planar::Body& b1, const planar::Body& b2);
planar::Scalar planarRevoluteAngle(const Joint& joint, const planar::Body& b1, const planar::Body& b2);
planar::Scalar planarTravel(const Joint& joint, const planar::Body& b1, const planar::Body& b2);

void evaluateSpatialJoint(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                          JointEval& out);

// The spatial joint coordinate J.q. Requires hasCoordinate(joint.type).
spatial::Scalar spatialJointCoordinate(const Joint& joint, const spatial::Body& b1,
                                       const spatial::Body& b2);

// Writes a scalar equation into `row`, or the coincidence d = 0 into rows row ... row + 2.
void putRow(JointEval& out, int row, const spatial::Scalar& c);
void putPoint(JointEval& out, int row, const spatial::PointPair& pair);

void spatialRevolute(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialTranslational(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialFixed(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialDistance(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialPointOnLine(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialSpherical(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialCylindrical(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialUniversal(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialPlanar(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialPointOnPlane(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialParallelAxes(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialOrientation(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                        JointEval& out);
void spatialConstantVelocity(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                             JointEval& out);
void spatialPerpendicular(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
void spatialRollingDisk(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2, JointEval& out);
// The contact point of a rolling disk (global).
spatial::Vec3 rollingDiskContact(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2);
// The convective term b = -(A v)_q w of a rolling disk's two no-slip rows along the positions'
// direction w (w1, w2: (dr, dtheta) of body1 and body2), v the bodies' velocities; gamma at w = v.
Eigen::Vector2d rollingDiskSlipConvective(const Joint& joint, const spatial::Body& b1,
                                          const spatial::Body& b2,
                                          const Eigen::Matrix<double, 6, 1>& w1,
                                          const Eigen::Matrix<double, 6, 1>& w2);
spatial::Scalar spatialRevoluteAngle(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2);
spatial::Scalar spatialTravel(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2);

}  // namespace rlx
