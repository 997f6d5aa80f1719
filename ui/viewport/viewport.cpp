#include "viewport/viewport.h"

#include "solve/assembly/drag.h"
#include "viewport/geometry.h"
#include "viewport/scene_sync.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellPicker.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkPolyData.h>
#include <vtkPoints.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <array>
#include <cmath>

namespace rlx::ui {
namespace {

using Vec3 = Eigen::Vector3d;

// Building: snap radius, picking tolerance of outlines and the distance of points that count
// as one, in pixels.
constexpr double kSnapRadius = 10.0;
constexpr double kOutlineTolerance = 4.0;
constexpr double kSamePoint = 1.5;

// VTK asks the widget to make its context current and whether it is.
void windowEvent(vtkObject*, unsigned long event, void* clientData, void* callData) {
  auto* self = static_cast<Viewport*>(clientData);
  if (event == vtkCommand::WindowMakeCurrentEvent) {
    // QOpenGLWidget::makeCurrent also binds the widget's framebuffer: only when not current, or
    // VTK's own framebuffer bindings would be changed behind its back.
    if (QOpenGLContext::currentContext() != self->context()) self->makeCurrent();
  } else if (event == vtkCommand::WindowIsCurrentEvent) {
    *static_cast<bool*>(callData) = QOpenGLContext::currentContext() == self->context();
  }
}

Vec3 toEigen(const QVector3D& v) {
  return Vec3(v.x(), v.y(), v.z());
}
QVector3D toQt(const Vec3& v) {
  return QVector3D(static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()));
}

// Filled quadrilaterals (a triangle repeats a corner): lines of any width on any OpenGL.
vtkSmartPointer<vtkPolyData> quads(const std::vector<std::array<Vec3, 4>>& corners) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto polys = vtkSmartPointer<vtkCellArray>::New();
  for (const std::array<Vec3, 4>& q : corners) {
    polys->InsertNextCell(4);
    for (const Vec3& p : q) polys->InsertCellPoint(points->InsertNextPoint(p.x(), p.y(), p.z()));
  }
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetPolys(polys);
  return data;
}

int bodyIndex(const Model& model, const QString& name) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (QString::fromStdString(model.bodies[i].name) == name) return static_cast<int>(i);
  return kGround;
}

}  // namespace

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent) {
  window_ = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
  window_->SetMultiSamples(4);
  window_->SetFrameBlitModeToBlitToCurrent();
  window_->SetReadyForRendering(false);
  auto callback = vtkSmartPointer<vtkCallbackCommand>::New();
  callback->SetCallback(windowEvent);
  callback->SetClientData(this);
  window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, callback);
  window_->AddObserver(vtkCommand::WindowIsCurrentEvent, callback);

  // A soft vertical gradient behind the model.
  renderer_ = vtkSmartPointer<vtkRenderer>::New();
  renderer_->GradientBackgroundOn();
  renderer_->SetBackground(0.985, 0.988, 0.992);
  renderer_->SetBackground2(0.90, 0.925, 0.955);
  window_->AddRenderer(renderer_);
  scene_ = std::make_unique<SceneSync>(renderer_);

  // The preview of a building tool: dashed-looking orange lines.
  previewData_ = vtkSmartPointer<vtkPolyData>::New();
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(previewData_);
  preview_ = vtkSmartPointer<vtkActor>::New();
  preview_->SetMapper(mapper);
  preview_->GetProperty()->SetColor(0.95, 0.45, 0.05);
  preview_->GetProperty()->SetLineWidth(2.0);
  preview_->GetProperty()->SetLighting(false);
  preview_->PickableOff();
  preview_->SetVisibility(false);
  renderer_->AddActor(preview_);

  // The hover marker: a ring at the snapped point (with the joint axis in 3-D) and a label, on
  // a second layer so that no solid hides it.
  window_->SetNumberOfLayers(2);
  overlay_ = vtkSmartPointer<vtkRenderer>::New();
  overlay_->SetLayer(1);
  overlay_->InteractiveOff();
  overlay_->SetActiveCamera(renderer_->GetActiveCamera());
  window_->AddRenderer(overlay_);
  markerData_ = vtkSmartPointer<vtkPolyData>::New();
  auto markerMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  markerMapper->SetInputData(markerData_);
  marker_ = vtkSmartPointer<vtkActor>::New();
  marker_->SetMapper(markerMapper);
  marker_->GetProperty()->SetLineWidth(2.5);
  marker_->GetProperty()->SetLighting(false);
  marker_->PickableOff();
  marker_->SetVisibility(false);
  overlay_->AddActor(marker_);
  markerLabel_ = vtkSmartPointer<vtkTextActor>::New();
  vtkTextProperty* text = markerLabel_->GetTextProperty();
  text->SetFontSize(15);
  text->SetColor(0.1, 0.12, 0.16);
  text->SetBackgroundColor(1.0, 1.0, 0.94);
  text->SetBackgroundOpacity(0.85);
  markerLabel_->PickableOff();
  markerLabel_->SetVisibility(false);
  overlay_->AddActor2D(markerLabel_);

  setupCamera();
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);  // the hover marker follows the mouse without a button
  setMinimumSize(200, 150);
}

