// simEngine2D (ME451) .adm/.acf import. The mapping and every interpretation behind it is in
// docs/simengine2d-import.md; the reference is the MATLAB code of simEngine2D (MBsys.m reads the
// .adm, SimEngine2D.m the .acf).

#include "io/identifiers.h"
#include "io/matlab_expression.h"
#include "io/model_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace rlx {
namespace {

using Json = nlohmann::ordered_json;

// simEngine2D defaults (MBsys.m): the model name and the gravitational acceleration.
constexpr const char* kDefaultModelName = "model";
constexpr double kDefaultGravity[2] = {0.0, -9.81};

constexpr double kPi = 3.14159265358979323846;

constexpr const char* kAnalysisElement = "analysis (.acf)";

void addDiagnostic(Diagnostics& out, Severity severity, std::string element, std::string field,
                   std::string message) {
  out.push_back({severity, std::move(element), std::move(field), std::move(message)});
}

std::string inQuotes(const std::string& text) {
  return "\"" + text + "\"";
}

// Shortest text that reads back as the same double.
std::string shortest(double value) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

// A number inside an expression: negative numbers in parentheses so that they fit anywhere.
std::string literal(double value) {
  return value < 0 ? "(" + shortest(value) + ")" : shortest(value);
}

// "0", "0.0", "0e3": a function that is the constant zero as written.
bool isZeroLiteral(const std::string& text) {
  double value = 1.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  return result.ec == std::errc() && result.ptr == text.data() + text.size() && value == 0.0;
}

std::string jsonTypeName(const Json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string " + inQuotes(value.get<std::string>());
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  if (value.is_boolean()) return "a boolean";
  return "null";
}

// Parses JSON text; a syntax error becomes one diagnostic with the line and column.
std::optional<Json> parseJson(std::string_view text, const std::string& element, Diagnostics& out) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // e.byte is the 1-based offset of the character where parsing stopped.
    const std::size_t offset = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
      if (text[i] == '\n') {
        ++line;
        lineStart = i + 1;
      }
    }
    const std::string what = e.what();
    const std::size_t columnAt = what.find("column ");
    const std::size_t detailAt =
        columnAt == std::string::npos ? columnAt : what.find(": ", columnAt);
    const std::string detail = detailAt == std::string::npos ? what : what.substr(detailAt + 2);
    addDiagnostic(out, Severity::Error, element, "",
                  "line " + std::to_string(line) + ", column " +
                      std::to_string(offset - lineStart + 1) + ": invalid JSON: " + detail);
    return std::nullopt;
  } catch (const Json::exception& e) {
    // Other reader failures (a number too large for a double) carry no position.
    const std::string what = e.what();
    const std::size_t detailAt = what.find("] ");
    addDiagnostic(
        out, Severity::Error, element, "",
        "invalid JSON: " + (detailAt == std::string::npos ? what : what.substr(detailAt + 2)));
    return std::nullopt;
  }
}

// One JSON object of the file (the model, a body, a constraint, ...): typed access to its keys.
// Every problem is a diagnostic naming the element and the key; keys never read become warnings.
class ObjectReader {
 public:
  ObjectReader(const Json& object, std::string element, Diagnostics& out)
      : object_(object), element_(std::move(element)), out_(out) {}

  bool has(const char* key) const { return object_.contains(key); }

  void error(const std::string& field, const std::string& message) {
    addDiagnostic(out_, Severity::Error, element_, field, message);
  }
  void warning(const std::string& field, const std::string& message) {
    addDiagnostic(out_, Severity::Warning, element_, field, message);
  }

  // The value of a key that must be present, or nullptr after an error.
  const Json* required(const char* key) {
    read_.insert(key);
    if (!object_.contains(key)) {
      error(key, "is missing");
      return nullptr;
    }
    return &object_.at(key);
  }

  // The value of an optional key, or nullptr.
  const Json* optional(const char* key) {
    read_.insert(key);
    return object_.contains(key) ? &object_.at(key) : nullptr;
  }

  std::optional<double> number(const char* key) {
    const Json* value = required(key);
    if (!value) return std::nullopt;
    if (!value->is_number()) {
      error(key, "must be a number, got " + jsonTypeName(*value));
      return std::nullopt;
    }
    return value->get<double>();
  }

