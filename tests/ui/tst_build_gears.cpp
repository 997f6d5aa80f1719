// A user adds gearing from the Model menu on the real main window: a gear pair between two
// disks drawn with the mouse and selected by clicking them (a few pixels off their centres, the
// second with Ctrl), a rack and pinion on the steering example, a screw on the screw jack, a belt
// on the belt drive, and a cam (point on curve) between the roller cam example's bodies.
// The dialogs come prefilled from the selection; OK adds one undoable joint that compiles and
// that the viewport draws where its teeth meet; the rack and pinion of the 3-D lift and a gear pair
// of the 3-D train likewise. The Coupler and Cam actions apply to planar models only, the Screw
// action to spatial ones.

#include "docks/model_tree.h"
#include "docks/properties_dock.h"
#include "test_support.h"
#include "ui_gestures.h"

#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <cmath>
#include <memory>
#include <numbers>

using namespace rlx;
using namespace rlx::ui;
using namespace rlx::ui::gestures;

namespace {

const JointSpec* jointNamed(const Spec& spec, const std::string& name) {
  for (const JointSpec& j : spec.joints)
    if (j.name == name) return &j;
  return nullptr;
}

double numberOf(const JointSpec& j, const std::string& key) {
  const auto it = j.numbers.find(key);
  return it == j.numbers.end() ? std::nan("") : it->second.value;
}


}  // namespace

class TestBuildGears : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init();
  void cleanup();
  void gearPairFromTwoDrawnDisks();
  void rackAndPinionOnTheSteering();
  void rackAndPinionOnTheLift();
  void gearPairOnTheSpatialTrain();
  void screwOnlyInSpatialModels();
  void beltDrawnOnTheBeltDrive();
  void beltOnTheSpatialJack();
  void camBetweenFollowerAndCam();

 private:
  QPoint at(QPointF world, QPoint off = {}) const {
    return viewport_->widgetPosOf(QVector3D(float(world.x()), float(world.y()), 0)).toPoint() + off;
  }
  // Opens an example and deletes one of its joints (a copy of which it returns); nothing selected.
  JointSpec openWithoutJoint(const char* example, const std::string& name) {
    if (!window_->openPath(QString::fromStdString(test::examplePath(example))))
      qFatal("cannot open %s", example);
    const Spec& spec = window_->document()->spec();
    const JointSpec original = *jointNamed(spec, name);
    window_->selection()->set({{ElementKind::Joint, name}});
    window_->action("delete")->trigger();
    if (jointNamed(spec, name)) qFatal("%s was not deleted", name.c_str());
    QTest::qWait(100);
    window_->selection()->clear();
    return original;
  }
  QPoint at3(QVector3D world, QPoint off = {}) const {
    return viewport_->widgetPosOf(world).toPoint() + off;
  }

  std::unique_ptr<QTemporaryDir> dir_;
  std::unique_ptr<MainWindow> window_;
  Viewport* viewport_ = nullptr;
};

void TestBuildGears::init() {
  dir_ = std::make_unique<QTemporaryDir>();
  window_ = std::make_unique<MainWindow>(dir_->path() + "/recovery");
  QVERIFY(input::showActive(*window_));
  viewport_ = window_->viewport();
}

void TestBuildGears::cleanup() {
  window_.reset();
  dir_.reset();
}

