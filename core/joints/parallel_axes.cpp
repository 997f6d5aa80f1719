// Parallel axes: body2's axis z2 stays parallel to body1's z1, x1 . z2 = y1 . z2 = 0.
#include "joints/joints.h"

namespace rlx {

void spatialParallelAxes(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                         JointEval& out) {
  putRow(out, 0, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(2)));
  putRow(out, 1, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
}

}  // namespace rlx
