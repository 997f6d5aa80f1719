// Force elements and user constraints of a dataset: SFORCE, SPRINGDAMPER, VFORCE, VTORQUE, GCON,
// their functions translated into Reuleaux expressions in SI.
#include "expr/node.h"
#include "io/adams_measures.h"
#include "io/adams_reader.h"

#include <array>
#include <cmath>
#include <map>

namespace rlx::adams {

// SFORCE: a force along the line from J to I (TRANSLATIONAL, the default), or along J's z axis
// at I (ACTIONONLY), or a torque about J's z axis (ROTATIONAL); the function's value acts on I's
// part and its opposite on J's (not with ACTIONONLY). Parts other than ground get a force or a
// torque element each, named after the SFORCE (the reaction with "_on_j").
void Reader::sforce(const Statement& s) {
  static constexpr const char* kKeys[] = {"I",           "J",          "TRANSLATIONAL",
                                          "TRANSLATION", "ROTATIONAL", "ROTATION",
                                          "ACTIONONLY",  "FUNCTION",   "ROUTINE"};
  bool rotational = false, actionOnly = false;
  const Argument *i = nullptr, *j = nullptr;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "I")
      i = &a;
    else if (key == "J")
      j = &a;
    else if (key == "ROTATIONAL" || key == "ROTATION")
      rotational = true;
    else if (key == "ACTIONONLY")
      actionOnly = true;
    else if (key == "ROUTINE")
      throw Unsupported{{a.line, where(s) + ": ROUTINE names a user subroutine, which cannot be "
                                            "imported"}};
    else if (key.empty())
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
  }
  if (!i || !j) throw DatasetError{s.line, where(s) + ": needs both I and J markers"};
  markerAt(s, *i);  // both exist, neither floating
  markerAt(s, *j);
  const Argument& function = functionOf(s);
  actionReaction(s, nameOf(s, "sforce"), {id(s, *i), id(s, *j)}, rotational, actionOnly,
                 function.values.front(), function.line);
}

// An SFORCE's function (dataset units) as Reuleaux forces or torques: on I's part, and the
// opposite on J's unless action-only; ground gets none.
void Reader::actionReaction(const Statement& s, const std::string& name,
                            std::pair<long long, long long> ij, bool rotational, bool actionOnly,
                            const std::string& function, int line) {
  const Marker& mi = markers_.at(ij.first);
  const Marker& mj = markers_.at(ij.second);
  ExpressionContext context = expressionContext(s);
  // The function's value in SI, and the unit vector it acts along in ground axes.
  const double unit = rotational ? units_.torque() : units_.force;
  const std::string value =
      expr::numberText(unit) + "*(" + translateExpression(function, line, context) + ")";
  std::array<std::string, 3> direction;
  if (rotational || actionOnly) {
    direction = markerAxis(frameOnBody(mj), 2);
  } else {
    const std::string ids = "(" + std::to_string(ij.first) + "," + std::to_string(ij.second) + ")";
    for (int k = 0; k < 3; ++k)
      direction[k] =
          translateExpression(std::string("D") + "XYZ"[k] + ids + "/DM" + ids, line, context);
  }
  const auto apply = [&](const Marker& m, const std::string& suffix, const char* sign) {
    const Part& p = partOf(m);
    if (p.ground) return;
    ForceSpec f;
    f.name = suffix.empty() ? name : names_.claim(name + suffix);
    f.type = rotational ? ForceType::Torque : ForceType::Force;
    f.body = p.name;
    if (!rotational) f.point = pointOnBody(m);
    for (const std::string& d : direction)
      f.vector.push_back(sign + ("(" + value + ")*(" + d + ")"));
    spec_.forces.push_back(f);
  };
  apply(mi, "", "");
  if (!actionOnly) apply(mj, partOf(mi).ground ? "" : "_on_j", "-");
}

