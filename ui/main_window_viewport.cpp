// The main window's viewport: building tools, selection and drags become undoable edits; frames
// of the shown run are drawn; plots and animations are exported.

#include "main_window.h"

#include "document/commands.h"
#include "plot/plot_panel.h"
#include "timeline/timeline.h"
#include "viewport/animation_export.h"
#include "viewport/viewport.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>

#include <cmath>

namespace rlx::ui {
namespace {

using Json = nlohmann::ordered_json;

// Coordinates as the file stores them: micrometre precision, no rounding noise, no -0.
double tidy(double x) { return std::round(x * 1e6) / 1e6 + 0.0; }

Json point(const Spec& spec, double x, double y, double z = 0.0) {
  return spec.dimension == 2 ? Json::array({tidy(x), tidy(y)}) : Json::array({tidy(x), tidy(y), tidy(z)});
}

Eigen::Vector3d toEigen(const QVector3D& v) {
  return {static_cast<double>(v.x()), static_cast<double>(v.y()), static_cast<double>(v.z())};
}

Json point(const Spec& spec, const Eigen::Vector3d& p) { return point(spec, p.x(), p.y(), p.z()); }

// A new body of unit mass from what the user drew.
Json newBody(const Spec& spec, const BodyRequest& request) {
  const double mass = 1.0;
  const Eigen::Vector3d start = toEigen(request.start), end = toEigen(request.end), mid = (start + end) / 2;
  const Eigen::Vector3d d = end - start;
  const double size = spec.dimension == 2 ? std::hypot(d.x(), d.y()) : d.norm();
  const ShapeKind kind = request.kind;
  Json body{{"name", freeName(spec, kind == ShapeKind::Bar ? "bar" : kind == ShapeKind::Box ? "box" : "disk")},
            {"mass", mass}};
  switch (kind) {
    case ShapeKind::Bar: {
      const double length = std::max(size, 0.05), width = tidy(std::max(0.02, length / 20));
      body["position"] = point(spec, mid);
      const double angle = size > 0 ? std::atan2(d.y(), d.x()) : 0.0;
      const double i = tidy(mass * length * length / 12);
      body["inertia"] = spec.dimension == 2 ? Json(i) : Json::array({tidy(mass * width * width / 12), i, i});
      if (spec.dimension == 2) {
        body["angle"] = tidy(angle);
      } else if (std::abs(d.z()) <= 1e-9 * size) {
        body["orientation"] = Json::array({tidy(angle), 0, 0});
      } else {
        // The body's x axis along the drawn line.
        const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitX(), d);
        body["quaternion"] = Json::array({tidy(q.w()), tidy(q.x()), tidy(q.y()), tidy(q.z())});
      }
      body["shape"] = Json{{"type", "bar"}, {"length", tidy(length)}, {"width", width}};
      break;
    }
    case ShapeKind::Box: {
      const double w = std::max(std::abs(d.x()), 0.05), h = std::max(std::abs(d.y()), 0.05);
      body["position"] = point(spec, mid);
      const double i = tidy(mass * (w * w + h * h) / 12);
      body["inertia"] = spec.dimension == 2 ? Json(i)
                                            : Json::array({tidy(mass * h * h / 12), tidy(mass * w * w / 12), i});
      body["shape"] = Json{{"type", "box"}, {"size", point(spec, w, h, std::min(w, h))}};
      break;
    }
    case ShapeKind::Disk: {
      const double r = std::max(size, 0.025);
      body["position"] = point(spec, start);
      const double i = tidy(mass * r * r / 2);
      body["inertia"] = spec.dimension == 2 ? Json(i) : Json::array({i / 2, i / 2, i});
      body["shape"] = Json{{"type", "disk"}, {"radius", tidy(r)}, {"length", tidy(r / 5)}};
      break;
    }
  }
  return body;
}

// A joint from a joint tool or a pinned bar end.
Json newJoint(const Spec& spec, const JointRequest& request) {
  const bool pin = request.type == JointType::Revolute;
  Json joint{{"name", freeName(spec, pin ? "pin" : "slider")},
             {"type", jointTypeName(request.type)},
             {"body1", request.body1.toStdString()},
             {"body2", request.body2.toStdString()},
             {"at", point(spec, toEigen(request.at))}};
  // Planar: a slider moves along its axis. Spatial: every joint has the axis the viewport snapped.
  if (!pin || spec.dimension == 3) joint["axis"] = point(spec, toEigen(request.axis));
  return joint;
}

// The element of that name, if any.
std::optional<ElementId> idOf(const Spec& spec, const QString& name) {
  for (const ElementId& id : elements(spec))
    if (id.name == name.toStdString()) return id;
  return std::nullopt;
}

// Whether a run's frames can be drawn by the current model (same bodies in the same places).
bool sameLayout(const Model& a, const Model& b) {
  if (a.nq != b.nq || a.bodies.size() != b.bodies.size()) return false;
  for (std::size_t i = 0; i < a.bodies.size(); ++i)
    if (a.bodies[i].name != b.bodies[i].name) return false;
  return true;
}

}  // namespace

