// The viewport on real widgets: it draws the examples (not blank; screenshots when
// REULEAUX_SCREENSHOTS names a folder), picks elements, builds with its tools, and a mouse drag
// on the four-bar's crank moves the mechanism with every joint closed.
#include "io/model_file.h"
#include "solve/assembly/assembly.h"
#include "solve/assembly/drag.h"
#include "solve/equations/constraints.h"
#include "solve/kinematics/kinematics.h"
#include "test_support.h"
#include "viewport/scene_sync.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;
using namespace rlx::ui;

namespace {

// max |Phi| over joint rows (motion rows are released while dragging).
double jointError(const Model& model, const State& state) {
  Workspace ws(model);
  evaluatePhi(model, state, ws);
  double worst = 0;
  for (Eigen::Index i = 0; i < model.nh; ++i) {
    bool motion = false;
    for (const Motion& m : model.motions) motion = motion || m.row == i;
    if (!motion) worst = std::max(worst, std::abs(ws.Phi(i)));
  }
  return worst;
}

// Two bars meeting at (0.2, 0) without a joint: bar1 from (0, 0), bar2 up to (0.2, 0.2).
constexpr const char* kTwoBars = R"({"reuleaux": 1, "dimension": 2, "bodies": [
  {"name": "bar1", "mass": 1, "inertia": 0.01, "position": [0.1, 0], "angle": 0,
   "shape": {"type": "bar", "length": 0.2, "width": 0.02}},
  {"name": "bar2", "mass": 1, "inertia": 0.01, "position": [0.2, 0.1], "angle": 1.5707963267948966,
   "shape": {"type": "bar", "length": 0.2, "width": 0.02}}]})";

// A spatial box of 0.2 m at the origin and a bar along x from its corner (0.1, 0.1, 0.1).
constexpr const char* kBoxAndBar = R"({"reuleaux": 1, "dimension": 3, "bodies": [
  {"name": "box1", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0, 0, 0],
   "shape": {"type": "box", "size": [0.2, 0.2, 0.2]}},
  {"name": "bar1", "mass": 1, "inertia": [0.001, 0.01, 0.01], "position": [0.25, 0.1, 0.1],
   "shape": {"type": "bar", "length": 0.3, "width": 0.02}}]})";

// A point `pixels` away from a world point on the screen, in the direction `degrees`.
QPoint beside(const Viewport& view, const Eigen::Vector3d& world, double pixels, double degrees) {
  const QPointF p = view.widgetPosOf(QVector3D(float(world.x()), float(world.y()), float(world.z())));
  const double a = degrees * std::numbers::pi / 180;
  return (p + pixels * QPointF(std::cos(a), std::sin(a))).toPoint();
}

// Colours in an image: a blank render has one or two (the background gradient is smooth).
int distinctColours(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return static_cast<int>(colours.size());
}

}  // namespace

class TestViewport : public QObject {
  Q_OBJECT

 public:
  static void initMain() { Viewport::setDefaultSurfaceFormat(); }

 private slots:
  void init();
  void cleanup();
  void drawsExamples_data();
  void drawsExamples();
  void picksJointsAndBodies();
  void dragOnTheCrankMovesTheFourBar();
  void barToolEmitsSnappedEnds();
  void revoluteToolNamesTheBodiesUnderThePoint();
  void pinFindsBarsBesideTheirEnds();
  void hoverMarkerShowsWhatAClickJoins();
  void barDrawnFromABarEndIsPinnedThere();
  void spatialPinJoinsBothSolidsAboutAPrincipalAxis();
  void buildingNeverMovesTheView();
  void escapeCancelsASpring();
  void showsReactionsTracesAndTime();
  void drawsASpatialSpecWithoutAModel();
  void barsStayAtLeastSixPixelsWide();
  void drawsTheSpatialSliderCrankAsOneChain();
  void drawsLinksThroughTheirJoints();
  void emptyModelShowsTheFirstSteps();

 private:
  void show(const std::string& example);
  void showSpec(const char* json);
  std::unique_ptr<Viewport> view_;
  Model model_;
};

void TestViewport::init() {
  view_ = std::make_unique<Viewport>();
  view_->resize(900, 640);
}

