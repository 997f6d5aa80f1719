// Revolute joint (planar): the points s1 of body1 and s2 of body2 coincide, d = 0.
// Coordinate: the relative rotation phi2 - phi1, zero in the file's configuration.
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

planar::Scalar planarRevoluteAngle(const Joint& joint, const planar::Body& b1,
                                   const planar::Body& b2) {
  return planar::relativeAngle(b1, b2, joint.q0);
}

}  // namespace rlx
