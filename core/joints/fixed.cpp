// Fixed joint (planar weld): the points coincide and the relative rotation stays angle0.
// Spatial: d = 0 and the joint frames stay aligned: y1 . z2 = z1 . x2 = x1 . y2 = 0 (to first
// order the relative rotations about x, y and z).
#include "joints/joints.h"

namespace rlx {

void planarFixed(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                 JointEval& out) {
  planarRevolute(joint, b1, b2, out);
  const planar::Scalar lock = planar::relativeAngle(b1, b2, joint.angle0);
  out.Phi(2) = lock.value;
  out.J1.block<1, 3>(2, 0) = lock.g1;
  out.J2.block<1, 3>(2, 0) = lock.g2;
  out.gamma(2) = lock.gamma;
}

void planarFixedGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                      JointEval& out) {
  planarRevoluteGamma(joint, b1, b2, out);
  out.gamma(2) = planar::relativeAngle(b1, b2, joint.angle0).gamma;
}


void spatialFixed(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                  JointEval& out) {
  putPoint(out, 0, spatial::PointPair(b1, joint.s1, b2, joint.s2));
  putRow(out, 3, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
  putRow(out, 4, spatial::dot1(b1, joint.frame1.col(2), b2, joint.frame2.col(0)));
  putRow(out, 5, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(1)));
}

namespace {

constexpr const char* kPlanarRows[] = {"x", "y", "angle"};
constexpr const char* kSpatialRows[] = {"x", "y", "z", "rx", "ry", "rz"};

// The lock's Hessian is zero: the revolute rows' alone.
constexpr PlanarFamily kPlanar{
    .rows = 3, .rowNames = kPlanarRows, .evaluate = planarFixed, .gamma = planarFixedGamma,
    .stiffness = planarRevoluteStiffness, .symbol = PlanarSymbol::Weld};
constexpr SpatialFamily kSpatial{
    .rows = 6, .rowNames = kSpatialRows, .axes = SpatialAxes::OptionalAxis,
    .evaluate = spatialFixed, .symbol = SpatialSymbol::Weld};

}  // namespace

namespace families {
extern const JointFamily fixed{.name = "fixed", .planar = &kPlanar, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
