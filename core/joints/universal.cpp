// Universal joint (Hooke's joint): d = 0, and the cross axes z1 = axis1 on body1 and z2 = axis2
// on body2 stay perpendicular, z1 . z2 = 0.
#include "joints/joints.h"

namespace rlx {

void spatialUniversal(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                      JointEval& out) {
  putPoint(out, 0, spatial::PointPair(b1, joint.s1, b2, joint.s2));
  putRow(out, 3, spatial::dot1(b1, joint.frame1.col(2), b2, joint.frame2.col(2)));
}

namespace {

constexpr const char* kRows[] = {"x", "y", "z", "cross"};

constexpr SpatialFamily kSpatial{
    .rows = 4, .rowNames = kRows, .axes = SpatialAxes::CrossAxes, .evaluate = spatialUniversal,
    .symbol = SpatialSymbol::Cross};

}  // namespace

namespace families {
extern const JointFamily universal{.name = "universal", .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
