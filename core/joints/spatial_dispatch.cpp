// The spatial joint families by type: equations, coordinates, row names.
#include "joints/joints.h"

namespace rlx {

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

void evaluateSpatialJoint(const Joint& joint, const spatial::Body& b1, const spatial::Body& b2,
                          JointEval& out) {
  out.J1.setZero();
  out.J2.setZero();
  out.rows = joint.rows;
  switch (joint.type) {
    case JointType::Revolute:
      return spatialRevolute(joint, b1, b2, out);
    case JointType::Translational:
      return spatialTranslational(joint, b1, b2, out);
    case JointType::Fixed:
      return spatialFixed(joint, b1, b2, out);
    case JointType::Distance:
      return spatialDistance(joint, b1, b2, out);
    case JointType::PointOnLine:
      return spatialPointOnLine(joint, b1, b2, out);
    case JointType::Spherical:
      return spatialSpherical(joint, b1, b2, out);
    case JointType::Cylindrical:
      return spatialCylindrical(joint, b1, b2, out);
    case JointType::Universal:
      return spatialUniversal(joint, b1, b2, out);
    case JointType::Planar:
      return spatialPlanar(joint, b1, b2, out);
    case JointType::PointOnPlane:
      return spatialPointOnPlane(joint, b1, b2, out);
    case JointType::ParallelAxes:
      return spatialParallelAxes(joint, b1, b2, out);
    case JointType::Perpendicular:
      return spatialPerpendicular(joint, b1, b2, out);
    case JointType::RollingDisk:
      return spatialRollingDisk(joint, b1, b2, out);
  }
}

spatial::Scalar spatialJointCoordinate(const Joint& joint, const spatial::Body& b1,
                                       const spatial::Body& b2) {
  switch (joint.type) {
    case JointType::Revolute:
    case JointType::Cylindrical:
      return spatialRevoluteAngle(joint, b1, b2);
    case JointType::Translational:
    case JointType::PointOnLine:
      return spatialTravel(joint, b1, b2);
    case JointType::Fixed:
    case JointType::Distance:
    case JointType::Spherical:
    case JointType::Universal:
    case JointType::Planar:
    case JointType::PointOnPlane:
    case JointType::ParallelAxes:
    case JointType::Perpendicular:
    case JointType::RollingDisk:
      break;  // no coordinate: compile() refuses motions and forces on them
  }
  return {};
}

bool spatialCoordinateIsAngle(JointType type) {
  return type == JointType::Revolute || type == JointType::Cylindrical;
}

const char* spatialJointRowName(JointType type, int row) {
  static const char* const point[] = {"x", "y", "z"};
  static const char* const line[] = {"line_x", "line_y"};
  static const char* const axis[] = {"axis_x", "axis_y"};
  static const char* const lock[] = {"rx", "ry", "rz"};
  switch (type) {
    case JointType::Revolute:
      return row < 3 ? point[row] : axis[row - 3];
    case JointType::Translational:
      return row < 2 ? line[row] : row < 4 ? axis[row - 2] : "twist";
    case JointType::Fixed:
      return row < 3 ? point[row] : lock[row - 3];
    case JointType::Distance:
      return "length";
    case JointType::PointOnLine:
      return line[row];
    case JointType::Spherical:
      return point[row];
    case JointType::Cylindrical:
      return row < 2 ? line[row] : axis[row - 2];
    case JointType::Universal:
      return row < 3 ? point[row] : "cross";
    case JointType::Planar:
      return row == 0 ? "plane" : axis[row - 1];
    case JointType::PointOnPlane:
      return "plane";
    case JointType::ParallelAxes:
      return axis[row];
    case JointType::Perpendicular:
      return "cross";
    case JointType::RollingDisk:
      return row == 0 ? "contact" : row == 1 ? "slip_x" : "slip_y";
  }
  return "eq";
}

}  // namespace rlx