void TestBuildGears::gearPairFromTwoDrawnDisks() {
  clickAction(*window_, "new");
  QTest::qWait(100);
  // Two disks by mouse, centre to rim: r = 0.05 at (-0.1, 0), r = 0.1 at (0.1, 0).
  const QPointF c1(-0.1, 0), c2(0.1, 0);
  clickAction(*window_, "toolDisk");
  input::dragPixels(viewport_, at(c1), at(QPointF(-0.05, 0)));
  input::dragPixels(viewport_, at(c2), at(QPointF(0.2, 0)));
  const Spec& spec = window_->document()->spec();
  QCOMPARE(spec.bodies.size(), std::size_t(2));
  QCOMPARE(spec.joints.size(), std::size_t(0));
  const std::string disk1 = spec.bodies[0].name, disk2 = spec.bodies[1].name;

  // Select both: a click beside the first centre, a Ctrl-click beside the second.
  clickAction(*window_, "toolSelect");
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at(c1, QPoint(4, -3)));
  QTest::mouseClick(viewport_, Qt::LeftButton, Qt::ControlModifier, at(c2, QPoint(-5, 4)));
  QCOMPARE(window_->selection()->ids().size(), std::size_t(2));
  const std::size_t undoSteps = static_cast<std::size_t>(window_->document()->undoStack()->count());

  // Model > Add Gear Pair…: the disk keeps its radius, the other wheel takes the rest.
  QString fields;
  onNextModal<ElementDialog>([&fields](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "body1", "body2", "radius1", "radius2"})
      fields += d->field(key)->text() + " ";
    // Circles that do not touch: the form says why and stays open; the right radius is taken.
    type(d->field("radius2"), "0.1");
    clickOk(d);
    QVERIFY(d->isVisible());
    QVERIFY(formExplains(d, "pitch circles do not touch"));
    type(d->field("radius2"), "0.15");
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addGear");
  QCOMPARE(fields, QString("gear %1 %2 0.05 0.15 ")
                       .arg(QString::fromStdString(disk1), QString::fromStdString(disk2)));
  QCOMPARE(spec.joints.size(), std::size_t(1));
  const JointSpec mesh = spec.joints.front();
  QCOMPARE(mesh.type, JointType::Gear);
  QCOMPARE(mesh.body1, disk1);
  QCOMPARE(mesh.body2, disk2);
  QVERIFY(std::abs(numberOf(mesh, "radius1") + numberOf(mesh, "radius2") - 0.2) < 1e-12);
  QVERIFY2(window_->document()->model().has_value(), "the model with the gear pair compiles");
  QCOMPARE(window_->document()->undoStack()->count(), int(undoSteps) + 1);

  // It is selected, listed, shown in the properties and drawn: the viewport names it beside
  // the pitch point, on the first disk's rim.
  const QString name = QString::fromStdString(mesh.name);
  const QPointF pitch(-0.05, 0);
  QVERIFY(window_->selection()->single() && window_->selection()->single()->name == mesh.name);
  QVERIFY(window_->modelTree()->itemOf({ElementKind::Joint, mesh.name}));
  QVERIFY(propertiesShow(*window_, "radius1"));
  // Only what a gear reads: its centres and radii, no global point, axis or length.
  for (const char* field : {"at", "axis", "axis1", "length", "radius"}) QVERIFY2(!propertiesShow(*window_, field), field);
  QVERIFY(propertiesShow(*window_, "point1"));
  QCOMPARE(viewport_->elementAt(at(pitch, QPoint(2, -2))), name);

  // Undo takes it away everywhere; redo brings it back.
  window_->action("undo")->trigger();
  QCOMPARE(spec.joints.size(), std::size_t(0));
  QVERIFY(window_->document()->model().has_value());
  for (const ElementId& id : window_->selection()->ids()) QVERIFY(id.name != mesh.name);
  QVERIFY(!window_->modelTree()->itemOf({ElementKind::Joint, mesh.name}));
  QVERIFY(!propertiesShow(*window_, "radius1"));
  QVERIFY(viewport_->elementAt(at(pitch, QPoint(2, -2))) != name);
  window_->action("redo")->trigger();
  QCOMPARE(spec.joints.size(), std::size_t(1));
  QVERIFY(spec.joints.front() == mesh);
  QVERIFY(window_->document()->model().has_value());
  QVERIFY(window_->modelTree()->itemOf({ElementKind::Joint, mesh.name}));
  QCOMPARE(viewport_->elementAt(at(pitch, QPoint(2, -2))), name);

  // REULEAUX_SCREENSHOTS=DIR keeps a picture of the window with the gear pair.
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    window_->selection()->set({{ElementKind::Joint, mesh.name}});
    QTest::qWait(300);
    window_->grab().save(shots + "/gear_pair_added.png");
  }
}