void TestViewport::cleanup() {
  view_.reset();
}

void TestViewport::show(const std::string& example) {
  const Spec spec = test::loadSpec(example.front() == '/' ? example : test::examplePath(example));
  model_ = test::compileOrFail(spec);
  view_->setModel(spec, &model_);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  view_->fitToModel();
}

void TestViewport::showSpec(const char* json) {
  const LoadResult loaded = readRlx(json, "test");
  QVERIFY(loaded.spec);
  model_ = test::compileOrFail(*loaded.spec);
  view_->setModel(*loaded.spec, &model_);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  view_->fitToModel();
}

void TestViewport::drawsExamples_data() {
  QTest::addColumn<QString>("file");
  QTest::newRow("slider_crank") << QString::fromStdString(test::examplePath("slider_crank.rlx"));
  QTest::newRow("four_bar") << QString::fromStdString(test::examplePath("four_bar.rlx"));
  QTest::newRow("double_four_bar")
      << QString::fromStdString(test::examplePath("double_four_bar.rlx"));
  QTest::newRow("stiff_spring_slider")
      << QString::fromStdString(test::testDataPath("stiff_spring_slider.rlx"));
}

void TestViewport::drawsExamples() {
  QFETCH(QString, file);
  show(file.toStdString());
  view_->setSelection({"coupler", "rod"});
  const QImage image = view_->grabFrame();
  QCOMPARE(image.size(), view_->size() * view_->devicePixelRatio());
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_" + QFileInfo(file).baseName() + ".png"));
  QVERIFY2(distinctColours(image) > 20, qPrintable(QString::number(distinctColours(image))));
}

void TestViewport::picksJointsAndBodies() {
  show("four_bar.rlx");
  const Eigen::Vector3d pin = bodyPointPosition(model_, model_.q0, 0, Eigen::Vector3d(-0.05, 0, 0));
  const QPointF pinPos = view_->widgetPosOf(QVector3D(float(pin.x()), float(pin.y()), 0.f));
  QCOMPARE(view_->elementAt(pinPos), QString("crank_pin"));
  // The middle of the coupler.
  const Eigen::Vector3d mid = bodyPointPosition(model_, model_.q0, 1, Eigen::Vector3d::Zero());
  const QPointF midPos = view_->widgetPosOf(QVector3D(float(mid.x()), float(mid.y()), 0.f));
  QSignalSpy clicked(view_.get(), &Viewport::elementClicked);
  QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::ControlModifier, midPos.toPoint());
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(clicked[0][0].toString(), QString("coupler"));
  QCOMPARE(clicked[0][1].toBool(), true);
  // Far from everything: an empty name.
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, QPoint(5, 5));
  QCOMPARE(clicked.count(), 2);
  QCOMPARE(clicked[1][0].toString(), QString());
}

void TestViewport::dragOnTheCrankMovesTheFourBar() {
  show("four_bar.rlx");
  QSignalSpy started(view_.get(), &Viewport::dragStarted);
  QSignalSpy finished(view_.get(), &Viewport::dragFinished);
  // Grab the crank 0.07 m from its pivot (0.02 m past its centre), between the two pins.
  const Eigen::Vector3d grab = bodyPointPosition(model_, model_.q0, 0, Eigen::Vector3d(0.02, 0, 0));
  QPoint pos = view_->widgetPosOf(QVector3D(float(grab.x()), float(grab.y()), 0.f)).toPoint();
  QTest::mousePress(view_.get(), Qt::LeftButton, {}, pos);
  QCOMPARE(started.count(), 1);
  QCOMPARE(started[0][0].toString(), QString("crank"));
  // Sweep the mouse from 45 to 135 degrees about the pivot in small steps.
  for (int deg = 50; deg <= 135; deg += 5) {
    const double a = deg * std::numbers::pi / 180;
    pos = view_->widgetPosOf(QVector3D(float(0.07 * std::cos(a)), float(0.07 * std::sin(a)), 0.f))
              .toPoint();
    QTest::mouseMove(view_.get(), pos);
  }
  QTest::mouseRelease(view_.get(), Qt::LeftButton, {}, pos);
  QCOMPARE(finished.count(), 1);
  const State state = finished[0][1].value<State>();
  QCOMPARE(state.q, view_->state().q);
  QVERIFY2(jointError(model_, state) < 1e-9,
           qPrintable(QString::number(jointError(model_, state))));
  // The crank now points where the mouse was: the grabbed point is on the ray to the mouse.
  const QVector3D mouse = view_->worldAt(pos);
  const double crankAngle = state.q(model_.bodies[0].q + 2);
  // Within a pixel (the grabbed point is 0.07 m from the pivot, a pixel about 1 mm).
  const double miss = std::remainder(crankAngle - std::atan2(double(mouse.y()), double(mouse.x())),
                                     2 * std::numbers::pi);
  const double pixel =
      double(view_->worldAt(QPointF(1, 0)).distanceToPoint(view_->worldAt(QPointF(0, 0))));
  QVERIFY2(std::abs(miss) < 2 * pixel / 0.07, qPrintable(QString::number(miss)));
  QVERIFY(std::abs(crankAngle - 135 * std::numbers::pi / 180) < 0.05);
  const QImage image = view_->grabFrame();
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_four_bar_dragged.png"));
}