// SPRINGDAMPER/TRANSLATIONAL: F = -C dr/dt - K (r - LENGTH) + FORCE along the line from J to
// I, r their distance: a spring_damper with body2 I's part and body1 J's, in SI.
// SPRINGDAMPER/ROTATIONAL: T = -CT w - KT (a - ANGLE) + TORQUE about J's z on I's part (its
// opposite on J's), a and w the angle and the rate from J's x axis to I's about it.
void Reader::springDamper(const Statement& s) {
  static constexpr const char* kKeys[] = {
      "TRANSLATIONAL", "ROTATIONAL", "I",  "J",  "K",     "C",
      "LENGTH",        "FORCE",      "KT", "CT", "ANGLE", "TORQUE"};
  const Argument *i = nullptr, *j = nullptr;
  bool rotational = false;
  std::map<std::string, const Argument*> given;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "I")
      i = &a;
    else if (key == "J")
      j = &a;
    else if (key == "ROTATIONAL")
      rotational = true;
    else if (key == "TRANSLATIONAL")
      continue;
    else if (key.empty())
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    else
      given[key] = &a;
  }
  if (!i || !j) throw DatasetError{s.line, where(s) + ": needs both I and J markers"};
  for (const auto& [key, a] : given)
    if (rotational != (key == "KT" || key == "CT" || key == "ANGLE" || key == "TORQUE"))
      throw DatasetError{a->line, where(s) + ": " + key + " belongs to a " +
                                      (rotational ? "TRANSLATIONAL" : "ROTATIONAL") +
                                      " spring-damper"};
  // A value as written (dataset units; zero when not given).
  const auto value = [&](const char* key) {
    const auto it = given.find(key);
    return it == given.end() ? 0.0 : numbers(s, *it->second, 1)[0];
  };
  const Marker& mi = markerAt(s, *i);
  const Marker& mj = markerAt(s, *j);
  const std::string name = nameOf(s, "springdamper");
  if (rotational) {
    rotationalSpring(s, name, {id(s, *i), id(s, *j)},
                     {value("KT"), value("CT"), value("ANGLE"), value("TORQUE")});
    return;
  }
  ForceSpec f;
  f.type = ForceType::SpringDamper;
  f.name = name;
  f.stiffness = value("K") * units_.force / units_.length;
  f.damping = value("C") * units_.force / units_.velocity();
  f.freeLength = value("LENGTH") * units_.length;
  f.preload = value("FORCE") * units_.force;
  f.body2 = partOf(mi).name;
  f.body1 = partOf(mj).name;
  f.point2 = pointOnBody(mi);
  f.point1 = pointOnBody(mj);
  spec_.forces.push_back(f);
}

// A rotational spring-damper between the two parts a revolute or cylindrical joint joins, about
// its axis: a torsion_spring on that joint. Its coordinate q is zero in the file's configuration,
// where the spring's angle is a0, so a = sigma q + a0 (sigma = -1 when I is on the joint's body1
// or the axes are opposite): free_angle = sigma (ANGLE - a0), preload = sigma TORQUE. Without
// such a joint, torques of AZ and WZ, as an SFORCE/ROTATIONAL (AZ within (-180, 180] degrees).
void Reader::rotationalSpring(const Statement& s, const std::string& name,
                              std::pair<long long, long long> ij, const RotationalLaw& law) {
  const Marker& mi = markers_.at(ij.first);
  const Marker& mj = markers_.at(ij.second);
  for (const double v :
       {law.stiffness * units_.torque(), law.damping * units_.torque() * units_.time, law.angle,
        law.torque * units_.torque()})
    if (!std::isfinite(v)) throw DatasetError{s.line, where(s) + ": a value is too large"};
  const Vector3d z = global(mj).axes.col(2);
  for (const auto& [id, m] : jointStatements_) {
    const JointSpec& js = spec_.joints[m.index];
    if (js.type != JointType::Revolute && js.type != JointType::Cylindrical) continue;
    const bool same = js.body2 == partOf(mi).name && js.body1 == partOf(mj).name;
    const bool swapped = js.body2 == partOf(mj).name && js.body1 == partOf(mi).name;
    const Vector3d axis = global(*m.j).axes.col(2);
    if ((!same && !swapped) || axis.cross(z).norm() > 1e-9) continue;
    const double sigma = (same ? 1.0 : -1.0) * (axis.dot(z) > 0 ? 1.0 : -1.0);
    ForceSpec f;
    f.type = ForceType::TorsionSpring;
    f.name = name;
    f.joint = js.name;
    f.stiffness = law.stiffness * units_.torque();
    f.damping = law.damping * units_.torque() * units_.time;
    f.freeAngle = sigma * (law.angle - displacement(mi, mj, true));
    f.preload = sigma * law.torque * units_.torque();
    spec_.forces.push_back(f);
    return;
  }
  const std::string i = std::to_string(ij.first), j = std::to_string(ij.second);
  const std::string function = "-(" + expr::numberText(law.damping) + ")*WZ(" + i + "," + j + "," +
                               j + ") - (" + expr::numberText(law.stiffness) + ")*(AZ(" + i + "," +
                               j + ") - (" + expr::numberText(law.angle) + ")) + (" +
                               expr::numberText(law.torque) + ")";
  actionReaction(s, name, ij, true, false, function, s.line);
}

