// Point on line (planar, ADAMS inline): body2's point stays on the line of body1 through s1
// along a1; the bodies may rotate. Coordinate: the travel along the line (see translational.cpp).
// Spatial: x1 . d = y1 . d = 0 with z1 along the line.
#include "joints/joints.h"

namespace rlx {

void planarPointOnLine(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                       JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::Scalar offLine = planar::projection(b1, planar::perp(joint.a1.head<2>()), pair);
  out.Phi(0) = offLine.value;
  out.J1.block<1, 3>(0, 0) = offLine.g1;
  out.J2.block<1, 3>(0, 0) = offLine.g2;
  out.gamma(0) = offLine.gamma;
}

void planarPointOnLineGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                            JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.gamma(0) = planar::projectionGamma(b1, planar::perp(joint.a1.head<2>()), pair);
}


void spatialPointOnLine(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                        JointEval& out) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  putRow(out, 0, spatial::dot2(b1, joint.frame1.col(0), pair));
  putRow(out, 1, spatial::dot2(b1, joint.frame1.col(1), pair));
}

namespace {

constexpr const char* kPlanarRows[] = {"normal"};
constexpr const char* kSpatialRows[] = {"line_x", "line_y"};

constexpr PlanarFamily kPlanar{
    .rows = 1, .rowNames = kPlanarRows, .axis = true, .evaluate = planarPointOnLine,
    .gamma = planarPointOnLineGamma, .coordinate = planarTravel,
    .stiffness = planarOffLineStiffness, .coordinateHessian = planarTravelHessian,
    .symbol = PlanarSymbol::PointOnLine};
constexpr SpatialFamily kSpatial{
    .rows = 2, .rowNames = kSpatialRows, .axes = SpatialAxes::Axis,
    .evaluate = spatialPointOnLine, .coordinate = spatialTravel,
    .symbol = SpatialSymbol::PointOnLine};

}  // namespace

namespace families {
extern const JointFamily pointOnLine{.name = "point_on_line", .coordinate = JointCoordinate::Travel,
                                    .planar = &kPlanar, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
