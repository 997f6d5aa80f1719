// Revolute joint (planar): the points s1 of body1 and s2 of body2 coincide, d = 0.
// Coordinate: the relative rotation phi2 - phi1, zero in the file's configuration.
// Spatial: d = 0 and the axes z1, z2 stay parallel (x1 . z2 = y1 . z2 = 0); the coordinate
// is the rotation of x2 about z1.
#include "joints/joints.h"

namespace rlx {

void planarRevolute(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                    JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.Phi.head<2>() = pair.d;
  out.J1.block<2, 3>(0, 0) = pair.dd1;
  out.J2.block<2, 3>(0, 0) = pair.dd2;
  out.gamma.head<2>() = -pair.quadratic;
}

void planarRevoluteGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.gamma.head<2>() = -pair.quadratic;
}

planar::Scalar planarRevoluteAngle(const Joint& joint, const planar::Body& b1,
                                   const planar::Body& b2) {
  return planar::relativeAngle(b1, b2, joint.q0);
}


void spatialRevolute(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                     JointEval& out) {
  putPoint(out, 0, spatial::PointPair(b1, joint.s1, b2, joint.s2));
  putRow(out, 3, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(2)));
  putRow(out, 4, spatial::dot1(b1, joint.frame1.col(1), b2, joint.frame2.col(2)));
}

spatial::Scalar spatialRevoluteAngle(const Joint& joint, const spatial::Body& b1,
                                     const spatial::Body& b2) {
  spatial::Scalar angle = spatial::angleAbout(b1, joint.frame1, b2, joint.frame2);
  angle.value -= joint.q0;
  return angle;
}

void planarRevoluteStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                             const double* mu, double scale, StiffnessSink& sink) {
  // mu . d2d: d2d/dphi1^2 = p1, d2d/dphi2^2 = -p2.
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::Vec2 m(mu[0], mu[1]);
  planar::addAngle(sink, joint.body1, scale * m.dot(pair.p1));
  planar::addAngle(sink, joint.body2, -scale * m.dot(pair.p2));
}

namespace {

// The relative angle is linear in the positions.
planar::Mat6 angleHessian(const Joint&, const planar::Body&, const planar::Body&) {
  return planar::Mat6::Zero();
}

constexpr const char* kPlanarRows[] = {"x", "y"};
constexpr const char* kSpatialRows[] = {"x", "y", "z", "axis_x", "axis_y"};

constexpr PlanarFamily kPlanar{
    .rows = 2, .rowNames = kPlanarRows, .evaluate = planarRevolute,
    .gamma = planarRevoluteGamma, .coordinate = planarRevoluteAngle,
    .stiffness = planarRevoluteStiffness, .coordinateHessian = angleHessian,
    .symbol = PlanarSymbol::Pin};
constexpr SpatialFamily kSpatial{
    .rows = 5, .rowNames = kSpatialRows, .axes = SpatialAxes::Axis, .evaluate = spatialRevolute,
    .coordinate = spatialRevoluteAngle, .symbol = SpatialSymbol::Hinge};

}  // namespace

namespace families {
extern const JointFamily revolute{.name = "revolute", .coordinate = JointCoordinate::Angle,
                                 .planar = &kPlanar, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