  std::optional<long long> integer(const char* key) {
    const std::optional<double> value = number(key);
    if (!value) return std::nullopt;
    if (std::floor(*value) != *value || std::abs(*value) > 1e15) {
      error(key, "must be an integer, got " + shortest(*value));
      return std::nullopt;
    }
    return static_cast<long long>(*value);
  }

  std::optional<std::string> string(const char* key) {
    const Json* value = required(key);
    if (!value) return std::nullopt;
    if (!value->is_string()) {
      error(key, "must be a string, got " + jsonTypeName(*value));
      return std::nullopt;
    }
    return value->get<std::string>();
  }

  std::optional<Vector> vector(const char* key, std::size_t size) {
    const Json* value = required(key);
    if (!value) return std::nullopt;
    const bool allNumbers =
        value->is_array() &&
        std::all_of(value->begin(), value->end(), [](const Json& v) { return v.is_number(); });
    if (!allNumbers) {
      error(key, "must be an array of " + std::to_string(size) + " numbers, got " +
                     jsonTypeName(*value));
      return std::nullopt;
    }
    if (value->size() != size) {
      error(key,
            "must have " + std::to_string(size) + " numbers, got " + std::to_string(value->size()));
      return std::nullopt;
    }
    Vector result;
    for (const Json& v : *value) result.emplace_back(v.get<double>());
    return result;
  }

  // Warns about every key that was not read: `vis` (drawing settings) and unknown keys.
  void skipUnread(const std::string& kind) {
    for (const auto& [key, value] : object_.items()) {
      if (read_.count(key)) continue;
      if (key == "vis")
        warning(key, "is skipped: simEngine2D drawing settings are not imported");
      else
        warning(key, "is not a key of a simEngine2D " + kind + " and is skipped");
    }
  }

 private:
  const Json& object_;
  std::string element_;
  Diagnostics& out_;
  std::set<std::string> read_;
};

// `bodies[2] "slider"`: the list, the position and, when there is one, the name in the file.
std::string elementLabel(const char* list, std::size_t index, const Json& object) {
  std::string label = std::string(list) + "[" + std::to_string(index) + "]";
  if (object.is_object() && object.contains("name") && object.at("name").is_string())
    label += " " + inQuotes(object.at("name").get<std::string>());
  return label;
}

// Names are identifiers unique across the model; `ground` is taken by the fixed body.
class NameRegistry {
 public:
  // The element's name: its name in the file made a unique identifier (with a warning naming the
  // original when it changes), or `fallback` when the file gives none.
  std::string claim(ObjectReader& reader, const std::string& fallback) {
    const Json* value = reader.optional("name");
    if (value && !value->is_string()) {
      reader.error("name", "must be a string, got " + jsonTypeName(*value));
      value = nullptr;
    }
    const std::string original = value ? value->get<std::string>() : "";
    const std::string wanted = original.empty() ? fallback : toIdentifier(original);
    const std::string name = names_.claim(wanted);

    if (!original.empty() && name != original) {
      std::string why = wanted != original ? "is not an identifier" : "";
      if (name != wanted) {
        why += why.empty() ? "is" : " and " + inQuotes(wanted) + " is";
        why += wanted == "ground" ? " reserved for the fixed ground" : " already used";
      }
      reader.warning("name", inQuotes(original) + " " + why + "; renamed " + inQuotes(name));
    }
    return name;
  }

  // A name the importer makes up: `wanted`, or `wanted_2` ... if it is taken.
  std::string unique(const std::string& wanted) { return names_.claim(wanted); }

 private:
  UniqueNames names_;
};

// Turns the simEngine2D model (and its analysis) into a Spec, collecting diagnostics.
class Importer {
 public:
  explicit Importer(Diagnostics& out) : out_(out) {}

