// Prefilled gear pairs, racks, screws, couplers and cams for the element dialog: the bodies from the selection
// (or the first moving bodies), the numbers from where the bodies are in the file's configuration.

#include "docks/element_dialog.h"
#include "joints/family.h"
#include "model/compile.h"
#include "solve/assembly/drag.h"
#include "viewport/spec_numbers.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace rlx::ui {
namespace {

using Json = nlohmann::ordered_json;

// Rounded to `step` (a power of ten below 1), without -0.
double rounded(double x, double step) {
  return std::round(x * (1 / step)) / (1 / step) + 0.0;
}

// A direction's component for the form: rounded to 1e-12, whole numbers without ".0".
Json component(double x) {
  const double r = rounded(x, 1e-12);
  return r == std::round(r) ? Json(static_cast<int>(r)) : Json(r);
}

const BodySpec* bodyOf(const Spec& spec, const std::string& name) {
  for (const BodySpec& b : spec.bodies)
    if (b.name == name) return &b;
  return nullptr;  // ground
}

// The selected bodies, then the spec's other bodies, `count` of them; "ground" first when the
// model has fewer.
std::vector<std::string> pickBodies(const Spec& spec, const std::vector<ElementId>& near,
                                    std::size_t count) {
  std::vector<std::string> names;
  const auto add = [&names](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const ElementId& id : near)
    if (id.kind == ElementKind::Body) add(id.name);
  for (const BodySpec& b : spec.bodies) add(b.name);
  if (names.size() > count) names.resize(count);
  if (names.size() == count) return names;
  std::vector<std::string> padded(count - names.size(), "ground");
  for (std::string& name : names) padded.push_back(std::move(name));
  return padded;
}

// A body's origin and angle in the file's configuration (ground: the origin, 0).
Eigen::Vector3d originOf(const SpecNumbers& numbers, const BodySpec* body) {
  if (!body) return Eigen::Vector3d::Zero();
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < std::min<std::size_t>(3, body->position.size()); ++i)
    p(static_cast<Eigen::Index>(i)) = numbers.value(body->position[i], 0.0);
  return p;
}

double angleOf(const SpecNumbers& numbers, const BodySpec* body) {
  return body ? numbers.value(body->angle, 0.0) : 0.0;
}

// A disk-shaped body's radius, or 0.
double diskRadius(const SpecNumbers& numbers, const BodySpec* body) {
  if (!body || body->shape.type != "disk") return 0.0;
  return numbers.value(body->shape.radius, 0.0);
}

// A pulley's radius: its body's disk (2-D) or cylinder (3-D), 0 for other shapes.
double pulleyRadius(const SpecNumbers& numbers, const BodySpec* body) {
  if (!body || (body->shape.type != "disk" && body->shape.type != "cylinder")) return 0.0;
  return numbers.value(body->shape.radius, 0.0);
}

// A 3-D joint's axis (z of its frame on body1), global in the file's configuration; x when the
// spec does not compile.
Eigen::Vector3d globalAxis(const Spec& spec, const std::string& joint) {
  if (const CompileResult compiled = compile(spec); compiled.model)
    for (const Joint& j : compiled.model->joints)
      if (j.name == joint) {
        const Model& model = *compiled.model;
        return (bodyPointPosition(model, model.q0, j.body1, j.a1) -
                bodyPointPosition(model, model.q0, j.body1, Eigen::Vector3d::Zero()))
            .normalized();
      }
  return Eigen::Vector3d::UnitX();
}

Json axisJson(const Eigen::Vector3d& u) {
  return Json::array({component(u.x()), component(u.y()), component(u.z())});
}

}  // namespace

Json newGearPair(const Spec& spec, const std::vector<ElementId>& near) {
  const std::vector<std::string> bodies = pickBodies(spec, near, 2);
  const SpecNumbers numbers(spec);
  const BodySpec* b1 = bodyOf(spec, bodies[0]);
  const BodySpec* b2 = bodyOf(spec, bodies[1]);
  // In 3-D the wheels' common axis: that of a revolute joint on either body, or z; the centres'
  // distance across it.
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  if (spec.dimension == 3)
    for (const JointSpec& j : spec.joints)
      if (j.type == JointType::Revolute && (j.body1 == bodies[0] || j.body2 == bodies[0] ||
                                            j.body1 == bodies[1] || j.body2 == bodies[1])) {
        axis = globalAxis(spec, j.name);
        break;
      }
  Eigen::Vector3d d = originOf(numbers, b2) - originOf(numbers, b1);
  d -= axis.dot(d) * axis;
  const double distance = d.norm();
  // The pitch circles touch: a disk keeps its radius, the other wheel takes the rest of the
  // distance; without disks each takes half.
  double r1 = distance / 2, r2 = distance / 2;
  const double disk1 = diskRadius(numbers, b1), disk2 = diskRadius(numbers, b2);
  if (disk1 > 0 && disk1 < distance) {
    r1 = disk1;
    r2 = distance - disk1;
  } else if (disk2 > 0 && disk2 < distance) {
    r2 = disk2;
    r1 = distance - disk2;
  }
  // Micrometres for the first, and the second to well inside compile's 1e-6 of the radii.
  if (distance > 0) {
    r1 = rounded(r1, 1e-6);
    r2 = rounded(distance - r1, 1e-12);
  }
  Json gear{{"name", freeName(spec, "mesh")},
            {"type", "gear"},
            {"body1", bodies[0]},
            {"body2", bodies[1]}};
  if (spec.dimension == 3) gear["axis"] = axisJson(axis);
  gear["radius1"] = r1;
  gear["radius2"] = r2;
  return gear;
}

