#pragma once
// The editable description of a mechanism (the "spec"): what a .rlx file holds and what the GUI
// edits. Plain structs with defaults; names are identities. Nothing here is validated: compile()
// turns a Spec into a Model or into diagnostics. A default-constructed element is valid once it
// has a name and its bodies.

#include "joints/joint_type.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlx {

// A numeric field: a literal number, or an expression of the model's parameters ("l/2").
// The expression text is kept so that read -> write -> read is lossless.
struct Number {
  double value = 0.0;
  std::string expression;  // empty: the field is the literal `value`

  Number() = default;
  Number(double v) : value(v) {}  // NOLINT(google-explicit-constructor): numbers read naturally
  static Number expr(std::string text) {
    Number n;
    n.expression = std::move(text);
    return n;
  }
  bool isExpression() const { return !expression.empty(); }
  bool operator==(const Number&) const = default;
};

using Vector = std::vector<Number>;  // 2 or 3 components (the model's dimension)

struct Parameter {
  std::string name;
  Number value;
  bool operator==(const Parameter&) const = default;
};

// Drawing only; the solver ignores it.
struct ShapeSpec {
  std::string type;  // "" (none), bar, box, cylinder, disk, sphere, polygon, mesh
  std::optional<Number> length, width, radius;
  std::optional<Vector> size;                // box
  std::vector<Vector> points;                // polygon
  std::optional<Vector> axis;                // bar, cylinder: direction in body axes (extension)
  std::string file;                          // mesh, relative to the model file
  bool operator==(const ShapeSpec&) const = default;
};

struct BodySpec {
  std::string name;
  Number mass = 1.0;
  std::vector<Number> inertia;      // 2-D: {Izz}; 3-D: {Ixx,Iyy,Izz} or {Ixx,Iyy,Izz,Ixy,Ixz,Iyz}
  Vector position;                  // empty: origin
  Number angle = 0.0;               // 2-D
  std::optional<Vector> orientation;  // 3-D, 3-1-3 Euler angles (psi, theta, phi)
  std::optional<std::vector<Number>> quaternion;  // 3-D, (w, x, y, z)
  Vector velocity;                  // empty: zero
  std::vector<Number> angularVelocity;  // 2-D: {omega}; 3-D: {wx, wy, wz} global; empty: zero
  std::vector<std::string> hold;    // inputs kept exact by assembly: x y z angle orientation vx vy vz angular_velocity
  ShapeSpec shape;
  bool operator==(const BodySpec&) const = default;
};

// A cam's curve in its body's coordinates (joints/curve.h): expressions x(u), y(u) over `range`
// (default 0 to 2 pi), or points of a closed spline; either offset along its normal.
struct CurveSpec {
  std::string x, y;
  std::vector<Number> range;  // empty: {0, 2 pi}
  bool closed = false;
  std::vector<Vector> points;
  std::optional<Number> offset;
  bool operator==(const CurveSpec&) const = default;
};

struct JointSpec {
  std::string name;
  JointType type = JointType::Revolute;
  std::string body1 = "ground", body2;
  // Points and axes: global ("at", "axis", in the file's configuration) or per body.
  std::optional<Vector> at, axis, point1, point2, axis1, axis2;
  std::optional<Number> length;  // distance (default: the initial distance)
  std::optional<Number> radius;  // rolling_disk
  std::map<std::string, Number> numbers;  // the family's own, by key (gear: radius1, radius2)
  std::optional<CurveSpec> curve1, curve2;  // cams
  bool operator==(const JointSpec&) const = default;
};

// A motion prescribes a joint coordinate, or an absolute coordinate of a body (point).
struct MotionSpec {
  std::string name;
  std::string joint;       // either a joint ...
  std::string body;        // ... or a body with a coordinate
  std::string coordinate;  // x y z angle (body motions)
  std::optional<Vector> point, at;  // body point (body coordinates) or its global position
  std::string function = "0";       // expression of t and parameters
  bool operator==(const MotionSpec&) const = default;
};

enum class ForceType { SpringDamper, TorsionSpring, Force, Torque, JointForce, Limit };

