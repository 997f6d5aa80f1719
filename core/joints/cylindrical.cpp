// Cylindrical joint: body2's point stays on body1's line along z1 (x1 . d = y1 . d = 0) and the
// axes stay parallel (x1 . z2 = y1 . z2 = 0); body2 slides along and turns about the axis. Its
// coordinate J.q is the rotation (see revolute.cpp).
#include "joints/joints.h"

namespace rlx {

void spatialCylindrical(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                        JointEval& out) {
  spatialPointOnLine(joint, b1, b2, out);
  putRow(out, 2, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(2)));
  putRow(out, 3, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
}

namespace {

constexpr const char* kRows[] = {"line_x", "line_y", "axis_x", "axis_y"};

constexpr SpatialFamily kSpatial{
    .rows = 4, .rowNames = kRows, .axes = SpatialAxes::Axis, .evaluate = spatialCylindrical, .coordinate = spatialRevoluteAngle,
    .symbol = SpatialSymbol::Sleeve};

}  // namespace

namespace families {
extern const JointFamily cylindrical{.name = "cylindrical", .coordinate = JointCoordinate::Angle, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
