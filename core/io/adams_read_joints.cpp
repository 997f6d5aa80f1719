// Joints, primitives, motions and couplers of a dataset: a joint's body2 is its I marker's part
// and body1 its J marker's, with points and axes per body, so that assembly closes whatever the
// dataset leaves open, as Adams does.
#include "expr/node.h"
#include "io/adams_reader.h"

#include <cmath>

namespace rlx::adams {

// I and J of a joint or a primitive: the JointSpec with its bodies, points and z axes.
JointSpec Reader::between(const Statement& s, const Marker*& iMarker, const Marker*& jMarker) {
  const Argument *i = nullptr, *j = nullptr;
  for (const Argument& a : s.arguments) {
    if (a.key == "I") i = &a;
    if (a.key == "J") j = &a;
  }
  if (!i || !j) throw DatasetError{s.line, where(s) + ": needs both I and J markers"};
  iMarker = &markerAt(s, *i);
  jMarker = &markerAt(s, *j);
  JointSpec js;
  js.body2 = partOf(*iMarker).name;
  js.body1 = partOf(*jMarker).name;
  if (js.body1 == js.body2)
    throw DatasetError{s.line, where(s) + ": I and J are on the same part (" + js.body1 + ")"};
  js.point1 = pointOnBody(*jMarker);
  js.point2 = pointOnBody(*iMarker);
  js.axis1 = axisOnBody(*jMarker);
  js.axis2 = axisOnBody(*iMarker);
  return js;
}

void Reader::joint(const Statement& s) {
  static constexpr const char* kTypes[] = {"REVOLUTE",
                                           "TRANSLATIONAL",
                                           "TRANSLATION",
                                           "CYLINDRICAL",
                                           "SPHERICAL",
                                           "FIXED",
                                           "UNIVERSAL",
                                           "HOOKE",
                                           "PLANAR",
                                           "CONVEL",
                                           "RACKPIN",
                                           "SCREW",
                                           "I",
                                           "J",
                                           "IC",
                                           "PD",
                                           "PITCH",
                                           "ICTRAN",
                                           "ICROT",
                                           "DELTA_V",
                                           "MAXIMUM_DEFORMATION",
                                           "MU_DYN_ROT",
                                           "MU_STAT_ROT",
                                           "FRICTION"};
  std::string type;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kTypes);
    if (key.empty()) throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    if (key == "I" || key == "J") continue;
    if (a.assignment || key == "IC")
      throw Unsupported{{a.line, where(s) + ": " + key + " is not read yet"}};
    type = key;
  }
  const Marker *i = nullptr, *j = nullptr;
  JointSpec js = between(s, i, j);
  js.name = nameOf(s, "joint");
  if (type == "REVOLUTE")
    js.type = JointType::Revolute;
  else if (type == "TRANSLATIONAL" || type == "TRANSLATION")
    js.type = JointType::Translational;
  else if (type == "CYLINDRICAL")
    js.type = JointType::Cylindrical;
  else if (type == "SPHERICAL")
    js.type = JointType::Spherical;
  else if (type == "FIXED")
    js.type = JointType::Fixed;
  else if (type == "PLANAR")
    js.type = JointType::Planar;
  else if (type == "HOOKE") {
    // The cross pins are I's x axis and J's y axis (Adams keeps them perpendicular).
    js.type = JointType::Universal;
    js.axis1 = vector(frameOnBody(*j).axes.col(1));
    js.axis2 = vector(frameOnBody(*i).axes.col(0));
  } else if (type.empty())
    throw DatasetError{s.line, where(s) + ": the joint's type is missing"};
  else
    throw Unsupported{{s.line, where(s) + ": " + type + " joints are not read yet"}};
  // Spherical and fixed joints hold points (and the fixed one the file's relative orientation).
  if (js.type == JointType::Spherical || js.type == JointType::Fixed)
    js.axis1.reset(), js.axis2.reset();
  spec_.joints.push_back(js);
  jointStatements_[*s.id] = {spec_.joints.size() - 1, i, j};
}