struct ForceSpec {
  std::string name;
  ForceType type = ForceType::Force;
  // spring_damper: body1/body2 with point1/point2 (body coordinates) or at1/at2 (global)
  std::string body1, body2;
  std::optional<Vector> point1, point2, at1, at2;
  std::optional<Number> stiffness, damping, freeLength, preload, freeAngle;
  std::string function;  // spring_damper: law of `length` and `rate` replacing the linear one
  // torsion_spring, joint_force, limit
  std::string joint;
  // limit: the bounds of the joint coordinate and the contact law (stiffness, damping as above)
  std::optional<Number> lower, upper, exponent, penetration;
  // force, torque
  std::string body;
  std::optional<Vector> point, at;
  std::vector<std::string> vector;  // force (2 or 3 expressions), spatial torque (3)
  std::string frame = "global";     // force, spatial torque: global | body
  std::string value;                // torque (planar) and joint_force: an expression
  bool operator==(const ForceSpec&) const = default;
};

// A user-defined constraint: equations of positions (holonomic), equations linear in the
// velocities (nonholonomic), or a coupler: sum_i ratio_i * joint_i.q = 0 over two or three joints'
// coordinates (belts, chains, gear pairs on a common carrier, a differential; Adams COUPLER).
enum class ConstraintType { Holonomic, Nonholonomic, Coupler };

struct ConstraintSpec {
  std::string name;
  ConstraintType type = ConstraintType::Holonomic;
  std::vector<std::string> equations;  // holonomic, nonholonomic
  std::vector<std::string> joints;     // coupler
  std::vector<Number> ratios;          // coupler: one per joint
  bool operator==(const ConstraintSpec&) const = default;
};

enum class AnalysisType { Assembly, Kinematics, Statics, Dynamics };

struct AnalysisSpec {
  AnalysisType type = AnalysisType::Kinematics;
  Number endTime = 1.0;
  Number step = 1e-3;
  std::optional<Number> outputStep;  // default: step
  std::string integrator = "hht";
  Number tolerance = 1e-6;
  bool variableStep = false;     // hht: error-controlled steps (extension of the format)
  bool energyCorrection = true;  // corrected-rk*: Braun-Goldfarb energy term (extension)
  Number hhtAlpha = -0.1;        // hht: the HHT parameter alpha in [-1/3, 0] (extension)
  bool operator==(const AnalysisSpec&) const = default;
};

// HHT's parameter alpha must lie in [-1/3, 0] (a rounding margin below -1/3).
inline bool hhtAlphaInRange(double alpha) { return alpha >= -1.0 / 3.0 - 1e-12 && alpha <= 0.0; }

struct Spec {
  int formatVersion = 1;
  std::string name;
  std::string description;
  int dimension = 2;
  std::vector<Parameter> parameters;
  std::optional<Vector> gravity;  // default: [0, -9.81] (2-D), [0, 0, -9.81] (3-D)
  std::vector<BodySpec> bodies;
  std::vector<JointSpec> joints;
  std::vector<MotionSpec> motions;
  std::vector<ForceSpec> forces;
  std::vector<ConstraintSpec> constraints;
  std::optional<AnalysisSpec> analysis;
  nlohmann::ordered_json view;  // GUI settings, kept as is, key order included (null when absent)
  bool operator==(const Spec&) const = default;
};

// Names used in files ("point_on_line") for the enums above (joint types: the family table's,
// joints/family.h). The name lists are in the enums' order, derived from the same switch as the
// names (model/spec.cpp): a new enumerator needs only its case there.
const char* jointTypeName(JointType type);
std::optional<JointType> jointTypeFromName(const std::string& name);
const char* forceTypeName(ForceType type);
std::optional<ForceType> forceTypeFromName(const std::string& name);
const std::vector<std::string>& forceTypeNames();
const char* analysisTypeName(AnalysisType type);
std::optional<AnalysisType> analysisTypeFromName(const std::string& name);
const std::vector<std::string>& analysisTypeNames();
const char* constraintTypeName(ConstraintType type);
std::optional<ConstraintType> constraintTypeFromName(const std::string& name);
const std::vector<std::string>& constraintTypeNames();

}  // namespace rlx
