// Spherical joint (spatial ball joint): the points s1 of body1 and s2 of body2 coincide, d = 0.
#include "joints/joints.h"

namespace rlx {

void spatialSpherical(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                      JointEval& out) {
  putPoint(out, 0, spatial::PointPair(b1, joint.s1, b2, joint.s2));
}

namespace {

constexpr const char* kRows[] = {"x", "y", "z"};

constexpr SpatialFamily kSpatial{
    .rows = 3, .rowNames = kRows, .axes = SpatialAxes::None, .evaluate = spatialSpherical,
    .symbol = SpatialSymbol::Ball};

}  // namespace

namespace families {
extern const JointFamily spherical{.name = "spherical", .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
