// Gear pair (planar): the pitch circles of body1 (radius R1, centre s1) and body2 (R2, centre s2)
// roll on each other without slipping. External gears (`gear`) turn in opposite senses; in an
// internal pair (`internal_gear`) one gear runs inside the other's ring, both turning alike.
//
// With d = c2 - c1 between the centres, beta = atan2(d) the direction of the line of centres and
// sigma = +1 (external) or -1 (internal), rolling keeps
//   Phi = R1 (phi1 - beta) + sigma R2 (phi2 - beta) - phase = 0,
// which at a constant centre distance is the no-slip condition at the pitch point integrated:
// d/dt Phi = R1 omega1 + sigma R2 omega2 - (R1 + sigma R2) beta_dot. beta only wraps, so Phi is
// taken modulo 2 pi (R1 + sigma R2). Its gradient puts the multiplier where the teeth push: a
// force along the common tangent at the pitch point (the tangential tooth force, lambda (R1 +
// sigma R2) / |d|), which the joints under the gears carry; the centres can move (a planet on
// its carrier). The reaction is reported there: the tooth force on body2, with no moment. Teeth
// cut at the pressure angle alpha (numbers[2], default 20 degrees) also push the wheels apart
// with |the tangential force| tan(alpha) along the line of centres (`separation`), which the
// joints holding the centre distance carry. Something else keeps that distance: compile checks
// that the pitch circles touch in the file's configuration.
//
// beta's derivatives, with D = dd/dq and n = R d / |d|^2 (R: rotation by +90 degrees):
//   beta_q = n^T D,   beta_ddot = n . d_ddot - 2 (d . d_dot)(n . d_dot) / |d|^2,
// so gamma_Phi = (R1 + sigma R2) * (n . quadratic - 2 (d . d_dot)(n . d_dot) / |d|^2);
// the Hessian of atan2(y, x) is [2xy, y^2 - x^2; y^2 - x^2, -2xy] / |d|^4, and d2d/dphi1^2 = p1,
// d2d/dphi2^2 = -p2 (joints/planar_hessian.h).
#include "joints/joints.h"

#include <cmath>
#include <numbers>
#include <utility>

namespace rlx {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

double sigmaOf(const Joint& joint) { return joint.type == JointType::InternalGear ? -1.0 : 1.0; }

// R1 + sigma R2: the rolling relation's coefficient of beta.
double lineCoefficient(const Joint& joint) {
  return joint.numbers[0] + sigmaOf(joint) * joint.numbers[1];
}

struct Mesh {
  planar::PointPair pair;
  planar::Scalar phi;  // the relation, phase not taken off and not wrapped
};

Mesh mesh(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  Mesh m{planar::PointPair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>()), {}};
  const planar::Vec2& d = m.pair.d;
  const double rho = d.squaredNorm();
  const planar::Vec2 n = planar::perp(d) / rho;
  const double k = lineCoefficient(joint);
  const double beta = std::atan2(d.y(), d.x());
  const double betaDotVelocityPart = n.dot(m.pair.quadratic) - 2 * d.dot(m.pair.ddot) * n.dot(m.pair.ddot) / rho;
  m.phi.value = joint.numbers[0] * b1.phi + sigmaOf(joint) * joint.numbers[1] * b2.phi - k * beta;
  m.phi.g1 = -k * n.transpose() * m.pair.dd1;
  m.phi.g2 = -k * n.transpose() * m.pair.dd2;
  m.phi.g1(2) += joint.numbers[0];
  m.phi.g2(2) += sigmaOf(joint) * joint.numbers[1];
  m.phi.gamma = k * betaDotVelocityPart;
  return m;
}

void planarGear(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out) {
  const Mesh m = mesh(joint, b1, b2);
  out.Phi(0) = std::remainder(m.phi.value - joint.phase, kTwoPi * lineCoefficient(joint));
  out.J1.block<1, 3>(0, 0) = m.phi.g1;
  out.J2.block<1, 3>(0, 0) = m.phi.g2;
  out.gamma(0) = m.phi.gamma;
}

void planarGearGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                     JointEval& out) {
  out.gamma(0) = mesh(joint, b1, b2).phi.gamma;
}

void planarGearStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         const double* mu, double scale, StiffnessSink& sink) {
  // Phi_qq = -(R1 + sigma R2) beta_qq.
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::Vec2& d = pair.d;
  const double rho = d.squaredNorm();
  const planar::Vec2 n = planar::perp(d) / rho;
  Eigen::Matrix2d atanHessian;
  atanHessian << 2 * d.x() * d.y(), d.y() * d.y() - d.x() * d.x(), d.y() * d.y() - d.x() * d.x(),
      -2 * d.x() * d.y();
  atanHessian /= rho * rho;
  const planar::PairJacobian D = planar::jacobianOf(pair);
  planar::Mat6 betaHessian = D.transpose() * atanHessian * D;
  betaHessian(2, 2) += n.dot(pair.p1);
  betaHessian(5, 5) -= n.dot(pair.p2);
  planar::addPair(sink, joint.body1, joint.body2, (-scale * mu[0] * lineCoefficient(joint)) * betaHessian);
}

std::string touching(const Joint& joint, double apart);

// The pitch circles must touch: the centres R1 + R2 apart (external) or |R1 - R2| (internal).
std::string prepareGear(Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const Mesh m = mesh(joint, b1, b2);
  if (std::string why = touching(joint, m.pair.d.norm()); !why.empty()) return why;
  joint.phase = m.phi.value;
  return {};
}

// The pitch point: on the line of centres, R1 from c1 (external, or body1 the ring) or R2 from
// c2 on the other side (body2 the ring).
planar::Vec2 pitchPoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::Vec2 n = pair.d.normalized();
  const bool ring2 = sigmaOf(joint) < 0 && joint.numbers[1] > joint.numbers[0];
  return ring2 ? planar::Vec2(b2.r + pair.p2 - joint.numbers[1] * n)
               : planar::Vec2(b1.r + pair.p1 + joint.numbers[0] * n);
}

// The separating force on body2 per newton of tooth force: away from body1 along the line of
// centres (external), towards the ring's centre for an internal pair (on the pinion and, pushed
// outwards, on the ring alike: along -d).
planar::Vec2 separation(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  return std::tan(joint.numbers[2]) * sigmaOf(joint) * pair.d.normalized();
}

// In 3-D the wheels turn about a common axis z (`axis` or `axis1`; the joint's frame on body1,
// the same frame in body2 in the file's configuration). Without a planar body angle, rolling is
// written with the direction of the line of centres in each wheel's frame: b1 = atan2(y1.d, x1.d)
// (= beta - phi1 in the plane) and b2 that of -d in body2's frame (= beta + pi - phi2), so
//   Phi = -R1 b1 - sigma R2 b2 - phase = 0.
// b1 and b2 are known modulo 2 pi: Phi modulo 2 pi R1 and 2 pi R2 at once, which has a single
// period only when R1 / R2 is a ratio p / q of whole numbers (of teeth): P = 2 pi R1 / p. Two
// configurations P apart are the same mesh one tooth's symmetry on, and Newton's steps stay well
// inside P / 2.

// The direction of d (from body a's point sa to body b's sb) in body a's frame: its angle about z.
spatial::Scalar bodyBearing(const spatial::Body& a, const spatial::Vec3& sa,
                            const spatial::Mat3& frame, const spatial::Body& b,
                            const spatial::Vec3& sb) {
  const spatial::PointPair pair(a, sa, b, sb);
  return spatial::angleOf(spatial::dot2(a, frame.col(1), pair),
                          spatial::dot2(a, frame.col(0), pair));
}

spatial::Scalar spatialMesh(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  spatial::Scalar phi;
  spatial::addScaled(phi, -joint.numbers[0], bodyBearing(b1, joint.s1, joint.frame1, b2, joint.s2));
  // Body2's bearing, with the roles of the bodies swapped back.
  spatial::Scalar second = bodyBearing(b2, joint.s2, joint.frame2, b1, joint.s1);
  std::swap(second.g1, second.g2);
  spatial::addScaled(phi, -sigmaOf(joint) * joint.numbers[1], second);
  phi.value = std::remainder(phi.value - joint.phase, joint.period);
  return phi;
}

void spatialGear(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                 JointEval& out) {
  putRow(out, 0, spatialMesh(joint, b1, b2));
}

// The line of centres across the common axis, from c1 to c2.
spatial::Vec3 acrossAxis(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  const spatial::Vec3 z = b1.A * joint.frame1.col(2);
  return pair.d - z.dot(pair.d) * z;
}

// Why the pitch circles, with centres `apart`, cannot mesh: they must touch, R1 + R2 apart
// (external) or |R1 - R2| (internal); or "".
std::string touching(const Joint& joint, double apart) {
  const double R1 = joint.numbers[0], R2 = joint.numbers[1];
  const bool internal = sigmaOf(joint) < 0;
  const double touch = internal ? std::abs(R1 - R2) : R1 + R2;
  if (internal && R1 == R2)
    return "radius1 and radius2 are equal: an internal pair needs a ring larger than its pinion";
  if (std::abs(apart - touch) > 1e-6 * (R1 + R2))
    return "the pitch circles do not touch: the centres are " + std::to_string(apart) +
           " m apart, " + (internal ? "|radius1 - radius2|" : "radius1 + radius2") + " = " +
           std::to_string(touch) + " m";
  return {};
}

