#include "viewport/scene_sync.h"

#include "joints/curve.h"

#include "joints/family.h"
#include "solve/assembly/drag.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/recording/reaction_multipliers.h"
#include "viewport/scene_style.h"
#include "viewport/spec_numbers.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCoordinate.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTriangleFilter.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rlx::ui {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

using namespace style;

void setColour(vtkActor* actor, const double c[3]) {
  actor->GetProperty()->SetColor(c[0], c[1], c[2]);
}

// A filled arrow from `from` to `to` (shaft `width` wide) in the plane z.
std::vector<Vec2> arrowOutline(const Vec2& from, const Vec2& to, double width) {
  const Vec2 d = to - from;
  const double length = d.norm();
  const Vec2 u = d / length, n(-u.y(), u.x());
  const double head = std::min(0.35 * length, 4 * width);
  const Vec2 base = to - head * u;
  return {from - n * width / 2,   base - n * width / 2, base - n * 1.6 * width, to,
          base + n * 1.6 * width, base + n * width / 2, from + n * width / 2};
}

double distanceToSegment(const Vec2& p, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double t =
      ab.squaredNorm() > 0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
  return (p - (a + t * ab)).norm();
}

}  // namespace

struct SceneSync::BodyActors {
  QString name;
  int index = kGround;
  geometry::Outline outline;  // planar
  ShapeSpec shape;
  std::vector<Vec3> points;  // where joints and springs attach (body coordinates)
  vtkSmartPointer<vtkPolyData> fillData, edgeData;  // planar, rebuilt for the minimum width
  vtkSmartPointer<vtkMatrix4x4> pose = vtkSmartPointer<vtkMatrix4x4>::New();
  vtkSmartPointer<vtkActor> fill, edge;
  double colour[3] = {0.5, 0.5, 0.5};
  double z = 0.0;  // planar: top of the body's layer
};

SceneSync::SceneSync(vtkRenderer* renderer) : renderer_(renderer) {
  timeText_ = vtkSmartPointer<vtkTextActor>::New();
  timeText_->GetTextProperty()->SetFontSize(15);
  timeText_->GetTextProperty()->SetColor(kInk[0], kInk[1], kInk[2]);
  timeText_->GetTextProperty()->SetFontFamilyToCourier();
  timeText_->GetTextProperty()->BoldOn();
  timeText_->SetPosition(12, 10);
  timeText_->SetVisibility(false);
  renderer_->AddActor2D(timeText_);

  emptyGuide_ = vtkSmartPointer<vtkTextActor>::New();
  emptyGuide_->SetInput(
      "Empty model\n\n"
      "Add Bar (B): drag from one end of a link to the other\n"
      "Add Revolute (R): click a bar end to pin it\n"
      "Run (Ctrl+R) to animate and plot\n\n"
      "or open a classic linkage from File > Examples");
  vtkTextProperty* guide = emptyGuide_->GetTextProperty();
  guide->SetFontSize(16);
  guide->SetColor(kInk[0], kInk[1], kInk[2]);
  guide->SetOpacity(0.7);
  guide->SetJustificationToCentered();
  guide->SetVerticalJustificationToCentered();
  emptyGuide_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  emptyGuide_->SetPosition(0.5, 0.5);
  emptyGuide_->SetVisibility(false);
  renderer_->AddActor2D(emptyGuide_);
}

SceneSync::~SceneSync() {
  clear();
  renderer_->RemoveActor2D(timeText_);
  renderer_->RemoveActor2D(emptyGuide_);
}

void SceneSync::clear() {
  for (const auto& prop : props_) renderer_->RemoveViewProp(prop);
  for (const auto& actor : traceActors_) renderer_->RemoveViewProp(actor);
  props_.clear();
  traceActors_.clear();
  bodies_.clear();
  elementActors_.clear();
  propNames_.clear();
  springs_.clear();
  jointMarks_.clear();
  wheelExtents_.clear();
  motionMarks_.clear();
  stopMarks_.clear();
  camCurves_.clear();
  belts_.clear();
  contacts_.clear();
  inkOf_.clear();
  reactionActor_ = nullptr;
  gridMinor_ = gridMajor_ = nullptr;
}

vtkActor* SceneSync::addActor(vtkPolyData* data, const QString& element, vtkMatrix4x4* pose) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  if (pose) actor->SetUserMatrix(pose);
  renderer_->AddActor(actor);
  props_.push_back(actor);
  if (!element.isEmpty()) {
    elementActors_[element].push_back(actor);
    propNames_[actor] = element;
  }
  return actor;
}

