// The table of joint families: one line per family. Each record lives in the family's own file.
#include "joints/family.h"

#include <cstdlib>

namespace rlx {
namespace families {
extern const JointFamily revolute, translational, fixed, distance, pointOnLine, spherical,
    cylindrical, universal, planar, pointOnPlane, parallelAxes, perpendicular, rollingDisk, gear,
    internalGear, rackPinion, screw, pointOnCurve, curveOnCurve, orientation, constantVelocity;
}  // namespace families

namespace {

// Every enumerator has a case (-Werror=switch, no default); a value past the last is null.
const JointFamily* familyOf(JointType type) {
  switch (type) {
    case JointType::Revolute: return &families::revolute;
    case JointType::Translational: return &families::translational;
    case JointType::Fixed: return &families::fixed;
    case JointType::Distance: return &families::distance;
    case JointType::PointOnLine: return &families::pointOnLine;
    case JointType::Spherical: return &families::spherical;
    case JointType::Cylindrical: return &families::cylindrical;
    case JointType::Universal: return &families::universal;
    case JointType::Planar: return &families::planar;
    case JointType::PointOnPlane: return &families::pointOnPlane;
    case JointType::ParallelAxes: return &families::parallelAxes;
    case JointType::Perpendicular: return &families::perpendicular;
    case JointType::RollingDisk: return &families::rollingDisk;
    case JointType::Gear: return &families::gear;
    case JointType::InternalGear: return &families::internalGear;
    case JointType::RackPinion: return &families::rackPinion;
    case JointType::Screw: return &families::screw;
    case JointType::PointOnCurve: return &families::pointOnCurve;
    case JointType::CurveOnCurve: return &families::curveOnCurve;
    case JointType::Orientation:
      return &families::orientation;
    case JointType::ConstantVelocity:
      return &families::constantVelocity;
  }
  return nullptr;
}

}  // namespace

const JointFamily& jointFamily(JointType type) {
  if (const JointFamily* family = familyOf(type)) return *family;
  std::abort();  // not an enumerator: a cast from a bad integer
}

const std::vector<JointType>& jointTypes() {
  // The enumerators run from 0 without gaps (joints/joint_type.h): count up to the first value
  // without a family.
  static const std::vector<JointType> types = [] {
    std::vector<JointType> all;
    for (int i = 0; familyOf(static_cast<JointType>(i)); ++i) all.push_back(static_cast<JointType>(i));
    return all;
  }();
  return types;
}

std::optional<JointType> jointTypeNamed(const std::string& name) {
  for (const JointType type : jointTypes())
    if (name == jointFamily(type).name) return type;
  return std::nullopt;
}

bool hasCoordinate(JointType type) {
  return jointFamily(type).coordinate != JointCoordinate::None;
}

bool coordinateIsAngle(JointType type) {
  return jointFamily(type).coordinate == JointCoordinate::Angle;
}

}  // namespace rlx
