// compile(): spec -> model. Validates every element, resolves names to indices, lays out the
// coordinates, evaluates numbers and compiles expressions (compile_functions.cpp).
#include "model/compiler.h"

#include "expr/node.h"
#include "joints/joints.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <regex>
#include <set>

namespace rlx {
namespace detail {
namespace {

bool isIdentifier(const std::string& name) {
  static const std::regex pattern("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(name, pattern);
}

const std::set<std::string>& reservedNames() {
  static const std::set<std::string> names{"ground", "t", "pi", "e", "deg"};
  return names;
}

}  // namespace

void Compiler::compileParameters() {
  // In order: a parameter may use the ones before it.
  for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
    const Parameter& p = spec.parameters[i];
    const std::string element = label("parameters", i, p.name);
    if (const auto value = number(p.value, element, "value")) parameters[p.name] = *value;
  }
}

void Compiler::checkNames() {
  std::map<std::string, std::string> owners;  // name -> element label
  const auto claim = [&](const std::string& name, const std::string& element) {
    if (name.empty()) return error(element, "name", "is missing");
    if (!isIdentifier(name))
      return error(element, "name",
                   "\"" + name + "\" is not an identifier (a letter or _, then letters, digits, _)");
    if (reservedNames().count(name))
      return error(element, "name", "\"" + name + "\" is reserved");
    const auto [it, inserted] = owners.emplace(name, element);
    if (!inserted) error(element, "name", "\"" + name + "\" is already used by " + it->second);
  };
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    claim(spec.parameters[i].name, label("parameters", i, spec.parameters[i].name));
  for (std::size_t i = 0; i < spec.bodies.size(); ++i)
    claim(spec.bodies[i].name, label("bodies", i, spec.bodies[i].name));
  for (std::size_t i = 0; i < spec.joints.size(); ++i)
    claim(spec.joints[i].name, label("joints", i, spec.joints[i].name));
  for (std::size_t i = 0; i < spec.motions.size(); ++i)
    claim(spec.motions[i].name, label("motions", i, spec.motions[i].name));
  for (std::size_t i = 0; i < spec.forces.size(); ++i)
    claim(spec.forces[i].name, label("forces", i, spec.forces[i].name));
  for (std::size_t i = 0; i < spec.constraints.size(); ++i)
    claim(spec.constraints[i].name, label("constraints", i, spec.constraints[i].name));
}

void Compiler::compileBodies() {
  if (model.dimension == 3) return compileSpatialBodies();
  const int n = model.dimension;
  const int dofs = model.bodyDofs();
  const auto count = static_cast<int>(spec.bodies.size());
  model.nq = model.nv = count * dofs;
  model.q0 = Eigen::VectorXd::Zero(model.nq);
  model.v0 = Eigen::VectorXd::Zero(model.nv);
  model.holdQ.assign(static_cast<std::size_t>(model.nv), false);
  model.holdV.assign(static_cast<std::size_t>(model.nv), false);
  bodies["ground"] = kGround;
  for (int i = 0; i < count; ++i) {
    const BodySpec& s = spec.bodies[static_cast<std::size_t>(i)];
    const std::string element = label("bodies", static_cast<std::size_t>(i), s.name);
    Body b;
    b.name = s.name;
    b.q = b.v = i * dofs;
    bodies[s.name] = i;
    // Mass and inertia.
    if (const auto m = number(s.mass, element, "mass")) {
      if (*m <= 0) error(element, "mass", "must be positive, got " + std::to_string(*m));
      b.mass = *m;
    }
    if (s.inertia.size() > 1)
      error(element, "inertia", "must be one number in 2-D, got " + std::to_string(s.inertia.size()));
    else if (s.inertia.size() == 1)
      if (const auto I = number(s.inertia[0], element, "inertia")) {
        if (*I < 0) error(element, "inertia", "must not be negative, got " + std::to_string(*I));
        b.inertia(2, 2) = *I;
      }
    // Initial guess: pose and velocity.
    if (!s.position.empty())
      if (const auto r = vector(s.position, n, element, "position")) model.q0.segment(b.q, n) = r->head(n);
    if (const auto angle = number(s.angle, element, "angle")) model.q0(b.q + 2) = *angle;
    if (!s.velocity.empty())
      if (const auto v = vector(s.velocity, n, element, "velocity")) model.v0.segment(b.v, n) = v->head(n);
    if (s.angularVelocity.size() > 1)
      error(element, "angular_velocity", "must be one number in 2-D");
    else if (s.angularVelocity.size() == 1)
      if (const auto w = number(s.angularVelocity[0], element, "angular_velocity")) model.v0(b.v + 2) = *w;
    // Held inputs.
    for (const std::string& h : s.hold) {
      const auto index = static_cast<std::size_t>(b.v);
      if (h == "x") model.holdQ[index] = true;
      else if (h == "y") model.holdQ[index + 1] = true;
      else if (h == "angle") model.holdQ[index + 2] = true;
      else if (h == "vx") model.holdV[index] = true;
      else if (h == "vy") model.holdV[index + 1] = true;
      else if (h == "angular_velocity") model.holdV[index + 2] = true;
      else error(element, "hold", "\"" + h + "\" cannot be held in 2-D (x y angle vx vy angular_velocity)");
    }
    checkShapeAxis(s, element);
    model.bodies.push_back(b);
  }
}

void Compiler::checkShapeAxis(const BodySpec& s, const std::string& element) {
  if (!s.shape.axis) return;
  if (const auto axis = vector(*s.shape.axis, model.dimension, element, "shape.axis");
      axis && !(axis->norm() > 1e-12))
    error(element, "shape.axis", "must not be zero (the direction of the " + s.shape.type + ")");
}

void Compiler::compileJoints() {
  int row = 0;
  for (std::size_t i = 0; i < spec.joints.size(); ++i) {
    const JointSpec& s = spec.joints[i];
    const std::string element = label("joints", i, s.name);
    Joint j;
    j.name = s.name;
    j.type = s.type;
    joints[s.name] = static_cast<int>(i);
    // Bodies.
    const auto b1 = bodies.find(s.body1), b2 = bodies.find(s.body2);
    if (b1 == bodies.end()) error(element, "body1", "names an unknown body \"" + s.body1 + "\"");
    if (b2 == bodies.end()) error(element, "body2", "names an unknown body \"" + s.body2 + "\"");
    if (b1 != bodies.end() && b2 != bodies.end()) {
      j.body1 = b1->second;
      j.body2 = b2->second;
      if (j.body1 == j.body2) error(element, "body2", "is the same body as body1");
    }
    // The family's rows in this dimension; its points and axes, in body coordinates.
    const JointFamily& family = jointFamily(s.type);
    const bool planar = model.dimension == 2;
    if (planar ? !family.planar : !family.spatial)
      error(element, "type", std::string("\"") + family.name + "\" needs a " +
                                 (planar ? "3-D" : "2-D") + " model");
    else
      j.rows = planar ? family.planar->rows : family.spatial->rows;
    const bool anyPoint = s.point1 || s.point2 || s.at;
    if (family.points == JointPoints::OwnOrigins) {
      if (s.at)
        error(element, "at", std::string("is not read by a ") + family.name +
                                 ": give point1 and point2 (each body's origin when not given)");
      if (s.point1)
        if (const auto p1 = vector(*s.point1, model.dimension, element, "point1")) j.s1 = *p1;
      if (s.point2)
        if (const auto p2 = vector(*s.point2, model.dimension, element, "point2")) j.s2 = *p2;
    } else if (family.points == JointPoints::Body1WhenGiven && (s.point1 || s.at)) {
      if (const auto p1 = bodyPoint(j.body1, s.point1, s.at, element, "point1", "at")) j.s1 = *p1;
    } else if (family.points == JointPoints::Both || anyPoint) {
      if (const auto p1 = bodyPoint(j.body1, s.point1, s.at, element, "point1", "at")) j.s1 = *p1;
      if (const auto p2 = bodyPoint(j.body2, s.point2, s.at, element, "point2", "at")) j.s2 = *p2;
    }
    const bool numbersOk = compileFamilyNumbers(s, j, element);
    if (planar && family.planar) compileCurves(s, j, element);
    if (!planar) {
      if (family.spatial) compileSpatialJointFrames(s, j, element, numbersOk);
    } else if (family.planar && family.planar->axis) {
      std::optional<Eigen::Vector3d> a1;
      if (s.axis1) a1 = vector(*s.axis1, model.dimension, element, "axis1");
      else if (s.axis) {
        if (const auto a = vector(*s.axis, model.dimension, element, "axis"))
          a1 = fileRotation(j.body1).transpose() * *a;
      } else error(element, "axis", "is missing (give axis, global, or axis1 in body1 coordinates)");
      if (a1 && a1->norm() < 1e-12) error(element, s.axis1 ? "axis1" : "axis", "must not be zero");
      else if (a1) j.a1 = a1->normalized();
    }
    // The file's configuration: the relative rotation, the coordinate's zero and the distance.
    const Eigen::Vector3d P1 = filePosition(j.body1) + fileRotation(j.body1) * j.s1;
    const Eigen::Vector3d P2 = filePosition(j.body2) + fileRotation(j.body2) * j.s2;
    const auto angleOf = [&](int b) { return b == kGround ? 0.0 : model.q0(model.bodies[static_cast<std::size_t>(b)].q + 2); };
    const auto fileBody = [&](int b) {
      planar::Body body;
      body.r = filePosition(b).head<2>();
      body.phi = angleOf(b);
      body.A = planar::rotation(body.phi);
      return body;
    };
    if (planar && family.planar) {
      j.angle0 = angleOf(j.body2) - angleOf(j.body1);
      if (family.planar->coordinate)
        j.q0 = family.planar->coordinate(j, fileBody(j.body1), fileBody(j.body2)).value;
      if (family.planar->prepare && numbersOk)
        if (const std::string why = family.planar->prepare(j, fileBody(j.body1), fileBody(j.body2));
            !why.empty())
          error(element, "", why);
    }
    if (family.length) {
      j.length = (P2 - P1).norm();
      if (s.length)
        if (const auto L = number(*s.length, element, "length")) j.length = *L;
      if (j.length <= 1e-12)
        error(element, "length", "must be positive (a zero distance is a revolute joint)");
    }
    j.row = row;
    row += j.rows;
    model.joints.push_back(j);
  }
  model.nh = row;
}

bool Compiler::compileFamilyNumbers(const JointSpec& s, Joint& j, const std::string& element) {
  const JointFamily& family = jointFamily(s.type);
  bool ok = true;
  for (std::size_t k = 0; k < family.numbers.size(); ++k) {
    const FamilyNumber& n = family.numbers[k];
    std::optional<double> value = n.fallback;
    if (const auto given = s.numbers.find(n.key); given != s.numbers.end())
      value = number(given->second, element, n.key);
    else if (std::isnan(n.fallback))
      error(element, n.key, std::string("is missing (") + n.meaning + ")");
    if (!value || std::isnan(*value)) {
      ok = false;
    } else if (n.rule == NumberRule::Positive && !(*value > 0 && std::isfinite(*value))) {
      error(element, n.key, "must be a positive number, got " + std::to_string(*value));
      ok = false;
    } else if (n.rule == NumberRule::NonZero && (*value == 0 || !std::isfinite(*value))) {
      error(element, n.key, "must be a non-zero number, got " + std::to_string(*value));
      ok = false;
    } else if (n.rule == NumberRule::AcuteAngle &&
               !(*value >= 0 && *value < std::numbers::pi / 2)) {
      error(element, n.key,
            "must be an angle from 0 up to 90 degrees (pi/2, not included), got " +
                std::to_string(*value) + " rad");
      ok = false;
    } else {
      j.numbers[k] = *value;
    }
  }
  return ok;
}

void Compiler::compileMotions() {
  std::map<std::string, std::string> driven;  // what is driven -> motion label
  for (std::size_t i = 0; i < spec.motions.size(); ++i) {
    const MotionSpec& s = spec.motions[i];
    const std::string element = label("motions", i, s.name);
    Motion m;
    m.name = s.name;
    std::string target;
    if (!s.joint.empty()) {
      if (!s.body.empty() || !s.coordinate.empty())
        error(element, "joint", "and body/coordinate are exclusive: a motion drives a joint or a body coordinate");
      const auto j = joints.find(s.joint);
      if (j == joints.end()) {
        error(element, "joint", "names an unknown joint \"" + s.joint + "\"");
      } else if (!hasCoordinate(spec.joints[static_cast<std::size_t>(j->second)].type)) {
        error(element, "joint", std::string("\"") + s.joint + "\" is a " +
                                    jointTypeName(spec.joints[static_cast<std::size_t>(j->second)].type) +
                                    " joint, which has no coordinate to drive");
      } else {
        m.joint = j->second;
        target = "joint \"" + s.joint + "\"";
      }
    } else {
      const auto b = bodies.find(s.body);
      if (s.body.empty()) error(element, "body", "is missing (a motion drives a joint or a body coordinate)");
      else if (b == bodies.end()) error(element, "body", "names an unknown body \"" + s.body + "\"");
      else if (b->second == kGround) error(element, "body", "cannot be ground, which does not move");
      else m.body = b->second;
      const bool spatial = model.dimension == 3;
      if (s.coordinate == "x") m.coordinate = Axis::X;
      else if (s.coordinate == "y") m.coordinate = Axis::Y;
      else if (s.coordinate == "z" && spatial) m.coordinate = Axis::Z;
      else if (s.coordinate == "angle" && !spatial) m.coordinate = Axis::Angle;
      else if (spatial) error(element, "coordinate", "must be x, y or z in 3-D, got \"" + s.coordinate + "\"");
      else error(element, "coordinate", "must be x, y or angle in 2-D, got \"" + s.coordinate + "\"");
      if (s.point || s.at)
        if (const auto p = bodyPoint(m.body, s.point, s.at, element, "point", "at")) m.point = *p;
      if (m.coordinate == Axis::Angle) m.point.setZero();
      target = "the " + s.coordinate + " of body \"" + s.body + "\"";
      if (m.coordinate != Axis::Angle)
        target += " at (" + std::to_string(m.point.x()) + ", " + std::to_string(m.point.y()) +
                  (spatial ? ", " + std::to_string(m.point.z()) : std::string()) + ")";
    }
    // One motion per coordinate: a second one over-drives it.
    if (!target.empty()) {
      const auto [it, inserted] = driven.emplace(target, element);
      if (!inserted) error(element, "", "over-drives " + target + ", which " + it->second + " already drives");
      if (m.joint >= 0) model.joints[static_cast<std::size_t>(m.joint)].motion = static_cast<int>(i);
    }
    LocalNames locals;
    locals.allowState = false;
    if (auto f = function(s.function, locals, element, "function")) m.function = std::move(*f);
    m.row = model.nh++;
    model.motions.push_back(std::move(m));
  }
}

void Compiler::compileAnalysis() {
  const AnalysisSpec a = spec.analysis.value_or(AnalysisSpec{});
  const std::string element = "analysis";
  model.analysis = a.type;
  const auto positive = [&](const Number& n, const char* field, double& out) {
    if (const auto v = number(n, element, field)) {
      if (*v <= 0) error(element, field, "must be positive, got " + std::to_string(*v));
      else out = *v;
    }
  };
  positive(a.endTime, "end_time", model.endTime);
  positive(a.step, "step", model.step);
  model.outputStep = model.step;
  if (a.outputStep) positive(*a.outputStep, "output_step", model.outputStep);
  positive(a.tolerance, "tolerance", model.tolerance);
  if (const auto integrator = integratorFromName(a.integrator))
    model.integrator = *integrator;
  else
    error(element, "integrator",
          "\"" + a.integrator + "\" is unknown (" + integratorNameList() + ")");
  model.variableStep = a.variableStep;
  model.energyCorrection = a.energyCorrection;
  if (const auto alpha = number(a.hhtAlpha, element, "hht_alpha")) {
    if (hhtAlphaInRange(*alpha)) model.hhtAlpha = *alpha;
    else error(element, "hht_alpha", "must be in [-1/3, 0], got " + expr::numberText(*alpha));
  }
}

}  // namespace detail

CompileResult compile(const Spec& spec) {
  detail::Compiler c(spec);
  c.model.name = spec.name;
  c.model.description = spec.description;
  c.model.dimension = spec.dimension;
  if (spec.dimension != 2 && spec.dimension != 3) {
    c.error("model", "dimension", "must be 2 or 3, got " + std::to_string(spec.dimension));
    return {std::nullopt, c.diagnostics};
  }
  if (spec.dimension == 3) c.model.gravity = Eigen::Vector3d(0, 0, -9.81);
  c.checkNames();
  c.compileParameters();
  if (spec.gravity)
    if (const auto g = c.vector(*spec.gravity, spec.dimension, "model", "gravity")) c.model.gravity = *g;
  c.compileBodies();
  c.compileJoints();
  c.compileMotions();
  c.compileForces();
  c.compileConstraints();
  c.compileAnalysis();
  // Nonholonomic rows after every holonomic one: the joints' velocity rows (a rolling disk's
  // no-slip rows).
  for (Joint& j : c.model.joints)
    if (const SpatialFamily* family = jointFamily(j.type).spatial;
        spec.dimension == 3 && family && family->velocityRows > 0) {
      j.velocityRow = c.model.nh + c.model.nn;
      c.model.nn += family->velocityRows;
    }
  // Row names for messages and results: "pin.x", "slide.angle", "drive".
  for (const Joint& j : c.model.joints)
    for (int r = 0; r < j.rows; ++r) {
      c.model.rowNames.push_back(j.name + "." + jointRowName(j.type, r, spec.dimension));
      c.model.rowOwners.push_back(j.name);
    }
  for (const Motion& m : c.model.motions) {
    c.model.rowNames.push_back(m.name);
    c.model.rowOwners.push_back(m.name);
  }
  c.nameConstraintRows();
  for (const Joint& j : c.model.joints)
    for (int r = j.rows; j.velocityRow >= 0 && r < j.rows + jointFamily(j.type).spatial->velocityRows; ++r) {
      c.model.rowNames.push_back(j.name + "." + jointRowName(j.type, r, spec.dimension));
      c.model.rowOwners.push_back(j.name);
    }
  if (hasErrors(c.diagnostics)) return {std::nullopt, c.diagnostics};
  return {std::move(c.model), c.diagnostics};
}

}  // namespace rlx
