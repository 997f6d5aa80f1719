// writeAdams: a model as an Adams/Solver dataset in SI, laid out as Adams/View writes one
// (docs/adams-datasets.md, "Writing"). The spec is compiled first, so every number is evaluated
// and every point and axis is in body coordinates. Each body becomes a part whose frame is its
// CM marker; each joint gets an I marker on body2 and a J marker on body1 whose axes coincide in
// the file's configuration, so that Adams' joint angles and travels start where Reuleaux's
// coordinates do. A planar model becomes a 3-D dataset in the x-y plane: a body that no revolute,
// translational or fixed joint keeps in the plane gets a PLANAR joint to ground. What Adams has
// no statement for (or the reader does not read back yet) is refused, named.
#include "expr/node.h"
#include "io/adams_function_text.h"
#include "io/model_file.h"
#include "joints/rotation.h"
#include "model/compile.h"
#include "model/number_value.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace rlx {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// An element that cannot be written: its kind and name, and why.
struct Refused {
  std::string element, message;
};

struct MarkerOut {
  int id = 0;
  int body = kGround;
  std::string name;
  Vector3d origin = Vector3d::Zero();  // in its body's frame (ground's for ground)
  Matrix3d axes = Matrix3d::Identity();
  bool floating = false;
};

struct StatementOut {
  std::string name;  // the adams_view_name comment; none when empty
  std::string head;  // "PART/2"
  std::vector<std::string> arguments;
};

std::string number(double x) {
  return expr::numberText(x == 0 ? 0.0 : x);
}  // no "-0"

std::string numbers(const Vector3d& v) {
  return number(v.x()) + ", " + number(v.y()) + ", " + number(v.z());
}

// An argument on continuation lines of at most 80 characters, broken at spaces. A list's comma
// starts the next line (a continuation's comma separates values); an expression's stays where it
// is (a continuation's comma is dropped from an expression).
std::string continued(const std::string& argument, bool expression) {
  std::string out, line = ", ";
  std::size_t i = 0;
  while (i < argument.size()) {
    std::size_t space = argument.find(' ', i + 1);
    if (space == std::string::npos) space = argument.size();
    const std::string word = argument.substr(i, space - i);
    if (line.size() + word.size() > 80 && line.size() > 2) {
      const bool moveComma = !expression && line.back() == ',';
      if (moveComma) line.pop_back();
      out += line + "\n";
      line = moveComma ? ", " : ",";
      if (moveComma && word.front() == ' ') line.pop_back();
    }
    line += word;
    i = space;
  }
  return out + line + "\n";
}

std::string text(const StatementOut& s) {
  std::string out;
  if (!s.name.empty())
    out += "!" + std::string(s.name.size() < 40 ? 40 - s.name.size() : 1, ' ') +
           "adams_view_name='" + s.name + "'\n";
  out += s.head + "\n";
  for (const std::string& a : s.arguments)
    out += continued(a, a.find("FUNCTION") == 0 || a.find('\\') != std::string::npos);
  return out + "!\n";
}

std::string section(const std::string& title) {
  const std::string middle = " " + title + " ";
  const std::size_t left = (79 - middle.size()) / 2;
  return "!" + std::string(left, '-') + middle + std::string(79 - left - middle.size(), '-') +
         "\n!\n";
}

// The statement and type a joint family is written as (none for a family Adams has none for; a
// distance is a GCON, written apart). The planar families are the spatial ones' namesakes.
std::optional<std::pair<const char*, const char*>> adamsJoint(JointType type) {
  switch (type) {
    case JointType::Revolute:
      return {{"JOINT", "REVOLUTE"}};
    case JointType::Translational:
      return {{"JOINT", "TRANSLATIONAL"}};
    case JointType::Cylindrical:
      return {{"JOINT", "CYLINDRICAL"}};
    case JointType::Spherical:
      return {{"JOINT", "SPHERICAL"}};
    case JointType::Fixed:
      return {{"JOINT", "FIXED"}};
    case JointType::Universal:
      return {{"JOINT", "HOOKE"}};
    case JointType::Planar:
      return {{"JOINT", "PLANAR"}};
    case JointType::PointOnLine:
      return {{"JPRIM", "INLINE"}};
    case JointType::PointOnPlane:
      return {{"JPRIM", "INPLANE"}};
    case JointType::ParallelAxes:
      return {{"JPRIM", "PARALLEL_AXES"}};
    case JointType::Perpendicular:
      return {{"JPRIM", "PERPENDICULAR"}};
    case JointType::Orientation:
      return {{"JPRIM", "ORIENTATION"}};
    case JointType::ConstantVelocity:
      return {{"JOINT", "CONVEL"}};
    default:
      return std::nullopt;
  }
}

class Writer {
 public:
  Writer(const Spec& spec, const Model& model) : spec_(spec), model_(model) {
    for (const Parameter& p : spec.parameters)
      if (const auto v = evaluateNumber(p.value, parameters_).value) parameters_[p.name] = *v;
    for (const ConstraintSpec& c : spec.constraints)
      if (c.type == ConstraintType::Coupler) coupled_.insert(c.joints.begin(), c.joints.end());
  }

