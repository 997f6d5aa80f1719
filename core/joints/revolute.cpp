// Revolute joint (planar): the points s1 of body1 and s2 of body2 coincide, d = 0.
// Coordinate: the relative rotation phi2 - phi1, zero in the file's configuration.
// Spatial: d = 0 and the axes z1, z2 stay parallel (x1 . z2 = y1 . z2 = 0); the coordinate
// is the rotation of x2 about z1.
#include "joints/joints.h"

namespace rlx {

void planarRevolute(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                    JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.Phi.head<2>() = pair.d;
  out.J1.block<2, 3>(0, 0) = pair.dd1;
  out.J2.block<2, 3>(0, 0) = pair.dd2;
  out.gamma.head<2>() = -pair.quadratic;
}

void planarRevoluteGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.gamma.head<2>() = -pair.quadratic;
}

planar::Scalar planarRevoluteAngle(const Joint& joint, const planar::Body& b1,
                                   const planar::Body& b2) {
  return planar::relativeAngle(b1, b2, joint.q0);
}


void spatialRevolute(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                     JointEval& out) {
  putPoint(out, 0, spatial::PointPair(b1, joint.s1, b2, joint.s2));
  putRow(out, 3, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(2)));
  putRow(out, 4, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
}

spatial::Scalar spatialRevoluteAngle(const Joint& joint, const spatial::Body& b1,
                                     const spatial::Body& b2) {
  spatial::Scalar angle = spatial::angleAbout(b1, joint.frame1, b2, joint.frame2);
  angle.value -= joint.q0;
  return angle;
}

}  // namespace rlx
