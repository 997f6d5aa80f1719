// compile(): the spatial (dimension 3) parts — bodies with quaternion orientation and inertia
// tensors, and the joint frames of the spatial joint families (their SpatialAxes, joints/family.h).
#include "model/compiler.h"

#include "joints/joints.h"
#include "joints/rotation.h"

#include <cmath>

namespace rlx::detail {
namespace {

// Inputs a spatial body may hold, with the velocity entries (offsets into its v) they keep.
struct Holdable {
  const char* name;
  bool velocity;
  int first, count;
};

constexpr Holdable kHoldable[] = {
    {"x", false, 0, 1}, {"y", false, 1, 1}, {"z", false, 2, 1}, {"orientation", false, 3, 3},
    {"vx", true, 0, 1}, {"vy", true, 1, 1}, {"vz", true, 2, 1}, {"angular_velocity", true, 3, 3},
};

}  // namespace

void Compiler::compileSpatialBodies() {
  const auto count = static_cast<int>(spec.bodies.size());
  model.nq = 7 * count;
  model.nv = 6 * count;
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
    b.q = 7 * i;
    b.v = 6 * i;
    bodies[s.name] = i;
    // Mass and the inertia tensor in body axes: [Ixx, Iyy, Izz] or with [Ixy, Ixz, Iyz].
    if (const auto m = number(s.mass, element, "mass")) {
      if (*m <= 0) error(element, "mass", "must be positive, got " + std::to_string(*m));
      b.mass = *m;
    }
    if (!s.inertia.empty() && s.inertia.size() != 3 && s.inertia.size() != 6) {
      error(element, "inertia",
            "must have 3 or 6 numbers in 3-D, got " + std::to_string(s.inertia.size()));
    } else if (!s.inertia.empty()) {
      double I[6] = {0, 0, 0, 0, 0, 0};
      bool ok = true;
      for (std::size_t k = 0; k < s.inertia.size(); ++k) {
        const auto value = number(s.inertia[k], element, "inertia");
        ok = ok && value.has_value();
        if (value) I[k] = *value;
      }
      b.inertia << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
      const Eigen::Vector3d moments =
          Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(b.inertia).eigenvalues();
      if (ok && moments.minCoeff() < -1e-12 * std::max(1.0, moments.maxCoeff()))
        error(element, "inertia",
              "is not a valid inertia tensor (a principal moment is negative: " +
                  std::to_string(moments.minCoeff()) + ")");
    }
    // Initial guess: position, orientation, velocities (angular velocity in global axes).
    if (!s.position.empty())
      if (const auto r = vector(s.position, 3, element, "position")) model.q0.segment<3>(b.q) = *r;
    Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
    if (s.orientation && s.quaternion) {
      error(element, "quaternion", "and orientation are exclusive: give one of them");
    } else if (s.orientation) {
      if (const auto angles = vector(*s.orientation, 3, element, "orientation"))
        orientation = rotation::fromMatrix(rotation::fromEuler313(*angles));
    } else if (s.quaternion) {
      std::vector<Number> wxyz = *s.quaternion;
      if (wxyz.size() != 4) {
        error(element, "quaternion",
              "must have 4 numbers (w, x, y, z), got " + std::to_string(wxyz.size()));
      } else {
        Eigen::Vector4d value;
        bool ok = true;
        for (int k = 0; k < 4; ++k) {
          const auto x = number(wxyz[static_cast<std::size_t>(k)], element, "quaternion");
          ok = ok && x.has_value();
          value(k) = x.value_or(0.0);
        }
        if (ok && value.norm() < 1e-12)
          error(element, "quaternion", "must not be zero");
        else if (ok)
          orientation = Eigen::Quaterniond(value(0), value(1), value(2), value(3)).normalized();
      }
    }
    rotation::toCoordinates(orientation, model.q0.segment<4>(b.q + 3));
    if (!s.velocity.empty())
      if (const auto v = vector(s.velocity, 3, element, "velocity")) model.v0.segment<3>(b.v) = *v;
    if (!s.angularVelocity.empty())
      if (const auto w = vector(s.angularVelocity, 3, element, "angular_velocity"))
        model.v0.segment<3>(b.v + 3) = *w;
    // Held inputs.
    for (const std::string& h : s.hold) {
      const Holdable* found = nullptr;
      for (const Holdable& entry : kHoldable)
        if (h == entry.name) found = &entry;
      if (!found) {
        error(element, "hold",
              "\"" + h + "\" cannot be held in 3-D (x y z orientation vx vy vz angular_velocity)");
        continue;
      }
      std::vector<bool>& held = found->velocity ? model.holdV : model.holdQ;
      for (int k = 0; k < found->count; ++k)
        held[static_cast<std::size_t>(b.v + found->first + k)] = true;
    }
    checkShapeAxis(s, element);
    model.bodies.push_back(b);
  }
}

