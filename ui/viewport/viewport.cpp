#include "viewport/viewport.h"

#include "solve/drag.h"
#include "viewport/geometry.h"
#include "viewport/scene_sync.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <cmath>

namespace rlx::ui {
namespace {

using Vec3 = Eigen::Vector3d;

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

  setupCamera();
  setFocusPolicy(Qt::StrongFocus);
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
  scene_->setModel(spec, model);
  if (scene_->modelSize() > 0) {
    // Grid: a round spacing about a tenth of the model.
    const double raw = scene_->modelSize() / 10;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    scene_->setGridSpacing(raw / p >= 5 ? 5 * p : raw / p >= 2 ? 2 * p : p);
  }
  if (!fitted_ || spec.dimension != (mode_ == ViewMode::Planar ? 2 : 3)) {
    mode_ = spec.dimension == 3 ? ViewMode::Spatial : ViewMode::Planar;
    fitToModel();
    fitted_ = true;
  }
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

void Viewport::setSelection(const QStringList& names) {
  scene_->setSelection(names);
  requestRender();
}

void Viewport::setTool(Tool tool) {
  cancelTool();
  tool_ = tool;
  setCursor(tool == Tool::Select ? Qt::ArrowCursor : Qt::CrossCursor);
}

void Viewport::setViewMode(ViewMode mode) {
  mode_ = mode;
  setupCamera();
  fitToModel();
}

void Viewport::fitToModel() {
  const std::array<double, 6> b = scene_->bounds();
  vtkCamera* camera = renderer_->GetActiveCamera();
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

QPointF Viewport::snapped(const QPointF& world) const {
  if (!snap_ || mode_ != ViewMode::Planar) return world;
  const double s = scene_->gridSpacing();
  return QPointF(std::round(world.x() / s) * s, std::round(world.y() / s) * s);
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
  toolStart_ = snapped(QPointF(world.x(), world.y()));
}

void Viewport::startDrag(const QString& body, const QVector3D& world) {
  const int b = bodyIndex(*model_, body);
  gesture_ = Gesture::DragBody;
  dragBody_ = body;
  dragLocal_ = toQt(bodyPointLocal(*model_, scene_->state().q, b, toEigen(world)));
  vtkCamera* camera = renderer_->GetActiveCamera();
  dragPlaneDepth_ = Vec3(camera->GetDirectionOfProjection()).dot(toEigen(world));
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
      const QVector3D w = worldAt(pos);
      const QPointF end = snapped(QPointF(w.x(), w.y()));
      const Vec3 a(toolStart_.x(), toolStart_.y(), 0), b(end.x(), end.y(), 0);
      const double z = 0.05 * scene_->modelSize();
      const Vec3 lift(0, 0, z);
      // Rubber band: a line for bars and springs, a rectangle for boxes, a radius for disks.
      if (tool_ == Tool::AddBox)
        showPreview({a + lift, Vec3(b.x(), a.y(), z), Vec3(b.x(), a.y(), z), b + lift, b + lift,
                     Vec3(a.x(), b.y(), z), Vec3(a.x(), b.y(), z), a + lift});
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
      if (tool_ == Tool::AddSpring && springPoint1_) {
        const QVector3D w = worldAt(pos);
        const Vec3 lift(0, 0, 0.05 * scene_->modelSize());
        showPreview({toEigen(*springPoint1_) + lift, toEigen(w) + lift});
      }
      return;
  }
}

void Viewport::mouseReleaseEvent(QMouseEvent* event) {
  const Gesture gesture = gesture_;
  gesture_ = Gesture::None;
  if (gesture == Gesture::DragBody) {
    emit dragFinished(dragBody_, scene_->state());
    dragBody_.clear();
    return;
  }
  if (gesture == Gesture::Tool && toolPressed_ && event->button() == Qt::LeftButton) {
    toolPressed_ = false;
    const QVector3D w = worldAt(event->position());
    finishTool(snapped(QPointF(w.x(), w.y())));
  }
}

void Viewport::finishTool(const QPointF& end) {
  hidePreview();
  const double dragged = std::hypot(end.x() - toolStart_.x(), end.y() - toolStart_.y());
  const bool isDrag = dragged > 2 * pixelSize();
  const double d = 0.1 * std::max(scene_->modelSize(), 10 * scene_->gridSpacing());
  const Eigen::Vector2d at(toolStart_.x(), toolStart_.y());
  const QVector3D point(static_cast<float>(at.x()), static_cast<float>(at.y()), 0.f);
  // Bodies under a point: body1/body2 of a joint (ground when there is only one).
  const auto bodiesUnder = [&]() {
    QStringList under = scene_->bodiesAt(at, 4 * pixelSize());
    while (under.size() < 2) under.push_front(QStringLiteral("ground"));
    return under;
  };
  switch (tool_) {
    case Tool::Select:
      return;
    case Tool::AddBar:
      if (isDrag) emit bodyRequested(ShapeKind::Bar, toolStart_, end);
      return;
    case Tool::AddBox:
      emit bodyRequested(ShapeKind::Box, toolStart_,
                         isDrag ? end : toolStart_ + QPointF(d / 2, d / 4));
      return;
    case Tool::AddDisk:
      emit bodyRequested(ShapeKind::Disk, toolStart_,
                         isDrag ? end : toolStart_ + QPointF(d / 4, 0));
      return;
    case Tool::AddRevolute:
    case Tool::AddTranslational: {
      const QStringList under = bodiesUnder();
      emit jointRequested(
          tool_ == Tool::AddRevolute ? JointType::Revolute : JointType::Translational, under[0],
          under[1], point);
      return;
    }
    case Tool::AddSpring: {
      QStringList under = scene_->bodiesAt(at, 4 * pixelSize());
      const QString body = under.isEmpty() ? QStringLiteral("ground") : under.front();
      if (!springPoint1_) {
        springBody1_ = body;
        springPoint1_ = point;
        return;
      }
      emit springRequested(springBody1_, *springPoint1_, body, point);
      springPoint1_.reset();
      hidePreview();
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

void Viewport::cancelTool() {
  toolPressed_ = false;
  springPoint1_.reset();
  if (gesture_ == Gesture::Tool) gesture_ = Gesture::None;
  hidePreview();
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
