#include "main_window.h"

#include "docks/diagnostics_dock.h"
#include "docks/element_dialog.h"
#include "docks/model_tree.h"
#include "docks/properties_dock.h"
#include "plot/plot_panel.h"
#include "timeline/timeline.h"
#include "viewport/viewport.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoView>
#include <QVBoxLayout>

#include <Eigen/Core>
#include <vtkVersionMacros.h>

// The icons live in a static library: register them before the first window needs them.
static void initResources() { Q_INIT_RESOURCE(reuleaux); }

namespace rlx::ui {

MainWindow::MainWindow(const QString& recoveryFolder, QWidget* parent) : QMainWindow(parent) {
  initResources();
  setWindowIcon(QIcon(":/icons/reuleaux.svg"));
  autosave_ = std::make_unique<Autosave>(
      &document_, recoveryFolder.isEmpty() ? Autosave::defaultFolder() : recoveryFolder);
  createActions();
  createDocks();
  createViewportActions();
  createMenus();
  connectViewport();

  connect(&document_, &Document::specChanged, this, &MainWindow::updateActions);
  connect(&selection_, &Selection::changed, this, &MainWindow::updateActions);
  connect(&document_, &Document::documentReset, this, [this] {
    runs_.clear();
    timeline_->setTimes({});
    plots_->clearRuns();
  });
  connect(&document_, &Document::filePathChanged, this, &MainWindow::updateTitle);
  connect(document_.undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
  connect(&simulation_, &Simulation::progress, this, [this](double fraction, double t) {
    progress_->setValue(static_cast<int>(fraction * 1000));
    status_->setText(tr("Running… t = %1 s").arg(t, 0, 'g', 6));
  });
  connect(&simulation_, &Simulation::finished, this, &MainWindow::runFinished);
  connect(autosave_.get(), &Autosave::failed, this,
          [this](const QString& message) { status_->setText(tr("Autosave failed: %1").arg(message)); });
  connect(timeline_, &Timeline::frameChanged, this, [this](int index, double) { showFrame(index); });

  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  if (!settings.contains("window/geometry")) resize(1400, 900);
  updateTitle();
  updateActions();
}

MainWindow::~MainWindow() = default;

QAction* MainWindow::action(const QString& objectName) const {
  return findChild<QAction*>(objectName);
}

void MainWindow::createActions() {
  const auto make = [this](const QString& name, const QString& text, QKeySequence key,
                           auto slot) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  make("new", tr("&New"), QKeySequence::New, [this] { newModel(2); });
  make("new3d", tr("New &Spatial Model"), QKeySequence(), [this] { newModel(3); });
  make("open", tr("&Open…"), QKeySequence::Open, [this] { openDialog(); });
  make("save", tr("&Save"), QKeySequence::Save, [this] { save(); });
  make("saveAs", tr("Save &As…"), QKeySequence::SaveAs, [this] { saveAsDialog(); });
  make("quit", tr("&Quit"), QKeySequence::Quit, [this] { close(); });
  QAction* undo = document_.undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setObjectName("undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = document_.undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setObjectName("redo");
  redo->setShortcut(QKeySequence::Redo);
  make("delete", tr("&Delete"), QKeySequence::Delete, [this] { deleteSelection(); });
  make("analysis", tr("Analysis &Settings…"), QKeySequence(), [this] { editAnalysis(); });
  runAction_ = make("run", tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), [this] { runAnalysis(); });
  runAction_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  cancelAction_ = make("cancel", tr("&Cancel Run"), QKeySequence(Qt::Key_Escape | Qt::SHIFT),
                       [this] { simulation_.cancel(); });
  cancelAction_->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
  make("addMotion", tr("Add &Motion…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Motion, newMotion(document_.spec(), selection_.ids()), tr("Add Motion"));
  });
  make("addSpring", tr("Add &Spring-Damper…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Force, newForce(document_.spec(), ForceType::SpringDamper, selection_.ids()),
                     tr("Add Spring-Damper"));
  });
  make("addTorsionSpring", tr("Add &Torsion Spring…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Force, newForce(document_.spec(), ForceType::TorsionSpring, selection_.ids()),
                     tr("Add Torsion Spring"));
  });
  make("addForce", tr("Add &Force…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Force, newForce(document_.spec(), ForceType::Force, selection_.ids()),
                     tr("Add Force"));
  });
  make("addTorque", tr("Add T&orque…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Force, newForce(document_.spec(), ForceType::Torque, selection_.ids()),
                     tr("Add Torque"));
  });
  make("addJointForce", tr("Add &Joint Force…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Force, newForce(document_.spec(), ForceType::JointForce, selection_.ids()),
                     tr("Add Joint Force"));
  });
  make("addLimit", tr("Add &End Stop…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Force, newForce(document_.spec(), ForceType::Limit, selection_.ids()),
                     tr("Add End Stop"));
  });
  make("addGear", tr("Add &Gear Pair…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Joint, newGearPair(document_.spec(), selection_.ids()), tr("Add Gear Pair"));
  });
  make("addRackPinion", tr("Add &Rack and Pinion…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Joint, newRackPinion(document_.spec(), selection_.ids()),
                     tr("Add Rack and Pinion"));
  });
  make("addCoupler", tr("Add Coupler (&Belt)…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Constraint, newCoupler(document_.spec(), selection_.ids()), tr("Add Coupler"));
  });
  make("addCam", tr("Add C&am (Point on Curve)…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Joint, newCam(document_.spec(), selection_.ids()), tr("Add Cam"));
  });
  make("addScrew", tr("Add Scre&w…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Joint, newScrew(document_.spec(), selection_.ids()), tr("Add Screw"));
  });
  make("addParameter", tr("Add &Parameter…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Parameter, newParameter(document_.spec()), tr("Add Parameter"));
  });
  make("addConstraint", tr("Add &User Constraint…"), QKeySequence(), [this] {
    addElementDialog(ElementKind::Constraint, newConstraint(document_.spec(), true), tr("Add User Constraint"));
  });
  make("driftView", tr("Constraint and Energy &Drift"), QKeySequence(), [this] {
    findChild<QDockWidget*>("plotsDock")->show();
    findChild<QDockWidget*>("plotsDock")->raise();
    plots_->showDriftView();
  });
  make("playPause", tr("&Play / Pause"), QKeySequence(Qt::Key_Space), [this] {
    timeline_->isPlaying() ? timeline_->pause() : timeline_->play();
  });
  make("about", tr("&About Reuleaux"), QKeySequence(), [this] { about(); });
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->setObjectName("fileMenu");
  file->addAction(action("new"));
  file->addAction(action("new3d"));
  file->addAction(action("open"));
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
  examplesMenu_ = file->addMenu(tr("&Examples"));
  fillExamplesMenu();
  file->addSeparator();
  file->addAction(action("save"));
  file->addAction(action("saveAs"));
  file->addSeparator();
  QMenu* exports = file->addMenu(tr("&Export"));
  exports->setObjectName("exportMenu");
  exports->addAction(action("exportPlot"));
  exports->addAction(action("exportAnimation"));
  exports->addAction(action("exportAdams"));
  file->addSeparator();
  file->addAction(action("quit"));

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(action("undo"));
  edit->addAction(action("redo"));
  edit->addSeparator();
  edit->addAction(action("delete"));

  QMenu* model = menuBar()->addMenu(tr("&Model"));
  model->setObjectName("modelMenu");
  model->setToolTipsVisible(true);  // why a disabled action does not apply
  for (const char* name : {"toolSelect", "toolBar", "toolBox", "toolDisk", "toolRevolute",
                           "toolTranslational", "toolSpring", "pinBarEnds"})
    model->addAction(action(name));
  model->addSeparator();
  for (const char* name : {"addMotion", "addSpring", "addTorsionSpring", "addForce", "addTorque",
                           "addJointForce", "addLimit", "addGear", "addRackPinion", "addCoupler", "addCam", "addScrew", "addParameter",
                           "addConstraint"})
    model->addAction(action(name));

  QMenu* simulate = menuBar()->addMenu(tr("&Simulate"));
  simulate->addAction(action("analysis"));
  simulate->addAction(runAction_);
  simulate->addAction(cancelAction_);
  simulate->addSeparator();
  simulate->addAction(action("playPause"));

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  for (const char* name : {"fit", "view3d", "grid", "snap", "reactions", "reactionScale", "trace"})
    viewMenu_->addAction(action(name));
  viewMenu_->addSeparator();
  viewMenu_->addAction(action("driftView"));
  viewMenu_->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) viewMenu_->addAction(dock->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(action("about"));

  QToolBar* tools = addToolBar(tr("File and Simulation"));
  tools->setObjectName("mainToolBar");
  tools->addAction(action("new"));
  tools->addAction(action("open"));
  tools->addAction(action("save"));
  tools->addSeparator();
  tools->addAction(action("undo"));
  tools->addAction(action("redo"));
  tools->addSeparator();
  tools->addAction(action("analysis"));
  tools->addAction(runAction_);
  tools->addAction(cancelAction_);
  action("new")->setIcon(style()->standardIcon(QStyle::SP_FileIcon));
  action("open")->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
  action("save")->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
  action("undo")->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
  action("redo")->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
  action("analysis")->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));

  QToolBar* build = addToolBar(tr("Build"));
  build->setObjectName("buildToolBar");
  for (const char* name : {"toolSelect", "toolBar", "toolBox", "toolDisk", "toolRevolute",
                           "toolTranslational", "toolSpring", "pinBarEnds"})
    build->addAction(action(name));
  build->addSeparator();
  build->addAction(action("fit"));
  build->addAction(action("view3d"));

  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(240);
  progress_->hide();
  status_ = new QLabel(this);
  statusBar()->addWidget(status_, 1);
  statusBar()->addPermanentWidget(progress_);
}

