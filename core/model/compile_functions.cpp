// compile(): numbers, vectors and expressions, and the measures expressions refer to.
#include "model/compiler.h"
#include "joints/joints.h"
#include "model/number_value.h"

#include <cmath>

namespace rlx::detail {
namespace {

std::optional<MeasureKind> bodyMeasure(const std::string& field, int dimension) {
  // Spatial rotation matrix entries R11 ... R33.
  if (dimension == 3 && field.size() == 3 && field[0] == 'R' && field[1] >= '1' && field[1] <= '3' &&
      field[2] >= '1' && field[2] <= '3')
    return MeasureKind::BodyR;
  struct Entry {
    const char* name;
    MeasureKind kind;
    int dimensions;  // 2: planar only, 3: spatial only, 0: both
  };
  static const Entry table[] = {
      {"x", MeasureKind::BodyX, 0},      {"y", MeasureKind::BodyY, 0},
      {"z", MeasureKind::BodyZ, 3},      {"angle", MeasureKind::BodyAngle, 2},
      {"vx", MeasureKind::BodyVx, 0},    {"vy", MeasureKind::BodyVy, 0},
      {"vz", MeasureKind::BodyVz, 3},    {"omega", MeasureKind::BodyOmega, 2},
      {"wx", MeasureKind::BodyWx, 3},    {"wy", MeasureKind::BodyWy, 3},
      {"wz", MeasureKind::BodyWz, 3},
  };
  for (const Entry& e : table)
    if (field == e.name && (e.dimensions == 0 || e.dimensions == dimension)) return e.kind;
  return std::nullopt;
}

}  // namespace

int Compiler::slotOf(const Measure& measure) {
  for (std::size_t k = 0; k < model.measures.size(); ++k)
    if (model.measures[k].name == measure.name) return static_cast<int>(k) + 1;
  model.measures.push_back(measure);
  return static_cast<int>(model.measures.size());
}

std::string label(const char* list, std::size_t index, const std::string& name) {
  std::string out = std::string(list) + "[" + std::to_string(index) + "]";
  if (!name.empty()) out += " \"" + name + "\"";
  return out;
}

void Compiler::error(const std::string& element, const std::string& field,
                     const std::string& message) {
  diagnostics.push_back({Severity::Error, element, field, message});
}

std::optional<double> Compiler::number(const Number& n, const std::string& element,
                                       const std::string& field) {
  NumberValue result = evaluateNumber(n, parameters);
  if (!result.value) error(element, field, result.error);
  return result.value;
}

std::optional<Eigen::Vector3d> Compiler::vector(const Vector& v, int size,
                                                const std::string& element,
                                                const std::string& field) {
  if (static_cast<int>(v.size()) != size) {
    error(element, field,
          "must have " + std::to_string(size) + " numbers, got " + std::to_string(v.size()));
    return std::nullopt;
  }
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  bool ok = true;
  for (int i = 0; i < size; ++i) {
    const auto value = number(v[static_cast<std::size_t>(i)], element, field);
    if (value) out(i) = *value;
    ok = ok && value.has_value();
  }
  if (!ok) return std::nullopt;
  return out;
}

expr::Expr Compiler::parsed(const std::string& text, const std::string& element,
                            const std::string& field) {
  expr::ParseError parseError;
  expr::Expr tree = expr::parse(text, &parseError);
  if (!tree)
    error(element, field, "has a syntax error in \"" + text + "\" at column " +
                              std::to_string(parseError.column) + ": " + parseError.message);
  return tree;
}

std::optional<Function> Compiler::function(const std::string& text, const LocalNames& locals,
                                           const std::string& element, const std::string& field) {
  const expr::Expr tree = parsed(text, element, field);
  if (!tree) return std::nullopt;
  std::string problem;  // a reason more specific than "unknown variable"
  const auto resolve = [&](const std::string& name) -> expr::Binding {
    if (auto it = parameters.find(name); it != parameters.end()) return it->second;
    if (name == "t") {
      if (locals.allowTime) return 0;
      problem = "must not depend on time";
      return std::monostate{};
    }
    if (locals.spring >= 0 && (name == "length" || name == "rate")) {
      Measure m;
      m.kind = name == "length" ? MeasureKind::SpringLength : MeasureKind::SpringRate;
      m.force = locals.spring;
      m.name = spec.forces[static_cast<std::size_t>(locals.spring)].name + "." + name;
      return slotOf(m);
    }
    if (locals.joint >= 0 && (name == "q" || name == "qd")) {
      Measure m;
      m.kind = name == "q" ? MeasureKind::JointQ : MeasureKind::JointQd;
      m.joint = locals.joint;
      m.name = model.joints[static_cast<std::size_t>(locals.joint)].name + "." + name;
      return slotOf(m);
    }
    const auto dot = name.find('.');
    if (dot == std::string::npos) return std::monostate{};
    const std::string owner = name.substr(0, dot), member = name.substr(dot + 1);
    Measure m;
    m.name = name;
    if (auto b = bodies.find(owner); b != bodies.end()) {
      const auto kind = bodyMeasure(member, model.dimension);
      if (!kind) {
        problem = "\"" + member + "\" is not a variable of a body in " +
                  std::to_string(model.dimension) + "-D";
        return std::monostate{};
      }
      if (b->second == kGround) return 0.0;  // ground stays at the origin, at rest
      m.kind = *kind;
      m.body = b->second;
      if (m.kind == MeasureKind::BodyR) m.component = 3 * (member[1] - '1') + (member[2] - '1');
    } else if (auto j = joints.find(owner); j != joints.end()) {
      if (member != "q" && member != "qd") {
        problem = "a joint has the variables q and qd, not \"" + member + "\"";
        return std::monostate{};
      }
      if (!hasCoordinate(model.joints[static_cast<std::size_t>(j->second)].type)) {
        problem = "joint \"" + owner + "\" has no coordinate q";
        return std::monostate{};
      }
      m.kind = member == "q" ? MeasureKind::JointQ : MeasureKind::JointQd;
      m.joint = j->second;
    } else {
      return std::monostate{};
    }
    if (!locals.allowState) {
      problem = "may depend only on t and parameters, not on \"" + name + "\"";
      return std::monostate{};
    }
    return slotOf(m);
  };
  std::string bindError;
  const expr::Expr bound = expr::bind(tree, resolve, &bindError);
  if (!bound) {
    error(element, field, "\"" + text + "\": " + (problem.empty() ? bindError : problem));
    return std::nullopt;
  }
  return compiled(text, bound);
}

Function Compiler::compiled(const std::string& text, const expr::Expr& bound) const {
  // The slots it depends on and the derivatives with respect to them.
  Function f;
  f.text = text;
  f.value = bound;
  for (int slot = 0; slot <= static_cast<int>(model.measures.size()); ++slot)
    if (expr::dependsOn(bound, slot)) f.variables.push_back(slot);
  for (const int i : f.variables) {
    f.d.push_back(expr::differentiate(bound, i));
    std::vector<expr::Expr> row;
    for (const int j : f.variables) row.push_back(expr::differentiate(f.d.back(), j));
    f.dd.push_back(std::move(row));
  }
  return f;
}

Eigen::Vector3d Compiler::filePosition(int body) const {
  if (body == kGround) return Eigen::Vector3d::Zero();
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  if (model.dimension == 3) return model.q0.segment<3>(b.q);
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  r.head<2>() = model.q0.segment<2>(b.q);
  return r;
}

Eigen::Matrix3d Compiler::fileRotation(int body) const {
  if (body == kGround) return Eigen::Matrix3d::Identity();
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  if (model.dimension == 3)
    return Eigen::Quaterniond(model.q0(b.q + 3), model.q0(b.q + 4), model.q0(b.q + 5), model.q0(b.q + 6))
        .toRotationMatrix();
  return Eigen::AngleAxisd(model.q0(b.q + 2), Eigen::Vector3d::UnitZ()).toRotationMatrix();
}

std::optional<Eigen::Vector3d> Compiler::bodyPoint(int body, const std::optional<Vector>& point,
                                                   const std::optional<Vector>& at,
                                                   const std::string& element,
                                                   const std::string& pointField,
                                                   const std::string& atField) {
  const int n = model.dimension;
  if (point) return vector(*point, n, element, pointField);
  if (at) {
    const auto global = vector(*at, n, element, atField);
    if (!global) return std::nullopt;
    return Eigen::Vector3d(fileRotation(body).transpose() * (*global - filePosition(body)));
  }
  error(element, pointField, "is missing (give " + pointField + " in body coordinates or " +
                                 atField + " in global coordinates)");
  return std::nullopt;
}

}  // namespace rlx::detail