vtkMatrix4x4* SceneSync::poseOf(int body) const {
  if (body == kGround || body >= static_cast<int>(bodies_.size())) return nullptr;
  return bodies_[static_cast<std::size_t>(body)]->pose;
}

Vec3 SceneSync::globalPoint(int body, const Vec3& local) const {
  if (!model_) return local;
  return bodyPointPosition(*model_, state_.q, body, local);
}

void SceneSync::setModel(const Spec& spec, const Model* model) {
  clear();
  model_ = model ? std::make_unique<Model>(*model) : nullptr;
  dimension_ = spec.dimension;
  emptyGuide_->SetVisibility(spec.bodies.empty());
  // Model size from the bodies' positions and the joint points.
  size_ = 0.0;
  numbers_ = std::make_unique<SpecNumbers>(spec);
  for (const BodySpec& b : spec.bodies) {
    const std::optional<Vector> p = b.position;
    size_ = std::max(size_, std::hypot(numbers_->component(p, 0, 0), numbers_->component(p, 1, 0)));
  }
  if (model_)
    for (const Joint& j : model_->joints) size_ = std::max({size_, j.s1.norm(), j.s2.norm()});
  if (size_ <= 0) size_ = 1.0;
  layer_ = 0.002 * size_;
  if (model_) state_ = State{0.0, model_->q0, model_->v0};

  buildBodies(spec);
  if (model_) {
    buildJoints();
    buildSprings();
    buildBelts(spec);
    buildMotions();
    buildStops();
  }
  buildGrid();
  if (model_) setState(state_);
  applySelection();
}

std::vector<Vec3> SceneSync::attachmentPoints(int body) const {
  std::vector<Vec3> points;
  if (!model_) return points;
  for (const Joint& j : model_->joints) {
    if (j.body1 == body) points.push_back(j.s1);
    if (j.body2 == body) points.push_back(j.s2);
  }
  for (const Force& f : model_->forces) {
    if (f.type != ForceType::SpringDamper) continue;
    if (f.body1 == body) points.push_back(f.s1);
    if (f.body2 == body) points.push_back(f.s2);
  }
  return points;
}

void SceneSync::buildBodies(const Spec& spec) {
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& b = spec.bodies[i];
    auto actors = std::make_unique<BodyActors>();
    actors->name = QString::fromStdString(b.name);
    actors->index = static_cast<int>(i);
    actors->shape = b.shape;
    actors->points = attachmentPoints(static_cast<int>(i));
    std::copy(kPalette[i % 8], kPalette[i % 8] + 3, actors->colour);
    // Pose from the spec when there is no model.
    if (!model_) {
      const std::optional<Vector> p = b.position;
      vtkMatrix4x4* m = actors->pose;
      const double a = numbers_->value(b.angle, 0.0);
      m->Identity();
      m->SetElement(0, 0, std::cos(a));
      m->SetElement(0, 1, -std::sin(a));
      m->SetElement(1, 0, std::sin(a));
      m->SetElement(1, 1, std::cos(a));
      m->SetElement(0, 3, numbers_->component(p, 0, 0));
      m->SetElement(1, 3, numbers_->component(p, 1, 0));
      m->SetElement(2, 3, numbers_->component(p, 2, 0));
    }
    const QString name = actors->name;
    if (dimension_ == 2) {
      actors->z = (static_cast<double>(i) + 1) * layer_;
      actors->fillData = vtkSmartPointer<vtkPolyData>::New();
      actors->edgeData = vtkSmartPointer<vtkPolyData>::New();
      rebuildOutline(*actors);
      actors->fill = addActor(actors->fillData, name, actors->pose);
      actors->edge = addActor(actors->edgeData, name, actors->pose);
      // The centre of mass: a small dark cross.
      const double c = 0.012 * size_;
      const double zc = actors->z + 0.1 * layer_;
      vtkActor* com = addActor(
          geometry::segments({Vec3(-c, 0, zc), Vec3(c, 0, zc), Vec3(0, -c, zc), Vec3(0, c, zc)}),
          name, actors->pose);
      setColour(com, kInk);
      com->GetProperty()->SetOpacity(0.6);
    } else {
      actors->fill = addActor(geometry::spatialSolid(b.shape, *numbers_, actors->points, size_),
                              name, actors->pose);
      actors->fill->GetProperty()->SetSpecular(0.3);
      actors->fill->GetProperty()->SetSpecularPower(30);
    }
    actors->fill->GetProperty()->SetAmbient(0.25);
    actors->fill->GetProperty()->SetDiffuse(0.8);
    bodies_.push_back(std::move(actors));
  }
}