void MainWindow::createViewportActions() {
  auto* tools = new QActionGroup(this);
  const auto tool = [this, tools](const char* name, const QString& text, Tool which, QKeySequence key) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    a->setCheckable(true);
    a->setShortcut(key);
    a->setActionGroup(tools);
    connect(a, &QAction::triggered, this, [this, which] { viewport_->setTool(which); });
    return a;
  };
  tool("toolSelect", tr("Select / Drag"), Tool::Select, QKeySequence(Qt::Key_S))->setChecked(true);
  tool("toolBar", tr("Add Bar"), Tool::AddBar, QKeySequence(Qt::Key_B))->setToolTip(tr("Drag from one end of the bar to the other"));
  tool("toolBox", tr("Add Box"), Tool::AddBox, QKeySequence(Qt::Key_X))->setToolTip(tr("Drag from one corner to the opposite one"));
  tool("toolDisk", tr("Add Disk"), Tool::AddDisk, QKeySequence(Qt::Key_D))->setToolTip(tr("Drag from the centre to the rim"));
  tool("toolRevolute", tr("Add Revolute"), Tool::AddRevolute, QKeySequence(Qt::Key_R))->setToolTip(tr("Click the pin point: the bodies under it are joined"));
  tool("toolTranslational", tr("Add Slider"), Tool::AddTranslational, QKeySequence(Qt::Key_T))->setToolTip(tr("Click a point: the body slides along x"));
  tool("toolSpring", tr("Add Spring"), Tool::AddSpring, QKeySequence(Qt::Key_K))->setToolTip(tr("Click its two ends"));
  for (QAction* a : tools->actions()) a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  for (QAction* a : tools->actions()) viewport_->addAction(a);

  const auto make = [this](const char* name, const QString& text, auto slot) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  make("fit", tr("&Fit to Model"), [this] { viewport_->fitToModel(); })->setShortcut(QKeySequence(Qt::Key_F));
  action("fit")->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  viewport_->addAction(action("fit"));
  QAction* view3d = make("view3d", tr("&3-D View"), [this](bool on) {
    viewport_->setViewMode(on ? ViewMode::Spatial : ViewMode::Planar);
  });
  view3d->setCheckable(true);
  QAction* grid = make("grid", tr("Show &Grid"), [this](bool on) { viewport_->setGridVisible(on); });
  grid->setCheckable(true);
  grid->setChecked(true);
  QAction* snap = make("snap", tr("&Snap to Grid"), [this](bool on) { viewport_->setSnapToGrid(on); });
  snap->setCheckable(true);
  snap->setChecked(true);
  QAction* pinBarEnds = make("pinBarEnds", tr("&Pin Bar Ends"), [this](bool on) { viewport_->setPinBarEnds(on); });
  pinBarEnds->setCheckable(true);
  pinBarEnds->setChecked(true);
  pinBarEnds->setToolTip(tr("A bar drawn from or to another body's end or centre is pinned there"));
  QAction* reactions = make("reactions", tr("Show &Reaction Forces"), [this](bool on) { viewport_->setShowReactions(on); });
  reactions->setCheckable(true);
  make("reactionScale", tr("Reaction Arrow &Scale…"), [this] {
    bool ok = false;
    const double scale = QInputDialog::getDouble(this, tr("Reaction Arrow Scale"), tr("Arrow length per newton [m/N]:"),
                                                 reactionScale_, 1e-9, 1e3, 6, &ok);
    if (!ok) return;
    reactionScale_ = scale;
    viewport_->setReactionScale(scale);
  });
  make("trace", tr("&Trace Selected Bodies"), [this] {
    QList<TracePoint> points;
    for (const ElementId& id : selection_.ids())
      if (id.kind == ElementKind::Body) points.append({QString::fromStdString(id.name), QVector3D()});
    viewport_->setTraces(points);
    showFrame(timeline_->frame());
  });
  make("exportPlot", tr("&Plot…"), [this] { exportPlot(); });
  make("exportAnimation", tr("&Animation…"), [this] { exportAnimation(); });
  make("exportAdams", tr("A&dams Dataset…"), [this] { exportAdams(); });
}

