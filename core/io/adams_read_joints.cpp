// Joints, primitives, motions and couplers of a dataset: a joint's body2 is its I marker's part
// and body1 its J marker's, with points and axes per body, so that assembly closes whatever the
// dataset leaves open, as Adams does.
#include "expr/node.h"
#include "io/adams_reader.h"

#include <algorithm>
#include <array>
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
  const Argument* size = nullptr;  // PD or PITCH
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kTypes);
    if (key.empty()) throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    if (key == "I" || key == "J") continue;
    if (key == "PD" || key == "PITCH")
      size = &a;
    else if (a.assignment || key == "IC")
      throw Unsupported{{a.line, where(s) + ": " + key + " is not read yet"}};
    else
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
  } else if (type == "UNIVERSAL") {
    // The cross pins are I's and J's z axes (Adams keeps them perpendicular).
    js.type = JointType::Universal;
  } else if (type == "CONVEL") {
    // The shafts along I's and J's z axes, pointing away from the centre. The family's frames lie
    // along the shafts' common normal, a symmetric pair as Adams requires of the x axes, so the
    // markers' x axes are not needed.
    js.type = JointType::ConstantVelocity;
  } else if (type == "SCREW" || type == "RACKPIN") {
    const char* key = type == "SCREW" ? "PITCH" : "PD";
    if (!size || matchKeyword(size->key, kTypes) != key)
      throw DatasetError{s.line, where(s) + ": " + type + " needs " + key};
    const double value = numbers(s, *size, 1)[0] * units_.length;
    if (!std::isfinite(value))
      throw DatasetError{size->line, where(s) + ": " + key + " is too large"};
    if (type == "SCREW")
      screw(s, *i, *j, value, js);
    else
      rackPinion(s, *i, *j, value / 2, js);
  } else if (type.empty())
    throw DatasetError{s.line, where(s) + ": the joint's type is missing"};
  else
    throw Unsupported{{s.line, where(s) + ": " + type + " joints are not read yet"}};
  if (size && js.type != JointType::Screw && js.type != JointType::RackPinion)
    throw DatasetError{size->line,
                       where(s) + ": " + size->key + " belongs to a " +
                           (matchKeyword(size->key, kTypes) == "PD" ? "RACKPIN" : "SCREW")};
  // Spherical and fixed joints hold points (and the fixed one the file's relative orientation).
  if (js.type == JointType::Spherical || js.type == JointType::Fixed)
    js.axis1.reset(), js.axis2.reset();
  spec_.joints.push_back(js);
  jointStatements_[*s.id] = {spec_.joints.size() - 1, i, j};
}

// SCREW: I advances PITCH along J's z per turn about it (a right-hand thread when positive): a
// Reuleaux screw, whose cylindrical rows a CYLINDRICAL joint on the same markers repeats (that
// joint is taken into the screw, mergeScrews). I's origin must lie on J's z axis and the axes
// be parallel, as Adams' screw needs them held.
void Reader::screw(const Statement& s, const Marker& i, const Marker& j, double pitch,
                   JointSpec& js) {
  if (pitch == 0) throw DatasetError{s.line, where(s) + ": PITCH must not be zero"};
  const Placement gi = global(i), gj = global(j);
  const Vector3d z = gj.axes.col(2), d = gi.origin - gj.origin;
  if (gi.axes.col(2).cross(z).norm() > 1e-9 || (d - d.dot(z) * z).norm() > 1e-9 * (1 + d.norm()))
    throw Unsupported{{s.line, where(s) + ": I must lie on J's z axis with its z axis along J's "
                                          "(other screws are not read yet)"}};
  js.type = JointType::Screw;
  js.numbers["pitch"] = pitch;
}