void TestBuildGears::rackAndPinionOnTheSteering() {
  // Take the example's mesh away, then add it again from the menu.
  const JointSpec original = openWithoutJoint("rack_pinion_steering.rlx", "mesh");
  const Spec& spec = window_->document()->spec();
  const QImage before = viewport_->grabFrame();

  // The pinion first, then the rack: the rack is found by its guide, not by the order. The
  // pinion is small on the screen and covered by its bearing's symbol: it is picked in the model
  // tree; the rack is Ctrl-clicked in the viewport, away from the pinion.
  clickAction(*window_, "toolSelect");
  ModelTree* tree = window_->modelTree();
  QTreeWidgetItem* pinion = tree->itemOf({ElementKind::Body, "pinion"});
  QVERIFY(pinion);
  tree->scrollToItem(pinion);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(pinion).center());
  QCOMPARE(window_->selection()->ids().size(), std::size_t(1));
  QTest::mouseClick(viewport_, Qt::LeftButton, Qt::ControlModifier,
                    at(QPointF(0.2, -0.03), QPoint(0, 1)));
  QCOMPARE(window_->selection()->ids().size(), std::size_t(2));
  QCOMPARE(window_->selection()->ids()[0].name, std::string("pinion"));
  QCOMPARE(window_->selection()->ids()[1].name, std::string("rack"));

  onNextModal<ElementDialog>([](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    QCOMPARE(d->field("body1")->text(), QString("rack"));
    QCOMPARE(d->field("body2")->text(), QString("pinion"));
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addRackPinion");
  const JointSpec* added = &spec.joints.back();
  QCOMPARE(added->type, JointType::RackPinion);
  QCOMPARE(added->body1, original.body1);
  QCOMPARE(added->body2, original.body2);
  QVERIFY(added->axis1 && added->axis1->size() == 2);
  QCOMPARE((*added->axis1)[0].value, 1.0);
  QCOMPARE((*added->axis1)[1].value, 0.0);
  QVERIFY(std::abs(numberOf(*added, "pitch_radius") - 0.03) < 1e-12);
  QVERIFY(window_->document()->model().has_value());
  window_->selection()->clear();  // drawn as before, not highlighted
  // Drawn: the teeth of the pinion and the rack appear.
  const QImage after = viewport_->grabFrame();
  QCOMPARE(after.size(), before.size());
  int changed = 0;
  for (int y = 0; y < after.height(); ++y)
    for (int x = 0; x < after.width(); ++x) changed += after.pixel(x, y) != before.pixel(x, y);
  QVERIFY2(changed > 200, qPrintable(QString::number(changed)));
  // Picked on the rack's teeth right of the pinion (the pitch point, below the pinion's centre,
  // is where the rack's guide is picked).
  QCOMPARE(viewport_->elementAt(at(QPointF(0.03, -0.03), QPoint(2, 1))), QString::fromStdString(added->name));
  QCOMPARE(viewport_->elementAt(at(QPointF(0, -0.03), QPoint(-1, 2))), QString("rack_guide"));

  // The steering works as the example's: the rack moves r times the pinion's angle.
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  clickAction(*window_, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
}

void TestBuildGears::rackAndPinionOnTheLift() {
  // The 3-D lift: the pinion on a shaft along -y at the origin, the rack along z through (r, 0, .).
  const JointSpec original = openWithoutJoint("rack_pinion_lift.rlx", "mesh");
  const Spec& spec = window_->document()->spec();
  const float r = 0.04f;
  const QPoint pick =
      at3({r, 0, 0.045f}, QPoint(2, -1));  // on the rack's teeth above the pitch point
  QVERIFY(viewport_->elementAt(pick) != "mesh");

  // The rack clicked high up in the viewport, the pinion Ctrl-picked in the model tree.
  clickAction(*window_, "toolSelect");
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at3({r, 0, 0.5f}, QPoint(1, 2)));
  QCOMPARE(window_->selection()->ids().size(), std::size_t(1));
  QCOMPARE(window_->selection()->ids()[0].name, std::string("rack"));
  ModelTree* tree = window_->modelTree();
  QTreeWidgetItem* pinion = tree->itemOf({ElementKind::Body, "pinion"});
  QVERIFY(pinion);
  tree->scrollToItem(pinion);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::ControlModifier,
                    tree->visualItemRect(pinion).center());
  QCOMPARE(window_->selection()->ids().size(), std::size_t(2));

  QString fields;
  onNextModal<ElementDialog>([&fields](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "body1", "body2", "axis", "pitch_radius"})
      fields += d->field(key)->text() + " ";
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addRackPinion");
  QCOMPARE(fields, QString("rack_pinion rack pinion [0,0,1] 0.04 "));
  const JointSpec added = spec.joints.back();
  QCOMPARE(added.type, JointType::RackPinion);
  QCOMPARE(added.body1, original.body1);
  QCOMPARE(added.body2, original.body2);
  QVERIFY(window_->document()->model().has_value());
  QCOMPARE(window_->selection()->single()->name, added.name);
  QVERIFY(propertiesShow(*window_, "pitch_radius"));
  QCOMPARE(viewport_->elementAt(pick), QString::fromStdString(added.name));

  // Undo takes it away from the model, the selection, the properties and the viewport; redo
  // brings it back.
  window_->action("undo")->trigger();
  QVERIFY(!jointNamed(spec, added.name));
  for (const ElementId& id : window_->selection()->ids()) QVERIFY(id.name != added.name);
  QVERIFY(!propertiesShow(*window_, "pitch_radius"));
  QVERIFY(viewport_->elementAt(pick) != QString::fromStdString(added.name));
  window_->action("redo")->trigger();
  QVERIFY(spec.joints.back() == added);
  QCOMPARE(viewport_->elementAt(pick), QString::fromStdString(added.name));

  // The lift runs as the example's: the rack rises r times the pinion's angle.
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  clickAction(*window_, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  const Model& model = *window_->document()->model();
  const int rack = test::body(model, "rack").q;
  const Frame& last = results.frames.back();
  QVERIFY(std::abs(last.state.q(rack + 2) - (0.3 + 0.04 * 2 * last.state.t)) < 1e-12);
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    window_->selection()->set({{ElementKind::Joint, added.name}});
    QTest::qWait(300);
    window_->grab().save(shots + "/rack_pinion_lift.png");
  }
}