void MainWindow::createDocks() {
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  viewport_ = new Viewport(central);
  timeline_ = new Timeline(central);
  layout->addWidget(viewport_, 1);
  layout->addWidget(timeline_);
  setCentralWidget(central);

  const auto dock = [this](const QString& name, const QString& title, QWidget* widget,
                           Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(widget);
    addDockWidget(area, d);
    return d;
  };
  tree_ = new ModelTree(&document_, &selection_, this);
  properties_ = new PropertiesDock(&document_, &selection_, this);
  diagnostics_ = new DiagnosticsDock(&document_, &selection_, this);
  undoView_ = new QUndoView(document_.undoStack(), this);
  undoView_->setEmptyLabel(tr("<opened>"));
  dock("modelDock", tr("Model"), tree_, Qt::LeftDockWidgetArea);
  dock("propertiesDock", tr("Properties"), properties_, Qt::LeftDockWidgetArea);
  QDockWidget* diag = dock("diagnosticsDock", tr("Diagnostics"), diagnostics_, Qt::BottomDockWidgetArea);
  plots_ = new PlotPanel(this);
  dock("plotsDock", tr("Plots"), plots_, Qt::RightDockWidgetArea);
  QDockWidget* history = dock("undoDock", tr("Undo History"), undoView_, Qt::RightDockWidgetArea);
  tabifyDockWidget(diag, history);
  resizeDocks({findChild<QDockWidget*>("plotsDock")}, {520}, Qt::Horizontal);
  connect(plots_, &PlotPanel::timeClicked, timeline_, &Timeline::setTime);
  connect(timeline_, &Timeline::frameChanged, plots_, [this](int, double t) { plots_->setCursorTime(t); });
  diag->raise();
  resizeDocks({findChild<QDockWidget*>("modelDock")}, {340}, Qt::Horizontal);
  resizeDocks({diag}, {140}, Qt::Vertical);
  connect(tree_, &ModelTree::analysisRequested, this, &MainWindow::editAnalysis);
}

