#include "io/json_text.h"
#include "io/model_file.h"
#include "joints/family.h"

#include <cmath>
#include <cstdint>

namespace rlx {
namespace {

// What the writer writes: every field the spec holds, except fields of another force, shape or
// joint type than the element's, or of the other dimension, so that the output always reads back.

constexpr int kFormatVersion = 1;

// A literal or an expression string. Whole numbers are written without a fraction ("2", not
// "2.0") when that is exact; other doubles in the shortest text that reads back to the same bits.
Json number(const Number& n) {
  if (n.isExpression()) return n.expression;
  const double v = n.value;
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  const bool whole = std::isfinite(v) && std::trunc(v) == v && std::abs(v) < kExactIntegers;
  if (whole && !(v == 0.0 && std::signbit(v))) return static_cast<std::int64_t>(v);
  return v;
}

Json numbers(const std::vector<Number>& values) {
  Json array = Json::array();
  for (const Number& value : values) array.push_back(number(value));
  return array;
}

// Sets `key` when the optional holds a value.
void put(Json& object, const char* key, const std::optional<Number>& value) {
  if (value) object[key] = number(*value);
}
void put(Json& object, const char* key, const std::optional<Vector>& value) {
  if (value) object[key] = numbers(*value);
}

// A planar scalar stored as a one-element list (inertia, angular velocity).
Json scalarOrList(const std::vector<Number>& values, bool planar) {
  return planar && values.size() == 1 ? number(values.front()) : numbers(values);
}

Json writeShape(const ShapeSpec& shape) {
  Json out;
  const std::string& type = shape.type;
  out["type"] = type;
  if (type == "bar") put(out, "length", shape.length);
  if (type == "bar") put(out, "width", shape.width);
  if (type == "cylinder" || type == "disk" || type == "sphere") put(out, "radius", shape.radius);
  if (type == "cylinder" || type == "disk") put(out, "length", shape.length);
  if (type == "box") put(out, "size", shape.size);
  if (type == "bar" || type == "cylinder") put(out, "axis", shape.axis);
  if (type == "polygon") {
    out["points"] = Json::array();
    for (const Vector& point : shape.points) out["points"].push_back(numbers(point));
  }
  if (type == "mesh") out["file"] = shape.file;
  return out;
}

Json writeBody(const BodySpec& body, bool planar) {
  Json out;
  out["name"] = body.name;
  out["mass"] = number(body.mass);
  if (!body.inertia.empty()) out["inertia"] = scalarOrList(body.inertia, planar);
  if (!body.position.empty()) out["position"] = numbers(body.position);
  if (planar) out["angle"] = number(body.angle);
  if (!planar) put(out, "orientation", body.orientation);
  if (!planar && body.quaternion) out["quaternion"] = numbers(*body.quaternion);
  if (!body.velocity.empty()) out["velocity"] = numbers(body.velocity);
  if (!body.angularVelocity.empty())
    out["angular_velocity"] = scalarOrList(body.angularVelocity, planar);
  if (!body.hold.empty()) out["hold"] = body.hold;
  if (!body.shape.type.empty()) out["shape"] = writeShape(body.shape);
  return out;
}

void put(Json& object, const char* key, const std::optional<CurveSpec>& curve) {
  if (!curve) return;
  Json out;
  if (!curve->points.empty()) {
    for (const Vector& point : curve->points) out["points"].push_back(numbers(point));
  } else {
    out["x"] = curve->x;
    out["y"] = curve->y;
    if (!curve->range.empty()) out["range"] = numbers(curve->range);
    if (curve->closed) out["closed"] = true;
  }
  put(out, "offset", curve->offset);
  object[key] = std::move(out);
}

Json writeJoint(const JointSpec& joint) {
  Json out;
  out["name"] = joint.name;
  out["type"] = jointTypeName(joint.type);
  out["body1"] = joint.body1;
  out["body2"] = joint.body2;
  put(out, "at", joint.at);
  put(out, "axis", joint.axis);
  put(out, "point1", joint.point1);
  put(out, "point2", joint.point2);
  put(out, "axis1", joint.axis1);
  put(out, "axis2", joint.axis2);
  if (jointFamily(joint.type).length) put(out, "length", joint.length);
  if (jointFamily(joint.type).radius) put(out, "radius", joint.radius);
  for (const FamilyNumber& n : jointFamily(joint.type).numbers)
    if (const auto value = joint.numbers.find(n.key); value != joint.numbers.end())
      put(out, n.key, std::optional<Number>(value->second));
  if (jointFamily(joint.type).curves == JointCurves::Both) put(out, "curve1", joint.curve1);
  if (jointFamily(joint.type).curves != JointCurves::None) put(out, "curve2", joint.curve2);
  return out;
}

Json writeMotion(const MotionSpec& motion) {
  Json out;
  out["name"] = motion.name;
  if (!motion.joint.empty()) out["joint"] = motion.joint;
  if (!motion.body.empty()) out["body"] = motion.body;
  if (!motion.coordinate.empty()) out["coordinate"] = motion.coordinate;
  put(out, "point", motion.point);
  put(out, "at", motion.at);
  out["function"] = motion.function;
  return out;
}

Json writeForce(const ForceSpec& force, bool planar) {
  Json out;
  out["name"] = force.name;
  out["type"] = forceTypeName(force.type);
  switch (force.type) {
    case ForceType::SpringDamper:
      out["body1"] = force.body1;
      out["body2"] = force.body2;
      put(out, "point1", force.point1);
      put(out, "at1", force.at1);
      put(out, "point2", force.point2);
      put(out, "at2", force.at2);
      put(out, "stiffness", force.stiffness);
      put(out, "damping", force.damping);
      put(out, "free_length", force.freeLength);
      put(out, "preload", force.preload);
      if (!force.function.empty()) out["function"] = force.function;
      break;
    case ForceType::TorsionSpring:
      out["joint"] = force.joint;
      put(out, "stiffness", force.stiffness);
      put(out, "damping", force.damping);
      put(out, "free_angle", force.freeAngle);
      put(out, "preload", force.preload);
      break;
    case ForceType::Force:
      out["body"] = force.body;
      put(out, "point", force.point);
      put(out, "at", force.at);
      out["vector"] = force.vector;
      out["frame"] = force.frame;
      break;
    case ForceType::Torque:
      out["body"] = force.body;
      if (planar)
        out["value"] = force.value;
      else
        out["vector"] = force.vector;
      if (!planar && force.frame != "global") out["frame"] = force.frame;
      break;
    case ForceType::JointForce:
      out["joint"] = force.joint;
      out["value"] = force.value;
      break;
    case ForceType::Limit:
      out["joint"] = force.joint;
      put(out, "lower", force.lower);
      put(out, "upper", force.upper);
      put(out, "stiffness", force.stiffness);
      put(out, "exponent", force.exponent);
      put(out, "damping", force.damping);
      put(out, "penetration", force.penetration);
      break;
  }
  return out;
}

Json writeConstraint(const ConstraintSpec& constraint) {
  Json out;
  out["name"] = constraint.name;
  out["type"] = constraintTypeName(constraint.type);
  if (constraint.type == ConstraintType::Coupler) {
    out["joints"] = constraint.joints;
    out["ratios"] = numbers(constraint.ratios);
  } else {
    out["equations"] = constraint.equations;
  }
  return out;
}

Json writeAnalysis(const AnalysisSpec& analysis) {
  Json out;
  out["type"] = analysisTypeName(analysis.type);
  out["end_time"] = number(analysis.endTime);
  out["step"] = number(analysis.step);
  put(out, "output_step", analysis.outputStep);
  out["integrator"] = analysis.integrator;
  out["tolerance"] = number(analysis.tolerance);
  if (analysis.variableStep) out["variable_step"] = true;
  if (!analysis.energyCorrection) out["energy_correction"] = false;
  if (analysis.hhtAlpha != AnalysisSpec{}.hhtAlpha) out["hht_alpha"] = number(analysis.hhtAlpha);
  return out;
}

// Writes a list under `key` unless it is empty.
template <typename Element, typename Write>
void putList(Json& out, const char* key, const std::vector<Element>& elements, Write write) {
  if (elements.empty()) return;
  Json& list = out[key] = Json::array();
  for (const Element& element : elements) list.push_back(write(element));
}

}  // namespace

std::string writeRlx(const Spec& spec) {
  const bool planar = spec.dimension == 2;
  Json out;
  out["reuleaux"] = kFormatVersion;
  if (!spec.name.empty()) out["name"] = spec.name;
  if (!spec.description.empty()) out["description"] = spec.description;
  out["dimension"] = spec.dimension;
  // Parameters in their order (appended directly: ordered_json's operator[] searches the keys).
  if (!spec.parameters.empty()) {
    auto& parameters = (out["parameters"] = Json::object()).get_ref<Json::object_t&>();
    for (const Parameter& parameter : spec.parameters)
      parameters.emplace_back(parameter.name, number(parameter.value));
  }
  put(out, "gravity", spec.gravity);
  putList(out, "bodies", spec.bodies, [&](const BodySpec& b) { return writeBody(b, planar); });
  putList(out, "joints", spec.joints, writeJoint);
  putList(out, "motions", spec.motions, writeMotion);
  putList(out, "forces", spec.forces, [&](const ForceSpec& f) { return writeForce(f, planar); });
  putList(out, "constraints", spec.constraints, writeConstraint);
  if (spec.analysis) out["analysis"] = writeAnalysis(*spec.analysis);
  if (!spec.view.is_null()) out["view"] = spec.view;
  return formatJson(out) + "\n";
}

}  // namespace rlx