void SceneSync::rebuildOutline(BodyActors& b) {
  b.outline = geometry::planarOutline(b.shape, *numbers_, b.points, size_, minWidth_);
  b.fillData->ShallowCopy(geometry::prism(b.outline, b.z - 0.8 * layer_, b.z));
  std::vector<Vec3> edge;
  for (const Vec2& p : b.outline) edge.emplace_back(p.x(), p.y(), b.z + 0.1 * layer_);
  b.edgeData->ShallowCopy(geometry::polyline(edge, true));
}

void SceneSync::setMinimumWidth(double metres) {
  // Rebuild only when the width moved by more than 5 % (zooming redraws every frame).
  if (!(metres > 0) || std::abs(metres - minWidth_) <= 0.05 * minWidth_) return;
  minWidth_ = metres;
  for (const auto& b : bodies_)
    if (b->fillData) rebuildOutline(*b);
}

void SceneSync::buildSprings() {
  for (const Force& f : model_->forces) {
    if (f.type != ForceType::SpringDamper) continue;
    Spring s{QString::fromStdString(f.name),     f.body1, f.body2, f.s1, f.s2,
             vtkSmartPointer<vtkPolyData>::New(), true};
    vtkActor* a = addActor(s.data, s.name, nullptr);
    paint(a, kSpring);
    a->GetProperty()->SetLineWidth(2.0);
    springs_.push_back(s);
  }
}

void SceneSync::buildMotions() {
  const double pin = kPinShare * size_;
  const double top = (static_cast<double>(bodies_.size()) + 3) * layer_;
  for (const Motion& m : model_->motions) {
    const QString name = QString::fromStdString(m.name);
    int body = m.body;
    Vec3 point = m.point;
    bool rotation = m.coordinate == Axis::Angle;
    Vec2 axis(m.coordinate == Axis::Y ? 0 : 1, m.coordinate == Axis::Y ? 1 : 0);
    if (m.joint >= 0) {
      const Joint& j = model_->joints[static_cast<std::size_t>(m.joint)];
      body = j.body2 != kGround ? j.body2 : j.body1;
      point = j.body2 != kGround ? j.s2 : j.s1;
      rotation = coordinateIsAngle(j.type);
      axis = j.a2.head<2>();
    }
    if (dimension_ == 3) continue;
    std::vector<Vec3> ends;
    if (rotation) {
      ends = geometry::arcArrow(point.head<2>(), 1.9 * pin, top);
    } else {
      // A double-headed arrow along the driven direction.
      const Vec2 u = axis.normalized(), n(-u.y(), u.x());
      const Vec2 c = point.head<2>() + 2.2 * pin * n;
      const Vec2 a = c - 2.5 * pin * u, b = c + 2.5 * pin * u;
      const auto P = [&](const Vec2& v) { return Vec3(v.x(), v.y(), top); };
      ends = {P(a), P(b),
              P(b), P(b - 0.8 * pin * (u + 0.6 * n)),
              P(b), P(b - 0.8 * pin * (u - 0.6 * n)),
              P(a), P(a + 0.8 * pin * (u + 0.6 * n)),
              P(a), P(a + 0.8 * pin * (u - 0.6 * n))};
    }
    vtkActor* actor = addActor(geometry::segments(ends), name, poseOf(body));
    paint(actor, kMotion);
    actor->GetProperty()->SetLineWidth(2.5);
    motionMarks_.push_back({name, body, point, 1.9 * pin});
  }
}

void SceneSync::buildGrid() {
  if (dimension_ == 2 && !gridVisible_) return;
  const double extent = 20 * std::max(size_, gridSpacing_);
  // Minor lines faint, major lines (every 5) a little stronger; both under the bodies.
  gridMinor_ = addActor(geometry::grid(gridSpacing_, extent, 5, false), {}, nullptr);
  gridMajor_ = addActor(geometry::grid(gridSpacing_, extent, 5, true), {}, nullptr);
  gridMinor_->GetProperty()->SetColor(0.915, 0.93, 0.95);
  gridMajor_->GetProperty()->SetColor(0.84, 0.865, 0.90);
  for (vtkActor* a : {gridMinor_.Get(), gridMajor_.Get()}) {
    a->GetProperty()->SetLighting(false);
    a->SetPosition(0, 0, -3 * layer_);
    a->PickableOff();
    a->SetVisibility(gridVisible_);
  }
}