void Compiler::compileSpatialJointFrames(const JointSpec& s, Joint& j, const std::string& element,
                                         bool numbersOk) {
  const Eigen::Matrix3d R1 = fileRotation(j.body1), R2 = fileRotation(j.body2);
  // A unit axis in body coordinates from `global` (global axes, the file's configuration) or
  // `local` (body axes of `body`).
  const auto axisOf = [&](const std::optional<Vector>& local, const char* localField,
                          const std::optional<Vector>& global,
                          const Eigen::Matrix3d& R) -> std::optional<Eigen::Vector3d> {
    std::optional<Eigen::Vector3d> a;
    const char* field = local ? localField : "axis";
    if (local)
      a = vector(*local, 3, element, localField);
    else if (global) {
      if (const auto g = vector(*global, 3, element, "axis")) a = R.transpose() * *g;
    }
    if (a && a->norm() < 1e-12) {
      error(element, field, "must not be zero");
      return std::nullopt;
    }
    if (a) a->normalize();
    return a;
  };
  // The joint's axis on body1 and, if given, on body2.
  std::optional<Eigen::Vector3d> a1, a2;
  const SpatialFamily& family = *jointFamily(s.type).spatial;
  switch (family.axes) {
    case SpatialAxes::Axis:
    case SpatialAxes::OneAxis:
      a1 = axisOf(s.axis1, "axis1", s.axis, R1);
      if (!s.axis1 && !s.axis)
        error(element, "axis", "is missing (give axis, global, or axis1 in body1 coordinates)");
      if (s.axis2 && family.axes == SpatialAxes::Axis)
        a2 = axisOf(s.axis2, "axis2", std::nullopt, R2);
      break;
    case SpatialAxes::CrossAxes:
      if (!s.axis1)
        error(element, "axis1", "is missing (the cross axis on body1, body1 coordinates)");
      if (!s.axis2)
        error(element, "axis2", "is missing (the cross axis on body2, body2 coordinates)");
      a1 = axisOf(s.axis1, "axis1", std::nullopt, R1);
      a2 = axisOf(s.axis2, "axis2", std::nullopt, R2);
      break;
    case SpatialAxes::OptionalAxis:
      a1 = axisOf(s.axis1, "axis1", s.axis, R1);
      break;
    case SpatialAxes::PlaneAndDisk:
      // The plane's normal on body1 (default: z) and the disk's axis on body2.
      a1 = s.axis1 || s.axis ? axisOf(s.axis1, "axis1", s.axis, R1) : Eigen::Vector3d::UnitZ();
      if (!s.axis2) error(element, "axis2", "is missing (the disk's axis, body2 coordinates)");
      a2 = axisOf(s.axis2, "axis2", std::nullopt, R2);
      break;
    case SpatialAxes::None:
      break;
  }
  if (jointFamily(s.type).radius) {
    if (!s.radius)
      error(element, "radius", "is missing (the disk's radius)");
    else if (const auto rho = number(*s.radius, element, "radius")) {
      if (*rho <= 0) error(element, "radius", "must be positive, got " + std::to_string(*rho));
      j.radius = *rho;
    }
  }
  // Frames: body1's around its axis; body2's the same frame in the file's configuration, turned
  // the least way onto body2's own axis when one is given (universal, perpendicular: its own).
  j.frame1 = a1 ? spatial::frameAround(*a1) : Eigen::Matrix3d::Identity();
  j.a1 = j.frame1.col(2);
  const Eigen::Matrix3d image = R2.transpose() * R1 * j.frame1;
  if (family.axes == SpatialAxes::CrossAxes || family.axes == SpatialAxes::PlaneAndDisk) {
    j.frame2 = a2 ? spatial::frameAround(*a2) : Eigen::Matrix3d::Identity();
  } else if (a2) {
    j.frame2 = Eigen::Quaterniond::FromTwoVectors(image.col(2), *a2).toRotationMatrix() * image;
  } else {
    j.frame2 = image;
  }
  j.a2 = j.frame2.col(2);
  // The coordinate's value in the file's configuration is its zero; what the family keeps of
  // that configuration.
  spatial::Body b1, b2;
  b1.r = filePosition(j.body1);
  b1.A = R1;
  b2.r = filePosition(j.body2);
  b2.A = R2;
  if (family.coordinate) {
    j.q0 = 0.0;
    j.q0 = family.coordinate(j, b1, b2).value;
  }
  if (family.prepare && numbersOk)
    if (const std::string why = family.prepare(j, b1, b2); !why.empty()) error(element, "", why);
}

}  // namespace rlx::detail
