// Planar joint (spatial): body2's point stays in body1's plane through s1 with normal z1
// (z1 . d = 0) and body2's normal z2 stays parallel to z1 (x1 . z2 = y1 . z2 = 0).
#include "joints/joints.h"

namespace rlx {

void spatialPlanar(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                   JointEval& out) {
  spatialPointOnPlane(joint, b1, b2, out);
  putRow(out, 1, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(2)));
  putRow(out, 2, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
}

namespace {

constexpr const char* kRows[] = {"plane", "axis_x", "axis_y"};

constexpr SpatialFamily kSpatial{
    .rows = 3, .rowNames = kRows, .axes = SpatialAxes::Axis, .evaluate = spatialPlanar,
    .symbol = SpatialSymbol::PlanarBlock};

}  // namespace

namespace families {
extern const JointFamily planar{.name = "planar", .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
