// Point on plane (ADAMS inplane): body2's point stays in body1's plane through s1 with normal
// z1, z1 . d = 0.
#include "joints/joints.h"

namespace rlx {

void spatialPointOnPlane(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                         JointEval& out) {
  putRow(out, 0,
         spatial::dot2(b1, joint.frame1.col(2), spatial::PointPair(b1, joint.s1, b2, joint.s2)));
}

namespace {

constexpr const char* kRows[] = {"plane"};

constexpr SpatialFamily kSpatial{
    .rows = 1, .rowNames = kRows, .axes = SpatialAxes::Axis, .evaluate = spatialPointOnPlane,
    .symbol = SpatialSymbol::PointOnPlane};

}  // namespace

namespace families {
extern const JointFamily pointOnPlane{.name = "point_on_plane", .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