void TestViewport::barToolEmitsSnappedEnds() {
  show("four_bar.rlx");
  view_->setTool(Tool::AddBar);
  QSignalSpy requested(view_.get(), &Viewport::bodyRequested);
  const QPoint a = view_->widgetPosOf(QVector3D(0.101f, 0.302f, 0.f)).toPoint();
  const QPoint b = view_->widgetPosOf(QVector3D(0.299f, 0.398f, 0.f)).toPoint();
  QTest::mousePress(view_.get(), Qt::LeftButton, {}, a);
  QTest::mouseMove(view_.get(), b);
  QTest::mouseRelease(view_.get(), Qt::LeftButton, {}, b);
  QCOMPARE(requested.count(), 1);
  const BodyRequest bar = requested[0][0].value<BodyRequest>();
  QCOMPARE(bar.kind, ShapeKind::Bar);
  QVERIFY(bar.startPin.isEmpty() && bar.endPin.isEmpty());
  const double s = view_->scene().gridSpacing();
  const double startX = static_cast<double>(bar.start.x()), endY = static_cast<double>(bar.end.y());
  // Snapped to the grid (the request's points are floats), at the grid points nearest the mouse.
  QCOMPARE_LT(std::abs(startX / s - std::round(startX / s)), 1e-6);
  QCOMPARE_LT(std::abs(startX - 0.1), s / 2 + 1e-6);
  QCOMPARE_LT(std::abs(endY - 0.4), s / 2 + 1e-6);
}

void TestViewport::revoluteToolNamesTheBodiesUnderThePoint() {
  show("four_bar.rlx");
  view_->setTool(Tool::AddRevolute);
  view_->setSnapToGrid(false);
  QSignalSpy requested(view_.get(), &Viewport::jointRequested);
  const Eigen::Vector3d mid = bodyPointPosition(model_, model_.q0, 1, Eigen::Vector3d::Zero());
  QTest::mouseClick(view_.get(), Qt::LeftButton, {},
                    view_->widgetPosOf(QVector3D(float(mid.x()), float(mid.y()), 0.f)).toPoint());
  QCOMPARE(requested.count(), 1);
  const JointRequest joint = requested[0][0].value<JointRequest>();
  QCOMPARE(joint.type, JointType::Revolute);
  QCOMPARE(joint.body1, QString("ground"));
  QCOMPARE(joint.body2, QString("coupler"));
}

