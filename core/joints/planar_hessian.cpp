#include "joints/planar_hessian.h"

namespace rlx::planar {

PairJacobian jacobianOf(const PointPair& pair) {
  PairJacobian D;
  D << pair.dd1, pair.dd2;
  return D;
}

Mat6 projectionHessian(const Body& b1, const Vec2& n, const PointPair& pair) {
  const Vec2 u = b1.A * n;
  const Eigen::Matrix<double, 1, 6> row = perp(u).transpose() * jacobianOf(pair);
  Mat6 H = Mat6::Zero();
  H.row(2) += row;
  H.col(2) += row.transpose();
  H(2, 2) += u.dot(pair.p1) - u.dot(pair.d);
  H(5, 5) -= u.dot(pair.p2);
  return H;
}

void addPair(StiffnessSink& sink, int body1, int body2, const Mat6& H) {
  if (body1 != kGround) sink.add(body1, body1, H.topLeftCorner<3, 3>());
  if (body1 != kGround && body2 != kGround) {
    sink.add(body1, body2, H.topRightCorner<3, 3>());
    sink.add(body2, body1, H.bottomLeftCorner<3, 3>());
  }
  if (body2 != kGround) sink.add(body2, body2, H.bottomRightCorner<3, 3>());
}

void addAngle(StiffnessSink& sink, int body, double value) {
  if (body == kGround) return;
  Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
  block(2, 2) = value;
  sink.add(body, body, block);
}

}  // namespace rlx::planar