  std::string write(std::vector<Refused>& refused, Diagnostics& warnings) {
    warnings_ = &warnings;
    for (std::size_t j = 0; j < model_.joints.size(); ++j) attempt(refused, [&] { joint(j); });
    for (std::size_t j = 0; j < model_.joints.size(); ++j)
      if (isGear(model_.joints[j].type)) attempt(refused, [&] { gear(j); });
    for (const ConstraintSpec& c : spec_.constraints)
      if (c.type == ConstraintType::Coupler) attempt(refused, [&] { coupler(c); });
    if (model_.dimension == 2) keepInPlane();
    for (const Motion& m : model_.motions) attempt(refused, [&] { motion(m); });
    for (std::size_t f = 0; f < model_.forces.size(); ++f) attempt(refused, [&] { force(f); });
    for (const UserConstraint& c : model_.constraints)
      if (!isCoupler(c.name)) attempt(refused, [&] { gcon(c); });
    std::vector<StatementOut> parts = this->parts();
    std::string title = model_.name.empty() ? std::string("Reuleaux model") : model_.name;
    std::replace(title.begin(), title.end(), '\n', ' ');  // the title is the first line only
    std::replace(title.begin(), title.end(), '\r', ' ');
    std::string out = title + "\n";
    out += "!\n! Written by Reuleaux in SI units from a " + std::to_string(model_.dimension) +
           "-D model (docs/adams-datasets.md).\n!\n";
    out += section("SYSTEM UNITS");
    out += text(
        {"", "UNITS/", {"FORCE = NEWTON", "MASS = KILOGRAM", "LENGTH = METER", "TIME = SECOND"}});
    out += section("PARTS");
    for (const StatementOut& s : parts) out += text(s);
    if (!constraints_.empty()) out += section("CONSTRAINTS");
    for (const StatementOut& s : constraints_) out += text(s);
    if (!forces_.empty()) out += section("FORCES");
    for (const StatementOut& s : forces_) out += text(s);
    out += section("ANALYSIS SETTINGS");
    out += text({"",
                 "ACCGRAV/",
                 {"IGRAV = " + number(model_.gravity.x()), "JGRAV = " + number(model_.gravity.y()),
                  "KGRAV = " + number(model_.gravity.z())}});
    out += text({"", "OUTPUT/", {"REQSAVE", "GRSAVE"}});
    out += text({"", "RESULTS/", {"XRF"}});
    return out + "END\n";
  }

 private:
  template <class Write>
  static void attempt(std::vector<Refused>& refused, Write write) {
    try {
      write();
    } catch (const Refused& r) {
      refused.push_back(r);
    }
  }

  bool isCoupler(const std::string& name) const {
    for (const ConstraintSpec& c : spec_.constraints)
      if (c.name == name) return c.type == ConstraintType::Coupler;
    return false;
  }

  // A body's frame in the file's configuration (ground: the identity).
  Vector3d originOf(int body) const {
    if (body == kGround) return Vector3d::Zero();
    const Eigen::VectorXd& q = model_.q0;
    const int i = model_.bodies[static_cast<std::size_t>(body)].q;
    return model_.dimension == 2 ? Vector3d(q(i), q(i + 1), 0.0) : Vector3d(q.segment<3>(i));
  }
  Matrix3d axesOf(int body) const {
    if (body == kGround) return Matrix3d::Identity();
    const int i = model_.bodies[static_cast<std::size_t>(body)].q;
    if (model_.dimension == 2)
      return Eigen::AngleAxisd(model_.q0(i + 2), Vector3d::UnitZ()).toRotationMatrix();
    return rotation::fromCoordinates(model_.q0.segment<4>(i + 3)).toRotationMatrix();
  }

  // A point of a body in the file's configuration, in ground.
  Vector3d pointOf(int body, const Vector3d& local) const {
    return originOf(body) + axesOf(body) * local;
  }
  // A joint's axis in ground: its frame's z (2-D: the plane's normal).
  Vector3d axisOf(const Joint& j) const {
    return model_.dimension == 2 ? Vector3d::UnitZ() : Vector3d(axesOf(j.body1) * j.frame1.col(2));
  }