  void readModel(const Json& root, const std::string& source) {
    if (!root.is_object()) {
      addDiagnostic(out_, Severity::Error, source, "",
                    "must be a JSON object, got " + jsonTypeName(root));
      return;
    }
    ObjectReader model(root, source, out_);
    spec_.dimension = 2;
    spec_.name = kDefaultModelName;
    if (model.has("name")) {
      if (const std::optional<std::string> name = model.string("name")) spec_.name = *name;
    }
    spec_.gravity = Vector{kDefaultGravity[0], kDefaultGravity[1]};
    if (model.has("gravity")) {
      if (std::optional<Vector> gravity = model.vector("gravity", 2)) spec_.gravity = *gravity;
    }

    // The model's own skipped keys first, then the elements; bodies before the constraints and
    // forces that refer to them by id.
    const Json* bodies = model.optional("bodies");
    const Json* constraints = model.optional("constraints");
    const Json* forces = model.optional("forces");
    model.skipUnread("model");
    forEachObject(model, "bodies", bodies,
                  [this](const Json& v, std::size_t i) { readBody(v, i); });
    forEachObject(model, "constraints", constraints,
                  [this](const Json& v, std::size_t i) { readConstraint(v, i); });
    forEachObject(model, "forces", forces,
                  [this](const Json& v, std::size_t i) { readForce(v, i); });
  }

  void readAnalysis(const Json& root) {
    if (!root.is_object()) {
      addDiagnostic(out_, Severity::Error, kAnalysisElement, "",
                    "must be a JSON object, got " + jsonTypeName(root));
      return;
    }
    ObjectReader acf(root, kAnalysisElement, out_);
    AnalysisSpec analysis;
    // SimEngine2D.m compares `simulation` without regard to case.
    if (const std::optional<std::string> simulation = acf.string("simulation")) {
      std::string lower = *simulation;
      for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (lower == "kinematics") {
        analysis.type = AnalysisType::Kinematics;
      } else if (lower == "dynamics") {
        analysis.type = AnalysisType::Dynamics;
      } else {
        acf.error("simulation",
                  inQuotes(*simulation) + " is not a simEngine2D analysis (Kinematics, Dynamics)");
      }
    }
    const std::optional<double> tend = positive(acf, "tend");
    const std::optional<double> stepSize = positive(acf, "stepSize");
    // outputSteps is the number of output intervals: outputs at linspace(0, tend, outputSteps+1).
    const std::optional<long long> outputSteps = acf.integer("outputSteps");
    if (outputSteps && *outputSteps < 1)
      acf.error("outputSteps", "must be a positive integer, got " + std::to_string(*outputSteps));
    if (tend) analysis.endTime = *tend;
    if (stepSize) analysis.step = *stepSize;
    if (tend && outputSteps && *outputSteps >= 1)
      analysis.outputStep = Number(*tend / static_cast<double>(*outputSteps));
    acf.skipUnread("analysis file");
    spec_.analysis = analysis;
  }

  Spec takeSpec() { return std::move(spec_); }

 private:
  Diagnostics& out_;
  Spec spec_;
  NameRegistry names_;
  std::map<long long, std::size_t> bodyById_;  // id -> index in spec_.bodies

  template <typename ReadOne>
  void forEachObject(ObjectReader& model, const char* list, const Json* value, ReadOne readOne) {
    if (!value) return;
    if (!value->is_array()) {
      model.error(list, "must be an array, got " + jsonTypeName(*value));
      return;
    }
    for (std::size_t i = 0; i < value->size(); ++i) {
      const Json& item = (*value)[i];
      if (item.is_object())
        readOne(item, i);
      else
        addDiagnostic(out_, Severity::Error, elementLabel(list, i, item), "",
                      "must be a JSON object, got " + jsonTypeName(item));
    }
  }

  static std::optional<double> positive(ObjectReader& reader, const char* key) {
    const std::optional<double> value = reader.number(key);
    if (value && !(*value > 0)) {
      reader.error(key, "must be positive, got " + shortest(*value));
      return std::nullopt;
    }
    return value;
  }

  // body: q = (x, y, phi) with the frame at the centre of mass (MBbody.m).
  void readBody(const Json& object, std::size_t index) {
    ObjectReader body(object, elementLabel("bodies", index, object), out_);
    const std::optional<long long> id = body.integer("id");
    BodySpec spec;
    spec.name = names_.claim(body, id ? "body_" + std::to_string(*id) : "body");
    if (id) registerBodyId(body, *id, index);
    if (const std::optional<double> mass = body.number("mass")) spec.mass = *mass;
    if (const std::optional<double> jbar = body.number("jbar")) spec.inertia = {*jbar};
    if (const std::optional<Vector> q0 = body.vector("q0", 3)) {
      spec.position = {(*q0)[0], (*q0)[1]};
      spec.angle = (*q0)[2];
    }
    if (const std::optional<Vector> qd0 = body.vector("qd0", 3)) {
      spec.velocity = {(*qd0)[0], (*qd0)[1]};
      spec.angularVelocity = {(*qd0)[2]};
    }
    body.skipUnread("body");
    spec_.bodies.push_back(std::move(spec));
  }