void TestViewport::pinFindsBarsBesideTheirEnds() {
  showSpec(kTwoBars);
  view_->setTool(Tool::AddRevolute);
  QSignalSpy requested(view_.get(), &Viewport::jointRequested);
  // 9 pixels beside the shared end, in three directions: bar1 - bar2 at exactly (0.2, 0).
  for (double degrees : {-135.0, 20.0, 100.0}) {
    requested.clear();
    QTest::mouseClick(view_.get(), Qt::LeftButton, {}, beside(*view_, {0.2, 0, 0}, 9, degrees));
    QCOMPARE(requested.count(), 1);
    const JointRequest joint = requested[0][0].value<JointRequest>();
    QCOMPARE(joint.body1, QString("bar1"));
    QCOMPARE(joint.body2, QString("bar2"));
    QCOMPARE_LT((joint.at - QVector3D(0.2f, 0, 0)).length(), 1e-6f);
  }
  // Beside the free end of bar1: bar1 on ground.
  requested.clear();
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, beside(*view_, {0, 0, 0}, 8, 160));
  QCOMPARE(requested.count(), 1);
  QCOMPARE(requested[0][0].value<JointRequest>().body1, QString("ground"));
  QCOMPARE(requested[0][0].value<JointRequest>().body2, QString("bar1"));
  // Empty space: nothing, and the status bar says why.
  requested.clear();
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, beside(*view_, {0.05, 0.15, 0}, 0, 0));
  QCOMPARE(requested.count(), 0);
  QVERIFY2(view_->hint().contains("No body here"), qPrintable(view_->hint()));
}

void TestViewport::hoverMarkerShowsWhatAClickJoins() {
  showSpec(kTwoBars);
  view_->setMultiSamples(0);
  view_->setTool(Tool::AddRevolute);
  const QImage before = view_->grabFrame();
  const QPoint pos = beside(*view_, {0.2, 0, 0}, 7, 45);
  QTest::mouseMove(view_.get(), pos);
  QVERIFY2(view_->hint().contains("pin bar1 – bar2 here"), qPrintable(view_->hint()));
  // The ring is drawn around the snapped end, before any click.
  const QImage after = view_->grabFrame();
  const QPointF centre = view_->widgetPosOf(QVector3D(0.2f, 0, 0)) * view_->devicePixelRatioF();
  int changed = 0;
  for (int k = 0; k < 24; ++k) {
    const double a = 2 * std::numbers::pi * k / 24, r = 7 * view_->devicePixelRatioF();
    const QPoint p = (centre + QPointF(r * std::cos(a), r * std::sin(a))).toPoint();
    changed += before.pixel(p) != after.pixel(p);
  }
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(after.save(dir + "/viewport_hover_marker.png"));
  QVERIFY2(changed > 12, qPrintable(QString::number(changed)));
}

void TestViewport::barDrawnFromABarEndIsPinnedThere() {
  showSpec(kTwoBars);
  view_->setTool(Tool::AddBar);
  QSignalSpy requested(view_.get(), &Viewport::bodyRequested);
  const auto drawBar = [this] {
    const QPoint a = beside(*view_, {0.2, 0.2, 0}, 8, -60), b = beside(*view_, {0.4, 0.2, 0}, 5, 30);
    QTest::mousePress(view_.get(), Qt::LeftButton, {}, a);
    QTest::mouseMove(view_.get(), b);
    QTest::mouseRelease(view_.get(), Qt::LeftButton, {}, b);
  };
  drawBar();
  QCOMPARE(requested.count(), 1);
  BodyRequest bar = requested[0][0].value<BodyRequest>();
  QCOMPARE(bar.startPin, QString("bar2"));
  QVERIFY(bar.endPin.isEmpty());
  QCOMPARE_LT((bar.start - QVector3D(0.2f, 0.2f, 0)).length(), 1e-6f);
  // The option off: the same drag pins nothing.
  view_->setPinBarEnds(false);
  drawBar();
  QCOMPARE(requested.count(), 2);
  bar = requested[1][0].value<BodyRequest>();
  QVERIFY(bar.startPin.isEmpty());
}

