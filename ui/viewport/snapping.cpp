#include "viewport/snapping.h"

#include "solve/assembly/drag.h"
#include "viewport/spec_numbers.h"

#include <algorithm>
#include <cmath>

namespace rlx::ui {
namespace {

using Vec3 = Eigen::Vector3d;

// Global points of a body's local points, where the scene draws the body.
class BodyPlacer {
 public:
  BodyPlacer(const Spec& spec, const Model* model, const State& state)
      : spec_(spec), model_(model), state_(state), numbers_(spec) {}

  Vec3 global(std::size_t body, const Vec3& local) const {
    if (model_) {
      const std::string& name = spec_.bodies[body].name;
      for (std::size_t i = 0; i < model_->bodies.size(); ++i)
        if (model_->bodies[i].name == name)
          return bodyPointPosition(*model_, state_.q, static_cast<int>(i), local);
    }
    // The spec's position and planar angle, as SceneSync draws a spec without a model.
    const BodySpec& b = spec_.bodies[body];
    const double a = numbers_.value(b.angle, 0.0);
    const Vec3 origin(numbers_.component(b.position, 0, 0), numbers_.component(b.position, 1, 0),
                      numbers_.component(b.position, 2, 0));
    return origin + Eigen::AngleAxisd(a, Vec3::UnitZ()) * local;
  }
  const SpecNumbers& numbers() const { return numbers_; }

 private:
  const Spec& spec_;
  const Model* model_;
  const State& state_;
  SpecNumbers numbers_;
};

QString bodyName(const Model& model, int body) {
  return body == kGround ? QString() : QString::fromStdString(model.bodies[static_cast<std::size_t>(body)].name);
}

QStringList bodyNames(std::initializer_list<QString> names) {
  QStringList list;
  for (const QString& n : names)
    if (!n.isEmpty() && n != QLatin1String("ground")) list << n;
  return list;
}

// A box's corners, edge middles and (3-D) face centres, in body coordinates.
void addBoxFeatures(std::vector<FeaturePoint>& out, const Vec3& half, int dimension,
                    const std::function<FeaturePoint(const Vec3&, FeatureKind)>& make) {
  if (dimension == 2) {
    for (int sx : {-1, 1})
      for (int sy : {-1, 1}) out.push_back(make(Vec3(sx * half.x(), sy * half.y(), 0), FeatureKind::Corner));
    for (int s : {-1, 1}) {
      out.push_back(make(Vec3(s * half.x(), 0, 0), FeatureKind::EdgeMiddle));
      out.push_back(make(Vec3(0, s * half.y(), 0), FeatureKind::EdgeMiddle));
    }
    return;
  }
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1})
        out.push_back(make(Vec3(sx * half.x(), sy * half.y(), sz * half.z()), FeatureKind::Corner));
  for (int axis = 0; axis < 3; ++axis) {
    // Edges along `axis`: the other two coordinates at their corners; faces across it.
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int su : {-1, 1})
      for (int sv : {-1, 1}) {
        Vec3 p = Vec3::Zero();
        p(u) = su * half(u);
        p(v) = sv * half(v);
        FeaturePoint edge = make(p, FeatureKind::EdgeMiddle);
        edge.axis = Vec3::Unit(axis);
        out.push_back(edge);
      }
    for (int s : {-1, 1}) {
      FeaturePoint face = make(s * half(axis) * Vec3::Unit(axis), FeatureKind::FaceCentre);
      face.axis = Vec3::Unit(axis);
      out.push_back(face);
    }
  }
}

}  // namespace