  void registerBodyId(ObjectReader& body, long long id, std::size_t index) {
    if (id < 1) {
      body.error("id",
                 "must be a positive integer (0 refers to the ground), got " + std::to_string(id));
      return;
    }
    if (const auto existing = bodyById_.find(id); existing != bodyById_.end()) {
      body.error("id", std::to_string(id) + " is already the id of bodies[" +
                           std::to_string(existing->second) + "] " +
                           inQuotes(spec_.bodies[existing->second].name));
      return;
    }
    // MBsys.m indexes its body array with body1/body2; this import looks the id up instead.
    if (id != static_cast<long long>(index) + 1)
      body.warning("id", std::to_string(id) + " differs from the body's position " +
                             std::to_string(index + 1) +
                             " in the list; simEngine2D refers to bodies by position, this "
                             "import by id");
    bodyById_[id] = index;
  }

  // The name of the body a constraint or force refers to by id; 0 is the ground where allowed.
  std::optional<std::string> bodyRef(ObjectReader& reader, const char* key, bool groundAllowed,
                                     const std::string& type) {
    const std::optional<long long> id = reader.integer(key);
    if (!id) return std::nullopt;
    if (*id == 0) {
      if (groundAllowed) return std::string("ground");
      reader.error(key, "refers to body id 0 (the ground); " + type + " needs a moving body");
      return std::nullopt;
    }
    const auto found = bodyById_.find(*id);
    if (found == bodyById_.end()) {
      reader.error(key, "refers to body id " + std::to_string(*id) + ", which is not declared");
      return std::nullopt;
    }
    return spec_.bodies[found->second].name;
  }

  double initialAngle(const std::string& body) const {
    for (const BodySpec& b : spec_.bodies)
      if (b.name == body) return b.angle.value;
    return 0.0;  // ground
  }

  // A MATLAB function string of t, translated; "NONE" is an error here (the caller handles the
  // elements where NONE means "no function").
  std::optional<std::string> function(ObjectReader& reader, const char* key,
                                      const std::string& type) {
    const std::optional<std::string> text = reader.string(key);
    if (!text) return std::nullopt;
    if (*text == "NONE") {
      reader.error(key, "is NONE; " + type + " needs a function of t");
      return std::nullopt;
    }
    std::string why;
    std::optional<std::string> translated = translateMatlabExpression(*text, &why);
    if (!translated) reader.error(key, inQuotes(*text) + " cannot be translated: " + why);
    return translated;
  }

  // A function that may be "NONE" (no function): nullopt then, and after an error.
  std::optional<std::string> functionOrNone(ObjectReader& reader, const char* key,
                                            const std::string& type) {
    const Json* value = reader.required(key);
    if (!value || (value->is_string() && value->get<std::string>() == "NONE")) return std::nullopt;
    return function(reader, key, type);
  }

  void readConstraint(const Json& object, std::size_t index) {
    ObjectReader c(object, elementLabel("constraints", index, object), out_);
    const std::optional<long long> id = c.integer("id");
    const std::string name =
        names_.claim(c, "constraint_" + std::to_string(id ? *id : static_cast<long long>(index)));
    const std::optional<std::string> type = c.string("type");
    if (!type) return;

    if (*type == "AbsoluteX" || *type == "AbsoluteY" || *type == "AbsoluteAngle") {
      readAbsolute(c, name, *type);
    } else if (*type == "RevoluteJoint" || *type == "TranslationalJoint") {
      readJoint(c, name, *type);
    } else if (*type == "RackPinion") {
      c.error("type", "RackPinion has no equivalent in Reuleaux and is not imported");
      return;
    } else {
      c.error("type", inQuotes(*type) +
                          " is not a simEngine2D constraint type (AbsoluteX, AbsoluteY, "
                          "AbsoluteAngle, RevoluteJoint, TranslationalJoint)");
      return;
    }
    c.skipUnread(*type + " constraint");
  }

