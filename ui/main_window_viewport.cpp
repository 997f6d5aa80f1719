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
#include <QMessageBox>
#include <QProgressDialog>

#include <cmath>

namespace rlx::ui {
namespace {

using Json = nlohmann::ordered_json;

// Coordinates as the file stores them: micrometre precision, no rounding noise.
double tidy(double x) { return std::round(x * 1e6) / 1e6; }

Json point(const Spec& spec, double x, double y, double z = 0.0) {
  return spec.dimension == 2 ? Json::array({tidy(x), tidy(y)}) : Json::array({tidy(x), tidy(y), tidy(z)});
}

// A new body of unit mass from what the user drew.
Json newBody(const Spec& spec, ShapeKind kind, QPointF start, QPointF end) {
  const double mass = 1.0;
  const QPointF d = end - start;
  const double size = std::hypot(d.x(), d.y());
  Json body{{"name", freeName(spec, kind == ShapeKind::Bar ? "bar" : kind == ShapeKind::Box ? "box" : "disk")},
            {"mass", mass}};
  Json inertia;
  switch (kind) {
    case ShapeKind::Bar: {
      const double length = std::max(size, 0.05), width = tidy(std::max(0.02, length / 20));
      body["position"] = point(spec, (start.x() + end.x()) / 2, (start.y() + end.y()) / 2);
      const double angle = size > 0 ? std::atan2(d.y(), d.x()) : 0.0;
      const double i = tidy(mass * length * length / 12);
      body["inertia"] = spec.dimension == 2 ? Json(i) : Json::array({tidy(mass * width * width / 12), i, i});
      if (spec.dimension == 2)
        body["angle"] = tidy(angle);
      else
        body["orientation"] = Json::array({tidy(angle), 0, 0});
      body["shape"] = Json{{"type", "bar"}, {"length", tidy(length)}, {"width", width}};
      break;
    }
    case ShapeKind::Box: {
      const double w = std::max(std::abs(d.x()), 0.05), h = std::max(std::abs(d.y()), 0.05);
      body["position"] = point(spec, (start.x() + end.x()) / 2, (start.y() + end.y()) / 2);
      const double i = tidy(mass * (w * w + h * h) / 12);
      body["inertia"] = spec.dimension == 2 ? Json(i)
                                            : Json::array({tidy(mass * h * h / 12), tidy(mass * w * w / 12), i});
      body["shape"] = Json{{"type", "box"}, {"size", point(spec, w, h, std::min(w, h))}};
      break;
    }
    case ShapeKind::Disk: {
      const double r = std::max(size, 0.025);
      body["position"] = point(spec, start.x(), start.y());
      const double i = tidy(mass * r * r / 2);
      body["inertia"] = spec.dimension == 2 ? Json(i) : Json::array({i / 2, i / 2, i});
      body["shape"] = Json{{"type", "disk"}, {"radius", tidy(r)}, {"length", tidy(r / 5)}};
      break;
    }
  }
  return body;
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
  make("exportPlot", tr("Export &Plot…"), [this] { exportPlot(); });
  make("exportAnimation", tr("Export &Animation…"), [this] { exportAnimation(); });
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
  connect(viewport_, &Viewport::bodyRequested, this, [this](ShapeKind kind, QPointF start, QPointF end) {
    const Json body = newBody(document_.spec(), kind, start, end);
    pushEdit(&document_, addElement(document_.spec(), ElementKind::Body, body),
             tr("Add body %1").arg(QString::fromStdString(body["name"])));
    selection_.set({{ElementKind::Body, body["name"]}});
  });
  connect(viewport_, &Viewport::jointRequested, this,
          [this](JointType type, const QString& body1, const QString& body2, QVector3D at) {
            const Spec& spec = document_.spec();
            Json joint{{"name", freeName(spec, type == JointType::Revolute ? "pin" : "slider")},
                       {"type", jointTypeName(type)},
                       {"body1", body1.toStdString()},
                       {"body2", body2.toStdString()},
                       {"at", point(spec, at.x(), at.y(), at.z())}};
            if (type == JointType::Translational || spec.dimension == 3)
              joint["axis"] = type == JointType::Translational ? point(spec, 1, 0, 0) : point(spec, 0, 0, 1);
            const Diagnostics refused = pushEdit(&document_, addElement(spec, ElementKind::Joint, joint),
                                                 tr("Add joint %1").arg(QString::fromStdString(joint["name"])));
            if (refused.empty()) selection_.set({{ElementKind::Joint, joint["name"]}});
          });
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