void Reader::primitive(const Statement& s) {
  static constexpr const char* kTypes[] = {
      "ATPOINT", "INLINE", "INPLANE", "ORIENTATION", "PARALLEL_AXES", "PERPENDICULAR", "I", "J"};
  std::string type;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kTypes);
    if (key.empty()) throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    if (key != "I" && key != "J") type = key;
  }
  const Marker *i = nullptr, *j = nullptr;
  JointSpec js = between(s, i, j);
  js.name = nameOf(s, "jprim");
  if (type == "ATPOINT")
    js.type = JointType::Spherical;
  else if (type == "INLINE")
    js.type = JointType::PointOnLine;
  else if (type == "INPLANE")
    js.type = JointType::PointOnPlane;
  else if (type == "PARALLEL_AXES")
    js.type = JointType::ParallelAxes;
  else if (type == "PERPENDICULAR")
    js.type = JointType::Perpendicular;
  else if (type.empty())
    throw DatasetError{s.line, where(s) + ": the primitive's type is missing"};
  else
    throw Unsupported{{s.line, where(s) + ": " + type + " is not read yet"}};
  // The fields each primitive uses: I's origin on J's point, z line or x-y plane; the z axes.
  if (js.type == JointType::Spherical) js.axis1.reset(), js.axis2.reset();
  if (js.type == JointType::PointOnLine || js.type == JointType::PointOnPlane) js.axis2.reset();
  if (js.type == JointType::ParallelAxes || js.type == JointType::Perpendicular)
    js.point1.reset(), js.point2.reset();
  spec_.joints.push_back(js);
}

// MOTION on a joint's rotation or translation. Adams' function gives the angle from J's x axis
// to I's about J's z (the travel of I's origin along J's z); Reuleaux's joint coordinate is zero
// in the file's configuration, so the function less its value there.
void Reader::motion(const Statement& s) {
  static constexpr const char* kKeys[] = {"JOINT",
                                          "ROTATION",
                                          "ROTATIONAL",
                                          "TRANSLATION",
                                          "TRANSLATIONAL",
                                          "FUNCTION",
                                          "DISPLACEMENT",
                                          "VELOCITY",
                                          "ACCELERATION",
                                          "I",
                                          "J",
                                          "X",
                                          "Y",
                                          "Z",
                                          "B1",
                                          "B2",
                                          "B3",
                                          "ICDISP",
                                          "ICVEL"};
  std::optional<long long> joint;
  std::string axis, function;
  int functionLine = s.line;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "JOINT")
      joint = id(s, a);
    else if (key == "ROTATION" || key == "ROTATIONAL")
      axis = "ROTATION";
    else if (key == "TRANSLATION" || key == "TRANSLATIONAL")
      axis = "TRANSLATION";
    else if (key == "FUNCTION" && a.assignment)
      function = a.values.front(), functionLine = a.line;
    else if (key == "DISPLACEMENT")
      continue;
    else if (key.empty())
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    else
      throw Unsupported{{a.line, where(s) + ": " + key + " is not read yet"}};
  }
  if (!joint)
    throw Unsupported{{s.line, where(s) + ": JOINT is missing (I and J motions are not read yet)"}};
  if (function.empty()) throw DatasetError{s.line, where(s) + ": FUNCTION is missing"};
  if (skipped_.count({"JOINT", *joint}))
    throw Unsupported{
        {s.line, where(s) + ": its JOINT/" + std::to_string(*joint) + " is not imported"}};
  const auto it = jointStatements_.find(*joint);
  if (it == jointStatements_.end())
    throw DatasetError{
        s.line, where(s) + ": JOINT = " + std::to_string(*joint) + " names no JOINT above it"};
  const auto& [index, i, j] = it->second;
  const JointSpec& js = spec_.joints[index];
  const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical;
  const bool sliding = js.type == JointType::Translational || js.type == JointType::Cylindrical;
  if (axis.empty())
    axis = turning && !sliding ? "ROTATION" : sliding && !turning ? "TRANSLATION" : "";
  if (axis.empty()) throw DatasetError{s.line, where(s) + ": say ROTATION or TRANSLATION"};
  if ((axis == "ROTATION" && !turning) || (axis == "TRANSLATION" && !sliding))
    throw DatasetError{s.line, where(s) + ": joint " + js.name + " has no " +
                                   (axis == "ROTATION" ? "rotation" : "translation")};
  if (js.type == JointType::Cylindrical)
    throw Unsupported{{s.line, where(s) + ": motions of cylindrical joints are not read yet"}};
  const double start = displacement(*i, *j, axis == "ROTATION");
  const double scale = axis == "ROTATION" ? 1.0 : units_.length;
  ExpressionContext context = expressionContext(s);
  const std::string f = translateExpression(function, functionLine, context);
  MotionSpec m;
  m.name = nameOf(s, "motion");
  m.joint = js.name;
  m.function = scale == 1 ? f : expr::numberText(scale) + "*(" + f + ")";
  if (start != 0) m.function += " - (" + expr::numberText(start) + ")";
  spec_.motions.push_back(m);
}

