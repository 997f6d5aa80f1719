// Distance joint: the points s1 and s2 stay `length` apart,
//   Phi = (d . d - L^2) / (2 L),
// which to first order is |d| - L (metres), smooth where |d| = 0 is not reached.
#include "joints/joints.h"

namespace rlx {

namespace {

// Phi_ddot = (d_dot . d_dot + d . d_ddot) / L: gamma is minus its velocity-only part.
double distanceGamma(const planar::PointPair& pair, double L) {
  return -(pair.ddot.squaredNorm() + pair.d.dot(pair.quadratic)) / L;
}

}  // namespace

void planarDistance(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                    JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const double L = joint.length;
  out.Phi(0) = (pair.d.squaredNorm() - L * L) / (2.0 * L);
  out.J1.block<1, 3>(0, 0) = pair.d.transpose() * pair.dd1 / L;
  out.J2.block<1, 3>(0, 0) = pair.d.transpose() * pair.dd2 / L;
  out.gamma(0) = distanceGamma(pair, L);
}

void planarDistanceGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  out.gamma(0) = distanceGamma(pair, joint.length);
}


void spatialDistance(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                     JointEval& out) {
  const spatial::PointPair pair(b1, joint.s1, b2, joint.s2);
  const double L = joint.length;
  out.Phi(0) = (pair.d.squaredNorm() - L * L) / (2.0 * L);
  out.J1.row(0) = pair.d.transpose() * pair.dd1 / L;
  out.J2.row(0) = pair.d.transpose() * pair.dd2 / L;
  out.gamma(0) = -(pair.ddot.squaredNorm() + pair.d.dot(pair.quadratic)) / L;
}

namespace {

// (D^T D + d . d2d) / L.
void planarDistanceStiffness(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                             const double* mu, double scale, StiffnessSink& sink) {
  const planar::PointPair pair(b1, joint.s1.head<2>(), b2, joint.s2.head<2>());
  const planar::PairJacobian D = planar::jacobianOf(pair);
  planar::Mat6 H = D.transpose() * D;
  H(2, 2) += pair.d.dot(pair.p1);
  H(5, 5) -= pair.d.dot(pair.p2);
  planar::addPair(sink, joint.body1, joint.body2, (scale * mu[0] / joint.length) * H);
}

constexpr const char* kRows[] = {"length"};

constexpr PlanarFamily kPlanar{
    .rows = 1, .rowNames = kRows, .evaluate = planarDistance, .gamma = planarDistanceGamma,
    .stiffness = planarDistanceStiffness, .symbol = PlanarSymbol::Tie};
constexpr SpatialFamily kSpatial{
    .rows = 1, .rowNames = kRows, .evaluate = spatialDistance, .symbol = SpatialSymbol::Tie};

}  // namespace

namespace families {
extern const JointFamily distance{.name = "distance", .length = true, .planar = &kPlanar, .spatial = &kSpatial};
}  // namespace families

}  // namespace rlx
