// Rack and pinion: the pinion's pitch circle (body2, centre s2, radius R) rolls without slipping
// on the rack's pitch line (body1, through s1 along a1). With u = A1 a1, d = c2 - p1 from the
// line's point to the pinion's centre and side = +1 when the centre is on the left of u (-1 on
// the right), rolling keeps (planar)
//   Phi = u . d + side R (phi2 - phi1) - phase = 0
// (Adams RACKPIN with its pitch radius): the pinion advances R along the rack per radian it turns
// on it. In 3-D the pinion turns about z = u x n, n the unit normal from the line to its centre
// in the file's configuration (the joint's frame on body1: x = u, y = n, z; on body2 the same
// frame there), and
//   Phi = u . d + R theta - phase,   theta the rotation of x2 about z from x1 (screw.cpp's),
// known modulo 2 pi, so Phi modulo 2 pi R. The multiplier is the tooth force along the rack at the
// pitch point, where the reaction is reported; teeth cut at the pressure angle alpha (numbers[1],
// default 20 degrees) also push the pinion off the rack with |that force| tan(alpha)
// (`separation`). Something else keeps the pinion against the rack: compile checks that the
// pitch circle touches the line in the file's configuration.
#include "joints/joints.h"

#include <cmath>
#include <numbers>

namespace rlx {
namespace {

planar::Scalar rolling(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  planar::Scalar along = planar::projection(b1, joint.a1.head<2>(), pair);
  planar::addScaled(along, joint.side * joint.numbers[0], planar::relativeAngle(b1, b2, 0.0));
  along.value -= joint.phase;
  return along;
}

void planarRackPinion(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                      JointEval& out) {
  const planar::Scalar c = rolling(joint, b1, b2);
  out.Phi(0) = c.value;
  out.J1.block<1, 3>(0, 0) = c.g1;
  out.J2.block<1, 3>(0, 0) = c.g2;
  out.gamma(0) = c.gamma;
}

void planarRackPinionGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                           JointEval& out) {
  out.gamma(0) = rolling(joint, b1, b2).gamma;
}

// The relative angle's Hessian is zero: the projection's alone.
void planarRackPinionStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                               const double* mu, double scale, StiffnessSink& sink) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  planar::addPair(sink, joint.body1, joint.body2,
                  (scale * mu[0]) * planar::projectionHessian(b1, joint.a1.head<2>(), pair));
}

std::string prepareRackPinion(Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const double R = joint.numbers[0];
  const double offLine = planar::perp(b1.A * joint.a1.head<2>()).dot(pair.d);
  if (std::abs(std::abs(offLine) - R) > 1e-6 * R)
    return "the pinion's pitch circle does not touch the rack's pitch line: its centre is " +
           std::to_string(std::abs(offLine)) + " m from the line, pitch_radius = " +
           std::to_string(R) + " m";
  joint.side = offLine > 0 ? 1.0 : -1.0;
  joint.phase = 0.0;
  joint.phase = rolling(joint, b1, b2).value;
  return {};
}

// The pitch point: the foot of the pinion's centre on the rack's pitch line.
planar::Vec2 pitchPoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::Vec2 u = b1.A * joint.a1.head<2>();
  return b1.r + pair.p1 + u.dot(pair.d) * u;
}

// The separating force on the pinion per newton of tooth force: along the normal from the pitch
// line to its centre.
planar::Vec2 separation(const Joint& joint, const planar::Body& b1, const planar::Body&) {
  return std::tan(joint.numbers[1]) * joint.side * planar::perp(b1.A * joint.a1.head<2>());
}

spatial::Scalar rolling(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  spatial::Scalar along = spatial::dot2(b1, joint.frame1.col(0), pair);
  const double R = joint.numbers[0];
  spatial::addScaled(along, R, spatial::angleAbout(b1, joint.frame1, b2, joint.frame2));
  along.value = std::remainder(along.value - joint.phase, 2 * std::numbers::pi * R);
  return along;
}

void spatialRackPinion(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                       JointEval& out) {
  putRow(out, 0, rolling(joint, b1, b2));
}

// The frames from the file's configuration: x along the rack, y towards the pinion's centre.
std::string prepareSpatialRackPinion(Joint& joint, const spatial::Body& b1,
                                     const spatial::Body& b2) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  const spatial::Vec3 u = b1.A * joint.a1;
  const spatial::Vec3 normal = pair.d - u.dot(pair.d) * u;
  const double R = joint.numbers[0];
  if (std::abs(normal.norm() - R) > 1e-6 * R)
    return "the pinion's pitch circle does not touch the rack's pitch line: its centre is " +
           std::to_string(normal.norm()) + " m from the line, pitch_radius = " + std::to_string(R) +
           " m";
  const spatial::Vec3 y = b1.A.transpose() * normal.normalized();
  joint.frame1 << joint.a1, y, joint.a1.cross(y);
  joint.frame2 = b2.A.transpose() * b1.A * joint.frame1;
  joint.a1 = joint.frame1.col(2);
  joint.a2 = joint.frame2.col(2);
  joint.side = 1.0;
  joint.phase = 0.0;
  joint.phase = rolling(joint, b1, b2).value;
  return {};
}

spatial::Vec3 spatialPitchPoint(const Joint& joint, const spatial::Body& b1,
                                const spatial::Body& b2) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  const spatial::Vec3 u = b1.A * joint.frame1.col(0);
  return b1.r + pair.p1 + u.dot(pair.d) * u;
}

spatial::Vec3 spatialSeparation(const Joint& joint, const spatial::Body& b1, const spatial::Body&) {
  return std::tan(joint.numbers[1]) * (b1.A * joint.frame1.col(1));
}

constexpr const char* kRows[] = {"mesh"};
constexpr FamilyNumber kNumbers[] = {
    {.key = "pitch_radius",
     .meaning = "the pinion's pitch radius",
     .fallback = kRequired,
     .rule = NumberRule::Positive},
    kPressureAngle,
};

constexpr PlanarFamily kPlanar{.rows = 1,
                               .rowNames = kRows,
                               .axis = true,
                               .evaluate = planarRackPinion,
                               .gamma = planarRackPinionGamma,
                               .stiffness = planarRackPinionStiffness,
                               .symbol = PlanarSymbol::Rack,
                               .reactionPoint = pitchPoint,
                               .prepare = prepareRackPinion,
                               .separation = separation};

constexpr SpatialFamily kSpatial{.rows = 1,
                                 .rowNames = kRows,
                                 .axes = SpatialAxes::OneAxis,
                                 .evaluate = spatialRackPinion,
                                 .reactionPoint = spatialPitchPoint,
                                 .symbol = SpatialSymbol::Rack,
                                 .prepare = prepareSpatialRackPinion,
                                 .separation = spatialSeparation};

}  // namespace

namespace families {
extern const JointFamily rackPinion{.name = "rack_pinion",
                                    .points = JointPoints::OwnOrigins,
                                    .numbers = kNumbers,
                                    .planar = &kPlanar,
                                    .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