Viewport::~Viewport() {
  // Release VTK's OpenGL resources with our context current.
  if (context()) disconnect(context(), nullptr, this, nullptr);
  if (initialized_) {
    makeCurrent();
    scene_.reset();
    window_->Finalize();
    doneCurrent();
  }
}

void Viewport::setMultiSamples(int samples) {
  window_->SetMultiSamples(samples);
}

void Viewport::setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  // Anti-aliasing is VTK's own (multisampled render framebuffer), not the widget's.
  format.setSamples(0);
  QSurfaceFormat::setDefaultFormat(format);
}

void Viewport::initializeGL() {
  // A software rasterizer (Mesa's llvmpipe, as under Xvfb) draws about 3x slower with
  // multisampling: it draws without, so that animation and scrubbing stay fluid.
  const auto* renderer = context()->functions()->glGetString(GL_RENDERER);
  if (renderer && QByteArray(reinterpret_cast<const char*>(renderer)).contains("pipe"))
    window_->SetMultiSamples(0);
  window_->SetReadyForRendering(true);
  window_->SetMapped(1);
  window_->SetOwnContext(0);
  window_->OpenGLInitContext();
  initialized_ = true;
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
    makeCurrent();
    window_->ReleaseGraphicsResources(window_);
    doneCurrent();
    initialized_ = false;
  });
}

void Viewport::resizeGL(int w, int h) {
  const double dpr = devicePixelRatioF();
  window_->SetSize(static_cast<int>(w * dpr), static_cast<int>(h * dpr));
  // An empty model keeps its scale of 1.5 mm a pixel at any size.
  if (spec_.bodies.empty() && fitted_) fitToModel();
}

void Viewport::paintGL() {
  // VTK renders into its own framebuffer and, at the end of the frame, blits the result into the
  // framebuffer bound when rendering started: the widget's.
  renderNow();
}

void Viewport::renderNow() {
  if (!initialized_) return;
  makeCurrent();
  QOpenGLExtraFunctions* f = context()->extraFunctions();
  f->glBindFramebuffer(GL_FRAMEBUFFER, defaultFramebufferObject());
  const GLenum buffers[1] = {GL_COLOR_ATTACHMENT0};
  f->glDrawBuffers(1, buffers);
  window_->GetState()->Reset();
  if (mode_ == ViewMode::Planar) scene_->setMinimumWidth(6 * pixelSize());  // bars >= 6 px
  window_->Render();
}

QImage Viewport::grabFrame() {
  return grabFramebuffer();
}

void Viewport::setupCamera() {
  vtkCamera* camera = renderer_->GetActiveCamera();
  if (mode_ == ViewMode::Planar) {
    camera->ParallelProjectionOn();
    const double* f = camera->GetFocalPoint();
    camera->SetFocalPoint(f[0], f[1], 0);
    camera->SetPosition(f[0], f[1], 10 * std::max(1.0, scene_->modelSize()));
    camera->SetViewUp(0, 1, 0);
  } else {
    camera->ParallelProjectionOff();
  }
  renderer_->ResetCameraClippingRange();
}

void Viewport::setModel(const Spec& spec, const Model* model) {
  if (model)
    model_ = *model;
  else
    model_.reset();
  spec_ = spec;
  scene_->setModel(spec, model);
  // The camera stays where it is: only the first model and a change of dimension fit the view.
  if (!fitted_ || spec.dimension != (mode_ == ViewMode::Planar ? 2 : 3)) {
    mode_ = spec.dimension == 3 ? ViewMode::Spatial : ViewMode::Planar;
    fitToModel();
    fitted_ = true;
  }
  if (!toolPressed_) setHint(stepHint());
  requestRender();
}

void Viewport::setState(const State& state) {
  scene_->setState(state);
  renderer_->ResetCameraClippingRange();
  requestRender();
}