  int marker(int body, const Vector3d& origin, const Matrix3d& axes, const std::string& name) {
    markers_.push_back({static_cast<int>(markers_.size()) + 1, body, name, origin, axes});
    return markers_.back().id;
  }
  // A marker whose axes are `global` in the file's configuration.
  int markerGlobal(int body, const Vector3d& origin, const Matrix3d& global,
                   const std::string& name) {
    return marker(body, origin, axesOf(body).transpose() * global, name);
  }
  int groundFrame() {
    if (!groundFrame_)
      groundFrame_ = marker(kGround, Vector3d::Zero(), Matrix3d::Identity(), "ground_frame");
    return *groundFrame_;
  }
  int floatingOnGround() {
    if (!floating_) {
      floating_ = marker(kGround, Vector3d::Zero(), Matrix3d::Identity(), "ground_floating");
      markers_.back().floating = true;
    }
    return *floating_;
  }
  int cmMarker(int body) {
    if (body == kGround) return groundFrame();
    auto [it, added] = cm_.try_emplace(body, 0);
    if (added)
      it->second = marker(body, Vector3d::Zero(), Matrix3d::Identity(),
                          model_.bodies[static_cast<std::size_t>(body)].name + "_cm");
    return it->second;
  }
  // A marker on `body` one metre along its axis `k` from its centre of mass (for the entries of
  // its rotation matrix).
  int axisMarker(int body, int k) {
    auto [it, added] = axisMarkers_.try_emplace({body, k}, 0);
    if (added)
      it->second = marker(body, Vector3d::Unit(k), Matrix3d::Identity(),
                          model_.bodies[static_cast<std::size_t>(body)].name + "_" +
                              std::string(1, "xyz"[k]) + "_axis");
    return it->second;
  }

  static std::string partId(int body) { return std::to_string(body == kGround ? 1 : body + 2); }
  static std::string ids(std::initializer_list<int> list) {
    std::string out;
    for (int id : list) out += (out.empty() ? "" : ", ") + std::to_string(id);
    return "(" + out + ")";
  }

  // The Adams text of a measure the model's expressions use.
  std::string measureText(int slot, const std::string& element) {
    const Measure& m = model_.measures[static_cast<std::size_t>(slot - 1)];
    const auto jointMarkers = [&]() -> const std::pair<int, int>& {
      const auto it = jointMarkers_.find(m.joint);
      if (it == jointMarkers_.end()) throw Refused{element, m.name + ": its joint is not written"};
      return it->second;
    };
    const auto angleWarning = [&] {
      warnings_->push_back({Severity::Warning, element, "",
                            m.name + " is written as Adams' AZ, which stays within (-180, 180] "
                                     "degrees"});
    };
    // DX, VY, WZ ... of the body's CM marker: the letter, then the component after `x`'s kind.
    const auto ofCm = [&](const char* letter, MeasureKind x) {
      return letter + std::string(1, "XYZ"[static_cast<int>(m.kind) - static_cast<int>(x)]) +
             ids({cmMarker(m.body)});
    };
    switch (m.kind) {
      case MeasureKind::BodyX:
      case MeasureKind::BodyY:
      case MeasureKind::BodyZ:
        return ofCm("D", MeasureKind::BodyX);
      case MeasureKind::BodyVx:
      case MeasureKind::BodyVy:
      case MeasureKind::BodyVz:
        return ofCm("V", MeasureKind::BodyVx);
      case MeasureKind::BodyWx:
      case MeasureKind::BodyWy:
      case MeasureKind::BodyWz:
        return ofCm("W", MeasureKind::BodyWx);
      case MeasureKind::BodyOmega:
        return "WZ" + ids({cmMarker(m.body)});
      case MeasureKind::BodyAngle:
        angleWarning();
        return "AZ" + ids({cmMarker(m.body)});
      case MeasureKind::BodyR:
        // R(i, j) is component i of the body's axis j.
        return std::string("D") + "XYZ"[m.component / 3] +
               ids({axisMarker(m.body, m.component % 3), cmMarker(m.body)});
      case MeasureKind::JointQ:
      case MeasureKind::JointQd: {
        const Joint& joint = model_.joints[static_cast<std::size_t>(m.joint)];
        const auto [i, j] = jointMarkers();
        const bool angle = joint.type == JointType::Revolute ||
                           joint.type == JointType::Cylindrical || joint.type == JointType::Screw;
        const bool travel =
            joint.type == JointType::Translational || joint.type == JointType::PointOnLine;
        if (!angle && !travel)
          throw Refused{element, m.name +
                                     ": only the coordinates of revolute, cylindrical, "
                                     "screw and translational joints are written"};
        if (m.kind == MeasureKind::JointQd)
          return angle ? "WZ" + ids({i, j, j}) : "VZ" + ids({i, j, j, j});
        if (angle) {
          angleWarning();
          return "AZ" + ids({i, j});
        }
        const double start = coupled_.count(joint.name) ? 0.0 : joint.q0;  // (jointMarkers)
        return start == 0 ? "DZ" + ids({i, j, j})
                          : "(DZ" + ids({i, j, j}) + " - " + number(start) + ")";
      }
      case MeasureKind::SpringLength:
      case MeasureKind::SpringRate: {
        const auto it = springMarkers_.find(m.force);
        if (it == springMarkers_.end())
          throw Refused{element, m.name + ": its spring is not written"};
        return (m.kind == MeasureKind::SpringLength ? "DM" : "VR") +
               ids({it->second.first, it->second.second});
      }
    }
    throw Refused{element, m.name + " cannot be written"};
  }