void TestViewport::spatialPinJoinsBothSolidsAboutAPrincipalAxis() {
  showSpec(kBoxAndBar);
  view_->setTool(Tool::AddRevolute);
  QSignalSpy requested(view_.get(), &Viewport::jointRequested);
  // 6 pixels beside the corner the bar starts at: box1 - bar1 there.
  QTest::mouseMove(view_.get(), beside(*view_, {0.1, 0.1, 0.1}, 6, 200));
  QVERIFY2(view_->hint().contains("box1 – bar1"), qPrintable(view_->hint()));
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(view_->grabFrame().save(dir + "/viewport_hover_marker_3d.png"));
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, beside(*view_, {0.1, 0.1, 0.1}, 6, 200));
  QCOMPARE(requested.count(), 1);
  const JointRequest joint = requested[0][0].value<JointRequest>();
  QCOMPARE(joint.body1, QString("box1"));
  QCOMPARE(joint.body2, QString("bar1"));
  QCOMPARE_LT((joint.at - QVector3D(0.1f, 0.1f, 0.1f)).length(), 1e-6f);
  const QVector3D a = joint.axis;
  QCOMPARE(std::abs(a.x()) + std::abs(a.y()) + std::abs(a.z()), 1.0f);
  // On the middle of the box's top face: the face's normal, z.
  requested.clear();
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, beside(*view_, {-0.04, -0.05, 0.1}, 0, 0));
  QCOMPARE(requested.count(), 1);
  QCOMPARE(requested[0][0].value<JointRequest>().body1, QString("ground"));
  QCOMPARE(requested[0][0].value<JointRequest>().body2, QString("box1"));
  QCOMPARE(requested[0][0].value<JointRequest>().axis, QVector3D(0, 0, 1));
}

void TestViewport::buildingNeverMovesTheView() {
  showSpec(kTwoBars);
  const QPointF before = view_->widgetPosOf(QVector3D(0.2f, 0.2f, 0));
  // A new model (one more bar, a joint) keeps the camera.
  std::string json = kTwoBars;
  json.insert(json.rfind(']'), R"(, {"name": "bar3", "mass": 1, "inertia": 0.01, "position": [1.5, 1],
      "shape": {"type": "bar", "length": 1.0, "width": 0.02}})");
  const LoadResult loaded = readRlx(json, "test");
  QVERIFY(loaded.spec);
  const Model bigger = test::compileOrFail(*loaded.spec);
  view_->setModel(*loaded.spec, &bigger);
  QCOMPARE(view_->widgetPosOf(QVector3D(0.2f, 0.2f, 0)), before);
}

void TestViewport::escapeCancelsASpring() {
  show("four_bar.rlx");
  view_->setTool(Tool::AddSpring);
  view_->setSnapToGrid(false);
  QSignalSpy requested(view_.get(), &Viewport::springRequested);
  QSignalSpy cancelled(view_.get(), &Viewport::toolCancelled);
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, QPoint(100, 100));
  QTest::keyClick(view_.get(), Qt::Key_Escape);
  QCOMPARE(cancelled.count(), 1);
  // After Escape the next two clicks make a new spring, from the second click.
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, QPoint(200, 200));
  QCOMPARE(requested.count(), 0);
  QTest::mouseClick(view_.get(), Qt::LeftButton, {}, QPoint(300, 200));
  QCOMPARE(requested.count(), 1);
  QCOMPARE(requested[0][0].toString(), QString("ground"));
  const float dx = requested[0][1].value<QVector3D>().x() - view_->worldAt(QPointF(200, 200)).x();
  QVERIFY2(std::abs(dx) < 1e-3f, qPrintable(QString::number(double(dx))));
}

void TestViewport::showsReactionsTracesAndTime() {
  show("slider_crank.rlx");
  // Half a turn of the driven crank: frames with multipliers.
  Workspace ws(model_);
  State state{0.0, model_.q0, model_.v0};
  QVERIFY(assemble(model_, state, ws).ok());
  Results results;
  KinematicsOptions options;
  options.endTime = 0.5;
  options.outputStep = 0.01;
  runKinematics(model_, state, ws, options, results);
  QVERIFY(results.report.ok());
  const int last = static_cast<int>(results.frames.size()) - 1;
  view_->setTraces(
      {TracePoint{"rod", QVector3D(0, 0, 0)}, TracePoint{"crank", QVector3D(0.075f, 0, 0)}});
  view_->setTraceHistory(&results.frames, last);
  view_->setShowReactions(true);
  view_->setReactionScale(0.004);
  const QImage before = view_->grabFrame();
  view_->setFrame(results.frames[static_cast<std::size_t>(last)]);
  QCOMPARE(view_->state().t, results.frames.back().state.t);
  const QImage image = view_->grabFrame();
  QVERIFY(image != before);
  // The reaction arrows are red: count strongly red pixels.
  int red = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      red += c.red() > 180 && c.green() < 80 && c.blue() < 80;
    }
  QVERIFY2(red > 200, qPrintable(QString::number(red)));
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_slider_crank_reactions_traces.png"));
  // Hiding the reactions removes the red.
  view_->setShowReactions(false);
  const QImage hidden = view_->grabFrame();
  int redHidden = 0;
  for (int y = 0; y < hidden.height(); ++y)
    for (int x = 0; x < hidden.width(); ++x) {
      const QColor c = hidden.pixelColor(x, y);
      redHidden += c.red() > 180 && c.green() < 80 && c.blue() < 80;
    }
  QVERIFY(redHidden < red / 10);
}

