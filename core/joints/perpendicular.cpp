// Perpendicular axes: body1's axis z1 and body2's z2 stay perpendicular, z1 . z2 = 0.
#include "joints/joints.h"

namespace rlx {

void spatialPerpendicular(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                          JointEval& out) {
  putRow(out, 0, spatial::dot1(b1, joint.frame1.col(2), b2, joint.frame2.col(2)));
}

namespace {

constexpr const char* kRows[] = {"cross"};

constexpr SpatialFamily kSpatial{
    .rows = 1, .rowNames = kRows, .axes = SpatialAxes::CrossAxes, .evaluate = spatialPerpendicular,
    .symbol = SpatialSymbol::AxisPair};

}  // namespace

namespace families {
extern const JointFamily perpendicular{.name = "perpendicular", .points = JointPoints::WhenGiven, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