// RACKPIN: the pinion (I's part) turns about I's z; the rack (J's part) moves along J's z, which
// I's x axis follows, its pitch line R = PD/2 from the pinion's centre on the side of -y_I
// (Adams/View's rule: the pinion's x axis along the rack's z, the axes PD/2 apart). A Reuleaux
// rack_pinion with that pitch line, through the point R from I's origin, fixed on the rack.
void Reader::rackPinion(const Statement& s, const Marker& i, const Marker& j, double radius,
                        JointSpec& js) {
  if (radius <= 0) throw DatasetError{s.line, where(s) + ": PD must be positive"};
  const Placement gi = global(i), gj = global(j);
  const Vector3d along = gj.axes.col(2), spin = gi.axes.col(2);
  if (std::abs(along.dot(spin)) > 1e-9)
    throw DatasetError{s.line, where(s) +
                                   ": the pinion's z axis (I) must be perpendicular to the "
                                   "rack's (J)"};
  const Vector3d toCentre = spin.cross(along).normalized();
  const Placement rack = partOf(j).ground ? Placement{} : bodyFrames_.at(j.part);
  js.type = JointType::RackPinion;
  js.point1 = vector(rack.axes.transpose() * (gi.origin - radius * toCentre - rack.origin));
  js.axis2.reset();
  js.numbers["pitch_radius"] = radius;
}

