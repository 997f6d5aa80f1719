// A user builds three linkages from an empty model with the mouse, on the real main window at
// 1600x1000: a four-bar, a slider-crank (a slider on a ground guide) and a Watt six-bar. Every
// click and drag is aimed at the point the person means, computed once from that world point,
// and lands up to 8 pixels beside it in a different direction each time. Each linkage gets a
// motion, is assembled and run, a channel is plotted, and the saved file must equal its
// reference. The number of gestures (clicks and drags) each build takes is checked.

#include "test_support.h"
#include "ui_gestures.h"

#include <QSignalSpy>
#include <QTemporaryDir>

#include <array>
#include <memory>

using namespace rlx;
using namespace rlx::ui;
using namespace rlx::ui::gestures;

namespace {

// Dark pixels where the viewport writes the time ("t = 1.000 s", bottom left).
int timeTextPixels(const QImage& image) {
  int dark = 0;
  for (int y = image.height() - 45; y < image.height(); ++y)
    for (int x = 0; x < 200; ++x) dark += qGray(image.pixel(x, y)) < 100;
  return dark;
}

}  // namespace

class TestBuildLinkages : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init();
  void cleanup();
  void fourBar();
  void sliderCrank();
  void wattSixBar();

 private:
  // Where a person's click for a world point lands: up to 8 pixels off, never twice the same.
  QPoint aim(QPointF world);
  void click(QPointF world);
  void drawBar(QPointF from, QPointF to);
  void tool(const char* name) { clickAction(*window_, name); }
  // Motion on `crankPin`, kinematics over 1 s, run, plot `channel` ("bar1.angle"), save, compare.
  void driveRunPlotSave(const QString& crankPin, const QString& channel, const std::string& reference);

  std::unique_ptr<QTemporaryDir> dir_;
  std::unique_ptr<MainWindow> window_;
  Viewport* viewport_ = nullptr;
  int gestures_ = 0;
  int aimed_ = 0;
};

void TestBuildLinkages::init() {
  dir_ = std::make_unique<QTemporaryDir>();
  window_ = std::make_unique<MainWindow>(dir_->path() + "/recovery");
  window_->viewport()->setMultiSamples(0);
  window_->resize(1600, 1000);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  tool("new");
  viewport_ = window_->viewport();
  gestures_ = 0;
  QTest::qWait(100);
}

void TestBuildLinkages::cleanup() {
  window_.reset();
  dir_.reset();
}

QPoint TestBuildLinkages::aim(QPointF world) {
  // Eight offsets of 5 to 8 pixels, all around.
  static const std::array<QPoint, 8> offsets{QPoint(8, 0),  QPoint(-5, 6), QPoint(3, -7), QPoint(-6, -5),
                                             QPoint(0, 8),  QPoint(5, 5),  QPoint(-8, 0), QPoint(4, -6)};
  const QPointF ideal = viewport_->widgetPosOf(QVector3D(float(world.x()), float(world.y()), 0));
  return ideal.toPoint() + offsets[static_cast<std::size_t>(aimed_++) % offsets.size()];
}

void TestBuildLinkages::click(QPointF world) {
  const QPoint at = aim(world);
  QTest::mouseMove(viewport_, at);
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, at);
  ++gestures_;
}

void TestBuildLinkages::drawBar(QPointF from, QPointF to) {
  const QPoint a = aim(from), b = aim(to);
  input::dragPixels(viewport_, a, b);
  ++gestures_;
}

void TestBuildLinkages::driveRunPlotSave(const QString& crankPin, const QString& channel,
                                         const std::string& reference) {
  tool("toolSelect");
  addMotion(*window_, crankPin, "2*pi*t");
  QCOMPARE(window_->document()->spec().motions.size(), std::size_t(1));
  setKinematics(*window_, "1", "0.01");
  QVERIFY(window_->document()->model().has_value());

  // Run: the analysis assembles the model, then steps through the second.
  QSignalSpy completed(window_.get(), &MainWindow::runCompleted);
  tool("run");
  QVERIFY(completed.wait(60000));
  const Results& results = window_->runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QCOMPARE(results.frames.size(), std::size_t(101));

  plotChannel(*window_, channel.section('.', 0, 0), channel.section('.', 1));
  QVERIFY(window_->plots()->channelsOf(window_->plots()->currentPlot()).contains(channel));

  const QString saved = dir_->filePath("built.rlx");
  saveThroughDialog(*window_, saved);
  QCOMPARE(window_->document()->filePath(), saved);
  QVERIFY(sameModel(saved, rlx::test::testDataPath(reference)));

  // REULEAUX_SCREENSHOTS=DIR keeps a picture of the window after the run.
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty())
    window_->grab().save(shots + "/built_" + QString::fromStdString(reference).section('.', 0, 0) + ".png");
}

