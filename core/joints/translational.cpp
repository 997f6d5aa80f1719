// Translational joint (planar): body2's point stays on the line of body1 through s1 along a1,
// and the bodies do not rotate relative to each other.
// Coordinate: the travel u1 . d along the axis, zero in the file's configuration.
// Spatial: body2's point stays on body1's line (x1 . d = y1 . d = 0), the axes stay parallel
// (x1 . z2 = y1 . z2 = 0) and body2 does not turn about them (x1 . y2 = 0).
#include "joints/joints.h"

namespace rlx {

void planarTranslational(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::Scalar offLine = planar::projection(b1, planar::perp(joint.a1.head<2>()), pair);
  const planar::Scalar lock = planar::relativeAngle(b1, b2, joint.angle0);
  out.Phi.head<2>() << offLine.value, lock.value;
  out.J1.block<1, 3>(0, 0) = offLine.g1;
  out.J2.block<1, 3>(0, 0) = offLine.g2;
  out.J1.block<1, 3>(1, 0) = lock.g1;
  out.J2.block<1, 3>(1, 0) = lock.g2;
  out.gamma.head<2>() << offLine.gamma, lock.gamma;
}

void planarTranslationalGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                              JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.gamma(0) = planar::projectionGamma(b1, planar::perp(joint.a1.head<2>()), pair);
  out.gamma(1) = planar::relativeAngle(b1, b2, joint.angle0).gamma;
}

planar::Scalar planarTravel(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  planar::Scalar travel = planar::projection(b1, joint.a1.head<2>(), pair);
  travel.value -= joint.q0;
  return travel;
}


void spatialTranslational(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                          JointEval& out) {
  spatialCylindrical(joint, b1, b2, out);
  putRow(out, 4, spatial::dot1(b1, joint.frame1.col(0), b2, joint.frame2.col(1)));
}

spatial::Scalar spatialTravel(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  spatial::Scalar travel = spatial::dot2(b1, joint.frame1.col(2), pair);
  travel.value -= joint.q0;
  return travel;
}

void planarOffLineStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                            const double* mu, double scale, StiffnessSink& sink) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  planar::addPair(sink, joint.body1, joint.body2,
                  (scale * mu[0]) * planar::projectionHessian(b1, planar::perp(joint.a1.head<2>()), pair));
}

planar::Mat6 planarTravelHessian(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  return planar::projectionHessian(b1, joint.a1.head<2>(), pair);
}

namespace {

constexpr const char* kPlanarRows[] = {"normal", "angle"};
constexpr const char* kSpatialRows[] = {"line_x", "line_y", "axis_x", "axis_y", "twist"};

// The lock's Hessian is zero: the off-line row's alone.
constexpr PlanarFamily kPlanar{
    .rows = 2, .rowNames = kPlanarRows, .axis = true, .evaluate = planarTranslational,
    .gamma = planarTranslationalGamma, .coordinate = planarTravel,
    .stiffness = planarOffLineStiffness, .coordinateHessian = planarTravelHessian,
    .symbol = PlanarSymbol::Slider};
constexpr SpatialFamily kSpatial{
    .rows = 5, .rowNames = kSpatialRows, .axes = SpatialAxes::Axis,
    .evaluate = spatialTranslational, .coordinate = spatialTravel,
    .symbol = SpatialSymbol::Slider};

}  // namespace

namespace families {
extern const JointFamily translational{.name = "translational", .coordinate = JointCoordinate::Travel,
                                      .planar = &kPlanar, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