  std::string function(const Function& f, const std::string& element) {
    try {
      return adams::functionText(f.value, [&](int slot) { return measureText(slot, element); });
    } catch (const adams::Unwritable& u) {
      throw Refused{element, f.text + ": " + u.message};
    }
  }

  // The I and J markers of a joint: axes that coincide in the file's configuration (2-D: the
  // plane's for turning and fixed joints, z along the line for sliding ones; HOOKE: J's y along
  // axis1, I's x along axis2; else the joint's own frames). A sliding joint in a coupler has its
  // J moved along the line to where I is, so that Adams' travel, which COUPLER relates, starts at
  // zero as Reuleaux's coordinate does.
  std::pair<int, int> jointMarkers(const Joint& j) {
    Matrix3d global = axesOf(j.body1) * j.frame1;
    if (model_.dimension == 2) {
      global.setIdentity();
      if (j.type == JointType::Translational || j.type == JointType::PointOnLine) {
        const Vector3d line = axesOf(j.body1) * j.a1;
        global << Vector3d::UnitZ(), line.cross(Vector3d::UnitZ()), line;
      }
    } else if (j.type == JointType::Universal) {
      const Vector3d pin1 = (axesOf(j.body1) * j.frame1.col(2)).normalized();
      Vector3d pin2 = axesOf(j.body2) * j.frame2.col(2);
      pin2 = (pin2 - pin2.dot(pin1) * pin1).normalized();
      global << pin2, pin1, pin2.cross(pin1);
    }
    Vector3d s1 = j.s1;
    if (coupled_.count(j.name) &&
        (j.type == JointType::Translational || j.type == JointType::Cylindrical)) {
      const Vector3d line = global.col(2);
      const Vector3d p1 = pointOf(j.body1, j.s1), p2 = pointOf(j.body2, j.s2);
      s1 += axesOf(j.body1).transpose() * (line.dot(p2 - p1) * line);
    }
    if (model_.dimension == 3 && j.type != JointType::Universal)
      return {marker(j.body2, j.s2, j.frame2, j.name + "_i"),
              marker(j.body1, s1, j.frame1, j.name + "_j")};
    return {markerGlobal(j.body2, j.s2, global, j.name + "_i"),
            markerGlobal(j.body1, s1, global, j.name + "_j")};
  }

  static bool isGear(JointType type) {
    return type == JointType::Gear || type == JointType::InternalGear;
  }

  void joint(std::size_t index) {
    const Joint& j = model_.joints[index];
    if (isGear(j.type)) return;  // once every joint has its id (gear)
    if (j.type == JointType::RackPinion) return rackPinion(j);
    const auto adams = adamsJoint(j.type);
    if (!adams && j.type != JointType::Distance && j.type != JointType::Screw)
      throw Refused{"joint " + j.name,
                    std::string(jointTypeName(j.type)) + " joints are not written yet"};
    const auto ij = jointMarkers(j);
    if (j.type == JointType::Screw) {
      // Adams' SCREW relates the travel to the turn only: a CYLINDRICAL joint on its markers
      // holds the axis (read back, the screw takes it in).
      jointMarkers_[static_cast<int>(index)] = ij;
      const std::string markers = "I = " + std::to_string(ij.first);
      constraints_.push_back({j.name + "_cylinder",
                              "JOINT/" + std::to_string(++joints_),
                              {"CYLINDRICAL", markers, "J = " + std::to_string(ij.second)}});
      jointIds_[static_cast<int>(index)] = joints_;
      constraints_.push_back({j.name,
                              "JOINT/" + std::to_string(++joints_),
                              {"SCREW", markers, "J = " + std::to_string(ij.second),
                               "PITCH = " + number(j.numbers[0])}});
      return;
    }
    jointMarkers_[static_cast<int>(index)] = ij;
    if (model_.dimension == 2 && j.type != JointType::PointOnLine && j.type != JointType::Distance)
      inPlane_.push_back({j.body1, j.body2});
    if (!adams) {
      // A distance, |I - J| = length: a GCON, as Adams has no distance joint.
      constraints_.push_back(
          {j.name,
           "GCON/" + std::to_string(++gcons_),
           {"I = " + std::to_string(ij.first),
            "FUNCTION = DM" + ids({ij.first, ij.second}) + " - " + number(j.length)}});
      return;
    }
    const auto [statement, type] = *adams;
    const bool isJoint = std::string(statement) == "JOINT";
    constraints_.push_back(
        {j.name,
         std::string(statement) + "/" + std::to_string(isJoint ? ++joints_ : ++jprims_),
         {type, "I = " + std::to_string(ij.first), "J = " + std::to_string(ij.second)}});
    if (isJoint) jointIds_[static_cast<int>(index)] = joints_;
  }