void Viewport::setFrame(const Frame& frame) {
  scene_->setState(frame.state);
  scene_->setTimeText(QStringLiteral("t = %1 s").arg(frame.state.t, 0, 'f', 3));
  scene_->setReactions(showReactions_ ? &frame : nullptr);
  requestRender();
}

const State& Viewport::state() const {
  return scene_->state();
}

void Viewport::clearFrame() {
  scene_->setTimeText({});
  scene_->setReactions(nullptr);
  scene_->setTraceHistory(nullptr, -1);
  requestRender();
}

void Viewport::setSelection(const QStringList& names) {
  scene_->setSelection(names);
  requestRender();
}

void Viewport::setTool(Tool tool) {
  cancelTool();
  tool_ = tool;
  setCursor(tool == Tool::Select ? Qt::ArrowCursor : Qt::CrossCursor);
  hideMarker();
  setHint(stepHint());
}

void Viewport::setViewMode(ViewMode mode) {
  mode_ = mode;
  setupCamera();
  fitToModel();
}

void Viewport::fitToModel() {
  const std::array<double, 6> b = scene_->bounds();
  vtkCamera* camera = renderer_->GetActiveCamera();
  if (spec_.bodies.empty() && mode_ == ViewMode::Planar) {
    // An empty model: the origin in the middle, 1.5 mm a pixel (a 0.3 m bar is 200 pixels
    // long), a 5 cm grid.
    camera->ParallelProjectionOn();
    camera->SetFocalPoint(0, 0, 0);
    camera->SetPosition(0, 0, 10);
    camera->SetViewUp(0, 1, 0);
    camera->SetParallelScale(0.5 * 0.0015 * (height() > 0 ? height() : 600));
    scene_->setGridSpacing(0.05);
    renderer_->ResetCameraClippingRange();
    requestRender();
    return;
  }
  // Grid: a round spacing about a tenth of the model.
  const double raw = scene_->modelSize() / 10;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  scene_->setGridSpacing(raw / p >= 5 ? 5 * p : raw / p >= 2 ? 2 * p : p);
  const double cx = (b[0] + b[1]) / 2, cy = (b[2] + b[3]) / 2, cz = (b[4] + b[5]) / 2;
  const double w = b[1] - b[0], h = b[3] - b[2];
  const double aspect = height() > 0 ? static_cast<double>(width()) / height() : 1.0;
  if (mode_ == ViewMode::Planar) {
    camera->ParallelProjectionOn();
    camera->SetFocalPoint(cx, cy, 0);
    camera->SetPosition(cx, cy, 10 * std::max(1.0, scene_->modelSize()));
    camera->SetViewUp(0, 1, 0);
    // Parallel scale is half the visible height; leave a margin of 20 %.
    camera->SetParallelScale(0.5 * 1.4 * std::max({h, w / aspect, 1e-3}));
  } else {
    camera->ParallelProjectionOff();
    const double radius = 0.5 * std::sqrt(w * w + h * h + (b[5] - b[4]) * (b[5] - b[4]));
    camera->SetFocalPoint(cx, cy, cz);
    camera->SetPosition(cx + 1.6 * radius, cy - 2.2 * radius, cz + 1.4 * radius);
    camera->SetViewUp(0, 0, 1);
    renderer_->ResetCamera(b.data());
  }
  renderer_->ResetCameraClippingRange();
  requestRender();
}

void Viewport::setGridVisible(bool visible) {
  scene_->setGridVisible(visible);
  requestRender();
}

void Viewport::setGridSpacing(double spacing) {
  scene_->setGridSpacing(spacing);
  requestRender();
}

void Viewport::setShowReactions(bool show) {
  showReactions_ = show;
  if (!show) scene_->setReactions(nullptr);
  requestRender();
}

void Viewport::setReactionScale(double metresPerNewton) {
  scene_->setReactionScale(metresPerNewton);
  requestRender();
}

void Viewport::setShowTime(bool show) {
  if (!show)
    scene_->setTimeText({});
  else
    scene_->setTimeText(QStringLiteral("t = %1 s").arg(scene_->state().t, 0, 'f', 3));
  requestRender();
}

void Viewport::setTraces(const QList<TracePoint>& points) {
  scene_->setTraces(points);
  requestRender();
}

void Viewport::setTraceHistory(const std::vector<Frame>* frames, int current) {
  scene_->setTraceHistory(frames, current);
  requestRender();
}

// ---- coordinates ----

