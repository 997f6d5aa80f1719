// Screw (spatial): a cylindrical pair whose travel follows its rotation, body2 advancing one
// pitch p along the axis per turn about it (Adams SCREW; p < 0: a left-hand thread). Rows: the
// cylindrical's four (cylindrical.cpp) and the helix
//   Phi = z1 . d - p theta / (2 pi) - phase = 0,
// theta the rotation of x2 about z1 from x1 (revolute.cpp's coordinate). theta is known modulo
// 2 pi, so the helix row modulo p. The coordinate J.q is the rotation: a motion turns the screw
// and its effort is the torque, p / (2 pi) times the axial load without friction.
#include "joints/joints.h"

#include <cmath>
#include <numbers>

namespace rlx {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

spatial::Scalar helix(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  spatial::Scalar c = spatial::dot2(b1, joint.frame1.col(2), spatial::PointPair(b1, joint.s1, b2, joint.s2));
  spatial::addScaled(c, -joint.numbers[0] / kTwoPi,
                     spatial::angleAbout(b1, joint.frame1, b2, joint.frame2));
  c.value = std::remainder(c.value - joint.phase, joint.numbers[0]);
  return c;
}

void spatialScrew(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                  JointEval& out) {
  spatialCylindrical(joint, b1, b2, out);
  putRow(out, 4, helix(joint, b1, b2));
}

// The helix's value in the file's configuration is its phase.
std::string prepareScrew(Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  joint.phase = 0.0;
  joint.phase = helix(joint, b1, b2).value;
  return {};
}

constexpr const char* kRows[] = {"line_x", "line_y", "axis_x", "axis_y", "helix"};
constexpr FamilyNumber kNumbers[] = {
    {.key = "pitch", .meaning = "the travel per turn (negative: a left-hand thread)",
     .fallback = kRequired, .rule = NumberRule::NonZero},
};

constexpr SpatialFamily kSpatial{
    .rows = 5, .rowNames = kRows, .axes = SpatialAxes::Axis, .evaluate = spatialScrew,
    .coordinate = spatialRevoluteAngle, .symbol = SpatialSymbol::Screw, .prepare = prepareScrew};

}  // namespace

namespace families {
extern const JointFamily screw{.name = "screw", .coordinate = JointCoordinate::Angle,
                               .numbers = kNumbers, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