  // RACKPIN: I on the pinion at its centre, x along the rack, y from the rack's pitch line to the
  // centre, z the pinion's axis; J on the rack at the line's point nearest the centre, z along
  // the rack; PD twice the pitch radius (the reader's reading of Adams' RACKPIN).
  void rackPinion(const Joint& j) {
    const Vector3d u = (model_.dimension == 2 ? Vector3d(axesOf(j.body1) * j.a1)
                                              : Vector3d(axesOf(j.body1) * j.frame1.col(0)))
                           .normalized();
    const Vector3d centre = pointOf(j.body2, j.s2), line = pointOf(j.body1, j.s1);
    const Vector3d foot = line + u.dot(centre - line) * u;
    const Vector3d n = (centre - foot).normalized();
    Matrix3d pinion, rack;
    pinion << u, n, u.cross(n);
    rack << n, u.cross(n), u;
    const int i = markerGlobal(j.body2, j.s2, pinion, j.name + "_i");
    const int jm = markerGlobal(j.body1, axesOf(j.body1).transpose() * (foot - originOf(j.body1)),
                                rack, j.name + "_j");
    constraints_.push_back({j.name,
                            "JOINT/" + std::to_string(++joints_),
                            {"RACKPIN", "I = " + std::to_string(i), "J = " + std::to_string(jm),
                             "PD = " + number(2 * j.numbers[0])}});
  }

  // GEAR: the revolute joints at the wheels' centres that join them to one carrier, and a CV
  // marker on the carrier at the pitch point, its z along the teeth's motion there.
  void gear(std::size_t index) {
    const Joint& g = model_.joints[index];
    const Vector3d axis = axisOf(g);
    const Vector3d c1 = pointOf(g.body1, g.s1), c2 = pointOf(g.body2, g.s2);
    // The written revolute joints on a wheel's axis: joint index and the other body.
    const auto bearings = [&](int wheel, const Vector3d& centre) {
      std::vector<std::pair<int, int>> out;
      for (const auto& [k, id] : jointIds_) {
        const Joint& b = model_.joints[static_cast<std::size_t>(k)];
        if (b.type != JointType::Revolute || (b.body1 != wheel && b.body2 != wheel)) continue;
        const Vector3d offset = pointOf(b.body2, b.s2) - centre;
        if (axisOf(b).cross(axis).norm() > 1e-9 ||
            offset.cross(axis).norm() > 1e-9 * (1 + offset.norm()))
          continue;
        out.push_back({k, b.body1 == wheel ? b.body2 : b.body1});
      }
      return out;
    };
    for (const auto& [joint1, carrier1] : bearings(g.body1, c1))
      for (const auto& [joint2, carrier2] : bearings(g.body2, c2)) {
        if (carrier1 != carrier2) continue;
        // The pitch point: on the line of centres, R1 from c1 (beyond c1 when body2 is the ring).
        const Vector3d e = (c2 - c1).normalized();
        const bool ringIs2 = g.type == JointType::InternalGear && g.numbers[1] > g.numbers[0];
        const Vector3d p = c1 + (ringIs2 ? -1.0 : 1.0) * g.numbers[0] * e;
        const Vector3d z = axis.cross(p - c1).normalized();
        Matrix3d cv;
        cv << axis, z.cross(axis), z;
        const int m = markerGlobal(
            carrier1, axesOf(carrier1).transpose() * (p - originOf(carrier1)), cv, g.name + "_cv");
        constraints_.push_back({g.name,
                                "GEAR/" + std::to_string(++gears_),
                                {"JOINTS = " + std::to_string(jointIds_.at(joint1)) + ", " +
                                     std::to_string(jointIds_.at(joint2)),
                                 "CV = " + std::to_string(m)}});
        return;
      }
    throw Refused{"joint " + g.name,
                  "Adams' GEAR relates two joints that join the wheels to one carrier: no "
                  "revolute joints on the wheels' axes join " +
                      bodyName(g.body1) + " and " + bodyName(g.body2) + " to a common part"};
  }

  std::string bodyName(int body) const {
    return body == kGround ? "ground" : model_.bodies[static_cast<std::size_t>(body)].name;
  }

