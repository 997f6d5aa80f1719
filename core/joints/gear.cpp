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
// its carrier). The reaction is reported there: the tooth force on body2, with no moment. Something else keeps the centre distance: compile checks that the pitch circles
// touch in the file's configuration.
//
// beta's derivatives, with D = dd/dq and n = R d / |d|^2 (R: rotation by +90 degrees):
//   beta_q = n^T D,   beta_ddot = n . d_ddot - 2 (d . d_dot)(n . d_dot) / |d|^2,
// so gamma_Phi = (R1 + sigma R2) * (n . quadratic - 2 (d . d_dot)(n . d_dot) / |d|^2);
// the Hessian of atan2(y, x) is [2xy, y^2 - x^2; y^2 - x^2, -2xy] / |d|^4, and d2d/dphi1^2 = p1,
// d2d/dphi2^2 = -p2 (joints/planar_hessian.h).
#include "joints/joints.h"

#include <cmath>
#include <numbers>

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

// The pitch circles must touch: the centres R1 + R2 apart (external) or |R1 - R2| (internal).
std::string prepareGear(Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const Mesh m = mesh(joint, b1, b2);
  const double R1 = joint.numbers[0], R2 = joint.numbers[1];
  const bool internal = sigmaOf(joint) < 0;
  const double touching = internal ? std::abs(R1 - R2) : R1 + R2;
  const double apart = m.pair.d.norm();
  if (internal && R1 == R2)
    return "radius1 and radius2 are equal: an internal pair needs a ring larger than its pinion";
  if (std::abs(apart - touching) > 1e-6 * (R1 + R2))
    return "the pitch circles do not touch: the centres are " + std::to_string(apart) +
           " m apart, " + (internal ? "|radius1 - radius2|" : "radius1 + radius2") + " = " +
           std::to_string(touching) + " m";
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

constexpr const char* kRows[] = {"mesh"};
constexpr FamilyNumber kNumbers[] = {
    {.key = "radius1", .meaning = "body1's pitch radius", .fallback = kRequired, .rule = NumberRule::Positive},
    {.key = "radius2", .meaning = "body2's pitch radius", .fallback = kRequired, .rule = NumberRule::Positive},
};

constexpr PlanarFamily kPlanar{
    .rows = 1, .rowNames = kRows, .evaluate = planarGear, .gamma = planarGearGamma,
    .stiffness = planarGearStiffness, .symbol = PlanarSymbol::Gear, .reactionPoint = pitchPoint,
    .prepare = prepareGear};

}  // namespace

namespace families {
extern const JointFamily gear{.name = "gear", .points = JointPoints::OwnOrigins,
                              .numbers = kNumbers, .planar = &kPlanar};
extern const JointFamily internalGear{.name = "internal_gear", .points = JointPoints::OwnOrigins,
                                      .numbers = kNumbers, .planar = &kPlanar};
}  // namespace families

}  // namespace rlx
