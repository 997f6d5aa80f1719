// Cams (planar): point_on_curve keeps a point of body1 on a curve of body2 (a knife-edge or a
// roller's centre on the cam's pitch curve; Adams PTCV); curve_on_curve keeps a curve of body1 in
// tangent contact with a curve of body2 (a roller or a flat face on the cam's profile; Adams
// CVCV). One row each, Phi = the signed distance along curve2's normal between the points in
// contact (joints/curve_contact.h); the multiplier is the contact force along that normal, and
// the reaction acts at the contact point on curve2. The follower slides along the curve: no
// friction, and nothing keeps it from lifting off (the row holds both ways).
#include "joints/curve_contact.h"
#include "joints/joints.h"

namespace rlx {
namespace {

void camRows(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out) {
  const CurveContact c = curveContact(joint, b1, b2);
  Eigen::Matrix<double, 6, 1> v;
  v << b1.rdot, b1.omega, b2.rdot, b2.omega;
  out.Phi(0) = c.distance;
  out.J1.block<1, 3>(0, 0) = c.gradient.head<3>().transpose();
  out.J2.block<1, 3>(0, 0) = c.gradient.tail<3>().transpose();
  out.gamma(0) = -v.dot(c.hessian * v);
}

void camGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out) {
  camRows(joint, b1, b2, out);
}

void camStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                  const double* mu, double scale, StiffnessSink& sink) {
  planar::addPair(sink, joint.body1, joint.body2,
                  (scale * mu[0]) * curveContact(joint, b1, b2).hessian);
}

planar::Vec2 contactPoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  return curveContact(joint, b1, b2).point;
}

constexpr const char* kRows[] = {"contact"};

constexpr PlanarFamily kPlanar{
    .rows = 1, .rowNames = kRows, .evaluate = camRows, .gamma = camGamma,
    .stiffness = camStiffness, .symbol = PlanarSymbol::Cam, .reactionPoint = contactPoint};

}  // namespace

namespace families {
extern const JointFamily pointOnCurve{.name = "point_on_curve",
                                      .points = JointPoints::Body1WhenGiven,
                                      .curves = JointCurves::Curve2, .planar = &kPlanar};
extern const JointFamily curveOnCurve{.name = "curve_on_curve", .points = JointPoints::WhenGiven,
                                      .curves = JointCurves::Both, .planar = &kPlanar};
}  // namespace families

}  // namespace rlx