  // AbsoluteX/Y: x (or y) of the body point sP1 = fun(t); AbsoluteAngle: phi = fun(t).
  void readAbsolute(ObjectReader& c, const std::string& name, const std::string& type) {
    MotionSpec motion;
    motion.name = name;
    if (std::optional<std::string> body = bodyRef(c, "body1", false, type)) motion.body = *body;
    if (type == "AbsoluteAngle") {
      motion.coordinate = "angle";
    } else {
      motion.coordinate = type == "AbsoluteX" ? "x" : "y";
      motion.point = c.vector("sP1", 2);
    }
    if (std::optional<std::string> fun = function(c, "fun", type)) motion.function = *fun;
    spec_.motions.push_back(std::move(motion));
  }

  // Revolute: r1 + A1 sP1 = r2 + A2 sP2. Translational (MBtransJoint.m): the point sP2 stays on
  // the line through sP1 along vP1, and vP2 stays parallel to vP1.
  void readJoint(ObjectReader& c, const std::string& name, const std::string& type) {
    JointSpec joint;
    joint.name = name;
    const bool translational = type == "TranslationalJoint";
    joint.type = translational ? JointType::Translational : JointType::Revolute;
    const std::optional<std::string> body1 = bodyRef(c, "body1", true, type);
    const std::optional<std::string> body2 = bodyRef(c, "body2", true, type);
    if (body1) joint.body1 = *body1;
    if (body2) joint.body2 = *body2;
    joint.point1 = c.vector("sP1", 2);
    joint.point2 = c.vector("sP2", 2);
    if (translational) {
      joint.axis1 = nonZero(c, "vP1");
      joint.axis2 = nonZero(c, "vP2");
      if (body1 && body2 && joint.axis1 && joint.axis2) checkParallelAxes(c, joint);
    }
    // simEngine2D reads a joint's `fun` but its equations never use it.
    if (const Json* fun = c.optional("fun"); fun && !(fun->is_string() && *fun == "NONE"))
      c.warning("fun", "is ignored: simEngine2D's " + type +
                           " does not use it (drive the mechanism with an AbsoluteAngle, "
                           "AbsoluteX or AbsoluteY constraint)");
    spec_.joints.push_back(std::move(joint));
  }

  std::optional<Vector> nonZero(ObjectReader& c, const char* key) {
    std::optional<Vector> v = c.vector(key, 2);
    if (v && (*v)[0].value == 0.0 && (*v)[1].value == 0.0) {
      c.error(key, "must not be the zero vector");
      return std::nullopt;
    }
    return v;
  }

  // simEngine2D keeps vP2 parallel to vP1 (either way round); Reuleaux's translational joint
  // keeps the relative angle of the file's configuration. The two agree when q0 has the axes
  // parallel; otherwise the angle between them is reported.
  void checkParallelAxes(ObjectReader& c, const JointSpec& joint) {
    const auto globalAxis = [this](const std::string& body, const Vector& axis) {
      return std::atan2(axis[1].value, axis[0].value) + initialAngle(body);
    };
    double skew = globalAxis(joint.body2, *joint.axis2) - globalAxis(joint.body1, *joint.axis1);
    skew -= kPi * std::round(skew / kPi);
    if (std::abs(skew) > 1e-9) {
      std::array<char, 16> text{};
      const auto end = std::to_chars(text.data(), text.data() + text.size(), skew,
                                     std::chars_format::general, 3);
      c.warning("vP2", "is at " + std::string(text.data(), end.ptr) +
                           " rad to vP1 in the initial configuration (q0): simEngine2D turns the "
                           "bodies until the axes are parallel, Reuleaux's translational joint "
                           "keeps the relative angle of q0");
    }
  }