void SceneSync::setGridVisible(bool visible) {
  gridVisible_ = visible;
  for (vtkActor* a : {gridMinor_.Get(), gridMajor_.Get()})
    if (a) a->SetVisibility(visible);
}

void SceneSync::setGridSpacing(double spacing) {
  if (!(spacing > 0) || spacing == gridSpacing_) return;
  gridSpacing_ = spacing;
  for (vtkActor* a : {gridMinor_.Get(), gridMajor_.Get()})
    if (a) {
      renderer_->RemoveViewProp(a);
      props_.erase(std::remove(props_.begin(), props_.end(), vtkSmartPointer<vtkProp>(a)),
                   props_.end());
    }
  gridMinor_ = gridMajor_ = nullptr;
  buildGrid();
}

void SceneSync::setState(const State& state) {
  if (!model_ || state.q.size() != model_->nq) return;
  state_ = state;
  // One matrix per body: rotation and position of its centre of mass.
  for (const auto& b : bodies_) {
    const Body& body = model_->bodies[static_cast<std::size_t>(b->index)];
    vtkMatrix4x4* m = b->pose;
    Eigen::Matrix3d R;
    Vec3 r = Vec3::Zero();
    if (model_->dimension == 2) {
      R = Eigen::AngleAxisd(state.q(body.q + 2), Vec3::UnitZ()).matrix();
      r.head<2>() = state.q.segment<2>(body.q);
    } else {
      R = Eigen::Quaterniond(state.q(body.q + 3), state.q(body.q + 4), state.q(body.q + 5),
                             state.q(body.q + 6))
              .normalized()
              .toRotationMatrix();
      r = state.q.segment<3>(body.q);
    }
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) m->SetElement(i, k, R(i, k));
      m->SetElement(i, 3, r(i));
    }
    m->Modified();
  }
  updateSprings();
  updateBelts();
  updateContacts();
}

void SceneSync::updateSprings() {
  for (Spring& s : springs_) {
    const Vec3 a = globalPoint(s.body1, s.s1), b = globalPoint(s.body2, s.s2);
    const double z = (static_cast<double>(bodies_.size()) + 1.5) * layer_;
    std::vector<Vec3> pts = s.zigzag ? geometry::zigzag(a, b, 0.035 * size_, 6)
                                     : std::vector<Vec3>{a, b};
    if (dimension_ == 2)
      for (Vec3& p : pts) p.z() = z;
    const vtkSmartPointer<vtkPolyData> line = geometry::polyline(pts, false);
    s.data->ShallowCopy(line);
  }
}

void SceneSync::setSelection(const QStringList& names) {
  selection_ = names;
  applySelection();
}

void SceneSync::applySelection() {
  for (const auto& b : bodies_) {
    const bool selected = selection_.contains(b->name);
    const double* c = b->colour;
    if (b->edge) {
      if (selected)
        setColour(b->edge, kHighlight);
      else
        b->edge->GetProperty()->SetColor(0.45 * c[0], 0.45 * c[1], 0.45 * c[2]);
      b->edge->GetProperty()->SetLineWidth(selected ? 3.5f : 1.5f);
    }
    // Selected bodies: lighter fill.
    const double k = selected ? 0.35 : 0.0;
    b->fill->GetProperty()->SetColor(c[0] + k * (1 - c[0]), c[1] + k * (1 - c[1]),
                                     c[2] + k * (1 - c[2]));
  }
  // Joint symbols, springs and motion markers: the highlight on their coloured parts (pin
  // faces stay white), their own colour otherwise.
  for (const auto& [actor, colour] : inkOf_) {
    const bool selected = selection_.contains(propNames_.at(actor));
    const bool paper = colour[0] > 0.9 && colour[1] > 0.9;
    setColour(actor, selected && !paper ? kHighlight : colour.data());
  }
}

void SceneSync::paint(vtkActor* actor, const double colour[3]) {
  setColour(actor, colour);
  inkOf_[actor] = {colour[0], colour[1], colour[2]};
}

