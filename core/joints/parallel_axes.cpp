// Parallel axes: body2's axis z2 stays parallel to body1's z1, x1 . z2 = y1 . z2 = 0.
#include "joints/joints.h"

namespace rlx {

void spatialParallelAxes(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                         JointEval& out) {
  putRow(out, 0, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(2)));
  putRow(out, 1, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
}

namespace {

constexpr const char* kRows[] = {"axis_x", "axis_y"};

constexpr SpatialFamily kSpatial{
    .rows = 2, .rowNames = kRows, .axes = SpatialAxes::Axis, .evaluate = spatialParallelAxes,
    .symbol = SpatialSymbol::AxisPair};

}  // namespace

namespace families {
extern const JointFamily parallelAxes{.name = "parallel_axes", .points = JointPoints::WhenGiven, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