  // Bodies that revolute, translational and fixed joints do not tie to ground through each other
  // get a PLANAR joint to ground at their centre of mass.
  void keepInPlane() {
    std::set<int> held{kGround};
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [a, b] : inPlane_)
        if (held.count(a) != held.count(b))
          grew = held.insert(held.count(a) ? b : a).second || grew;
    }
    for (int b = 0; b < static_cast<int>(model_.bodies.size()); ++b) {
      if (held.count(b)) continue;
      const int i = cmMarker(b);
      const int j = marker(kGround, originOf(b), Matrix3d::Identity(),
                           model_.bodies[static_cast<std::size_t>(b)].name + "_plane");
      constraints_.push_back({model_.bodies[static_cast<std::size_t>(b)].name + "_in_plane",
                              "JOINT/" + std::to_string(++joints_),
                              {"PLANAR", "I = " + std::to_string(i), "J = " + std::to_string(j)}});
    }
  }

  void motion(const Motion& m) {
    const std::string element = "motion " + m.name;
    if (m.joint < 0) throw Refused{element, "motions of a body's coordinate are not written yet"};
    const Joint& j = model_.joints[static_cast<std::size_t>(m.joint)];
    const bool rotation = j.type == JointType::Revolute || j.type == JointType::Screw;
    if (!rotation && j.type != JointType::Translational)
      throw Refused{element, "motions of " + std::string(jointTypeName(j.type)) +
                                 " joints are not written yet"};
    const auto [i, jm] = writtenMarkers(m.joint, element);
    // Adams' angle from J's x axis to I's about J's z (the travel of I along J's z) in the
    // file's configuration, where Reuleaux's coordinate is zero.
    const auto global = [&](int id) {
      const MarkerOut& k = markers_[static_cast<std::size_t>(id - 1)];
      return std::pair{pointOf(k.body, k.origin), Matrix3d(axesOf(k.body) * k.axes)};
    };
    const auto [oi, ai] = global(i);
    const auto [oj, aj] = global(jm);
    const double start =
        rotation ? std::atan2(aj.col(0).cross(ai.col(0)).dot(aj.col(2)), aj.col(0).dot(ai.col(0)))
                 : (oi - oj).dot(aj.col(2));
    std::string f = function(m.function, element);
    if (start != 0) f = "(" + f + ") + " + (start < 0 ? "(" + number(start) + ")" : number(start));
    constraints_.push_back(
        {m.name,
         "MOTION/" + std::to_string(++motions_),
         {rotation ? "ROTATIONAL" : "TRANSLATIONAL",
          "JOINT = " + std::to_string(jointIds_.at(m.joint)), "FUNCTION = " + f}});
  }

  // The I and J markers of a joint an element acts on, refused when the joint is not written.
  std::pair<int, int> writtenMarkers(int joint, const std::string& element) const {
    const auto it = jointMarkers_.find(joint);
    if (it == jointMarkers_.end())
      throw Refused{element, "its joint " + model_.joints[static_cast<std::size_t>(joint)].name +
                                 " is not written"};
    return it->second;
  }

  void force(std::size_t index) {
    const Force& f = model_.forces[index];
    const std::string element = "force " + f.name;
    switch (f.type) {
      case ForceType::SpringDamper: {
        const int i = marker(f.body2, f.s2, Matrix3d::Identity(), f.name + "_i");
        const int j = marker(f.body1, f.s1, Matrix3d::Identity(), f.name + "_j");
        springMarkers_[static_cast<int>(index)] = {i, j};
        if (f.hasLaw) {
          forces_.push_back(
              {f.name,
               "SFORCE/" + std::to_string(++sforces_),
               {"TRANSLATIONAL", "I = " + std::to_string(i), "J = " + std::to_string(j),
                "FUNCTION = " + function(f.functions[0], element)}});
          return;
        }
        forces_.push_back({f.name,
                           "SPRINGDAMPER/" + std::to_string(++springs_),
                           {"TRANSLATIONAL", "I = " + std::to_string(i), "J = " + std::to_string(j),
                            "K = " + number(f.stiffness), "C = " + number(f.damping),
                            "LENGTH = " + number(f.freeLength), "FORCE = " + number(f.preload)}});
        return;
      }
      case ForceType::Force:
      case ForceType::Torque: {
        // A vector on body2 at its point, in ground's axes or the body's; no reaction.
        const bool torque = f.type == ForceType::Torque;
        const int i =
            marker(f.body2, torque ? Vector3d::Zero() : f.s2, Matrix3d::Identity(), f.name + "_i");
        std::vector<std::string> components(3, "0");
        if (torque && model_.dimension == 2)
          components[2] = function(f.functions[0], element);
        else
          for (std::size_t k = 0; k < f.functions.size() && k < 3; ++k)
            components[k] = function(f.functions[k], element);
        const char* names = torque ? "T" : "F";
        std::vector<std::string> arguments{
            "I = " + std::to_string(i), "JFLOAT = " + std::to_string(floatingOnGround()),
            "RM = " + std::to_string(f.bodyFrame ? i : groundFrame())};
        std::string expression;
        for (int k = 0; k < 3; ++k)
          expression += std::string(k ? "\\ " : "") + names + "XYZ"[k] + " = " +
                        components[static_cast<std::size_t>(k)];
        arguments.push_back(expression);
        forces_.push_back({f.name,
                           std::string(torque ? "VTORQUE/" : "VFORCE/") +
                               std::to_string(torque ? ++vtorques_ : ++vforces_),
                           arguments});
        return;
      }
      case ForceType::JointForce: {
        const Joint& j = model_.joints[static_cast<std::size_t>(f.joint)];
        if (j.type != JointType::Revolute)
          throw Refused{element, "joint forces are written on revolute joints only, yet"};
        const auto [i, jm] = writtenMarkers(f.joint, element);
        forces_.push_back({f.name,
                           "SFORCE/" + std::to_string(++sforces_),
                           {"ROTATIONAL", "I = " + std::to_string(i), "J = " + std::to_string(jm),
                            "FUNCTION = " + function(f.functions[0], element)}});
        return;
      }
      case ForceType::TorsionSpring: {
        // On the joint's markers, whose angle starts at zero with the joint's coordinate.
        const auto [i, jm] = writtenMarkers(f.joint, element);
        forces_.push_back({f.name,
                           "SPRINGDAMPER/" + std::to_string(++springs_),
                           {"ROTATIONAL", "I = " + std::to_string(i), "J = " + std::to_string(jm),
                            "KT = " + number(f.stiffness), "CT = " + number(f.damping),
                            "ANGLE = " + number(f.freeAngle), "TORQUE = " + number(f.preload)}});
        return;
      }
      case ForceType::Limit: {
        // Adams' IMPACT law at each finite bound of a turning joint's angle (AZ, WZ of its
        // markers, zero where the coordinate is): the lower bound pushes up, the upper down.
        const Joint& j = model_.joints[static_cast<std::size_t>(f.joint)];
        if (j.type != JointType::Revolute && j.type != JointType::Cylindrical)
          throw Refused{element,
                        "end stops are written on revolute and cylindrical joints "
                        "only, yet"};
        const auto [i, jm] = writtenMarkers(f.joint, element);
        const std::string angle = "AZ" + ids({i, jm}), rate = "WZ" + ids({i, jm, jm});
        const std::string law = number(f.stiffness) + ", " + number(f.exponent) + ", " +
                                number(f.damping) + ", " + number(f.penetration) + ")";
        std::string function;
        if (std::isfinite(f.lower))
          function = "IMPACT(" + angle + ", " + rate + ", " + number(f.lower) + ", " + law;
        if (std::isfinite(f.upper))
          function += std::string(function.empty() ? "-" : " - ") + "IMPACT(-" + angle + ", -" +
                      rate + ", " + number(-f.upper) + ", " + law;
        warnings_->push_back({Severity::Warning, element, "",
                              "its joint's angle is written as Adams' AZ, which stays within "
                              "(-180, 180] degrees"});
        forces_.push_back({f.name,
                           "SFORCE/" + std::to_string(++sforces_),
                           {"ROTATIONAL", "I = " + std::to_string(i), "J = " + std::to_string(jm),
                            "FUNCTION = " + function}});
        return;
      }
    }
  }

  // COUPLER on the JOINT statements of its joints: Adams' displacements of I from J, which
  // start at zero where Reuleaux's coordinates do (the markers above); TYPE R for a cylindrical
  // joint's angle, its coordinate.
  void coupler(const ConstraintSpec& c) {
    const std::string element = "constraint " + c.name;
    std::string joints, types, scales;
    for (std::size_t k = 0; k < c.joints.size(); ++k) {
      int index = 0;
      while (model_.joints[static_cast<std::size_t>(index)].name != c.joints[k]) ++index;
      const JointType type = model_.joints[static_cast<std::size_t>(index)].type;
      const auto id = jointIds_.find(index);
      if (id == jointIds_.end() ||
          (type != JointType::Revolute && type != JointType::Translational &&
           type != JointType::Cylindrical && type != JointType::Screw))
        throw Refused{element, "couplers of " + std::string(jointTypeName(type)) +
                                   " joints are not written yet"};
      const std::string separator = k ? ", " : "";
      joints += separator + std::to_string(id->second);
      types += (k ? ":" : "") + std::string(type == JointType::Translational ? "T" : "R");
      scales += separator + number(evaluateNumber(c.ratios[k], parameters_).value.value_or(0.0));
    }
    constraints_.push_back({c.name,
                            "COUPLER/" + std::to_string(++couplers_),
                            {"JOINTS = " + joints, "TYPE = " + types, "SCALES = " + scales}});
  }

  void gcon(const UserConstraint& c) {
    const int i = c.bodies.empty() ? groundFrame() : cmMarker(c.bodies.front());
    for (std::size_t k = 0; k < c.equations.size(); ++k) {
      const std::string name =
          c.equations.size() == 1 ? c.name : c.name + "_" + std::to_string(k + 1);
      constraints_.push_back({name,
                              "GCON/" + std::to_string(++gcons_),
                              {"I = " + std::to_string(i),
                               "FUNCTION = " + function(c.equations[k], "constraint " + c.name)}});
    }
  }

  std::vector<StatementOut> parts() {
    for (int b = 0; b < static_cast<int>(model_.bodies.size()); ++b) cmMarker(b);
    std::vector<StatementOut> out;
    out.push_back({"ground", "PART/1", {"GROUND"}});
    appendMarkers(kGround, out);
    for (int b = 0; b < static_cast<int>(model_.bodies.size()); ++b) {
      out.push_back(part(b));
      appendMarkers(b, out);
    }
    return out;
  }

  StatementOut part(int b) {
    const Body& body = model_.bodies[static_cast<std::size_t>(b)];
    StatementOut s{body.name, "PART/" + partId(b), {"MASS = " + number(body.mass)}};
    s.arguments.push_back("CM = " + std::to_string(cmMarker(b)));
    const Matrix3d& I = body.inertia;
    if (model_.dimension == 2)  // a plate in the plane: Ixx + Iyy = Izz
      s.arguments.push_back("IP = " + numbers(Vector3d(I(2, 2) / 2, I(2, 2) / 2, I(2, 2))));
    else if (I(0, 1) == 0 && I(0, 2) == 0 && I(1, 2) == 0)
      s.arguments.push_back("IP = " + numbers(I.diagonal()));
    else  // Adams' products of inertia are +integral of x y dm: the tensor's entries negated
      s.arguments.push_back("IP = " + numbers(I.diagonal()) + ", " +
                            numbers(Vector3d(-I(0, 1), -I(0, 2), -I(1, 2))));
    s.arguments.push_back("QG = " + numbers(originOf(b)));
    s.arguments.push_back("REULER = " + numbers(rotation::toEuler313(axesOf(b))));
    // Velocities: the CM's in ground axes, the angular one in the CM marker's.
    const int d = model_.bodyDofs();
    const Eigen::VectorXd v = model_.v0.segment(body.v, d);
    const Vector3d linear = model_.dimension == 2 ? Vector3d(v(0), v(1), 0) : Vector3d(v.head<3>());
    const Vector3d angular = axesOf(b).transpose() *
                             (model_.dimension == 2 ? Vector3d(0, 0, v(2)) : Vector3d(v.tail<3>()));
    for (int k = 0; k < 3; ++k)
      if (linear(k) != 0)
        s.arguments.push_back(std::string("V") + "XYZ"[k] + " = " + number(linear(k)));
    for (int k = 0; k < 3; ++k)
      if (angular(k) != 0)
        s.arguments.push_back(std::string("W") + "XYZ"[k] + " = " + number(angular(k)));
    // Held inputs: X, Y, Z and the whole orientation.
    std::vector<std::string> exact;
    const auto held = [&](int k) { return model_.holdQ[static_cast<std::size_t>(body.v + k)]; };
    for (int k = 0; k < (model_.dimension == 2 ? 2 : 3); ++k)
      if (held(k)) exact.push_back(std::string(1, "XYZ"[k]));
    if (held(model_.dimension == 2 ? 2 : 3)) exact.insert(exact.end(), {"PSI", "THETA", "PHI"});
    if (!exact.empty()) {
      std::string list;
      for (const std::string& e : exact) list += (list.empty() ? "" : ":") + e;
      s.arguments.push_back("EXACT = " + list);
    }
    for (int k = 0; k < d; ++k)
      if (model_.holdV[static_cast<std::size_t>(body.v + k)]) {
        warnings_->push_back({Severity::Warning, "body " + body.name, "",
                              "its held velocities (hold) have no Adams argument and are not "
                              "written"});
        break;
      }
    return s;
  }

  void appendMarkers(int body, std::vector<StatementOut>& out) const {
    for (const MarkerOut& m : markers_) {
      if (m.body != body) continue;
      StatementOut s{m.name, "MARKER/" + std::to_string(m.id), {"PART = " + partId(body)}};
      if (m.floating) {
        s.arguments.push_back("FLOATING");
      } else {
        if (!m.origin.isZero(0)) s.arguments.push_back("QP = " + numbers(m.origin));
        const Vector3d euler = rotation::toEuler313(m.axes);
        if (!euler.isZero(0)) s.arguments.push_back("REULER = " + numbers(euler));
      }
      out.push_back(s);
    }
  }

  const Spec& spec_;
  const Model& model_;
  Diagnostics* warnings_ = nullptr;
  std::vector<MarkerOut> markers_;
  std::optional<int> groundFrame_, floating_;
  std::map<int, int> cm_;
  std::map<std::pair<int, int>, int> axisMarkers_;
  std::map<int, std::pair<int, int>> jointMarkers_, springMarkers_;  // I, J by joint, by force
  std::map<int, int> jointIds_;                                      // JOINT/id by joint
  std::vector<std::pair<int, int>> inPlane_;  // bodies a planar joint keeps in one plane
  std::vector<StatementOut> constraints_, forces_;
  std::map<std::string, double> parameters_;
  std::set<std::string> coupled_;  // joints in couplers
  int couplers_ = 0, gears_ = 0, joints_ = 0, jprims_ = 0, motions_ = 0, gcons_ = 0, sforces_ = 0,
      springs_ = 0, vforces_ = 0, vtorques_ = 0;
};

}  // namespace

AdamsWriteResult writeAdams(const Spec& spec) {
  AdamsWriteResult result;
  CompileResult compiled = compile(spec);
  result.diagnostics = compiled.diagnostics;
  if (!compiled.model) return result;
  std::vector<Refused> refused;
  Writer writer(spec, *compiled.model);
  std::string text = writer.write(refused, result.diagnostics);
  for (const Refused& r : refused)
    result.diagnostics.push_back({Severity::Error, r.element, "", r.message});
  if (refused.empty()) result.text = std::move(text);
  return result;
}

}  // namespace rlx
