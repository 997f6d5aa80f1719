#include "io/json_text.h"
#include "io/model_file.h"
#include "io/rlx_fields.h"
#include "joints/family.h"

#include <cstdint>
#include <functional>
#include <utility>

namespace rlx {
namespace {

constexpr int kFormatVersion = 1;

// The words the format allows in hold, motion coordinate, shape type, force frame, constraint type.
const std::vector<std::string> kHoldable = {"x",  "y",  "z",  "angle",           "orientation",
                                            "vx", "vy", "vz", "angular_velocity"};
const std::vector<std::string> kCoordinates = {"x", "y", "z", "angle"};
const std::vector<std::string> kShapeTypes = {"bar",    "box",     "cylinder", "disk",
                                              "sphere", "polygon", "mesh"};
const std::vector<std::string> kFrames = {"global", "body"};

// Reads `type` as one of an enum's names.
template <typename Enum>
std::optional<Enum> readType(FieldReader& in, const std::vector<std::string>& names,
                             std::optional<Enum> (*fromName)(const std::string&)) {
  const Json* value = in.take("type", Need::Required);
  if (!value) return std::nullopt;
  if (auto chosen = in.asChoice(*value, "type", names)) return fromName(*chosen);
  return std::nullopt;
}

// Why a key of the other dimension is refused.
std::string dimensionNote(const ReadContext& context) {
  return "is not used in a " + std::to_string(context.dimension) + "-D model";
}

// `hold`: the initial values that assembly keeps.
void readHold(FieldReader& in, std::vector<std::string>& hold) {
  const Json* value = in.take("hold");
  if (!value) return;
  if (!value->is_array()) {
    in.error("hold", "must be an array of names, got " + describeKind(*value));
    return;
  }
  for (std::size_t i = 0; i < value->size(); ++i)
    if (auto word = in.asChoice((*value)[i], "hold[" + std::to_string(i) + "]", kHoldable))
      hold.push_back(std::move(*word));
}

// `shape`: drawing only; each shape type has its own keys.
void readShape(FieldReader& body, ReadContext& context, ShapeSpec& shape) {
  const Json* value = body.take("shape");
  if (!value) return;
  if (!value->is_object()) {
    body.error("shape", "must be an object, got " + describeKind(*value));
    return;
  }
  FieldReader in(*value, body.element(), context, "shape.");
  in.choice("type", shape.type, kShapeTypes, Need::Required);
  if (shape.type.empty()) return;
  const std::string& type = shape.type;
  if (type == "bar" || type == "cylinder" || type == "disk") in.number("length", shape.length);
  if (type == "bar") in.number("width", shape.width);
  if (type == "cylinder" || type == "disk" || type == "sphere") in.number("radius", shape.radius);
  if (type == "box") in.vector("size", shape.size);
  if (type == "mesh") in.text("file", shape.file);
  if (type == "bar" || type == "cylinder") in.vector("axis", shape.axis);

  // Polygon corners are planar points in body coordinates.
  if (const Json* points = type == "polygon" ? in.take("points") : nullptr) {
    if (!points->is_array()) {
      in.error("points", "must be an array of points, got " + describeKind(*points));
    } else {
      for (std::size_t i = 0; i < points->size(); ++i)
        if (auto point = in.asVector((*points)[i], "shape.points[" + std::to_string(i) + "]", 2))
          shape.points.push_back(std::move(*point));
    }
  }
  in.finish();
}

// A body: every field optional but the name (defaults in spec.h).
BodySpec readBody(FieldReader& in, ReadContext& context) {
  BodySpec body;
  body.name = in.name();
  in.number("mass", body.mass);
  in.vector("position", body.position);
  in.vector("velocity", body.velocity);

  // Planar bodies: scalar inertia, angle and angular velocity.
  if (context.dimension == 2) {
    std::optional<Number> inertia, omega;
    in.number("inertia", inertia);
    if (inertia) body.inertia = {*inertia};
    in.number("angle", body.angle);
    in.number("angular_velocity", omega);
    if (omega) body.angularVelocity = {*omega};
    in.misplaced("orientation", dimensionNote(context) + "; give angle");
    in.misplaced("quaternion", dimensionNote(context) + "; give angle");
  }

  // Spatial bodies: inertia in body axes, Euler angles or a quaternion, omega in global axes.
  if (context.dimension == 3) {
    if (auto inertia = in.numbers("inertia", {3, 6})) body.inertia = std::move(*inertia);
    in.exclusive("orientation", "quaternion");
    in.vector("orientation", body.orientation);
    body.quaternion = in.numbers("quaternion", {4});
    in.vector("angular_velocity", body.angularVelocity);
    in.misplaced("angle", dimensionNote(context) + "; give orientation or quaternion");
  }

  readHold(in, body.hold);
  readShape(in, context, body.shape);
  return body;
}

// A cam's curve (`curve1`, `curve2`): expressions x and y of u with a range, or spline points.
void readCurve(FieldReader& joint, ReadContext& context, const char* key,
               std::optional<CurveSpec>& out) {
  const Json* value = joint.take(key);
  if (!value) return;
  if (!value->is_object()) {
    joint.error(key, "must be an object, got " + describeKind(*value));
    return;
  }
  const std::string prefix = std::string(key) + ".";
  FieldReader in(*value, joint.element(), context, prefix);
  CurveSpec curve;
  if (const Json* points = in.take("points")) {
    for (const char* other : {"x", "y", "range", "closed"})
      if (in.has(other)) in.error(other, "does not go with points: a curve is x and y, or points");
    if (!points->is_array() || points->size() < 3) {
      in.error("points", "must be an array of at least 3 points, got " + describeKind(*points));
    } else {
      for (std::size_t i = 0; i < points->size(); ++i)
        if (auto point = in.asVector((*points)[i], prefix + "points[" + std::to_string(i) + "]", 2))
          curve.points.push_back(std::move(*point));
    }
  } else {
    in.function("x", curve.x, Need::Required);
    in.function("y", curve.y, Need::Required);
    if (auto range = in.numbers("range", {2})) curve.range = std::move(*range);
    in.flag("closed", curve.closed);
  }
  in.number("offset", curve.offset);
  in.finish();
  out = std::move(curve);
}

// A joint: name, type and both bodies required; points and axes global or per body.
JointSpec readJoint(FieldReader& in, ReadContext& context) {
  JointSpec joint;
  joint.name = in.name();
  std::vector<std::string> names;  // the family table's
  for (const JointType t : jointTypes()) names.emplace_back(jointFamily(t).name);
  const auto type = readType(in, names, jointTypeNamed);
  if (type) joint.type = *type;
  in.text("body1", joint.body1, Need::Required);
  in.text("body2", joint.body2, Need::Required);
  in.vector("at", joint.at);
  in.vector("axis", joint.axis);
  in.vector("point1", joint.point1);
  in.vector("point2", joint.point2);
  in.vector("axis1", joint.axis1);
  in.vector("axis2", joint.axis2);
  if (!type || jointFamily(*type).length) in.number("length", joint.length);
  if (!type || jointFamily(*type).radius) in.number("radius", joint.radius);
  if (type)
    for (const FamilyNumber& n : jointFamily(*type).numbers) {
      std::optional<Number> value;
      in.number(n.key, value);
      if (value) joint.numbers[n.key] = *value;
    }
  const JointCurves curves = type ? jointFamily(*type).curves : JointCurves::Both;
  if (curves == JointCurves::Both) readCurve(in, context, "curve1", joint.curve1);
  if (curves != JointCurves::None) readCurve(in, context, "curve2", joint.curve2);
  return joint;
}

// A motion: a joint, or a body coordinate (of a point), and a function of time.
MotionSpec readMotion(FieldReader& in) {
  MotionSpec motion;
  motion.name = in.name();
  in.text("joint", motion.joint);
  in.text("body", motion.body);
  in.choice("coordinate", motion.coordinate, kCoordinates);
  in.exclusive("point", "at");
  in.vector("point", motion.point);
  in.vector("at", motion.at);
  in.function("function", motion.function, Need::Required);

  // A motion drives a joint, or a coordinate of a body (point).
  if (in.has("joint")) {
    for (const char* key : {"body", "coordinate", "point", "at"})
      if (in.has(key)) in.error(key, "does not go with joint: a motion drives a joint or a body");
  } else if (!in.has("body")) {
    in.error("", "needs joint, or body and coordinate");
  } else if (!in.has("coordinate")) {
    in.error("coordinate", "is missing (a body motion drives x, y, z or angle)");
  }
  return motion;
}

// A force element: the keys depend on its type.
ForceSpec readForce(FieldReader& in, ReadContext& context) {
  ForceSpec force;
  force.name = in.name();
  const auto type = readType(in, forceTypeNames(), forceTypeFromName);
  if (!type) {
    in.takeAll();
    return force;
  }
  force.type = *type;

  // Each type reads its own keys; any other key is unknown for that type.
  switch (*type) {
    case ForceType::SpringDamper:
      in.text("body1", force.body1, Need::Required);
      in.text("body2", force.body2, Need::Required);
      in.exclusive("point1", "at1");
      in.exclusive("point2", "at2");
      in.vector("point1", force.point1);
      in.vector("point2", force.point2);
      in.vector("at1", force.at1);
      in.vector("at2", force.at2);
      in.number("stiffness", force.stiffness);
      in.number("damping", force.damping);
      in.number("free_length", force.freeLength);
      in.number("preload", force.preload);
      in.function("function", force.function);
      break;
    case ForceType::TorsionSpring:
      in.text("joint", force.joint, Need::Required);
      in.number("stiffness", force.stiffness);
      in.number("damping", force.damping);
      in.number("free_angle", force.freeAngle);
      in.number("preload", force.preload);
      break;
    case ForceType::Force:
      in.text("body", force.body, Need::Required);
      in.exclusive("point", "at");
      in.vector("point", force.point);
      in.vector("at", force.at);
      in.functions("vector", force.vector, Need::Required, std::size_t(context.dimension));
      in.choice("frame", force.frame, kFrames);
      break;
    case ForceType::Torque:
      in.text("body", force.body, Need::Required);
      if (context.dimension == 2) {
        in.function("value", force.value, Need::Required);
        in.misplaced("vector", dimensionNote(context) + "; a planar torque has value");
      } else {
        in.functions("vector", force.vector, Need::Required, std::size_t{3});
        in.choice("frame", force.frame, kFrames);
        in.misplaced("value", dimensionNote(context) + "; a spatial torque has vector");
      }
      break;
    case ForceType::JointForce:
      in.text("joint", force.joint, Need::Required);
      in.function("value", force.value, Need::Required);
      break;
    case ForceType::Limit:
      in.text("joint", force.joint, Need::Required);
      in.number("lower", force.lower);
      in.number("upper", force.upper);
      in.number("stiffness", force.stiffness);
      in.number("exponent", force.exponent);
      in.number("damping", force.damping);
      in.number("penetration", force.penetration);
      break;
  }
  return force;
}

// A coupler's `joints`: an array of two or three names.
void readJointNames(FieldReader& in, std::vector<std::string>& joints) {
  const Json* value = in.take("joints", Need::Required);
  if (!value) return;
  if (!value->is_array() || value->size() < 2 || value->size() > 3) {
    in.error("joints", "must be an array of two or three joint names, got " + describeKind(*value));
    return;
  }
  for (std::size_t i = 0; i < value->size(); ++i) {
    if ((*value)[i].is_string())
      joints.push_back((*value)[i].get<std::string>());
    else
      in.error("joints[" + std::to_string(i) + "]", "must be a joint's name, got " + describeKind((*value)[i]));
  }
}

// A user constraint: holonomic or nonholonomic equations, or a coupler of joint coordinates.
ConstraintSpec readConstraint(FieldReader& in) {
  ConstraintSpec constraint;
  constraint.name = in.name();
  const auto type = readType(in, constraintTypeNames(), constraintTypeFromName);
  if (!type) {
    in.takeAll();
    return constraint;
  }
  constraint.type = *type;
  if (*type == ConstraintType::Coupler) {
    readJointNames(in, constraint.joints);
    if (!in.has("ratios")) in.error("ratios", "is missing (one number per joint)");
    const auto ratios = constraint.joints.empty() ? in.numbers("ratios", {2, 3})
                                                  : in.numbers("ratios", {constraint.joints.size()});
    if (ratios) constraint.ratios = *ratios;
  } else {
    in.functions("equations", constraint.equations, Need::Required);
  }
  return constraint;
}

// Analysis settings: every key optional (defaults in spec.h); compile checks the integrator.
void readAnalysis(const Json& value, ReadContext& context, AnalysisSpec& analysis) {
  FieldReader in(value, "analysis", context);
  if (const Json* type = in.take("type")) {
    if (auto chosen = in.asChoice(*type, "type", analysisTypeNames()))
      analysis.type = *analysisTypeFromName(*chosen);
  }
  in.number("end_time", analysis.endTime);
  in.number("step", analysis.step);
  in.number("output_step", analysis.outputStep);
  in.text("integrator", analysis.integrator);
  in.number("tolerance", analysis.tolerance);
  in.flag("variable_step", analysis.variableStep);
  in.flag("energy_correction", analysis.energyCorrection);
  in.number("hht_alpha", analysis.hhtAlpha);
  in.finish();
}

// Parameters: identifier -> number or expression, in file order.
void readParameters(const Json& value, ReadContext& context, std::vector<Parameter>& parameters) {
  FieldReader in(value, "parameters", context);
  for (const auto& [name, number] : value.items()) {
    if (!isIdentifier(name))
      in.error(jsonQuoted(name), "is not an identifier (a letter or _, then letters, digits or _)");
    if (auto parsed = in.asNumber(number, name)) parameters.push_back({name, std::move(*parsed)});
  }
}

// Reads a list of named elements; each must be an object.
template <typename Element>
void readList(FieldReader& top, const std::string& key, ReadContext& context,
              std::vector<Element>& out,
              const std::function<Element(FieldReader&, ReadContext&)>& readElement) {
  const Json* list = top.take(key);
  if (!list) return;
  if (!list->is_array()) {
    top.error(key, "must be an array, got " + describeKind(*list));
    return;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string label = key + "[" + std::to_string(i) + "]";
    const Json& item = (*list)[i];
    if (!item.is_object()) {
      top.error(label, "must be an object, got " + describeKind(item));
      continue;
    }
    FieldReader in(item, label, context);
    out.push_back(readElement(in, context));
    in.finish();
  }
}

// The format version: an integer from 1 to kFormatVersion. Empty when the file cannot be read.
std::optional<int> readVersion(const Json& root, const std::string& source,
                               Diagnostics& diagnostics) {
  const auto refuse = [&](const std::string& field, const std::string& message) {
    diagnostics.push_back({Severity::Error, source, field, message});
    return std::nullopt;
  };
  if (!root.is_object())
    return refuse("", "is not a Reuleaux model: the top level must be a JSON object, got " +
                          describeKind(root));
  const auto found = root.find("reuleaux");
  if (found == root.end())
    return refuse("", "is not a Reuleaux model: the top-level object has no \"reuleaux\" key");
  const Json& version = *found;
  if (!version.is_number_integer())
    return refuse("reuleaux", "must be an integer format version, got " + describeKind(version));
  const bool tooNew = version.is_number_unsigned()
                          ? version.get<std::uint64_t>() > std::uint64_t{kFormatVersion}
                          : version.get<std::int64_t>() > kFormatVersion;
  if (tooNew)
    return refuse("", "written by a newer Reuleaux (format version " + version.dump() +
                          "); this program reads version " + std::to_string(kFormatVersion));
  if (version.get<std::int64_t>() < 1)
    return refuse("reuleaux", "must be a format version from 1, got " + version.dump());
  return static_cast<int>(version.get<std::int64_t>());
}

// The dimension: 2 (default) or 3. Empty when it is anything else.
std::optional<int> readDimension(const Json& root, const std::string& source,
                                 Diagnostics& diagnostics) {
  const auto found = root.find("dimension");
  if (found == root.end()) return 2;
  if (found->is_number_integer() && (*found == 2 || *found == 3)) return found->get<int>();
  const std::string got = found->is_number() ? found->dump() : describeKind(*found);
  diagnostics.push_back({Severity::Error, source, "dimension", "must be 2 or 3, got " + got});
  return std::nullopt;
}

}  // namespace

LoadResult readRlx(std::string_view text, const std::string& source) {
  LoadResult result;
  ParsedJson parsed = parseJson(text, source);
  result.diagnostics = std::move(parsed.diagnostics);
  if (!parsed.document) return result;
  const Json& root = *parsed.document;

  // The version and the dimension decide how everything else is read.
  const auto version = readVersion(root, source, result.diagnostics);
  if (!version) return result;
  const auto dimension = readDimension(root, source, result.diagnostics);
  if (!dimension) return result;

  Spec spec;
  spec.formatVersion = *version;
  spec.dimension = *dimension;
  ReadContext context{*dimension, std::move(result.diagnostics)};
  FieldReader top(root, source, context);
  top.take("reuleaux");
  top.take("dimension");
  top.text("name", spec.name);
  top.text("description", spec.description);
  if (const Json* parameters = top.take("parameters")) {
    if (parameters->is_object())
      readParameters(*parameters, context, spec.parameters);
    else
      top.error("parameters", "must be an object, got " + describeKind(*parameters));
  }
  top.vector("gravity", spec.gravity);

  // The element lists.
  readList<BodySpec>(top, "bodies", context, spec.bodies, readBody);
  readList<JointSpec>(top, "joints", context, spec.joints, readJoint);
  readList<MotionSpec>(top, "motions", context, spec.motions,
                       [](FieldReader& in, ReadContext&) { return readMotion(in); });
  readList<ForceSpec>(top, "forces", context, spec.forces, readForce);
  readList<ConstraintSpec>(top, "constraints", context, spec.constraints,
                           [](FieldReader& in, ReadContext&) { return readConstraint(in); });

  // Analysis settings, and the GUI's view settings kept as they are.
  if (const Json* analysis = top.take("analysis")) {
    if (analysis->is_object())
      readAnalysis(*analysis, context, spec.analysis.emplace());
    else
      top.error("analysis", "must be an object, got " + describeKind(*analysis));
  }
  if (const Json* view = top.take("view")) spec.view = *view;
  top.finish();

  result.diagnostics = std::move(context.diagnostics);
  if (!hasErrors(result.diagnostics)) result.spec = std::move(spec);
  return result;
}

}  // namespace rlx