void TestBuildGears::gearPairOnTheSpatialTrain() {
  // The 3-D train's second stage taken away and added again: the compound and the output picked
  // in the model tree, the axis prefilled from their bearings, the radii typed.
  const JointSpec original = openWithoutJoint("spatial_gear_train.rlx", "mesh_34");
  const Spec& spec = window_->document()->spec();
  const float angle = 50.0f * float(std::numbers::pi) / 180.0f;
  const QPoint pick =
      at3({0.08f + 0.025f * std::cos(angle), 0.0f, 0.025f * std::sin(angle)}, QPoint(1, -2));
  QVERIFY(viewport_->elementAt(pick) != "mesh_34");
  ModelTree* tree = window_->modelTree();
  bool first = true;
  for (const char* body : {"compound", "output"}) {
    QTreeWidgetItem* item = tree->itemOf({ElementKind::Body, body});
    QVERIFY(item);
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton,
                      first ? Qt::NoModifier : Qt::ControlModifier,
                      tree->visualItemRect(item).center() + QPoint(3, 1));
    first = false;
  }
  QCOMPARE(window_->selection()->ids().size(), std::size_t(2));
  QString fields;
  onNextModal<ElementDialog>([&fields](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "body1", "body2", "axis"})
      fields += d->field(key)->text() + " ";
    type(d->field("name"), "mesh_34");
    type(d->field("radius1"), "0.025");
    type(d->field("radius2"), "0.05");
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addGear");
  QCOMPARE(fields, QString("gear compound output [0,1,0] "));
  const JointSpec added = spec.joints.back();
  QCOMPARE(added.type, JointType::Gear);
  QCOMPARE(numberOf(added, "radius1"), 0.025);  // the example's r3
  QCOMPARE(added.body1, original.body1);
  QVERIFY(window_->document()->model().has_value());
  QCOMPARE(viewport_->elementAt(pick), QString("mesh_34"));
  // Undo and redo, with the selection, the properties and the viewport.
  window_->action("undo")->trigger();
  QVERIFY(!jointNamed(spec, "mesh_34"));
  for (const ElementId& id : window_->selection()->ids()) QVERIFY(id.name != "mesh_34");
  QVERIFY(!propertiesShow(*window_, "radius1"));
  QVERIFY(viewport_->elementAt(pick) != "mesh_34");
  window_->action("redo")->trigger();
  QVERIFY(spec.joints.back() == added);
  QCOMPARE(viewport_->elementAt(pick), QString("mesh_34"));
  // The train runs as the example's.
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  clickAction(*window_, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    window_->selection()->set({{ElementKind::Joint, "mesh_34"}});
    QTest::qWait(300);
    window_->grab().save(shots + "/spatial_gear_train.png");
  }
}