void TestViewport::drawsASpatialSpecWithoutAModel() {
  // A spatial spec whose model is not available: bodies at their spec positions, 3-D camera.
  Spec spec;
  spec.dimension = 3;
  BodySpec box;
  box.name = "box";
  box.position = {0.0, 0.0, 0.2};
  box.shape.type = "box";
  box.shape.size = Vector{0.4, 0.2, 0.1};
  spec.bodies.push_back(box);
  BodySpec ball = box;
  ball.name = "ball";
  ball.position = {0.5, 0.0, 0.2};
  ball.shape = ShapeSpec{};
  ball.shape.type = "sphere";
  ball.shape.radius = 0.1;
  spec.bodies.push_back(ball);
  view_->setModel(spec, nullptr);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  QCOMPARE(view_->viewMode(), ViewMode::Spatial);
  const QImage image = view_->grabFrame();
  QVERIFY(distinctColours(image) > 20);
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_spatial.png"));
  // Picking in 3-D goes through VTK's cell picker: the ball is where it is drawn.
  const QPointF at = view_->widgetPosOf(QVector3D(0.5f, 0.f, 0.2f));
  QCOMPARE(view_->elementAt(at), QString("ball"));
}

void TestViewport::barsStayAtLeastSixPixelsWide() {
  // A hair-thin bar (0.5 mm) on a ground pin, zoomed out by ten wheel notches.
  Spec spec;
  BodySpec bar;
  bar.name = "thin";
  bar.shape.type = "bar";
  bar.shape.length = 0.3;
  bar.shape.width = 0.0005;
  spec.bodies.push_back(bar);
  JointSpec pin;
  pin.name = "pivot";
  pin.body2 = "thin";
  pin.at = Vector{-0.15, 0.0};
  spec.joints.push_back(pin);
  model_ = test::compileOrFail(spec);
  view_->setModel(spec, &model_);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  view_->fitToModel();
  const QPointF centre(view_->width() / 2.0, view_->height() / 2.0);
  for (int notch = 0; notch < 10; ++notch) {
    QWheelEvent wheel(centre, view_->mapToGlobal(centre), {}, QPoint(0, -120), Qt::NoButton, {},
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(view_.get(), &wheel);
  }
  const QImage image = view_->grabFrame();
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_thin_bar.png"));
  // Blue pixels (the body's fill and edge) across the bar, 0.08 m right of its centre.
  const QPointF across = view_->widgetPosOf(QVector3D(0.08f, 0.f, 0.f));
  const double dpr = image.devicePixelRatio();
  int blue = 0;
  for (int y = int((across.y() - 15) * dpr); y <= int((across.y() + 15) * dpr); ++y) {
    const QColor c = image.pixelColor(int(across.x() * dpr), y);
    blue += c.blue() - c.red() > 40;
  }
  QVERIFY2(blue >= int(6 * dpr), qPrintable(QString::number(blue)));
  // What is drawn is what is clicked: 2 pixels off the centre line still picks the bar.
  QSignalSpy clicked(view_.get(), &Viewport::elementClicked);
  QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::ControlModifier,
                    (across + QPointF(0, 2)).toPoint());
  QCOMPARE(clicked.count(), 1);
  QCOMPARE(clicked[0][0].toString(), QString("thin"));
}