Json newRackPinion(const Spec& spec, const std::vector<ElementId>& near) {
  std::vector<std::string> bodies = pickBodies(spec, near, 2);
  // The rack: the one of the two on a translational joint to ground, if any.
  const auto slider = [&spec](const std::string& body) -> const JointSpec* {
    for (const JointSpec& j : spec.joints)
      if (j.type == JointType::Translational &&
          ((j.body1 == "ground" && j.body2 == body) || (j.body2 == "ground" && j.body1 == body)))
        return &j;
    return nullptr;
  };
  if (!slider(bodies[0]) && slider(bodies[1])) std::swap(bodies[0], bodies[1]);
  const SpecNumbers numbers(spec);
  const BodySpec* rack = bodyOf(spec, bodies[0]);
  const BodySpec* pinion = bodyOf(spec, bodies[1]);
  const Eigen::Vector3d d = originOf(numbers, pinion) - originOf(numbers, rack);
  Json mesh{{"name", freeName(spec, "mesh")},
            {"type", "rack_pinion"},
            {"body1", bodies[0]},
            {"body2", bodies[1]}};
  if (spec.dimension == 3) {
    // The rack's line: its slider's axis (global, the file's configuration), or x; the pitch
    // radius the distance of the pinion's origin from the line through the rack's.
    const JointSpec* guide = slider(bodies[0]);
    const Eigen::Vector3d u = guide ? globalAxis(spec, guide->name) : Eigen::Vector3d::UnitX();
    mesh["axis"] = axisJson(u);
    mesh["pitch_radius"] = rounded((d - u.dot(d) * u).norm(), 1e-12);
    return mesh;
  }
  const double angle = angleOf(numbers, rack);
  const Eigen::Rotation2Dd toGlobal(angle);

  // The rack's line: its slider's axis in rack coordinates, as compile reads it (in body1's
  // axes: ground's, the global ones, when the rack is body2), or x.
  Eigen::Vector2d axis(1, 0);
  if (const JointSpec* j = slider(bodies[0]))
    if (const CompileResult compiled = compile(spec); compiled.model)
      for (const Joint& joint : compiled.model->joints)
        if (joint.name == j->name)
          axis = j->body1 == bodies[0] ? Eigen::Vector2d(joint.a1.head<2>())
                                       : Eigen::Vector2d(toGlobal.inverse() * joint.a1.head<2>());
  const Eigen::Vector2d u = (toGlobal * axis).normalized();
  mesh["axis1"] = Json::array({component(axis.x()), component(axis.y())});
  mesh["pitch_radius"] = rounded(std::abs(u.x() * d.y() - u.y() * d.x()), 1e-12);
  return mesh;
}

Json newScrew(const Spec& spec, const std::vector<ElementId>& near) {
  const std::vector<std::string> bodies = pickBodies(spec, near, 2);
  const Eigen::Vector3d at = originOf(SpecNumbers(spec), bodyOf(spec, bodies[1]));
  return Json{
      {"name", freeName(spec, "screw")},
      {"type", "screw"},
      {"body1", bodies[0]},
      {"body2", bodies[1]},
      {"at", Json::array({rounded(at.x(), 1e-9), rounded(at.y(), 1e-9), rounded(at.z(), 1e-9)})},
      {"axis", Json::array({0, 0, 1})},
      {"pitch", 0.005}};
}

Json newCoupler(const Spec& spec, const std::vector<ElementId>& near) {
  // The selected joints with a coordinate, then the spec's others: the first two.
  std::vector<const JointSpec*> joints;
  const auto add = [&joints](const JointSpec& j) {
    if (hasCoordinate(j.type) && joints.size() < 2 && std::find(joints.begin(), joints.end(), &j) == joints.end())
      joints.push_back(&j);
  };
  for (const ElementId& id : near)
    if (id.kind == ElementKind::Joint)
      for (const JointSpec& j : spec.joints)
        if (j.name == id.name) add(j);
  for (const JointSpec& j : spec.joints) add(j);
  // Pulleys: the disks or cylinders the joints turn, radii as ratios of opposite signs (an open
  // belt).
  const SpecNumbers numbers(spec);
  Json names = Json::array(), ratios = Json::array();
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const JointSpec& j = *joints[i];
    const BodySpec* pulley = bodyOf(spec, j.body2 != "ground" ? j.body2 : j.body1);
    const double radius = coordinateIsAngle(j.type) ? pulleyRadius(numbers, pulley) : 0.0;
    names.push_back(j.name);
    ratios.push_back((i == 0 ? 1.0 : -1.0) * (radius > 0 ? rounded(radius, 1e-6) : 1.0));
  }
  return Json{{"name", freeName(spec, "coupler")},
              {"type", constraintTypeName(ConstraintType::Coupler)},
              {"joints", names},
              {"ratios", ratios}};
}

Json newCam(const Spec& spec, const std::vector<ElementId>& near) {
  const std::vector<std::string> bodies = pickBodies(spec, near, 2);
  const SpecNumbers numbers(spec);
  const double radius = rounded(
      (originOf(numbers, bodyOf(spec, bodies[0])) - originOf(numbers, bodyOf(spec, bodies[1]))).head<2>().norm(),
      1e-6);
  const std::string r = Json(radius > 0 ? radius : 0.05).dump();
  return Json{{"name", freeName(spec, "cam_contact")},
              {"type", "point_on_curve"},
              {"body1", bodies[0]},
              {"body2", bodies[1]},
              {"point1", Json::array({0, 0})},
              {"curve2.x", r + "*cos(u)"},
              {"curve2.y", r + "*sin(u)"},
              {"curve2.closed", true},
              {"curve2.offset", ""}};
}

}  // namespace rlx::ui
