#include "model/spec.h"

#include "joints/family.h"

namespace rlx {
namespace {

// One case per enumerator (-Werror=switch, no default); a value past the last has no name.
const char* nameOrNull(ForceType type) {
  switch (type) {
    case ForceType::SpringDamper: return "spring_damper";
    case ForceType::TorsionSpring: return "torsion_spring";
    case ForceType::Force: return "force";
    case ForceType::Torque: return "torque";
    case ForceType::JointForce: return "joint_force";
    case ForceType::Limit: return "limit";
  }
  return nullptr;
}

const char* nameOrNull(AnalysisType type) {
  switch (type) {
    case AnalysisType::Assembly: return "assembly";
    case AnalysisType::Kinematics: return "kinematics";
    case AnalysisType::Statics: return "statics";
    case AnalysisType::Dynamics: return "dynamics";
  }
  return nullptr;
}

const char* nameOrNull(ConstraintType type) {
  switch (type) {
    case ConstraintType::Holonomic: return "holonomic";
    case ConstraintType::Nonholonomic: return "nonholonomic";
    case ConstraintType::Coupler: return "coupler";
  }
  return nullptr;
}

// The file name of a value ("?" for a cast from a bad integer), the value of a name, and every
// name in the enum's order (the enumerators run from 0 without gaps: up to the first value
// without a name).
template <typename Enum>
const char* nameOf(Enum value) {
  const char* name = nameOrNull(value);
  return name ? name : "?";
}

template <typename Enum>
std::optional<Enum> valueNamed(const std::string& name) {
  for (int i = 0; const char* n = nameOrNull(static_cast<Enum>(i)); ++i)
    if (name == n) return static_cast<Enum>(i);
  return std::nullopt;
}

template <typename Enum>
const std::vector<std::string>& namesOf() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (int i = 0; const char* name = nameOrNull(static_cast<Enum>(i)); ++i) all.emplace_back(name);
    return all;
  }();
  return names;
}

}  // namespace

const char* jointTypeName(JointType type) { return jointFamily(type).name; }
std::optional<JointType> jointTypeFromName(const std::string& name) { return jointTypeNamed(name); }

const char* forceTypeName(ForceType type) { return nameOf(type); }
std::optional<ForceType> forceTypeFromName(const std::string& name) { return valueNamed<ForceType>(name); }
const std::vector<std::string>& forceTypeNames() { return namesOf<ForceType>(); }

const char* analysisTypeName(AnalysisType type) { return nameOf(type); }
std::optional<AnalysisType> analysisTypeFromName(const std::string& name) {
  return valueNamed<AnalysisType>(name);
}
const std::vector<std::string>& analysisTypeNames() { return namesOf<AnalysisType>(); }

const char* constraintTypeName(ConstraintType type) { return nameOf(type); }
std::optional<ConstraintType> constraintTypeFromName(const std::string& name) {
  return valueNamed<ConstraintType>(name);
}
const std::vector<std::string>& constraintTypeNames() { return namesOf<ConstraintType>(); }

}  // namespace rlx