QVector3D Viewport::worldAt(const QPointF& pos) const {
  const double dpr = devicePixelRatioF();
  const double x = pos.x() * dpr, y = (height() - pos.y()) * dpr;
  // A ray through the pixel, intersected with the plane z = 0 (planar) or the plane through
  // the focal point facing the camera (spatial).
  double nearPoint[4], farPoint[4];
  renderer_->SetDisplayPoint(x, y, 0.0);
  renderer_->DisplayToWorld();
  renderer_->GetWorldPoint(nearPoint);
  renderer_->SetDisplayPoint(x, y, 1.0);
  renderer_->DisplayToWorld();
  renderer_->GetWorldPoint(farPoint);
  Vec3 a(nearPoint[0] / nearPoint[3], nearPoint[1] / nearPoint[3], nearPoint[2] / nearPoint[3]);
  Vec3 b(farPoint[0] / farPoint[3], farPoint[1] / farPoint[3], farPoint[2] / farPoint[3]);
  vtkCamera* camera = renderer_->GetActiveCamera();
  Vec3 origin = Vec3::Zero(), normal = Vec3::UnitZ();
  if (mode_ == ViewMode::Spatial) {
    origin = Vec3(camera->GetFocalPoint());
    normal = Vec3(camera->GetDirectionOfProjection());
    if (gesture_ == Gesture::DragBody)
      origin = origin + normal * (dragPlaneDepth_ - normal.dot(origin));
  }
  const Vec3 d = b - a;
  const double denominator = normal.dot(d);
  const double t = std::abs(denominator) > 1e-15 ? normal.dot(origin - a) / denominator : 0.0;
  return toQt(a + t * d);
}

QPointF Viewport::widgetPosOf(const QVector3D& world) const {
  renderer_->SetWorldPoint(world.x(), world.y(), world.z(), 1.0);
  renderer_->WorldToDisplay();
  double display[3];
  renderer_->GetDisplayPoint(display);
  const double dpr = devicePixelRatioF();
  return QPointF(display[0] / dpr, height() - display[1] / dpr);
}

double Viewport::pixelSize() const {
  const QVector3D a = worldAt(QPointF(width() / 2.0, height() / 2.0));
  const QVector3D b = worldAt(QPointF(width() / 2.0 + 1, height() / 2.0));
  return std::max(1e-9, static_cast<double>((b - a).length()));
}

QString Viewport::elementAt(const QPointF& pos) const {
  if (mode_ == ViewMode::Planar) {
    const QVector3D w = worldAt(pos);
    return scene_->elementAt(Eigen::Vector2d(w.x(), w.y()), 4 * pixelSize());
  }
  auto picker = vtkSmartPointer<vtkCellPicker>::New();
  picker->SetTolerance(0.005);
  const double dpr = devicePixelRatioF();
  if (!picker->Pick(pos.x() * dpr, (height() - pos.y()) * dpr, 0, renderer_)) return {};
  return scene_->elementOf(picker->GetViewProp());
}

QVector3D Viewport::viewDirection() const {
  double d[3];
  renderer_->GetActiveCamera()->GetDirectionOfProjection(d);
  return QVector3D(static_cast<float>(d[0]), static_cast<float>(d[1]), static_cast<float>(d[2])).normalized();
}

Vec3 Viewport::gridSnapped(const Vec3& world) const {
  if (!snap_ || mode_ != ViewMode::Planar) return world;
  const double s = scene_->gridSpacing();
  return Vec3(std::round(world.x() / s) * s, std::round(world.y() / s) * s, 0.0);
}

// ---- building: targets, joints, hints ----

Viewport::Target Viewport::targetAt(const QPointF& pos) const {
  Target target;
  target.features = featurePoints(spec_, scene_->model(), scene_->state());
  const std::vector<FeaturePoint>& features = target.features;
  target.feature = nearestFeature(features, pos, kSnapRadius,
                                  [this](const Vec3& p) { return widgetPosOf(toQt(p)); });
  QStringList bodies;
  if (mode_ == ViewMode::Planar) {
    target.at = target.feature ? target.feature->at : gridSnapped(toEigen(worldAt(pos)));
    bodies = scene_->bodiesAt(target.at.head<2>(), kOutlineTolerance * pixelSize());
  } else {
    // On the drawn solids: the picked point and its face, or the feature point snapped to.
    auto picker = vtkSmartPointer<vtkCellPicker>::New();
    picker->SetTolerance(0.002);
    const double dpr = devicePixelRatioF();
    const QPointF at = target.feature ? widgetPosOf(toQt(target.feature->at)) : pos;
    target.at = toEigen(worldAt(pos));
    if (picker->Pick(at.x() * dpr, (height() - at.y()) * dpr, 0, renderer_)) {
      const QString name = scene_->elementOf(picker->GetViewProp());
      for (const BodySpec& b : spec_.bodies)
        if (QString::fromStdString(b.name) == name) bodies << name;
      if (!bodies.isEmpty()) {
        target.at = Vec3(picker->GetPickPosition());
        target.normal = Vec3(picker->GetPickNormal());
      }
    }
    if (target.feature) target.at = target.feature->at;
  }
  target.featureBodies = topFirst(spec_, featureBodiesAt(features, target.at, kSamePoint * pixelSize()));
  target.bodies = topFirst(spec_, bodies + target.featureBodies);
  return target;
}