void SceneSync::setReactionScale(double metresPerNewton) {
  reactionScale_ = metresPerNewton;
  setReactions(reactionFrame_ ? &*reactionFrame_ : nullptr);
}

void SceneSync::setReactions(const Frame* frame) {
  if (reactionActor_) {
    renderer_->RemoveViewProp(reactionActor_);
    props_.erase(
        std::remove(props_.begin(), props_.end(), vtkSmartPointer<vtkProp>(reactionActor_)),
        props_.end());
    reactionActor_ = nullptr;
  }
  if (frame)
    reactionFrame_ = *frame;
  else
    reactionFrame_.reset();
  if (!frame || !model_ || frame->lambda.size() != model_->nh + model_->nn) return;
  // Reactions need Phi_q at the frame's state and its multipliers.
  Workspace ws(*model_);
  loadReactionMultipliers(*model_, frame->state, frame->lambda, ws);
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  const double z = (static_cast<double>(bodies_.size()) + 4) * layer_;
  for (std::size_t j = 0; j < model_->joints.size(); ++j) {
    const Joint& joint = model_->joints[j];
    const Reaction r = jointReaction(*model_, frame->state, ws, static_cast<int>(j));
    const double length = r.force.norm() * reactionScale_;
    if (!(length > 1e-9 * size_) || !std::isfinite(length)) continue;
    const int body = joint.body2 != kGround ? joint.body2 : joint.body1;
    const Vec3 at = bodyPointPosition(*model_, frame->state.q, body,
                                      joint.body2 != kGround ? joint.s2 : joint.s1);
    const Vec2 from = at.head<2>(), to = from + r.force.head<2>().normalized() * length;
    const std::vector<Vec2> outline = arrowOutline(from, to, 0.012 * size_);
    polys->InsertNextCell(static_cast<vtkIdType>(outline.size()));
    for (const Vec2& p : outline) polys->InsertCellPoint(points->InsertNextPoint(p.x(), p.y(), z));
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(polys);
  // The arrows are concave: triangulate them (ear cutting) before drawing.
  auto triangles = vtkSmartPointer<vtkTriangleFilter>::New();
  triangles->SetInputData(data);
  triangles->Update();
  reactionActor_ = addActor(triangles->GetOutput(), {}, nullptr);
  setColour(reactionActor_, kReaction);
  reactionActor_->GetProperty()->SetLighting(false);
  reactionActor_->PickableOff();
}

void SceneSync::setTraces(const QList<TracePoint>& points) {
  traces_ = points;
  updateTraces();
}

void SceneSync::setTraceHistory(const std::vector<Frame>* frames, int current) {
  history_ = frames;
  historyCurrent_ = current;
  updateTraces();
}

void SceneSync::updateTraces() {
  for (const auto& actor : traceActors_) renderer_->RemoveViewProp(actor);
  traceActors_.clear();
  if (!model_ || !history_ || history_->empty() || historyCurrent_ < 0) return;
  const int last = std::min(historyCurrent_, static_cast<int>(history_->size()) - 1);
  const double z = (static_cast<double>(bodies_.size()) + 1.2) * layer_;
  for (const TracePoint& t : traces_) {
    int body = kGround;
    for (const auto& b : bodies_)
      if (b->name == t.body) body = b->index;
    if (body == kGround) continue;
    std::vector<Vec3> pts;
    const Vec3 local(t.point.x(), t.point.y(), t.point.z());
    for (int k = 0; k <= last; ++k) {
      const State& s = (*history_)[static_cast<std::size_t>(k)].state;
      if (s.q.size() != model_->nq) continue;
      Vec3 p = bodyPointPosition(*model_, s.q, body, local);
      if (dimension_ == 2) p.z() = z;
      pts.push_back(p);
    }
    if (pts.size() < 2) continue;
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(geometry::polyline(pts, false));
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(0.55, 0.20, 0.75);
    actor->GetProperty()->SetLineWidth(2.0);
    actor->GetProperty()->SetLighting(false);
    actor->PickableOff();
    renderer_->AddActor(actor);
    traceActors_.push_back(actor);
  }
}

bool SceneSync::showsEmptyGuide() const { return emptyGuide_->GetVisibility() != 0; }

void SceneSync::setTimeText(const QString& text) {
  timeText_->SetInput(text.toUtf8().constData());
  timeText_->SetVisibility(!text.isEmpty());
}

std::array<double, 6> SceneSync::bounds() const {
  std::array<double, 6> b{-1, 1, -1, 1, -1, 1};
  bool any = false;
  for (const auto& body : bodies_) {
    double bb[6];
    body->fill->GetBounds(bb);
    if (!any) std::copy(bb, bb + 6, b.begin());
    for (int i = 0; i < 3; ++i) {
      b[2 * i] = std::min(b[2 * i], bb[2 * i]);
      b[2 * i + 1] = std::max(b[2 * i + 1], bb[2 * i + 1]);
    }
    any = true;
  }
  // Joint symbols (with their ground marks) and both ends of every spring.
  const auto include = [&](const Vec3& p, double margin) {
    if (!any) b = {p.x(), p.x(), p.y(), p.y(), p.z(), p.z()};
    any = true;
    for (int i = 0; i < 3; ++i) {
      b[2 * i] = std::min(b[2 * i], p(i) - margin);
      b[2 * i + 1] = std::max(b[2 * i + 1], p(i) + margin);
    }
  };
  for (const JointMark& j : jointMarks_) include(globalPoint(j.body, j.point), 3 * j.radius);
  for (const JointMark& w : wheelExtents_) include(globalPoint(w.body, w.point), w.radius);
  for (const Spring& s : springs_) {
    include(globalPoint(s.body1, s.s1), 0.02 * size_);
    include(globalPoint(s.body2, s.s2), 0.02 * size_);
  }
  return b;
}

QString SceneSync::elementAt(const Vec2& p, double tolerance) const {
  for (const JointMark& j : jointMarks_)
    if ((globalPoint(j.body, j.point).head<2>() - p).norm() <= j.radius + tolerance) return j.name;
  for (const JointMark& m : motionMarks_)
    if (std::abs((globalPoint(m.body, m.point).head<2>() - p).norm() - m.radius) <= tolerance)
      return m.name;
  for (const JointMark& m : stopMarks_)
    if ((globalPoint(m.body, m.point).head<2>() - p).norm() <= m.radius + tolerance) return m.name;
  for (const CamCurve& c : camCurves_) {
    const std::vector<Eigen::Vector2d>& line = c.curve->samples();
    const std::size_t n = line.size(), segments = c.curve->closed() ? n : n - 1;
    const auto at = [&](std::size_t i) {
      return Vec2(globalPoint(c.body, Eigen::Vector3d(line[i % n].x(), line[i % n].y(), 0)).head<2>());
    };
    for (std::size_t i = 0; i < segments; ++i)
      if (distanceToSegment(p, at(i), at(i + 1)) <= 0.01 * size_ + tolerance) return c.name;
  }
  for (const Belt& belt : belts_)
    for (std::size_t k = 0; k + 1 < belt.spans.size(); k += 2)
      if (distanceToSegment(p, belt.spans[k], belt.spans[k + 1]) <= 0.01 * size_ + tolerance) return belt.name;
  for (const Spring& s : springs_)
    if (distanceToSegment(p, globalPoint(s.body1, s.s1).head<2>(),
                          globalPoint(s.body2, s.s2).head<2>()) <= 0.02 * size_ + tolerance)
      return s.name;
  const QStringList under = bodiesAt(p, tolerance);
  return under.isEmpty() ? QString() : under.front();
}

QStringList SceneSync::bodiesAt(const Vec2& p, double tolerance) const {
  QStringList out;
  for (auto it = bodies_.rbegin(); it != bodies_.rend(); ++it) {
    const BodyActors& b = **it;
    if (b.outline.empty()) continue;
    const vtkMatrix4x4* m = b.pose;
    // The point in body coordinates (inverse of the pose).
    const Vec2 d(p.x() - m->GetElement(0, 3), p.y() - m->GetElement(1, 3));
    const Vec2 local(m->GetElement(0, 0) * d.x() + m->GetElement(1, 0) * d.y(),
                     m->GetElement(0, 1) * d.x() + m->GetElement(1, 1) * d.y());
    bool hit = geometry::contains(b.outline, local);
    for (std::size_t i = 0; !hit && i < b.outline.size(); ++i)
      hit = distanceToSegment(local, b.outline[i], b.outline[(i + 1) % b.outline.size()]) <=
            tolerance;
    if (hit) out.push_back(b.name);
  }
  return out;
}

QString SceneSync::elementOf(vtkProp* prop) const {
  const auto it = propNames_.find(prop);
  return it == propNames_.end() ? QString() : it->second;
}

}  // namespace rlx::ui
