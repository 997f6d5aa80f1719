// Fixed joint (planar weld): the points coincide and the relative rotation stays angle0.
#include "joints/joints.h"

namespace rlx {

void planarFixed(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                 JointEval& out) {
  planarRevolute(joint, b1, b2, out);
  const planar::Scalar lock = planar::relativeAngle(b1, b2, joint.angle0);
  out.Phi(2) = lock.value;
  out.J1.block<1, 3>(2, 0) = lock.g1;
  out.J2.block<1, 3>(2, 0) = lock.g2;
  out.gamma(2) = lock.gamma;
}

}  // namespace rlx