std::vector<FeaturePoint> featurePoints(const Spec& spec, const Model* model, const State& state) {
  std::vector<FeaturePoint> out;
  const BodyPlacer placer(spec, model, state);
  const SpecNumbers& numbers = placer.numbers();
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    const QString name = QString::fromStdString(b.name);
    // Feature points of this body, with its rotation applied to directions.
    const Vec3 origin = placer.global(i, Vec3::Zero());
    const auto make = [&](const Vec3& local, FeatureKind kind) {
      return FeaturePoint{placer.global(i, local), kind, {name}, name, std::nullopt, std::nullopt};
    };
    const auto rotated = [&](FeaturePoint f) {
      if (f.axis) f.axis = (placer.global(i, *f.axis) - origin).normalized();
      return f;
    };
    out.push_back(make(Vec3::Zero(), FeatureKind::BodyCentre));
    const ShapeSpec& shape = b.shape;
    if (shape.type == "bar") {
      const double half = numbers.value(shape.length, 0.0) / 2;
      if (half > 0)
        for (int s : {-1, 1}) out.push_back(make(Vec3(s * half, 0, 0), FeatureKind::BarEnd));
    } else if (shape.type == "box") {
      const Vec3 half(numbers.component(shape.size, 0, 0) / 2, numbers.component(shape.size, 1, 0) / 2,
                      numbers.component(shape.size, 2, 0) / 2);
      std::vector<FeaturePoint> box;
      addBoxFeatures(box, half, spec.dimension, make);
      for (const FeaturePoint& f : box) out.push_back(rotated(f));
    } else if (shape.type == "polygon") {
      for (const Vector& p : shape.points)
        out.push_back(make(Vec3(numbers.component(p, 0, 0), numbers.component(p, 1, 0), 0), FeatureKind::Corner));
    }
  }
  if (!model) return out;
  // Joint points and spring ends as the model places them.
  for (const Joint& j : model->joints) {
    const Vec3 at = j.body2 != kGround ? bodyPointPosition(*model, state.q, j.body2, j.s2)
                                       : bodyPointPosition(*model, state.q, j.body1, j.s1);
    out.push_back(FeaturePoint{at, FeatureKind::JointPoint,
                               bodyNames({bodyName(*model, j.body1), bodyName(*model, j.body2)}),
                               QString::fromStdString(j.name), j.type, std::nullopt});
  }
  for (const Force& f : model->forces) {
    if (f.type != ForceType::SpringDamper) continue;
    const QString name = QString::fromStdString(f.name);
    out.push_back(FeaturePoint{bodyPointPosition(*model, state.q, f.body1, f.s1), FeatureKind::SpringEnd,
                               bodyNames({bodyName(*model, f.body1)}), name, std::nullopt, std::nullopt});
    out.push_back(FeaturePoint{bodyPointPosition(*model, state.q, f.body2, f.s2), FeatureKind::SpringEnd,
                               bodyNames({bodyName(*model, f.body2)}), name, std::nullopt, std::nullopt});
  }
  return out;
}

std::optional<FeaturePoint> nearestFeature(const std::vector<FeaturePoint>& features, const QPointF& pos,
                                           double radius,
                                           const std::function<QPointF(const Eigen::Vector3d&)>& toScreen) {
  const FeaturePoint* best = nullptr;
  double bestDistance = radius;
  for (const FeaturePoint& f : features) {
    const QPointF d = toScreen(f.at) - pos;
    const double distance = std::hypot(d.x(), d.y());
    if (distance > radius) continue;
    const bool nearer = distance < bestDistance - 0.5;
    const bool asNear = std::abs(distance - bestDistance) <= 0.5 && best && f.kind < best->kind;
    if (!best || nearer || asNear) {
      best = &f;
      bestDistance = std::min(bestDistance, distance);
    }
  }
  if (!best) return std::nullopt;
  return *best;
}

QStringList featureBodiesAt(const std::vector<FeaturePoint>& features, const Eigen::Vector3d& at,
                            double tolerance) {
  QStringList bodies;
  for (const FeaturePoint& f : features)
    if ((f.at - at).norm() <= tolerance) bodies << f.bodies;
  return bodies;
}

QStringList topFirst(const Spec& spec, const QStringList& bodies) {
  QStringList ordered;
  for (auto b = spec.bodies.rbegin(); b != spec.bodies.rend(); ++b) {
    const QString name = QString::fromStdString(b->name);
    if (bodies.contains(name)) ordered << name;
  }
  return ordered;
}

bool alreadyJoined(const std::vector<FeaturePoint>& features, const Eigen::Vector3d& at, double tolerance,
                   JointType type, const QString& body1, const QString& body2) {
  const QStringList pair = bodyNames({body1, body2});
  for (const FeaturePoint& f : features)
    if (f.kind == FeatureKind::JointPoint && f.joint == type && (f.at - at).norm() <= tolerance &&
        f.bodies.size() == pair.size() && std::is_permutation(pair.begin(), pair.end(), f.bodies.begin()))
      return true;
  return false;
}

Eigen::Vector3d roundedAxis(const Eigen::Vector3d& direction) {
  const Vec3 d = direction.normalized();
  Eigen::Index largest = 0;
  d.cwiseAbs().maxCoeff(&largest);
  if (std::abs(d(largest)) > std::cos(10 * M_PI / 180)) return Vec3::Unit(largest);
  return d(largest) < 0 ? Vec3(-d) : d;
}

}  // namespace rlx::ui