  void readForce(const Json& object, std::size_t index) {
    ObjectReader f(object, elementLabel("forces", index, object), out_);
    const std::optional<long long> id = f.integer("id");
    const std::string name =
        names_.claim(f, "force_" + std::to_string(id ? *id : static_cast<long long>(index)));
    const std::optional<std::string> type = f.string("type");
    if (!type) return;

    if (*type == "PointForce") {
      readPointForce(f, name);
    } else if (*type == "Torque") {
      readTorque(f, name);
    } else if (*type == "RSDA1") {
      readRsda1(f, name);
    } else if (*type == "RSDA2") {
      readRsda2(f, name);
    } else if (*type == "PointForceFile") {
      f.error("type",
              "PointForceFile calls a MATLAB function file, which cannot be imported; "
              "write the force as a PointForce with funX and funY");
      return;
    } else {
      f.error("type", inQuotes(*type) +
                          " is not a simEngine2D force type (PointForce, Torque, RSDA1, RSDA2)");
      return;
    }
    f.skipUnread(*type + " force");
  }

  // F(t) at the body point sP1, in the global frame (GRF) or the body frame (LRF; MBpointForce.m
  // takes every frame but GRF as the body frame, this import only LRF). Components in funX/funY,
  // or in the older `fun: [fx, fy]`.
  void readPointForce(ObjectReader& f, const std::string& name) {
    ForceSpec force;
    force.name = name;
    force.type = ForceType::Force;
    if (std::optional<std::string> body = bodyRef(f, "body1", false, "PointForce"))
      force.body = *body;
    force.point = f.vector("sP1", 2);
    if (const std::optional<std::string> frame = f.string("frame")) {
      if (*frame == "GRF")
        force.frame = "global";
      else if (*frame == "LRF")
        force.frame = "body";
      else
        f.error("frame", "must be \"GRF\" (global) or \"LRF\" (body), got " + inQuotes(*frame));
    }
    if (f.has("funX") || f.has("funY") || !f.has("fun")) {
      const std::optional<std::string> fx = function(f, "funX", "PointForce");
      const std::optional<std::string> fy = function(f, "funY", "PointForce");
      if (fx && fy) force.vector = {*fx, *fy};
    } else {
      force.vector = componentPair(f, "fun");
    }
    spec_.forces.push_back(std::move(force));
  }

  // `fun: ["fx", "fy"]`, translated.
  std::vector<std::string> componentPair(ObjectReader& f, const char* key) {
    const Json* value = f.required(key);
    if (!value) return {};
    if (!value->is_array() || value->size() != 2 || !(*value)[0].is_string() ||
        !(*value)[1].is_string()) {
      f.error(key, "must be an array of 2 strings, got " + jsonTypeName(*value));
      return {};
    }
    std::vector<std::string> components;
    for (const Json& text : *value) {
      std::string why;
      std::optional<std::string> translated =
          translateMatlabExpression(text.get<std::string>(), &why);
      if (!translated) {
        f.error(key, inQuotes(text.get<std::string>()) + " cannot be translated: " + why);
        return {};
      }
      components.push_back(std::move(*translated));
    }
    return components;
  }

  void readTorque(ObjectReader& f, const std::string& name) {
    ForceSpec force;
    force.name = name;
    force.type = ForceType::Torque;
    if (std::optional<std::string> body = bodyRef(f, "body1", false, "Torque")) force.body = *body;
    if (std::optional<std::string> fun = function(f, "fun", "Torque")) force.value = *fun;
    spec_.forces.push_back(std::move(force));
  }

  struct RsdaLaw {
    double theta0 = 0.0, k = 0.0, c = 0.0;
    std::optional<std::string> actuator;  // h(t); nullopt for "NONE" or a zero constant
  };

  std::optional<RsdaLaw> rsdaLaw(ObjectReader& f, const std::string& type) {
    RsdaLaw law;
    const std::optional<double> theta0 = f.number("theta0");
    const std::optional<double> k = f.number("k");
    const std::optional<double> c = f.number("c");
    law.actuator = functionOrNone(f, "fun", type);
    if (law.actuator && isZeroLiteral(*law.actuator)) law.actuator.reset();
    if (!theta0 || !k || !c) return std::nullopt;
    law.theta0 = *theta0;
    law.k = *k;
    law.c = *c;
    return law;
  }