std::string prepareSpatialGear(Joint& joint, const spatial::Body& b1, const spatial::Body& b2) {
  if (std::string why = touching(joint, acrossAxis(joint, b1, b2).norm()); !why.empty()) return why;
  const auto [p, q] = wholeRatio(joint.numbers[0], joint.numbers[1]);
  if (p == 0)
    return "in 3-D radius1 / radius2 must be a ratio of whole numbers up to " +
           std::to_string(kMaxWholeRatio) + " (the wheels' tooth counts), got " +
           std::to_string(joint.numbers[0] / joint.numbers[1]);
  joint.period = kTwoPi * joint.numbers[0] / static_cast<double>(p);
  joint.phase = 0.0;
  joint.phase = spatialMesh(joint, b1, b2).value;
  return {};
}

spatial::Vec3 spatialPitchPoint(const Joint& joint, const spatial::Body& b1,
                                const spatial::Body& b2) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  const spatial::Vec3 n = acrossAxis(joint, b1, b2).normalized();
  const bool ring2 = sigmaOf(joint) < 0 && joint.numbers[1] > joint.numbers[0];
  return ring2 ? spatial::Vec3(b2.r + pair.p2 - joint.numbers[1] * n)
               : spatial::Vec3(b1.r + pair.p1 + joint.numbers[0] * n);
}

spatial::Vec3 spatialSeparation(const Joint& joint, const spatial::Body& b1,
                                const spatial::Body& b2) {
  return std::tan(joint.numbers[2]) * sigmaOf(joint) * acrossAxis(joint, b1, b2).normalized();
}

constexpr const char* kRows[] = {"mesh"};
constexpr FamilyNumber kNumbers[] = {
    {.key = "radius1",
     .meaning = "body1's pitch radius",
     .fallback = kRequired,
     .rule = NumberRule::Positive},
    {.key = "radius2",
     .meaning = "body2's pitch radius",
     .fallback = kRequired,
     .rule = NumberRule::Positive},
    kPressureAngle,
};

constexpr PlanarFamily kPlanar{.rows = 1,
                               .rowNames = kRows,
                               .evaluate = planarGear,
                               .gamma = planarGearGamma,
                               .stiffness = planarGearStiffness,
                               .symbol = PlanarSymbol::Gear,
                               .reactionPoint = pitchPoint,
                               .prepare = prepareGear,
                               .separation = separation};

constexpr SpatialFamily kSpatial{.rows = 1,
                                 .rowNames = kRows,
                                 .axes = SpatialAxes::OneAxis,
                                 .evaluate = spatialGear,
                                 .reactionPoint = spatialPitchPoint,
                                 .symbol = SpatialSymbol::Gear,
                                 .prepare = prepareSpatialGear,
                                 .separation = spatialSeparation};

}  // namespace

// Continued fractions: the convergents p / q of x until one is within 1e-13 of it.
std::pair<long long, long long> wholeRatio(double a, double b) {
  const double x = a / b;
  long long p0 = 0, q0 = 1, p1 = 1, q1 = 0;
  double rest = x;
  for (int k = 0; k < 40; ++k) {
    const double whole = std::floor(rest);
    if (whole > 1e12) break;
    const auto term = static_cast<long long>(whole);
    const long long p2 = term * p1 + p0, q2 = term * q1 + q0;
    if (p2 > kMaxWholeRatio || q2 > kMaxWholeRatio) break;
    if (std::abs(static_cast<double>(p2) / static_cast<double>(q2) - x) <= 1e-13 * x)
      return {p2, q2};
    p0 = p1, q0 = q1, p1 = p2, q1 = q2;
    if (rest - whole < 1e-300) break;
    rest = 1 / (rest - whole);
  }
  return {0, 0};
}

namespace families {
extern const JointFamily gear{.name = "gear",
                              .points = JointPoints::OwnOrigins,
                              .numbers = kNumbers,
                              .planar = &kPlanar,
                              .spatial = &kSpatial};
extern const JointFamily internalGear{.name = "internal_gear",
                                      .points = JointPoints::OwnOrigins,
                                      .numbers = kNumbers,
                                      .planar = &kPlanar,
                                      .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
