// compile(): force elements. Each is checked and resolved here; solve/equations/forces.cpp
// evaluates them.
#include "model/compiler.h"

#include "joints/joints.h"

namespace rlx::detail {

void Compiler::compileForces() {
  const int n = model.dimension;
  for (std::size_t i = 0; i < spec.forces.size(); ++i) {
    const ForceSpec& s = spec.forces[i];
    const std::string element = label("forces", i, s.name);
    Force f;
    f.name = s.name;
    f.type = s.type;
    const auto findBody = [&](const std::string& name, const char* field, bool allowGround) {
      const auto it = bodies.find(name);
      if (name.empty()) error(element, field, "is missing");
      else if (it == bodies.end()) error(element, field, "names an unknown body \"" + name + "\"");
      else if (!allowGround && it->second == kGround) error(element, field, "cannot be ground");
      else return it->second;
      return kGround;
    };
    const auto findJoint = [&](const char* field) {
      const auto it = joints.find(s.joint);
      if (s.joint.empty()) error(element, field, "is missing");
      else if (it == joints.end()) error(element, field, "names an unknown joint \"" + s.joint + "\"");
      else if (!hasCoordinate(model.joints[static_cast<std::size_t>(it->second)].type))
        error(element, field, "\"" + s.joint + "\" has no coordinate for the force to act along");
      else return it->second;
      return -1;
    };
    const auto optionalNumber = [&](const std::optional<Number>& value, const char* field, double& out) {
      if (value)
        if (const auto v = number(*value, element, field)) out = *v;
    };
    const auto nonNegative = [&](double value, const char* field) {
      if (value < 0) error(element, field, "must not be negative, got " + std::to_string(value));
    };
    LocalNames locals;
    switch (s.type) {
      case ForceType::SpringDamper: {
        f.body1 = findBody(s.body1, "body1", true);
        f.body2 = findBody(s.body2, "body2", true);
        if (const auto p = bodyPoint(f.body1, s.point1, s.at1, element, "point1", "at1")) f.s1 = *p;
        if (const auto p = bodyPoint(f.body2, s.point2, s.at2, element, "point2", "at2")) f.s2 = *p;
        f.freeLength = ((filePosition(f.body2) + fileRotation(f.body2) * f.s2) -
                        (filePosition(f.body1) + fileRotation(f.body1) * f.s1)).norm();
        optionalNumber(s.stiffness, "stiffness", f.stiffness);
        optionalNumber(s.damping, "damping", f.damping);
        optionalNumber(s.freeLength, "free_length", f.freeLength);
        optionalNumber(s.preload, "preload", f.preload);
        nonNegative(f.stiffness, "stiffness");
        nonNegative(f.damping, "damping");
        nonNegative(f.freeLength, "free_length");
        if (!s.function.empty()) {
          locals.spring = static_cast<int>(i);
          if (auto law = function(s.function, locals, element, "function")) {
            f.hasLaw = true;
            f.functions.push_back(std::move(*law));
          }
        }
        break;
      }
      case ForceType::TorsionSpring:
        f.joint = findJoint("joint");
        optionalNumber(s.stiffness, "stiffness", f.stiffness);
        optionalNumber(s.damping, "damping", f.damping);
        optionalNumber(s.freeAngle, "free_angle", f.freeAngle);
        optionalNumber(s.preload, "preload", f.preload);
        nonNegative(f.stiffness, "stiffness");
        nonNegative(f.damping, "damping");
        break;
      case ForceType::Force:
        f.body2 = findBody(s.body, "body", false);
        if (s.point || s.at)  // default: the centre of mass
          if (const auto p = bodyPoint(f.body2, s.point, s.at, element, "point", "at")) f.s2 = *p;
        if (static_cast<int>(s.vector.size()) != n)
          error(element, "vector", "must have " + std::to_string(n) + " expressions, got " +
                                       std::to_string(s.vector.size()));
        for (std::size_t k = 0; k < s.vector.size(); ++k)
          if (auto c = function(s.vector[k], locals, element, "vector[" + std::to_string(k) + "]"))
            f.functions.push_back(std::move(*c));
        if (s.frame != "global" && s.frame != "body")
          error(element, "frame", "must be global or body, got \"" + s.frame + "\"");
        f.bodyFrame = s.frame == "body";
        break;
      case ForceType::Torque:
        f.body2 = findBody(s.body, "body", false);
        if (n == 3) {
          if (s.vector.size() != 3)
            error(element, "vector", "must have 3 expressions, got " + std::to_string(s.vector.size()));
          for (std::size_t k = 0; k < s.vector.size(); ++k)
            if (auto c = function(s.vector[k], locals, element, "vector[" + std::to_string(k) + "]"))
              f.functions.push_back(std::move(*c));
          if (s.frame != "global" && s.frame != "body")
            error(element, "frame", "must be global or body, got \"" + s.frame + "\"");
          f.bodyFrame = s.frame == "body";
        } else if (s.value.empty()) error(element, "value", "is missing");
        else if (auto c = function(s.value, locals, element, "value")) f.functions.push_back(std::move(*c));
        break;
      case ForceType::JointForce:
        f.joint = findJoint("joint");
        locals.joint = f.joint;
        if (s.value.empty()) error(element, "value", "is missing");
        else if (f.joint >= 0)
          if (auto c = function(s.value, locals, element, "value")) f.functions.push_back(std::move(*c));
        break;
      case ForceType::Limit:
        f.joint = findJoint("joint");
        compileLimit(s, element, f);
        break;
    }
    model.forces.push_back(std::move(f));
  }
}

// An end stop's bounds and contact law (solve/equations/stop_law.h).
void Compiler::compileLimit(const ForceSpec& s, const std::string& element, Force& f) {
  const auto read = [&](const std::optional<Number>& value, const char* field, double& out) {
    if (!value) return false;
    if (const auto v = number(*value, element, field)) out = *v;
    return true;
  };
  const bool lower = read(s.lower, "lower", f.lower), upper = read(s.upper, "upper", f.upper);
  if (!lower && !upper) error(element, "lower", "is missing: a limit needs lower, upper or both");
  else if (lower && upper && !(f.lower < f.upper))
    error(element, "upper", "must be greater than lower (" + std::to_string(f.lower) + "), got " +
                                std::to_string(f.upper));
  if (!read(s.stiffness, "stiffness", f.stiffness)) error(element, "stiffness", "is missing");
  else if (!(f.stiffness > 0)) error(element, "stiffness", "must be positive, got " + std::to_string(f.stiffness));
  read(s.damping, "damping", f.damping);
  if (f.damping < 0) error(element, "damping", "must not be negative, got " + std::to_string(f.damping));
  read(s.exponent, "exponent", f.exponent);
  if (!(f.exponent >= 1))
    error(element, "exponent", "must be at least 1 (below 1 the stiffness is infinite at first contact), got " +
                                   std::to_string(f.exponent));
  read(s.penetration, "penetration", f.penetration);
  if (!(f.penetration > 0))
    error(element, "penetration", "must be positive, got " + std::to_string(f.penetration));
}

}  // namespace rlx::detail