// Adams' displacement of a joint's I marker from its J marker: the angle from J's x axis to I's
// about J's z, or the travel of I's origin along J's z, in the file's configuration.
double Reader::displacement(const Marker& i, const Marker& j, bool rotation) {
  const Placement gi = global(i), gj = global(j);
  if (!rotation) return (gi.origin - gj.origin).dot(gj.axes.col(2));
  const Vector3d xi = gi.axes.col(0), xj = gj.axes.col(0), zj = gj.axes.col(2);
  return std::atan2(xj.cross(xi).dot(zj), xj.dot(xi));
}

// COUPLER: SCALES r1 q1 + r2 q2 (+ r3 q3) = 0 of the joints' displacements (TYPE T or R each;
// a cylindrical joint's R is its angle, Reuleaux's coordinate). Reuleaux's coordinates are zero
// in the file's configuration, so the dataset's must satisfy the relation there.
void Reader::coupler(const Statement& s) {
  static constexpr const char* kKeys[] = {"JOINTS", "TYPE", "SCALES", "FUNCTION", "ROUTINE"};
  const Argument *joints = nullptr, *types = nullptr, *scales = nullptr;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "JOINTS")
      joints = &a;
    else if (key == "TYPE")
      types = &a;
    else if (key == "SCALES")
      scales = &a;
    else if (key == "FUNCTION" || key == "ROUTINE")
      throw Unsupported{{a.line, where(s) + ": " + key +
                                     " names a user subroutine, which "
                                     "cannot be imported"}};
    else
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
  }
  if (!joints || !scales) throw DatasetError{s.line, where(s) + ": needs JOINTS and SCALES"};
  const std::vector<double> ids = numbers(s, *joints, 0);
  std::vector<double> r = numbers(s, *scales, 0);
  if (ids.size() < 2 || ids.size() > 3)
    throw DatasetError{joints->line, where(s) + ": JOINTS names two or three joints"};
  if (r.size() + 1 == ids.size()) r.insert(r.begin(), 1.0);  // r1 defaults to 1
  if (r.size() != ids.size())
    throw DatasetError{scales->line, where(s) + ": SCALES needs one number per joint"};
  std::vector<std::string> type;
  for (const std::string& v : types ? types->values : std::vector<std::string>{})
    for (std::size_t from = 0, colon = 0; colon != std::string::npos; from = colon + 1) {
      colon = v.find(':', from);
      type.push_back(v.substr(from, colon == std::string::npos ? colon : colon - from));
    }
  ConstraintSpec c;
  c.type = ConstraintType::Coupler;
  double sum = 0, scale = 0;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const long long id = static_cast<long long>(ids[k]);
    if (skipped_.count({"JOINT", id}))
      throw Unsupported{
          {s.line, where(s) + ": its JOINT/" + std::to_string(id) + " is not imported"}};
    const auto it = jointStatements_.find(id);
    if (it == jointStatements_.end() || static_cast<double>(id) != ids[k])
      throw DatasetError{joints->line,
                         where(s) + ": JOINTS names no JOINT " + expr::numberText(ids[k])};
    const auto& [index, i, j] = it->second;
    const JointSpec& js = spec_.joints[index];
    const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical;
    const bool sliding = js.type == JointType::Translational;
    const std::string t = k < type.size() ? type[k] : (sliding ? "T" : "R");
    if (!(turning && t == "R") && !(sliding && t == "T"))
      throw Unsupported{
          {s.line, where(s) + ": joint " + js.name + " with TYPE " + t + " is not read yet"}};
    const double unit = sliding ? units_.length : 1.0;
    c.joints.push_back(js.name);
    c.ratios.push_back(r[k] / unit);  // per metre where the dataset's is per its length unit
    const double q = displacement(*i, *j, turning);  // SI
    sum += c.ratios.back().value * q;
    scale = std::max(scale, std::abs(c.ratios.back().value) * std::max(1.0, std::abs(q)));
  }
  if (std::abs(sum) > 1e-9 * scale)
    throw Unsupported{{s.line, where(s) + ": its joints' displacements in the file do not "
                                          "satisfy it (Adams would move the parts; not read yet)"}};
  c.name = nameOf(s, "coupler");
  spec_.constraints.push_back(c);
}

}  // namespace rlx::adams