// VFORCE (FX FY FZ), VTORQUE (TX TY TZ) and GFORCE (both): a vector on I's part at I's origin,
// its components along RM's axes; the reaction acts on JFLOAT's part, read when that is ground.
// A GFORCE becomes a force and a torque (`<name>_torque`).
void Reader::vectorForce(const Statement& s, const std::string& kind) {
  static constexpr const char* kKeys[] = {"I",  "JFLOAT", "RM", "FX", "FY",
                                          "FZ", "TX",     "TY", "TZ", "ROUTINE"};
  const bool forces = kind != "VTORQUE", torques = kind != "VFORCE";
  const Argument *i = nullptr, *jfloat = nullptr, *rm = nullptr;
  std::array<const Argument*, 6> components{};  // FX FY FZ TX TY TZ
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "I")
      i = &a;
    else if (key == "JFLOAT")
      jfloat = &a;
    else if (key == "RM")
      rm = &a;
    else if (key.size() == 2 && ((key[0] == 'F' && forces) || (key[0] == 'T' && torques)) &&
             a.expression)
      components[static_cast<std::size_t>((key[0] == 'T' ? 3 : 0) + key[1] - 'X')] = &a;
    else if (key == "ROUTINE")
      throw Unsupported{{a.line, where(s) + ": ROUTINE names a user subroutine, which cannot be "
                                            "imported"}};
    else
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
  }
  if (!i || !jfloat || !rm)
    throw DatasetError{s.line, where(s) + ": needs its I, JFLOAT and RM markers"};
  const Marker& mi = markerAt(s, *i);
  const Marker& mj = markerAt(s, *jfloat);
  const Marker& mr = markerAt(s, *rm);
  if (!partOf(mj).ground)
    throw Unsupported{{jfloat->line, where(s) + ": a JFLOAT on a moving part (the reaction) is "
                                                "not read yet"}};
  const bool onBody = mr.part == mi.part;
  if (!partOf(mr).ground && !onBody)
    throw Unsupported{{rm->line, where(s) + ": RM on a third part is not read yet"}};
  const Part& p = partOf(mi);
  if (p.ground) return;  // acts on ground only
  ExpressionContext context = expressionContext(s);
  // Along RM's axes: in ground's (RM on ground) or in the body's (RM on I's part).
  const Matrix3d axes = onBody ? frameOnBody(mr).axes : global(mr).axes;
  const std::string name = nameOf(s, kind == "GFORCE"   ? "gforce"
                                     : kind == "VFORCE" ? "vforce"
                                                        : "vtorque");
  for (const bool torque : {false, true}) {
    if (!(torque ? torques : forces)) continue;
    std::array<std::string, 3> value;
    for (std::size_t k = 0; k < 3; ++k) {
      const Argument* c = components[(torque ? 3 : 0) + k];
      value[k] = c ? "(" + translateExpression(c->values.front(), c->line, context) + ")" : "0";
    }
    const double unit = torque ? units_.torque() : units_.force;
    ForceSpec f;
    f.name = torque && forces ? names_.claim(name + "_torque") : name;
    f.type = torque ? ForceType::Torque : ForceType::Force;
    f.body = p.name;
    if (!torque) f.point = pointOnBody(mi);
    f.frame = onBody ? "body" : "global";
    for (int r = 0; r < 3; ++r) {
      std::string sum;
      for (int c = 0; c < 3; ++c) {
        const double a = axes(r, c) * unit;
        if (a == 0) continue;
        sum += (sum.empty() ? "" : " + ") + expr::numberText(a) + "*" +
               value[static_cast<std::size_t>(c)];
      }
      f.vector.push_back(sum.empty() ? "0" : sum);
    }
    spec_.forces.push_back(f);
  }
}

// GCON: FUNCTION = 0, an equation of positions or, when it measures velocities, of velocities
// (linear in them, as Adams requires). Its I marker carries the reaction in Adams' output.
void Reader::gcon(const Statement& s) {
  static constexpr const char* kKeys[] = {"I", "FUNCTION"};
  const Argument* i = nullptr;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "I")
      i = &a;
    else if (key.empty())
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
  }
  if (!i) throw DatasetError{s.line, where(s) + ": needs its I marker"};
  markerAt(s, *i);
  const Argument& function = functionOf(s);
  ExpressionContext context = expressionContext(s);
  ConstraintSpec c;
  c.name = nameOf(s, "gcon");
  c.equations = {translateExpression(function.values.front(), function.line, context)};
  c.type = context.usedVelocities ? ConstraintType::Nonholonomic : ConstraintType::Holonomic;
  spec_.constraints.push_back(c);
}

}  // namespace rlx::adams