std::optional<JointRequest> Viewport::jointAt(const Target& target, QString* why) const {
  const JointType type = tool_ == Tool::AddTranslational ? JointType::Translational : JointType::Revolute;
  if (target.bodies.isEmpty()) {
    *why = tr("No body here: a joint joins the bodies at the point you click");
    return std::nullopt;
  }
  // The two topmost bodies, the older first; one body alone is joined to ground.
  JointRequest joint{type, QStringLiteral("ground"), target.bodies[0], toQt(target.at), {}};
  if (target.bodies.size() > 1) joint.body1 = target.bodies[1];
  if (alreadyJoined(target.features, target.at, kSamePoint * pixelSize(), type, joint.body1, joint.body2)) {
    *why = tr("%1 and %2 are already joined here").arg(joint.body1, joint.body2);
    return std::nullopt;
  }
  if (mode_ == ViewMode::Spatial)
    joint.axis = toQt(axisAt(target));
  else
    joint.axis = type == JointType::Translational ? QVector3D(1, 0, 0) : QVector3D(0, 0, 1);
  return joint;
}

QString Viewport::pinPartner(const Target& target) const {
  if (!pinBarEnds_ || !target.feature || target.featureBodies.isEmpty()) return {};
  const FeatureKind kind = target.feature->kind;
  if (kind != FeatureKind::BarEnd && kind != FeatureKind::BodyCentre && kind != FeatureKind::JointPoint)
    return {};
  return target.featureBodies.front();
}

Vec3 Viewport::axisAt(const Target& target) const {
  // The edge or face snapped to; else the principal axis nearest the normal of the face under
  // the cursor (curved faces have oblique normals), or nearest the view direction.
  if (target.feature && target.feature->axis) return roundedAxis(*target.feature->axis);
  const Vec3 reference = target.normal ? *target.normal : toEigen(viewDirection());
  Eigen::Index nearest = 0;
  reference.cwiseAbs().maxCoeff(&nearest);
  return Vec3::Unit(nearest);
}

QString Viewport::describe(const Target& target) const {
  switch (tool_) {
    case Tool::AddRevolute:
    case Tool::AddTranslational: {
      QString why;
      const std::optional<JointRequest> joint = jointAt(target, &why);
      if (!joint) return why;
      const QString what = tool_ == Tool::AddRevolute ? tr("pin") : tr("slider");
      return tr("%1 %2 – %3 here").arg(what, joint->body1, joint->body2);
    }
    case Tool::AddSpring: {
      const QString body = target.bodies.value(0, QStringLiteral("ground"));
      return springPoint1_ ? tr("spring to %1").arg(body) : tr("spring from %1").arg(body);
    }
    case Tool::AddBar: {
      const QString partner = pinPartner(target);
      return partner.isEmpty() ? QString() : tr("pinned to %1 here").arg(partner);
    }
    default:
      return {};
  }
}

QString Viewport::stepHint() const {
  switch (tool_) {
    case Tool::Select:
      return spec_.bodies.empty() ? tr("Empty model: press B (Add Bar) and drag to draw the first link")
                                  : tr("Click to select; drag a body to move the mechanism, empty space to pan");
    case Tool::AddBar:
      return toolPressed_ ? tr("Release at the other end of the bar")
                          : tr("Drag from one end of the bar to the other");
    case Tool::AddBox:
      return toolPressed_ ? tr("Release at the opposite corner")
                          : tr("Drag from one corner to the opposite one, or click for a default box");
    case Tool::AddDisk:
      return toolPressed_ ? tr("Release at the rim") : tr("Drag from the centre to the rim, or click for a default disk");
    case Tool::AddRevolute:
      return tr("Click a pin point");
    case Tool::AddTranslational:
      return tr("Click a point of the sliding body");
    case Tool::AddSpring:
      return springPoint1_ ? tr("Click the second end of the spring") : tr("Click the first end of the spring");
  }
  return {};
}