void TestBuildGears::screwOnlyInSpatialModels() {
  clickAction(*window_, "new");
  QVERIFY(window_->action("addGear")->isEnabled());
  QVERIFY(window_->action("addCoupler")->isEnabled());
  QVERIFY(window_->action("addRackPinion")->isEnabled());
  QVERIFY(!window_->action("addScrew")->isEnabled());
  QVERIFY2(window_->action("addScrew")->toolTip().contains("3-D"),
           qPrintable(window_->action("addScrew")->toolTip()));

  window_->action("new3d")->trigger();
  QCOMPARE(window_->document()->spec().dimension, 3);
  QVERIFY(window_->action("addScrew")->isEnabled());
  QVERIFY(window_->action("addGear")->isEnabled());
  QVERIFY(window_->action("addRackPinion")->isEnabled());
  QVERIFY(window_->action("addCoupler")->isEnabled());

  // The screw jack's thread, taken away and added again between the selected spindle and nut.
  QVERIFY(window_->openPath(QString::fromStdString(test::examplePath("screw_jack.rlx"))));
  QVERIFY(window_->action("addScrew")->isEnabled());
  const Spec& spec = window_->document()->spec();
  window_->selection()->set({{ElementKind::Joint, "thread"}});
  window_->action("delete")->trigger();
  QVERIFY(!jointNamed(spec, "thread"));
  window_->selection()->set({{ElementKind::Body, "spindle"}, {ElementKind::Body, "nut"}});
  onNextModal<ElementDialog>([](QWidget* dialog) { clickOk(dialog); });
  chooseFromModelMenu(*window_, "addScrew");
  const JointSpec& screw = spec.joints.back();
  QCOMPARE(screw.type, JointType::Screw);
  QCOMPARE(screw.body1, std::string("spindle"));
  QCOMPARE(screw.body2, std::string("nut"));
  QVERIFY(screw.at && screw.at->size() == 3);
  QCOMPARE((*screw.at)[2].value, 0.2);
  QCOMPARE(numberOf(screw, "pitch"), 0.005);
  QVERIFY(window_->document()->model().has_value());
  QCOMPARE(window_->selection()->single()->name, screw.name);
}

void TestBuildGears::beltDrawnOnTheBeltDrive() {
  // The belt of belt_drive.rlx (a coupler of the two bearings) runs from the 50 mm pulley at the
  // origin to the 120 mm one 0.5 m away. Taken away, then added again from the Model menu between
  // the two bearings clicked in the viewport; a click on its upper run, a few pixels off, picks it.
  QVERIFY(window_->openPath(QString::fromStdString(test::examplePath("belt_drive.rlx"))));
  const Spec& spec = window_->document()->spec();
  const ConstraintSpec original = spec.constraints.front();
  window_->selection()->set({{ElementKind::Constraint, "belt"}});
  window_->action("delete")->trigger();
  QVERIFY(spec.constraints.empty());
  const QPointF run(0.25, 0.085);
  QVERIFY(viewport_->elementAt(at(run, QPoint(2, 2))) != "belt");

  clickAction(*window_, "toolSelect");
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at(QPointF(0, 0), QPoint(3, -2)));
  QTest::mouseClick(viewport_, Qt::LeftButton, Qt::ControlModifier, at(QPointF(0.5, 0), QPoint(-2, 3)));
  QCOMPARE(window_->selection()->ids().size(), std::size_t(2));
  QString fields;
  onNextModal<ElementDialog>([&fields](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "joints", "ratios"}) fields += d->field(key)->text() + " ";
    type(d->field("name"), "belt");
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addCoupler");
  QCOMPARE(fields, QString(R"(coupler ["drive_bearing","driven_bearing"] [0.05,-0.12] )"));
  QCOMPARE(spec.constraints.size(), std::size_t(1));
  const ConstraintSpec& added = spec.constraints.front();
  QCOMPARE(added.type, ConstraintType::Coupler);
  QCOMPARE(added.joints, original.joints);
  QVERIFY(window_->document()->model().has_value());
  QVERIFY(propertiesShow(*window_, "ratios"));

  window_->selection()->clear();
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at(run, QPoint(2, 2)));
  const ElementId* picked = window_->selection()->single();
  QVERIFY(picked && picked->name == "belt");
  // Between the runs there is no belt: a click there selects nothing.
  window_->selection()->clear();
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at(QPointF(0.25, 0.0)));
  QVERIFY(window_->selection()->isEmpty());
  // Undo takes it away from the viewport too; redo brings it back.
  window_->action("undo")->trigger();
  QVERIFY(spec.constraints.empty());
  QVERIFY(viewport_->elementAt(at(run, QPoint(2, 2))) != "belt");
  window_->action("redo")->trigger();
  QCOMPARE(viewport_->elementAt(at(run, QPoint(2, 2))), QString("belt"));
  // The driven pulley turns at r1/r2 of the driver, as in the example.
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  clickAction(*window_, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    window_->selection()->set({{ElementKind::Constraint, "belt"}});
    QTest::qWait(300);
    window_->grab().save(shots + "/belt_drive.png");
  }
}

