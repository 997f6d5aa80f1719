// Constant-velocity joint (Adams CONVEL): the points coincide, and the shafts, z1 = axis1 on body1
// and z2 = axis2 on body2 (each pointing away from the joint's centre), turn at one rate whatever
// the angle between them. The two halves stay mirror images through the plane that bisects the
// shafts (the homokinetic plane; x2 is x1 reflected there and y2 is -y1 reflected), which one row
// keeps beside d = 0:
//   x1 . y2 + y1 . x2 = 0.
// Both x axes lie along the shafts' common normal in the file's configuration (any normal of a
// straight pair), a mirror pair, where the row is zero: turning one shaft by alpha about z1 and
// the other by beta about z2 from there gives -2 sin(alpha + beta) for a straight pair, so the
// shafts turn together.
#include "joints/joints.h"

namespace rlx {

void spatialConstantVelocity(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                             JointEval& out) {
  putPoint(out, 0, spatial::PointPair(b1, joint.s1, b2, joint.s2));
  spatial::Scalar mirror = spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(1));
  spatial::addScaled(mirror, 1.0, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(0)));
  putRow(out, 3, mirror);
}

namespace {

// The frames around each shaft with x along the common normal in the file's configuration.
std::string prepareConstantVelocity(Joint& joint, const spatial::Body& b1,
                                    const spatial::Body& b2) {
  const spatial::Vec3 z1 = b1.A * joint.a1, z2 = b2.A * joint.a2;
  spatial::Vec3 normal = z2.cross(z1);
  if (normal.norm() < 1e-9) normal = b1.A * joint.frame1.col(0);  // straight: any normal
  normal.normalize();
  const spatial::Vec3 x1 = b1.A.transpose() * normal, x2 = b2.A.transpose() * normal;
  joint.frame1 << x1, joint.a1.cross(x1), joint.a1;
  joint.frame2 << x2, joint.a2.cross(x2), joint.a2;
  return {};
}

constexpr const char* kRows[] = {"x", "y", "z", "mirror"};

constexpr SpatialFamily kSpatial{.rows = 4,
                                 .rowNames = kRows,
                                 .axes = SpatialAxes::CrossAxes,
                                 .evaluate = spatialConstantVelocity,
                                 .symbol = SpatialSymbol::Ball,  // the joint's housing
                                 .prepare = prepareConstantVelocity};

}  // namespace

namespace families {
extern const JointFamily constantVelocity{.name = "constant_velocity", .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