void Viewport::setHint(const QString& hint) {
  if (hint == hint_) return;
  hint_ = hint;
  emit hintChanged(hint_);
}

void Viewport::hover(const QPointF& pos) {
  if (tool_ == Tool::Select) return;
  const Target target = targetAt(pos);
  const QString label = describe(target);
  QString why;
  const bool joint = tool_ == Tool::AddRevolute || tool_ == Tool::AddTranslational;
  showMarker(target, label, joint && !jointAt(target, &why));
  setHint(label.isEmpty() ? stepHint() : stepHint() + QStringLiteral(" — ") + label);
}

void Viewport::showMarker(const Target& target, const QString& label, bool refused) {
  // A ring facing the camera, 6 to 9 pixels in radius; in 3-D, a joint's axis as an arrow.
  vtkCamera* camera = renderer_->GetActiveCamera();
  const Vec3 up = Vec3(camera->GetViewUp()).normalized();
  const Vec3 towards = Vec3(camera->GetDirectionOfProjection()).normalized();
  const Vec3 right = towards.cross(up).normalized();
  const double pixel = pixelSize();
  std::vector<std::array<Vec3, 4>> shapes;
  const auto around = [&](double r, double t) { return Vec3(target.at + r * (std::cos(t) * right + std::sin(t) * up)); };
  for (int k = 0; k < 32; ++k) {
    const double t0 = 2 * M_PI * k / 32, t1 = 2 * M_PI * (k + 1) / 32;
    shapes.push_back({around(6 * pixel, t0), around(9 * pixel, t0), around(9 * pixel, t1), around(6 * pixel, t1)});
  }
  const bool joint = tool_ == Tool::AddRevolute || tool_ == Tool::AddTranslational;
  if (joint && !refused && mode_ == ViewMode::Spatial) {
    const Vec3 axis = axisAt(target);
    const Vec3 side = axis.cross(towards).normalized() * pixel;
    const Vec3 base = target.at + 9 * pixel * axis, neck = target.at + 40 * pixel * axis,
               tip = target.at + 54 * pixel * axis;
    shapes.push_back({Vec3(base - 1.5 * side), Vec3(neck - 1.5 * side), Vec3(neck + 1.5 * side), Vec3(base + 1.5 * side)});
    shapes.push_back({Vec3(neck - 6 * side), tip, tip, Vec3(neck + 6 * side)});
  }
  markerData_->ShallowCopy(quads(shapes));
  if (refused)
    marker_->GetProperty()->SetColor(0.85, 0.1, 0.1);
  else
    marker_->GetProperty()->SetColor(0.05, 0.45, 0.9);
  marker_->SetVisibility(true);
  // The label beside the ring (VTK display coordinates count from the bottom).
  markerLabel_->SetInput(label.toUtf8().constData());
  const QPointF at = widgetPosOf(toQt(target.at));
  const double dpr = devicePixelRatioF();
  markerLabel_->SetDisplayPosition(static_cast<int>((at.x() + 14) * dpr),
                                   static_cast<int>((height() - at.y() + 10) * dpr));
  markerLabel_->SetVisibility(!label.isEmpty());
  requestRender();
}

void Viewport::hideMarker() {
  if (!marker_->GetVisibility() && !markerLabel_->GetVisibility()) return;
  marker_->SetVisibility(false);
  markerLabel_->SetVisibility(false);
  requestRender();
}

// ---- mouse ----

void Viewport::mousePressEvent(QMouseEvent* event) {
  pressPos_ = lastPos_ = event->position();
  if (event->button() == Qt::MiddleButton ||
      (event->button() == Qt::RightButton && mode_ == ViewMode::Planar)) {
    gesture_ = Gesture::Pan;
    return;
  }
  if (event->button() == Qt::RightButton) {
    gesture_ = Gesture::Rotate;
    return;
  }
  if (event->button() != Qt::LeftButton) return;
  const QVector3D world = worldAt(event->position());
  if (tool_ == Tool::Select) {
    const QString name = elementAt(event->position());
    const bool additive = event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier);
    emit elementClicked(name, additive);
    // A press on a body drags the mechanism; on empty space it pans.
    if (model_ && bodyIndex(*model_, name) != kGround)
      startDrag(name, world);
    else if (name.isEmpty())
      gesture_ = Gesture::Pan;
    return;
  }
  gesture_ = Gesture::Tool;
  toolPressed_ = true;
  toolStart_ = targetAt(event->position());
  setHint(stepHint());
}