void TestBuildGears::beltOnTheSpatialJack() {
  // The 3-D belt of belt_screw_jack.rlx, taken away and added again from the Model menu with the
  // motor pulley selected: the dialog offers the motor's and the spindle's bearings with the
  // pulleys' cylinder radii (the spindle's is its shaft's; the user writes the pulley's, r2). The
  // belt is drawn in the plane of the motor pulley round the spindle's axis; a click a few pixels
  // off its near run picks it; undo and redo take it away and back with the selection and the
  // properties dock.
  QVERIFY(window_->openPath(QString::fromStdString(test::examplePath("belt_screw_jack.rlx"))));
  const Spec& spec = window_->document()->spec();
  // The near run's middle: the open belt's tangent between the 30 mm and 60 mm pulleys 0.25 m
  // apart touches them at -0.12 of the way back along the centres' line.
  const QVector3D run(-0.1305f, -0.0447f, 0.05f);
  QTest::qWait(100);
  const auto pickAt = [&](QPoint off) {
    window_->selection()->clear();
    QTest::mouseClick(viewport_, Qt::LeftButton, {}, at3(run, off));
    const ElementId* picked = window_->selection()->single();
    return picked ? QString::fromStdString(picked->name) : QString();
  };
  clickAction(*window_, "toolSelect");
  QCOMPARE(pickAt(QPoint(2, -1)), QString("belt"));
  window_->selection()->set({{ElementKind::Constraint, "belt"}});
  window_->action("delete")->trigger();
  QVERIFY(spec.constraints.empty());
  QVERIFY(pickAt(QPoint(2, -1)) != "belt");

  window_->selection()->set({{ElementKind::Body, "motor_pulley"}});
  QString fields;
  onNextModal<ElementDialog>([&fields](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "joints", "ratios"}) fields += d->field(key)->text() + " ";
    type(d->field("name"), "belt");
    type(d->field("ratios"), R"(["r1", "-r2"])");
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addCoupler");
  QCOMPARE(fields, QString(R"(coupler ["motor_bearing","spindle_bearing"] [0.03,-0.006] )"));
  QCOMPARE(spec.constraints.size(), std::size_t(1));
  QCOMPARE(spec.constraints.front().ratios.size(), std::size_t(2));
  QVERIFY(window_->document()->model().has_value());
  QTest::qWait(100);
  QCOMPARE(pickAt(QPoint(-2, 1)), QString("belt"));
  QVERIFY(propertiesShow(*window_, "ratios"));

  // Undo with the belt selected: gone from the spec, the viewport, the selection and the dock.
  window_->action("undo")->trigger();
  QVERIFY(spec.constraints.empty());
  QVERIFY(window_->selection()->isEmpty());
  QVERIFY(!propertiesShow(*window_, "ratios"));
  QVERIFY(pickAt(QPoint(-2, 1)) != "belt");
  window_->action("redo")->trigger();
  QCOMPARE(spec.constraints.size(), std::size_t(1));
  QCOMPARE(pickAt(QPoint(1, 2)), QString("belt"));
  QVERIFY(propertiesShow(*window_, "ratios"));

  // It runs as the example: the nut rises 10 mm in 2 s.
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  clickAction(*window_, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  const int nut = test::body(*window_->document()->model(), "nut").q;
  QVERIFY(std::abs(results.frames.back().state.q(nut + 2) - 0.21) < 1e-9);
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    window_->selection()->set({{ElementKind::Constraint, "belt"}});
    QTest::qWait(300);
    window_->grab().save(shots + "/belt_screw_jack.png");
  }
}