void TestViewport::drawsTheSpatialSliderCrankAsOneChain() {
  // Crank, rod and slider touch: the rod runs from the crank pin to the slider (not along z),
  // the crank from its pivot to its pin (along y, not x).
  show("spatial_slider_crank.rlx");
  const QImage image = view_->grabFrame();
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_spatial_slider_crank.png"));
  // Points inside each solid, in the file's configuration: the picker names their bodies.
  QCOMPARE(view_->elementAt(view_->widgetPosOf(QVector3D(0.f, 0.06f, 0.f))), QString("crank"));
  // (The slide's guide runs along the rod's far half, nearly parallel to it.)
  QCOMPARE(view_->elementAt(view_->widgetPosOf(QVector3D(0.03f, 0.0820f, 0.f))), QString("rod"));
  QCOMPARE(view_->elementAt(view_->widgetPosOf(QVector3D(0.06f, 0.0840f, 0.f))), QString("rod"));
  QCOMPARE(view_->elementAt(view_->widgetPosOf(QVector3D(0.15f, 0.09f, 0.1f))), QString());
}

void TestViewport::drawsLinksThroughTheirJoints() {
  // A shapeless plate with three pins, a bar between two pins one above the other (no axis),
  // and a bar with one pin and an explicit vertical axis.
  showSpec(R"({"reuleaux": 1, "dimension": 2,
    "bodies": [{"name": "plate"},
               {"name": "rod", "position": [0.2, 0.2], "shape": {"type": "bar", "length": 0.4, "width": 0.03}},
               {"name": "arm", "position": [-0.3, 0.25],
                "shape": {"type": "bar", "length": 0.2, "width": 0.03, "axis": [0, 1]}}],
    "joints": [{"name": "p1", "type": "revolute", "body1": "ground", "body2": "plate", "at": [-0.2, 0]},
               {"name": "p2", "type": "revolute", "body1": "plate", "body2": "rod", "at": [0.2, 0]},
               {"name": "p3", "type": "revolute", "body1": "plate", "body2": "arm", "at": [0, 0.25]},
               {"name": "p4", "type": "revolute", "body1": "ground", "body2": "rod", "at": [0.2, 0.4]}]})");
  const QImage image = view_->grabFrame();
  if (const QString dir = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !dir.isEmpty())
    QVERIFY(image.save(dir + "/viewport_links.png"));
  // Ctrl-clicks inside the plate's triangle, on the vertical rod and on the vertical arm.
  QSignalSpy clicked(view_.get(), &Viewport::elementClicked);
  const auto click = [&](float x, float y) {
    QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::ControlModifier,
                      view_->widgetPosOf(QVector3D(x, y, 0.f)).toPoint());
    return clicked.isEmpty() ? QString() : clicked.takeLast()[0].toString();
  };
  QCOMPARE(click(0.f, 0.1f), QString("plate"));
  QCOMPARE(click(0.2f, 0.3f), QString("rod"));
  QCOMPARE(click(-0.3f, 0.33f), QString("arm"));
}

// Dark guide text in the middle third of a frame (the grid and background are light).
static int darkPixelsInTheMiddle(const QImage& image) {
  int dark = 0;
  for (int y = image.height() / 3; y < 2 * image.height() / 3; ++y)
    for (int x = image.width() / 4; x < 3 * image.width() / 4; ++x)
      dark += qGray(image.pixel(x, y)) < 140;
  return dark;
}

void TestViewport::emptyModelShowsTheFirstSteps() {
  Spec empty;
  empty.dimension = 2;
  view_->setModel(empty, nullptr);
  view_->show();
  QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  QVERIFY(view_->scene().showsEmptyGuide());
  QVERIFY2(view_->hint().contains("Add Bar"), qPrintable(view_->hint()));
  const int guide = darkPixelsInTheMiddle(view_->grabFrame());
  QVERIFY2(guide > 500, qPrintable(QString::number(guide)));

  // The first body: the guide gives way to the mechanism.
  Spec withBar = empty;
  withBar.bodies.push_back(BodySpec{});
  withBar.bodies.back().name = "bar1";
  view_->setModel(withBar, nullptr);
  QVERIFY(!view_->scene().showsEmptyGuide());
  QVERIFY(!view_->hint().contains("Empty model"));
  // (only the new body's small outline and centre mark are left there)
  const int body = darkPixelsInTheMiddle(view_->grabFrame());
  QVERIFY2(body < guide / 4, qPrintable(QString("%1 against %2").arg(body).arg(guide)));
}

QTEST_MAIN(TestViewport)

#include "tst_viewport.moc"

