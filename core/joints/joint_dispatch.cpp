#include "joints/joints.h"

namespace rlx {

bool hasCoordinate(JointType type) {
  switch (type) {
    case JointType::Revolute:
    case JointType::Translational:
    case JointType::PointOnLine:
    case JointType::Cylindrical:
      return true;
    case JointType::Fixed:
    case JointType::Distance:
    case JointType::Spherical:
    case JointType::Universal:
    case JointType::Planar:
    case JointType::PointOnPlane:
    case JointType::ParallelAxes:
    case JointType::Perpendicular:
    case JointType::RollingDisk:
      return false;
  }
  return false;
}

int jointRows(JointType type, int dimension) {
  const bool planar = dimension == 2;
  switch (type) {
    case JointType::Revolute: return planar ? 2 : 5;
    case JointType::Translational: return planar ? 2 : 5;
    case JointType::Fixed: return planar ? 3 : 6;
    case JointType::Distance: return 1;
    case JointType::PointOnLine: return planar ? 1 : 2;
    case JointType::Spherical: return planar ? 0 : 3;
    case JointType::Cylindrical: return planar ? 0 : 4;
    case JointType::Universal: return planar ? 0 : 4;
    case JointType::Planar: return planar ? 0 : 3;
    case JointType::PointOnPlane: return planar ? 0 : 1;
    case JointType::ParallelAxes: return planar ? 0 : 2;
    case JointType::Perpendicular: return planar ? 0 : 1;
    case JointType::RollingDisk: return planar ? 0 : 3;
  }
  return 0;
}

const char* jointRowName(JointType type, int row, int dimension) {
  static const char* const xyz[] = {"x", "y", "z"};
  if (dimension == 2) {
    switch (type) {
      case JointType::Revolute: return xyz[row];
      case JointType::Fixed: return row < 2 ? xyz[row] : "angle";
      case JointType::Translational: return row == 0 ? "normal" : "angle";
      case JointType::PointOnLine: return "normal";
      case JointType::Distance: return "length";
      case JointType::Spherical:
      case JointType::Cylindrical:
      case JointType::Universal:
      case JointType::Planar:
      case JointType::PointOnPlane:
      case JointType::ParallelAxes:
      case JointType::Perpendicular:
      case JointType::RollingDisk:
        break;
    }
  }
  return spatialJointRowName(type, row);
}

void evaluatePlanarJoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out) {
  // Every planar family fills its rows' first three columns of J1 and J2 (all that is read).
  out.rows = joint.rows;
  switch (joint.type) {
    case JointType::Revolute: return planarRevolute(joint, b1, b2, out);
    case JointType::Translational: return planarTranslational(joint, b1, b2, out);
    case JointType::Fixed: return planarFixed(joint, b1, b2, out);
    case JointType::Distance: return planarDistance(joint, b1, b2, out);
    case JointType::PointOnLine: return planarPointOnLine(joint, b1, b2, out);
    case JointType::Spherical:
    case JointType::Cylindrical:
    case JointType::Universal:
    case JointType::Planar:
    case JointType::PointOnPlane:
    case JointType::ParallelAxes:
    case JointType::Perpendicular:
    case JointType::RollingDisk:
      break;  // spatial only: compile() refuses them in 2-D
  }
}

void evaluatePlanarJointGamma(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                              JointEval& out) {
  out.rows = joint.rows;
  switch (joint.type) {
    case JointType::Revolute: return planarRevoluteGamma(joint, b1, b2, out);
    case JointType::Translational: return planarTranslationalGamma(joint, b1, b2, out);
    case JointType::Fixed: return planarFixedGamma(joint, b1, b2, out);
    case JointType::Distance: return planarDistanceGamma(joint, b1, b2, out);
    case JointType::PointOnLine: return planarPointOnLineGamma(joint, b1, b2, out);
    case JointType::Spherical:
    case JointType::Cylindrical:
    case JointType::Universal:
    case JointType::Planar:
    case JointType::PointOnPlane:
    case JointType::ParallelAxes:
    case JointType::Perpendicular:
    case JointType::RollingDisk:
      break;  // spatial only
  }
}

planar::Scalar planarJointCoordinate(const Joint& joint, const planar::Body& b1,
                                     const planar::Body& b2) {
  switch (joint.type) {
    case JointType::Revolute: return planarRevoluteAngle(joint, b1, b2);
    case JointType::Translational:
    case JointType::PointOnLine: return planarTravel(joint, b1, b2);
    case JointType::Fixed:
    case JointType::Distance:
    case JointType::Spherical:
    case JointType::Cylindrical:
    case JointType::Universal:
    case JointType::Planar:
    case JointType::PointOnPlane:
    case JointType::ParallelAxes:
    case JointType::Perpendicular:
    case JointType::RollingDisk:
      break;  // no planar coordinate: compile() refuses motions on them
  }
  return {};
}

}  // namespace rlx