void TestBuildGears::camBetweenFollowerAndCam() {
  QVERIFY(window_->openPath(QString::fromStdString(test::examplePath("disk_cam_roller.rlx"))));
  const Spec& spec = window_->document()->spec();
  // The example's roller contact, picked a few pixels off the contact (0, r0 - rr), and deleted.
  clickAction(*window_, "toolSelect");
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at(QPointF(0.0, 0.04), QPoint(2, -1)));
  const ElementId* picked = window_->selection()->single();
  QVERIFY(picked && picked->name == "roller_contact");
  window_->action("delete")->trigger();
  QVERIFY(!jointNamed(spec, "roller_contact"));
  QVERIFY(window_->action("addCam")->isEnabled());

  // The follower clicked on its stem, the cam Ctrl-clicked in the model tree.
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at(QPointF(0.0, 0.12), QPoint(1, 3)));
  QVERIFY(window_->selection()->single() && window_->selection()->single()->name == "follower");
  ModelTree* tree = window_->modelTree();
  QTreeWidgetItem* cam = tree->itemOf({ElementKind::Body, "cam"});
  QVERIFY(cam);
  tree->scrollToItem(cam);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::ControlModifier, tree->visualItemRect(cam).center());
  QCOMPARE(window_->selection()->ids().size(), std::size_t(2));
  const int undoSteps = window_->document()->undoStack()->count();

  // Prefilled: the follower's origin on a circle of the cam through it. A curve of time is
  // explained; then a cam that lifts by 10 mm over half a turn and falls back.
  QStringList prefilled;
  onNextModal<ElementDialog>([&prefilled](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "body1", "body2", "curve2.x", "curve2.y", "curve2.closed"})
      prefilled << d->field(key)->text();
    type(d->field("curve2.x"), "0.05*sin(u) + t");
    clickOk(d);
    QVERIFY(d->isVisible());
    QVERIFY(formExplains(d, "curve2.x"));
    type(d->field("curve2.x"), "(0.05 + 0.005*(1 - cos(u)))*sin(u)");
    type(d->field("curve2.y"), "(0.05 + 0.005*(1 - cos(u)))*cos(u)");
    clickOk(d);
  });
  chooseFromModelMenu(*window_, "addCam");
  QCOMPARE(prefilled.join(" "), QString("point_on_curve follower cam 0.05*cos(u) 0.05*sin(u) true"));
  const JointSpec added = spec.joints.back();
  QCOMPARE(added.type, JointType::PointOnCurve);
  QVERIFY(added.curve2 && added.curve2->closed && added.curve2->x == "(0.05 + 0.005*(1 - cos(u)))*sin(u)");
  QVERIFY(window_->document()->model().has_value());
  QCOMPARE(window_->document()->undoStack()->count(), undoSteps + 1);

  // Selected, listed, its curve in the properties, picked on the cam's curve (the contact is
  // where the follower's guide is picked).
  const QString name = QString::fromStdString(added.name);
  QVERIFY(window_->selection()->single() && window_->selection()->single()->name == added.name);
  QVERIFY(tree->itemOf({ElementKind::Joint, added.name}));
  QVERIFY(propertiesShow(*window_, "curve2"));
  QCOMPARE(viewport_->elementAt(at(QPointF(0.055, 0.0), QPoint(-2, 2))), name);
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    QTest::qWait(300);
    window_->grab().save(shots + "/cam_added.png");
  }

  // Undo takes it away everywhere, redo brings it back.
  window_->action("undo")->trigger();
  QVERIFY(!jointNamed(spec, added.name));
  for (const ElementId& id : window_->selection()->ids()) QVERIFY(id.name != added.name);
  QVERIFY(!tree->itemOf({ElementKind::Joint, added.name}));
  QVERIFY(!propertiesShow(*window_, "curve2"));
  QVERIFY(viewport_->elementAt(at(QPointF(0.055, 0.0), QPoint(-2, 2))) != name);
  window_->action("redo")->trigger();
  QVERIFY(jointNamed(spec, added.name) && *jointNamed(spec, added.name) == added);
  QVERIFY(tree->itemOf({ElementKind::Joint, added.name}));
  QCOMPARE(viewport_->elementAt(at(QPointF(0.055, 0.0), QPoint(-2, 2))), name);

  // It runs: the follower rides the cam, 50 to 60 mm up.
  window_->selection()->clear();
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  clickAction(*window_, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  double low = 1, high = 0;
  for (const Frame& f : results.frames) {
    low = std::min(low, f.state.q(4));
    high = std::max(high, f.state.q(4));
  }
  QVERIFY2(std::abs(low - 0.05) < 1e-6 && std::abs(high - 0.06) < 1e-6,
           qPrintable(QString("%1 %2").arg(low).arg(high)));
}

int main(int argc, char* argv[]) {
  Viewport::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestBuildGears test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_build_gears.moc"
