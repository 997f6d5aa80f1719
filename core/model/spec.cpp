#include "model/spec.h"

#include "joints/family.h"

#include <array>
#include <utility>

namespace rlx {
namespace {

constexpr std::array<std::pair<ForceType, const char*>, 5> kForceNames{{
    {ForceType::SpringDamper, "spring_damper"},
    {ForceType::TorsionSpring, "torsion_spring"},
    {ForceType::Force, "force"},
    {ForceType::Torque, "torque"},
    {ForceType::JointForce, "joint_force"},
}};

constexpr std::array<std::pair<AnalysisType, const char*>, 4> kAnalysisNames{{
    {AnalysisType::Assembly, "assembly"},
    {AnalysisType::Kinematics, "kinematics"},
    {AnalysisType::Statics, "statics"},
    {AnalysisType::Dynamics, "dynamics"},
}};

template <typename Enum, std::size_t N>
const char* nameOf(const std::array<std::pair<Enum, const char*>, N>& table, Enum value) {
  for (const auto& [e, name] : table)
    if (e == value) return name;
  return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, const char*>, N>& table,
                            const std::string& name) {
  for (const auto& [e, n] : table)
    if (name == n) return e;
  return std::nullopt;
}

}  // namespace

const char* jointTypeName(JointType type) { return jointFamily(type).name; }
std::optional<JointType> jointTypeFromName(const std::string& name) { return jointTypeNamed(name); }
const char* forceTypeName(ForceType type) { return nameOf(kForceNames, type); }
std::optional<ForceType> forceTypeFromName(const std::string& name) { return valueOf(kForceNames, name); }
const char* analysisTypeName(AnalysisType type) { return nameOf(kAnalysisNames, type); }
std::optional<AnalysisType> analysisTypeFromName(const std::string& name) {
  return valueOf(kAnalysisNames, name);
}

}  // namespace rlx
