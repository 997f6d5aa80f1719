// Orientation (Adams JPRIM/ORIENTATION): body2 keeps the orientation relative to body1 that it
// has in the file's configuration and translates freely: the joint frames stay aligned,
// y1 . z2 = z1 . x2 = x1 . y2 = 0 (the fixed joint's rotation rows; to first order the relative
// rotations about x, y and z).
#include "joints/joints.h"

namespace rlx {

void spatialOrientation(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                        JointEval& out) {
  putRow(out, 0, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
  putRow(out, 1, spatial::dot1(b1, joint.frame1.col(2), b2, joint.frame2.col(0)));
  putRow(out, 2, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(1)));
}

namespace {

constexpr const char* kRows[] = {"rx", "ry", "rz"};

constexpr SpatialFamily kSpatial{.rows = 3,
                                 .rowNames = kRows,
                                 .axes = SpatialAxes::None,
                                 .evaluate = spatialOrientation,
                                 .symbol = SpatialSymbol::AxisPair};

}  // namespace

namespace families {
extern const JointFamily orientation{
    .name = "orientation", .points = JointPoints::WhenGiven, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