// A CYLINDRICAL joint on a SCREW's markers (or on the same parts and line) is the screw's own
// pair in Adams: the screw takes its place, and a COUPLER naming it names the screw.
void Reader::mergeScrews() {
  std::vector<std::size_t> merged;
  for (auto& [id, cylinder] : jointStatements_) {
    const JointSpec& c = spec_.joints[cylinder.index];
    if (c.type != JointType::Cylindrical) continue;
    for (const auto& [screwId, screw] : jointStatements_) {
      const JointSpec& w = spec_.joints[screw.index];
      if (w.type != JointType::Screw || w.body1 != c.body1 || w.body2 != c.body2) continue;
      const Placement ci = global(*cylinder.i), cj = global(*cylinder.j), wj = global(*screw.j);
      const Vector3d z = wj.axes.col(2), d = ci.origin - wj.origin, e = cj.origin - wj.origin;
      const double tolerance = 1e-9 * (1 + d.norm() + e.norm());
      if (cj.axes.col(2).cross(z).norm() > 1e-9 || (d - d.dot(z) * z).norm() > tolerance ||
          (e - e.dot(z) * z).norm() > tolerance)
        continue;
      merged.push_back(cylinder.index);
      cylinder.index = screw.index;  // its markers stay: Adams' displacements are theirs
      break;
    }
  }
  std::sort(merged.rbegin(), merged.rend());
  for (std::size_t index : merged) {
    spec_.joints.erase(spec_.joints.begin() + static_cast<std::ptrdiff_t>(index));
    for (auto& [id, statement] : jointStatements_)
      if (statement.index > index) --statement.index;
  }
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
  else if (type == "ORIENTATION") {
    if (!global(*i).axes.isApprox(global(*j).axes, 1e-9))
      throw Unsupported{{s.line, where(s) + ": ORIENTATION whose I and J axes differ in the file "
                                            "is not read yet (Adams would turn the parts)"}};
    js.type = JointType::Orientation;
  } else if (type.empty())
    throw DatasetError{s.line, where(s) + ": the primitive's type is missing"};
  else
    throw Unsupported{{s.line, where(s) + ": " + type + " is not read yet"}};
  // The fields each primitive uses: I's origin on J's point, z line or x-y plane; the z axes.
  if (js.type == JointType::Spherical) js.axis1.reset(), js.axis2.reset();
  if (js.type == JointType::PointOnLine || js.type == JointType::PointOnPlane) js.axis2.reset();
  if (js.type == JointType::ParallelAxes || js.type == JointType::Perpendicular)
    js.point1.reset(), js.point2.reset();
  if (js.type == JointType::Orientation)
    js.point1.reset(), js.point2.reset(), js.axis1.reset(), js.axis2.reset();
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
  const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical ||
                       js.type == JointType::Screw;
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

// A JOINT that a COUPLER or GEAR names in `joints`: refused when it was not imported.
const Reader::JointMarkers& Reader::jointNamed(const Statement& s, const Argument& joints,
                                               double written) {
  const long long id = static_cast<long long>(written);
  if (skipped_.count({"JOINT", id}))
    throw Unsupported{
        {s.line, where(s) + ": its JOINT/" + std::to_string(id) + " is not imported"}};
  const auto it = jointStatements_.find(id);
  if (it == jointStatements_.end() || static_cast<double>(id) != written)
    throw DatasetError{joints.line,
                       where(s) + ": JOINTS names no JOINT " + expr::numberText(written)};
  return it->second;
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
    const auto& [index, i, j] = jointNamed(s, *joints, ids[k]);
    const JointSpec& js = spec_.joints[index];
    const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical ||
                         js.type == JointType::Screw;
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

// GEAR: two joints (revolute, translational, cylindrical) that each join a wheel to the part
// they share, the carrier, and a CV marker on the carrier at the contact point, its z axis along
// the teeth's motion there. The wheels' points at CV move alike along that axis, relative to the
// carrier: sum_k s_k v_k . z = 0, v_k = q_k' (a_k x (P - c_k)) for a turning joint (a_k its axis
// through c_k), q_k' a_k for a sliding one, s_k = -1 when the wheel is the joint's J part. Read as
// a coupler of the joints' coordinates with those ratios in the file's configuration, where
// Reuleaux's coordinates are zero.
void Reader::gear(const Statement& s) {
  static constexpr const char* kKeys[] = {"JOINTS", "CV"};
  const Argument *joints = nullptr, *cv = nullptr;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "JOINTS")
      joints = &a;
    else if (key == "CV")
      cv = &a;
    else
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
  }
  if (!joints || !cv) throw DatasetError{s.line, where(s) + ": needs JOINTS and CV"};
  const std::vector<double> ids = numbers(s, *joints, 2);
  const Marker& contact = markerAt(s, *cv);
  const Placement p = global(contact);
  std::array<const JointMarkers*, 2> pair{};
  for (std::size_t k = 0; k < 2; ++k) {
    pair[k] = &jointNamed(s, *joints, ids[k]);
  }
  const long long carrier = contact.part;
  ConstraintSpec c;
  c.type = ConstraintType::Coupler;
  for (std::size_t k = 0; k < 2; ++k) {
    const JointMarkers& m = *pair[k];
    const JointSpec& js = spec_.joints[m.index];
    const std::array parts{m.i->part, m.j->part};
    if (parts[0] != carrier && parts[1] != carrier)
      throw DatasetError{s.line, where(s) +
                                     ": CV must be on the carrier, the part both joints "
                                     "join (" +
                                     js.name + " does not join CV's part)"};
    const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical;
    const bool sliding = js.type == JointType::Translational || js.type == JointType::Cylindrical;
    if (!turning && !sliding)
      throw DatasetError{s.line, where(s) + ": joint " + js.name +
                                     " is not revolute, translational or cylindrical"};
    const Placement j = global(*m.j);
    const Vector3d a = j.axes.col(2), z = p.axes.col(2);
    const double side = parts[0] == carrier ? -1.0 : 1.0;  // the wheel is J's part: -1
    const double turn = a.cross(p.origin - j.origin).dot(z), slide = a.dot(z);
    if (turning && sliding && std::abs(slide) > 1e-9)
      throw Unsupported{{s.line, where(s) + ": the cylindrical joint " + js.name +
                                     " would both turn and slide CV along its z axis (not read "
                                     "yet)"}};
    c.joints.push_back(js.name);
    c.ratios.push_back(side * (turning ? turn : slide));
  }
  if (c.ratios[0].value == 0 || c.ratios[1].value == 0)
    throw DatasetError{s.line, where(s) +
                                   ": a wheel's point at CV does not move along CV's z "
                                   "axis (is CV's z axis along the teeth's motion?)"};
  c.ratios[1].value = -c.ratios[1].value;  // s1 v1 - s2 v2 = 0
  c.name = nameOf(s, "gear");
  spec_.constraints.push_back(c);
}

}  // namespace rlx::adams