void MainWindow::connectViewport() {
  const auto showModel = [this] {
    const std::optional<Model>& model = document_.model();
    viewport_->setModel(document_.spec(), model ? &*model : nullptr);
    action("view3d")->setChecked(document_.spec().dimension == 3);
    showFrame(timeline_->frame());
  };
  connect(&document_, &Document::specChanged, this, showModel);
  connect(&document_, &Document::documentReset, this, [this, showModel] {
    viewport_->clearFrame();
    showModel();
    viewport_->fitToModel();
  });
  connect(&selection_, &Selection::changed, this, [this] {
    QStringList names;
    for (const ElementId& id : selection_.ids()) names << QString::fromStdString(id.name);
    viewport_->setSelection(names);
  });
  connect(viewport_, &Viewport::elementClicked, this, [this](const QString& name, bool additive) {
    const std::optional<ElementId> id = idOf(document_.spec(), name);
    if (!id) {
      if (!additive) selection_.clear();
      return;
    }
    additive ? selection_.toggle(*id) : selection_.set({*id});
  });
  connect(viewport_, &Viewport::bodyRequested, this, [this](const BodyRequest& request) {
    // The body and the pins of its ends: one edit, one undo step.
    const Json body = newBody(document_.spec(), request);
    const QString name = QString::fromStdString(body["name"]);
    EditResult edit = addElement(document_.spec(), ElementKind::Body, body);
    QStringList pinned;
    const std::pair<QString, QVector3D> ends[2] = {{request.startPin, request.start}, {request.endPin, request.end}};
    const QVector3D axes[2] = {request.startAxis, request.endAxis};
    for (int k = 0; k < 2 && edit.spec; ++k) {
      if (ends[k].first.isEmpty()) continue;
      const JointRequest pin{JointType::Revolute, ends[k].first, name, ends[k].second, axes[k]};
      edit = addElement(*edit.spec, ElementKind::Joint, newJoint(*edit.spec, pin));
      pinned << ends[k].first;
    }
    const QString text = pinned.isEmpty() ? tr("Add body %1").arg(name)
                                          : tr("Add body %1 pinned to %2").arg(name, pinned.join(tr(" and ")));
    const Diagnostics refused = pushEdit(&document_, edit, text);
    if (!refused.empty()) {
      status_->setText(QString::fromStdString(refused.front().text()));
      return;
    }
    selection_.set({{ElementKind::Body, body["name"]}});
    status_->setText(text);
  });
  connect(viewport_, &Viewport::jointRequested, this, [this](const JointRequest& request) {
    const Json joint = newJoint(document_.spec(), request);
    const QString text = tr("Add joint %1 (%2 – %3)")
                             .arg(QString::fromStdString(joint["name"]), request.body1, request.body2);
    const Diagnostics refused = pushEdit(&document_, addElement(document_.spec(), ElementKind::Joint, joint), text);
    if (!refused.empty()) {
      status_->setText(QString::fromStdString(refused.front().text()));
      return;
    }
    selection_.set({{ElementKind::Joint, joint["name"]}});
    status_->setText(text);
  });
  connect(viewport_, &Viewport::hintChanged, status_, &QLabel::setText);
  // The document the window opens with, so that the first edit does not fit the view.
  showModel();
  connect(viewport_, &Viewport::springRequested, this,
          [this](const QString& body1, QVector3D p1, const QString& body2, QVector3D p2) {
            const Spec& spec = document_.spec();
            const Json spring{{"name", freeName(spec, "spring")}, {"type", "spring_damper"},
                              {"body1", body1.toStdString()},   {"body2", body2.toStdString()},
                              {"at1", point(spec, p1.x(), p1.y(), p1.z())},
                              {"at2", point(spec, p2.x(), p2.y(), p2.z())},
                              {"stiffness", 100},                {"damping", 1}};
            pushEdit(&document_, addElement(spec, ElementKind::Force, spring),
                     tr("Add spring %1").arg(QString::fromStdString(spring["name"])));
            selection_.set({{ElementKind::Force, spring["name"]}});
          });
  connect(viewport_, &Viewport::dragStarted, this, [this] { ++dragCount_; });
  connect(viewport_, &Viewport::dragFinished, this, [this](const QString& body, const State& state) {
    const std::optional<Model>& model = document_.model();
    if (!model) return;
    pushEdit(&document_, withBodyPoses(document_.spec(), *model, state), tr("Drag %1").arg(body),
             QStringLiteral("drag %1").arg(dragCount_));
  });
  connect(viewport_, &Viewport::toolCancelled, this, [this] { action("toolSelect")->trigger(); });
}

