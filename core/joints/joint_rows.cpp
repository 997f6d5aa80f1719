// A joint's rows, coordinate and row names through the family table (joints/family.h).
#include "joints/joints.h"

namespace rlx {

const char* jointRowName(JointType type, int row, int dimension) {
  const JointFamily& family = jointFamily(type);
  return dimension == 2 ? family.planar->rowNames[row] : family.spatial->rowNames[row];
}

void evaluatePlanarJoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out) {
  // Every planar family fills its rows' first three columns of J1 and J2 (all that is read).
  out.rows = joint.rows;
  jointFamily(joint.type).planar->evaluate(joint, b1, b2, out);
}

void evaluatePlanarJointGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                              JointEval& out) {
  out.rows = joint.rows;
  jointFamily(joint.type).planar->gamma(joint, b1, b2, out);
}

planar::Scalar planarJointCoordinate(const Joint& joint, const planar::Body& b1,
                                     const planar::Body& b2) {
  return jointFamily(joint.type).planar->coordinate(joint, b1, b2);
}

void evaluateSpatialJoint(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                          JointEval& out) {
  out.J1.setZero();
  out.J2.setZero();
  out.rows = joint.rows;
  jointFamily(joint.type).spatial->evaluate(joint, b1, b2, out);
}

spatial::Scalar spatialJointCoordinate(const Joint& joint, const spatial::Body& b1,
                                       const spatial::Body& b2) {
  return jointFamily(joint.type).spatial->coordinate(joint, b1, b2);
}

void putRow(JointEval& out, int row, const spatial::Scalar& c) {
  out.Phi(row) = c.value;
  out.J1.row(row) = c.g1;
  out.J2.row(row) = c.g2;
  out.gamma(row) = c.gamma;
}

void putPoint(JointEval& out, int row, const spatial::PointPair& pair) {
  out.Phi.segment<3>(row) = pair.d;
  out.J1.middleRows<3>(row) = pair.dd1;
  out.J2.middleRows<3>(row) = pair.dd2;
  out.gamma.segment<3>(row) = -pair.quadratic;
}

}  // namespace rlx