void MainWindow::updateTitle() {
  setWindowFilePath(document_.filePath());
  setWindowTitle(tr("%1[*] — Reuleaux").arg(document_.displayName()));
  setWindowModified(document_.isModified());
}

void MainWindow::updateActions() {
  const bool running = simulation_.isRunning();
  runAction_->setEnabled(!running);
  cancelAction_->setEnabled(running);
  action("delete")->setEnabled(!selection_.isEmpty());
  // Cams are planar, the screw spatial; gears, racks and pinions and couplers are in both.
  const bool planar = document_.spec().dimension == 2;
  const auto only = [this](const char* name, bool enabled, const QString& why) {
    action(name)->setEnabled(enabled);
    action(name)->setToolTip(enabled ? QString() : why);  // empty: the text, not shown in the menu
  };
  only("addCam", planar, tr("Cams are planar: open or start a 2-D model"));
  only("addScrew", !planar, tr("A screw is a spatial joint: open or start a 3-D model (New Spatial Model)"));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  simulation_.cancel();
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  event->accept();
}

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About Reuleaux"),
      tr("<h3>Reuleaux %1</h3><p>Mechanism modeler and simulator: assembly, kinematics, statics and "
         "dynamics of planar and spatial linkages.</p><p>Built with Qt %2 (running on %3), VTK %4, "
         "Eigen %5.%6.%7.</p>")
          .arg(REULEAUX_VERSION, QT_VERSION_STR, qVersion(), VTK_VERSION)
          .arg(EIGEN_WORLD_VERSION)
          .arg(EIGEN_MAJOR_VERSION)
          .arg(EIGEN_MINOR_VERSION));
}

}  // namespace rlx::ui