void MainWindow::showFrame(int index) {
  const std::optional<Model>& model = document_.model();
  if (runs_.empty() || !model || !sameLayout(*runs_.back()->model, *model)) return;
  const std::vector<Frame>& frames = runs_.back()->results.frames;
  if (index < 0 || index >= static_cast<int>(frames.size())) return;
  viewport_->setTraceHistory(&frames, index);
  viewport_->setFrame(frames[static_cast<std::size_t>(index)]);
}

void MainWindow::exportPlot() {
  if (PlotView* plot = plots_->currentPlot()) plot->exportWithDialog();
}

void MainWindow::exportAnimation() {
  if (runs_.empty()) {
    QMessageBox::information(this, tr("Export Animation"), tr("Run an analysis first: the animation shows its frames."));
    return;
  }
  QStringList formats{tr("PNG frame sequence (folder)"), tr("Ogg Theora video (*.ogv)")};
  if (AnimationExporter::ffmpegAvailable()) formats << tr("MP4 video (*.mp4)");
  bool ok = false;
  const QString format = QInputDialog::getItem(this, tr("Export Animation"), tr("Format:"), formats, 1, false, &ok);
  if (!ok) return;
  AnimationExportOptions options;
  options.format = format.startsWith("PNG") ? AnimationFormat::PngSequence
                   : format.startsWith("Ogg") ? AnimationFormat::OggTheora
                                              : AnimationFormat::Mp4;
  options.path = options.format == AnimationFormat::PngSequence
                     ? QFileDialog::getExistingDirectory(this, tr("Folder for the frames"))
                     : QFileDialog::getSaveFileName(this, tr("Export Animation"), {},
                                                    options.format == AnimationFormat::OggTheora ? "*.ogv" : "*.mp4");
  if (options.path.isEmpty()) return;
  options.frameCount = timeline_->frameCount();
  const std::vector<Frame>& frames = runs_.back()->results.frames;
  if (frames.size() > 1) {
    const double span = frames.back().state.t - frames.front().state.t;
    options.fps = span > 0 ? std::clamp((frames.size() - 1) / span, 1.0, 60.0) : 30.0;
  }
  AnimationExporter exporter;
  QProgressDialog progress(tr("Exporting the animation…"), tr("Cancel"), 0, options.frameCount, this);
  progress.setWindowModality(Qt::WindowModal);
  connect(&exporter, &AnimationExporter::progress, &progress, &QProgressDialog::setValue);
  connect(&progress, &QProgressDialog::canceled, &exporter, &AnimationExporter::cancel);
  const int shown = timeline_->frame();
  QString error;
  const bool done = exporter.run(*viewport_, options, [this](int k) { timeline_->setFrame(k); }, &error);
  timeline_->setFrame(shown);
  if (!done) QMessageBox::warning(this, tr("Export Animation"), error);
}

}  // namespace rlx::ui