  // RSDA1 (MBrsda1.m) is an absolute law on one body: n = k*(phi - theta0) + c*phid + h(t),
  // applied as the torque -n. It is written as a torque expression of the body's state.
  void readRsda1(ObjectReader& f, const std::string& name) {
    ForceSpec force;
    force.name = name;
    force.type = ForceType::Torque;
    if (std::optional<std::string> body = bodyRef(f, "body1", false, "RSDA1")) force.body = *body;
    const std::optional<RsdaLaw> law = rsdaLaw(f, "RSDA1");
    if (law && !force.body.empty()) {
      std::vector<std::string> terms;
      const std::string angle = force.body + ".angle";
      if (law->k != 0)
        terms.push_back(
            literal(law->k) + "*" +
            (law->theta0 != 0 ? "(" + angle + " - " + literal(law->theta0) + ")" : angle));
      if (law->c != 0) terms.push_back(literal(law->c) + "*" + force.body + ".omega");
      // A signed actuator after another term is parenthesized: "k*phi + (-h)".
      if (law->actuator)
        terms.push_back(!terms.empty() && law->actuator->front() == '-' ? "(" + *law->actuator + ")"
                                                                        : *law->actuator);
      std::string sum;
      for (const std::string& term : terms) sum += (sum.empty() ? "" : " + ") + term;
      force.value = terms.empty() ? "0" : "-(" + sum + ")";
    }
    spec_.forces.push_back(std::move(force));
  }

  // RSDA2 (MBrsda2.m): n = k*(phi2 - phi1 - theta0) + c*(phid2 - phid1) + h(t), torque +n on
  // body1 and -n on body2. It becomes a torsion spring on the revolute joint between the two
  // bodies (with the joint's angle q = 0 in the file's configuration), and h(t) a joint force.
  void readRsda2(ObjectReader& f, const std::string& name) {
    const std::optional<std::string> body1 = bodyRef(f, "body1", true, "RSDA2");
    const std::optional<std::string> body2 = bodyRef(f, "body2", true, "RSDA2");
    const std::optional<RsdaLaw> law = rsdaLaw(f, "RSDA2");
    if (!body1 || !body2 || !law) return;

    const JointSpec* joint = nullptr;
    for (const JointSpec& j : spec_.joints) {
      const bool sameBodies =
          (j.body1 == *body1 && j.body2 == *body2) || (j.body1 == *body2 && j.body2 == *body1);
      if (j.type == JointType::Revolute && sameBodies) {
        joint = &j;
        break;
      }
    }
    if (!joint) {
      f.error("", "no RevoluteJoint connects " + inQuotes(*body1) + " and " + inQuotes(*body2) +
                      ": Reuleaux attaches a rotational spring-damper to a revolute joint");
      return;
    }

    // q is the rotation of the joint's body2 relative to its body1 since the file's
    // configuration; `sign` is +1 when the joint's bodies are in the RSDA's order.
    const double sign = joint->body1 == *body1 ? 1.0 : -1.0;
    const double initial = initialAngle(joint->body2) - initialAngle(joint->body1);
    ForceSpec spring;
    spring.name = name;
    spring.type = ForceType::TorsionSpring;
    spring.joint = joint->name;
    spring.stiffness = law->k;
    spring.damping = law->c;
    spring.freeAngle = sign * law->theta0 - initial;
    const std::string jointName = joint->name;
    spec_.forces.push_back(std::move(spring));

    if (law->actuator) {
      ForceSpec actuator;
      actuator.name = names_.unique(name + "_actuator");
      actuator.type = ForceType::JointForce;
      actuator.joint = jointName;
      actuator.value = sign > 0 ? "-(" + *law->actuator + ")" : *law->actuator;
      spec_.forces.push_back(std::move(actuator));
    }
  }
};

}  // namespace

LoadResult readSimEngine2D(std::string_view admText, std::optional<std::string_view> acfText,
                           const std::string& source) {
  LoadResult result;
  Importer importer(result.diagnostics);
  if (const std::optional<Json> adm = parseJson(admText, source, result.diagnostics))
    importer.readModel(*adm, source);
  if (acfText) {
    if (const std::optional<Json> acf = parseJson(*acfText, kAnalysisElement, result.diagnostics))
      importer.readAnalysis(*acf);
  }
  if (!hasErrors(result.diagnostics)) result.spec = importer.takeSpec();
  return result;
}

}  // namespace rlx