void Viewport::startDrag(const QString& body, const QVector3D& world) {
  const int b = bodyIndex(*model_, body);
  gesture_ = Gesture::DragBody;
  dragBody_ = body;
  dragLocal_ = toQt(bodyPointLocal(*model_, scene_->state().q, b, toEigen(world)));
  vtkCamera* camera = renderer_->GetActiveCamera();
  dragPlaneDepth_ = Vec3(camera->GetDirectionOfProjection()).dot(toEigen(world));
  dragMoved_ = false;
  emit dragStarted(body, dragLocal_);
}

void Viewport::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  const QPointF delta = pos - lastPos_;
  lastPos_ = pos;
  vtkCamera* camera = renderer_->GetActiveCamera();
  switch (gesture_) {
    case Gesture::Pan: {
      const Vec3 shift = toEigen(worldAt(pos - delta)) - toEigen(worldAt(pos));
      double f[3], p[3];
      camera->GetFocalPoint(f);
      camera->GetPosition(p);
      camera->SetFocalPoint(f[0] + shift.x(), f[1] + shift.y(), f[2] + shift.z());
      camera->SetPosition(p[0] + shift.x(), p[1] + shift.y(), p[2] + shift.z());
      requestRender();
      return;
    }
    case Gesture::Rotate:
      camera->Azimuth(-0.4 * delta.x());
      camera->Elevation(0.4 * delta.y());
      camera->OrthogonalizeViewUp();
      renderer_->ResetCameraClippingRange();
      requestRender();
      return;
    case Gesture::DragBody: {
      // A hand's tremor while clicking to select is not a drag.
      if (!dragMoved_ && (pos - pressPos_).manhattanLength() < QApplication::startDragDistance())
        return;
      dragMoved_ = true;
      const QVector3D target = worldAt(pos);
      emit dragMoved(dragBody_, dragLocal_, target);
      if (liveDrag_ && model_) {
        State state = scene_->state();
        Workspace ws(*model_);
        const DragTarget grab{bodyIndex(*model_, dragBody_), toEigen(dragLocal_), toEigen(target)};
        const DragReport report = dragAssemble(*model_, state, ws, grab);
        if (report.status != SolveStatus::NotFinite && report.status != SolveStatus::Inconsistent) {
          scene_->setState(state);
          emit stateDragged(state);
          requestRender();
        }
      }
      return;
    }
    case Gesture::Tool: {
      const Target end = targetAt(pos);
      showMarker(end, describe(end), false);
      const Vec3 a = toolStart_.at, b = end.at;
      const double z = mode_ == ViewMode::Planar ? 0.05 * scene_->modelSize() : 0.0;
      const Vec3 lift(0, 0, z);
      // Rubber band: a line for bars and springs, a rectangle for boxes, a radius for disks.
      if (tool_ == Tool::AddBox)
        showPreview({a + lift, Vec3(b.x(), a.y(), a.z() + z), Vec3(b.x(), a.y(), a.z() + z), b + lift, b + lift,
                     Vec3(a.x(), b.y(), b.z() + z), Vec3(a.x(), b.y(), b.z() + z), a + lift});
      else if (tool_ == Tool::AddDisk) {
        std::vector<Vec3> ends;
        const double r = (b - a).norm();
        for (int k = 0; k < 48; ++k) {
          const double t0 = 2 * M_PI * k / 48, t1 = 2 * M_PI * (k + 1) / 48;
          ends.push_back(a + Vec3(r * std::cos(t0), r * std::sin(t0), z));
          ends.push_back(a + Vec3(r * std::cos(t1), r * std::sin(t1), z));
        }
        ends.push_back(a + lift);
        ends.push_back(b + lift);
        showPreview(ends);
      } else if (tool_ == Tool::AddBar) {
        showPreview({a + lift, b + lift});
      }
      return;
    }
    case Gesture::None:
      hover(pos);
      if (tool_ == Tool::AddSpring && springPoint1_) {
        const Vec3 lift(0, 0, mode_ == ViewMode::Planar ? 0.05 * scene_->modelSize() : 0.0);
        showPreview({*springPoint1_ + lift, targetAt(pos).at + lift});
      }
      return;
  }
}

