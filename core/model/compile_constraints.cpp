// compile(): user-defined constraints. Holonomic rows follow the joints and motions in Phi; the
// nonholonomic rows come after every holonomic row (rows nh ... nh + nn - 1 of Phi_q).
// An equation is an expression of t, parameters and measures (compile_functions.cpp). Checks:
// a holonomic equation uses no velocity and depends on some position; a nonholonomic one uses
// some velocity and is linear in the velocities: every second derivative with respect to two
// velocity variables simplifies to the constant 0 (solve/equations/user_constraints.h derives the
// rest).
#include "model/compiler.h"

#include "expr/node.h"
#include "joints/family.h"
#include "joints/joints.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>

namespace rlx::detail {
namespace {

bool isZero(const expr::Expr& e) {
  const auto value = expr::constantValue(e);
  return value && *value == 0.0;
}

// Slot k >= 1 is measure k - 1; slot 0 (t) is no velocity.
bool isVelocitySlot(const Model& model, int slot) {
  return slot > 0 && isVelocityMeasure(model.measures[static_cast<std::size_t>(slot - 1)].kind);
}

const std::string& slotName(const Model& model, int slot) {
  return model.measures[static_cast<std::size_t>(slot - 1)].name;
}

// Why the equation does not fit its constraint type, or "" when it does.
std::string checkEquation(const Model& model, const Function& f, bool nonholonomic) {
  // In 3-D a turning joint's angle is known only modulo 2 pi (a coupler's wrapped sum is the
  // exception), and a joint's rate lacks the curvature a nonholonomic row needs.
  for (const int slot : f.variables) {
    if (slot == 0 || model.dimension != 3) continue;
    const Measure& m = model.measures[static_cast<std::size_t>(slot - 1)];
    if (m.kind != MeasureKind::JointQ && m.kind != MeasureKind::JointQd) continue;
    const JointType type = model.joints[static_cast<std::size_t>(m.joint)].type;
    if (m.kind == MeasureKind::JointQ && coordinateIsAngle(type))
      return "uses " + m.name +
             ": a turning joint's angle cannot enter a 3-D equation (it is "
             "known only modulo 2 pi); relate turning joints with a coupler, or write it with the "
             "bodies' measures (B.x ... B.R33)";
    if (m.kind == MeasureKind::JointQd && nonholonomic)
      return "uses " + m.name +
             ": a joint's rate cannot enter a 3-D nonholonomic equation yet; "
             "write it with the bodies' velocities (B.vx ... B.wz)";
  }
  const auto velocity = std::find_if(f.variables.begin(), f.variables.end(),
                                     [&](int slot) { return isVelocitySlot(model, slot); });
  if (!nonholonomic) {
    if (velocity != f.variables.end())
      return "uses the velocity " + slotName(model, *velocity) +
             ": a holonomic equation depends on positions and t only (declare the constraint "
             "nonholonomic)";
    if (std::none_of(f.variables.begin(), f.variables.end(), [](int slot) { return slot > 0; }))
      return "does not depend on any position: it constrains nothing";
    return {};
  }
  if (velocity == f.variables.end())
    return "uses no velocity: a nonholonomic equation is linear in the velocities (declare an "
           "equation of positions holonomic)";
  for (std::size_t i = 0; i < f.variables.size(); ++i) {
    if (!isVelocitySlot(model, f.variables[i])) continue;
    if (!isZero(f.dd[i][i])) return "is not linear in " + slotName(model, f.variables[i]);
    for (std::size_t j = 0; j < f.variables.size(); ++j)
      if (j != i && isVelocitySlot(model, f.variables[j]) && !isZero(f.dd[i][j]))
        return "is not linear in the velocities: it multiplies " + slotName(model, f.variables[i]) +
               " and " + slotName(model, f.variables[j]);
  }
  return {};
}

// Whether a nonholonomic equation has b = 0: it vanishes with every velocity set to zero.
bool homogeneous(const Model& model, const std::map<std::string, double>& parameters,
                 const std::string& text) {
  expr::ParseError parseError;
  const expr::Expr parsed = expr::parse(text, &parseError);
  const auto resolve = [&](const std::string& name) -> expr::Binding {
    if (auto it = parameters.find(name); it != parameters.end()) return it->second;
    if (name.rfind("ground.", 0) == 0) return 0.0;  // ground is at rest at the origin
    for (const Measure& m : model.measures)
      if (m.name == name && isVelocityMeasure(m.kind)) return 0.0;
    return 1;  // a position or t: any slot
  };
  std::string bindError;
  const expr::Expr zeroVelocity = parsed ? expr::bind(parsed, resolve, &bindError) : nullptr;
  return zeroVelocity && isZero(zeroVelocity);
}

// The bodies a measure moves with.
void addBodies(const Model& model, const Measure& m, std::set<int>& bodies) {
  const auto add = [&](int body) {
    if (body != kGround) bodies.insert(body);
  };
  if (m.joint >= 0) {
    add(model.joints[static_cast<std::size_t>(m.joint)].body1);
    add(model.joints[static_cast<std::size_t>(m.joint)].body2);
  } else {
    add(m.body);
  }
}

}  // namespace

void Compiler::compileConstraints() {
  // In file order; holonomic rows now, nonholonomic ones once every holonomic row is counted.
  int nonholonomicRows = 0;
  for (std::size_t i = 0; i < spec.constraints.size(); ++i) {
    const ConstraintSpec& s = spec.constraints[i];
    const std::string element = label("constraints", i, s.name);
    UserConstraint c;
    c.name = s.name;
    c.nonholonomic = s.type == ConstraintType::Nonholonomic;
    std::set<int> involved;
    if (s.type == ConstraintType::Coupler) {
      if (coupler(s, element, c))
        for (const int slot : c.equations.front().variables)
          addBodies(model, model.measures[static_cast<std::size_t>(slot - 1)], involved);
    } else if (s.equations.empty()) {
      error(element, "equations", "is empty: give at least one equation");
    }
    for (std::size_t e = 0; e < s.equations.size(); ++e) {
      const std::string field = "equation " + std::to_string(e + 1);
      auto f = function(s.equations[e], LocalNames{}, element, field);
      if (!f) continue;
      if (const std::string why = checkEquation(model, *f, c.nonholonomic); !why.empty()) {
        error(element, field, why);
        continue;
      }
      for (const int slot : f->variables)
        if (slot > 0)
          addBodies(model, model.measures[static_cast<std::size_t>(slot - 1)], involved);
      const bool usesTime = !f->variables.empty() && f->variables.front() == 0;
      c.doesWork = c.doesWork || usesTime ||
                   (c.nonholonomic && !homogeneous(model, parameters, s.equations[e]));
      c.equations.push_back(std::move(*f));
    }
    c.bodies.assign(involved.begin(), involved.end());
    const auto rows = static_cast<int>(c.equations.size());
    int& next = c.nonholonomic ? nonholonomicRows : model.nh;
    c.row = next;
    next += rows;
    model.constraints.push_back(std::move(c));
  }
  for (UserConstraint& c : model.constraints)
    if (c.nonholonomic) c.row += model.nh;
  model.nn = nonholonomicRows;
}

bool Compiler::coupler(const ConstraintSpec& s, const std::string& element, UserConstraint& c) {
  if (s.joints.size() < 2 || s.joints.size() > 3 || s.ratios.size() != s.joints.size())
    return false;  // the reader has said why
  // c1*q1 + c2*q2 (+ c3*q3), the q's bound to the joints' coordinates and the c's to the ratios.
  std::string pattern, text;
  std::map<std::string, expr::Binding> names;
  bool ok = true, anyRatio = false;
  std::vector<double> turning;  // the turning joints' ratios
  for (std::size_t i = 0; i < s.joints.size(); ++i) {
    const std::string k = std::to_string(i + 1);
    const auto ratio = number(s.ratios[i], element, "ratios[" + std::to_string(i) + "]");
    const auto joint = joints.find(s.joints[i]);
    if (joint == joints.end()) {
      error(element, "joints[" + std::to_string(i) + "]", "names an unknown joint \"" + s.joints[i] + "\"");
      ok = false;
    } else if (!hasCoordinate(model.joints[static_cast<std::size_t>(joint->second)].type)) {
      error(element, "joints[" + std::to_string(i) + "]",
            "\"" + s.joints[i] + "\" is a " +
                jointTypeName(model.joints[static_cast<std::size_t>(joint->second)].type) +
                " joint, which has no coordinate to couple");
      ok = false;
    }
    if (!ratio || !ok) {
      ok = false;
      continue;
    }
    Measure m;
    m.kind = MeasureKind::JointQ;
    m.joint = joint->second;
    m.name = s.joints[i] + ".q";
    names["c" + k] = *ratio;
    names["q" + k] = slotOf(m);
    pattern += (i ? " + c" : "c") + k + "*q" + k;
    text += (i ? " + " : "") + expr::numberText(*ratio) + "*" + m.name;
    anyRatio = anyRatio || *ratio != 0;
    if (coordinateIsAngle(model.joints[static_cast<std::size_t>(m.joint)].type) && *ratio != 0)
      turning.push_back(std::abs(*ratio));
  }
  if (!ok) return false;
  if (!anyRatio) {
    error(element, "ratios", "are all zero: the coupler relates nothing");
    return false;
  }
  if (model.dimension == 3 && !turning.empty()) {
    // Each angle is known modulo 2 pi, so the sum modulo 2 pi g, g the largest number whose
    // whole multiples the turning joints' ratios are.
    double g = turning.front();
    for (std::size_t i = 1; i < turning.size(); ++i) {
      const long long p = wholeRatio(g, turning[i]).first;
      if (p == 0) {
        error(element, "ratios",
              "of the turning joints must be in a ratio of whole numbers up to " +
                  std::to_string(kMaxWholeRatio) +
                  " in 3-D (an angle there is known only "
                  "modulo 2 pi), got " +
                  expr::numberText(turning.front()) + " : " + expr::numberText(turning[i]));
        return false;
      }
      g /= static_cast<double>(p);
    }
    c.period = 2 * std::numbers::pi * g;
  }
  std::string bindError;
  const expr::Expr bound = expr::bind(expr::parse(pattern, nullptr), [&](const std::string& name) {
    return names.at(name);
  }, &bindError);
  c.equations.push_back(compiled(text, bound));
  return true;
}

void Compiler::nameConstraintRows() {
  // In row order: the holonomic constraints, then the nonholonomic ones.
  for (const bool nonholonomic : {false, true})
    for (const UserConstraint& c : model.constraints)
      if (c.nonholonomic == nonholonomic)
        for (std::size_t e = 0; e < c.equations.size(); ++e) {
          model.rowNames.push_back(c.name + "." + std::to_string(e + 1));
          model.rowOwners.push_back(c.name);
        }
}

}  // namespace rlx::detail