void TestBuildLinkages::fourBar() {
  // A crank-rocker: crank A-B, coupler B-C, rocker D-C.
  const QPointF A(-0.2, -0.1), B(-0.2, 0.05), C(0.1, 0.2), D(0.15, -0.1);
  tool("toolBar");
  drawBar(A, B);
  drawBar(B, C);  // pinned to bar1 at B
  drawBar(D, C);  // pinned to bar2 at C
  const Spec& spec = window_->document()->spec();
  QCOMPARE(spec.bodies.size(), std::size_t(3));
  QCOMPARE(spec.joints.size(), std::size_t(2));

  // One undo step takes a bar with its pin, redo brings both back. (Undo with the undone body
  // selected is the editing tests' matter.)
  window_->selection()->clear();
  window_->action("undo")->trigger();
  QCOMPARE(window_->document()->spec().bodies.size(), std::size_t(2));
  QCOMPARE(window_->document()->spec().joints.size(), std::size_t(1));
  window_->action("redo")->trigger();
  QCOMPARE(window_->document()->spec().joints.size(), std::size_t(2));

  // The two ground pins at the free ends; a click on empty space joins nothing.
  tool("toolRevolute");
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    // What the user sees before the first ground pin: the ring and its label at A.
    QTest::mouseMove(viewport_, aim(A));
    QTest::qWait(100);
    window_->grab().save(shots + "/building_four_bar_hover.png");
  }
  click(A);
  click(D);
  QCOMPARE(window_->document()->spec().joints.size(), std::size_t(4));
  QTest::mouseClick(viewport_, Qt::LeftButton, {}, aim(QPointF(-0.05, -0.2)));
  QCOMPARE(window_->document()->spec().joints.size(), std::size_t(4));
  QVERIFY2(viewport_->hint().contains("No body here"), qPrintable(viewport_->hint()));
  qInfo("four-bar: %d gestures (drags and clicks)", gestures_);
  QCOMPARE(gestures_, 5);
  driveRunPlotSave("pin3", "bar3.angle", "ui_built_linkage_four_bar.rlx");

  // File > New clears the run's time text from the viewport.
  QVERIFY(timeTextPixels(viewport_->grabFrame()) > 20);
  tool("new");
  QCOMPARE(timeTextPixels(viewport_->grabFrame()), 0);
}

void TestBuildLinkages::sliderCrank() {
  // A slider at S on a ground guide along x, a crank O-A and a rod A-S.
  const QPointF S(0.25, 0), O(-0.1, 0), A(-0.1, 0.1);
  tool("toolBox");
  click(S);
  tool("toolTranslational");
  click(S);
  QCOMPARE(window_->document()->spec().joints.size(), std::size_t(1));
  tool("toolBar");
  drawBar(O, A);
  tool("toolRevolute");
  click(O);
  tool("toolBar");
  drawBar(A, S);  // pinned to the crank at A and to the slider at S
  const Spec& spec = window_->document()->spec();
  QCOMPARE(spec.bodies.size(), std::size_t(3));
  QCOMPARE(spec.joints.size(), std::size_t(4));
  qInfo("slider-crank: %d gestures (drags and clicks)", gestures_);
  QCOMPARE(gestures_, 5);
  driveRunPlotSave("pin1", "box1.x", "ui_built_slider_crank.rlx");
}

void TestBuildLinkages::wattSixBar() {
  // Two four-bars in series sharing the ternary rocker P-Q, pivoted on ground at its centre M:
  // crank O1-A, coupler A-P; then Q-C and the output rocker O3-C.
  const QPointF P(0, 0.15), Q(0, -0.15), M(0, 0), O1(-0.3, 0), A(-0.3, 0.1), O3(0.35, 0), C(0.3, -0.2);
  tool("toolBar");
  drawBar(P, Q);
  tool("toolRevolute");
  click(M);  // the bar's centre
  tool("toolBar");
  drawBar(O1, A);
  tool("toolRevolute");
  click(O1);
  tool("toolBar");
  drawBar(A, P);
  drawBar(O3, C);
  tool("toolRevolute");
  click(O3);
  tool("toolBar");
  drawBar(Q, C);
  const Spec& spec = window_->document()->spec();
  QCOMPARE(spec.bodies.size(), std::size_t(5));
  QCOMPARE(spec.joints.size(), std::size_t(7));
  qInfo("Watt six-bar: %d gestures (drags and clicks)", gestures_);
  QCOMPARE(gestures_, 8);
  driveRunPlotSave("pin2", "bar4.angle", "ui_built_watt_six_bar.rlx");
}

int main(int argc, char* argv[]) {
  Viewport::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestBuildLinkages test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_build_linkages.moc"