void Viewport::mouseReleaseEvent(QMouseEvent* event) {
  const Gesture gesture = gesture_;
  gesture_ = Gesture::None;
  if (gesture == Gesture::DragBody) {
    if (dragMoved_) emit dragFinished(dragBody_, scene_->state());
    dragBody_.clear();
    return;
  }
  if (gesture == Gesture::Tool && toolPressed_ && event->button() == Qt::LeftButton) {
    toolPressed_ = false;
    finishTool(targetAt(event->position()));
    hover(event->position());
  }
}

void Viewport::finishTool(const Target& end) {
  hidePreview();
  const Vec3 a = toolStart_.at, b = end.at;
  const QPointF moved = widgetPosOf(toQt(b)) - widgetPosOf(toQt(a));
  const bool isDrag = std::hypot(moved.x(), moved.y()) > 2;
  const double d = 0.1 * std::max(scene_->modelSize(), 10 * scene_->gridSpacing());
  switch (tool_) {
    case Tool::Select:
      return;
    case Tool::AddBar: {
      if (!isDrag) return;
      BodyRequest bar{ShapeKind::Bar, toQt(a), toQt(b), pinPartner(toolStart_), pinPartner(end), {}, {}};
      if (bar.endPin == bar.startPin) bar.endPin.clear();
      if (mode_ == ViewMode::Spatial) {
        bar.startAxis = toQt(axisAt(toolStart_));
        bar.endAxis = toQt(axisAt(end));
      }
      emit bodyRequested(bar);
      return;
    }
    case Tool::AddBox: {
      // A click makes a default box centred on the point.
      const Vec3 half(d / 4, d / 8, 0);
      emit bodyRequested({ShapeKind::Box, toQt(isDrag ? a : Vec3(a - half)), toQt(isDrag ? b : Vec3(a + half)),
                          {}, {}, {}, {}});
      return;
    }
    case Tool::AddDisk:
      emit bodyRequested({ShapeKind::Disk, toQt(a), toQt(isDrag ? b : Vec3(a + Vec3(d / 4, 0, 0))), {}, {}, {}, {}});
      return;
    case Tool::AddRevolute:
    case Tool::AddTranslational: {
      QString why;
      if (const std::optional<JointRequest> joint = jointAt(toolStart_, &why))
        emit jointRequested(*joint);
      else
        setHint(why);
      return;
    }
    case Tool::AddSpring: {
      // An end on empty space is on ground.
      const QString body = toolStart_.bodies.value(0, QStringLiteral("ground"));
      if (!springPoint1_) {
        springBody1_ = body;
        springPoint1_ = a;
        return;
      }
      emit springRequested(springBody1_, toQt(*springPoint1_), body, toQt(a));
      springPoint1_.reset();
      return;
    }
  }
}

void Viewport::wheelEvent(QWheelEvent* event) {
  const double factor = std::pow(1.0015, -event->angleDelta().y());
  vtkCamera* camera = renderer_->GetActiveCamera();
  if (mode_ == ViewMode::Planar) {
    // Zoom about the point under the mouse: it stays where it is on screen.
    const Vec3 p = toEigen(worldAt(event->position()));
    double f[3], c[3];
    camera->GetFocalPoint(f);
    camera->GetPosition(c);
    const double nx = p.x() + (f[0] - p.x()) * factor, ny = p.y() + (f[1] - p.y()) * factor;
    camera->SetFocalPoint(nx, ny, f[2]);
    camera->SetPosition(nx, ny, c[2]);
    camera->SetParallelScale(camera->GetParallelScale() * factor);
  } else {
    camera->Dolly(1.0 / factor);
    renderer_->ResetCameraClippingRange();
  }
  requestRender();
  event->accept();
}

void Viewport::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    cancelTool();
    emit toolCancelled();
    return;
  }
  QOpenGLWidget::keyPressEvent(event);
}

void Viewport::leaveEvent(QEvent* event) {
  hideMarker();
  QOpenGLWidget::leaveEvent(event);
}

void Viewport::cancelTool() {
  toolPressed_ = false;
  springPoint1_.reset();
  if (gesture_ == Gesture::Tool) gesture_ = Gesture::None;
  hidePreview();
  setHint(stepHint());
}

void Viewport::showPreview(const std::vector<Vec3>& ends) {
  previewData_->ShallowCopy(geometry::segments(ends));
  preview_->SetVisibility(true);
  requestRender();
}

void Viewport::hidePreview() {
  if (!preview_->GetVisibility()) return;
  preview_->SetVisibility(false);
  requestRender();
}

}  // namespace rlx::ui
