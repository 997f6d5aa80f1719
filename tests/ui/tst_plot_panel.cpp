// PlotPanel: kept runs (labels, shown runs, removal), channels from the tree into the current
// plot, the "Constraint and energy drift" view with hht and corrected-rk on the same model, the
// time cursor forwarded to every plot and clicks forwarded back. Screenshots of the panel go to
// $REULEAUX_SCREENSHOTS when it is set.
#include "plot/plot_panel.h"
#include "plot_test_runs.h"

#include <QDir>
#include <QGraphicsLineItem>
#include <QLineSeries>
#include <QListWidget>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include <cmath>

using namespace rlx;
using namespace rlx::ui;

namespace {

// The pendulum's first 2 s with one integrator.
RunSeries pendulumRun(const std::string& integrator) {
  const test::ExampleRun r = test::runExample("simple_pendulum.rlx", integrator, 2.0);
  return runSeriesFromResults(r.model, r.results);
}

const RunSeries& hhtRun() {
  static const RunSeries run = pendulumRun("hht");
  return run;
}

const RunSeries& rkRun() {
  static const RunSeries run = pendulumRun("corrected-rk");
  return run;
}

QStringList seriesNames(const PlotView* view) {
  QStringList names;
  for (const QAbstractSeries* s : view->chart()->series()) names.append(s->name());
  return names;
}

// Saves a grab of the widget when $REULEAUX_SCREENSHOTS names a folder; returns the image.
QImage screenshot(QWidget& widget, const QString& name) {
  const QImage image = widget.grab().toImage();
  const QString folder = qEnvironmentVariable("REULEAUX_SCREENSHOTS");
  if (!folder.isEmpty()) image.save(QDir(folder).filePath(name));
  return image;
}

}  // namespace

class TestPlotPanel : public QObject {
  Q_OBJECT
 private slots:
  void driftViewOverlaysRuns();
  void keptRuns();
  void channelsToCurrentPlot();
  void cursorAndClicks();
  void screenshots();
};

void TestPlotPanel::driftViewOverlaysRuns() {
  PlotPanel panel;
  panel.addRun(hhtRun());
  panel.addRun(rkRun());
  // One curve per run per quantity, on log scales, each named by its run.
  PlotView* constraint = panel.constraintDriftPlot();
  PlotView* energy = panel.energyDriftPlot();
  QCOMPARE(constraint->curveCount(), 2);
  QCOMPARE(energy->curveCount(), 2);
  QVERIFY(constraint->logY() && energy->logY());
  const QStringList names = seriesNames(constraint);
  QVERIFY2(names[0].startsWith("|constraint_error| — hht h=0.001"), qPrintable(names[0]));
  QVERIFY2(names[1].startsWith("|constraint_error| — corrected-rk h=0.001"), qPrintable(names[1]));
  QVERIFY(seriesNames(energy)[0].startsWith("|energy_drift| — hht"));
  QVERIFY(seriesNames(energy)[1].startsWith("|energy_drift| — corrected-rk"));
  // The curves are the runs' own numbers: |energy_drift| of each run at t = 1.5.
  const auto plotted = [](PlotView* view, int curve, int frame) {
    return view->plotChart()->plottedPoints(curve)[frame].y();
  };
  QCOMPARE(plotted(energy, 0, 150), std::abs(hhtRun().channel(kEnergyDrift)(150)));
  QCOMPARE(plotted(energy, 1, 150), std::abs(rkRun().channel(kEnergyDrift)(150)));
  QCOMPARE(plotted(constraint, 1, 150), std::abs(rkRun().channel("constraint_error")(150)));
  // The two integrators differ: the energy-corrected RK drifts far less than HHT.
  QVERIFY(plotted(energy, 1, 150) < plotted(energy, 0, 150));
  // A third run adds a third curve to each; removing one takes it away.
  panel.addRun(hhtRun());
  QCOMPARE(energy->curveCount(), 3);
  panel.removeRun(0);
  QCOMPARE(constraint->curveCount(), 2);
  QVERIFY(seriesNames(constraint)[0].contains("corrected-rk"));
  panel.showDriftView();
  QCOMPARE(panel.findChild<QTabWidget*>()->currentIndex(), 1);
}

void TestPlotPanel::keptRuns() {
  PlotPanel panel;
  panel.addRun(hhtRun());
  panel.addRun(hhtRun());
  panel.addRun(rkRun());
  // Unique labels; the newest shown, earlier ones kept but hidden.
  QCOMPARE(panel.runCount(), 3);
  QCOMPARE(panel.run(0).label, QString("hht h=0.001"));
  QCOMPARE(panel.run(1).label, QString("hht h=0.001 (2)"));
  QVERIFY(!panel.isRunShown(0) && !panel.isRunShown(1) && panel.isRunShown(2));
  auto* list = panel.findChild<QListWidget*>();
  QCOMPARE(list->count(), 3);
  QCOMPARE(list->item(2)->checkState(), Qt::Checked);
  // Ticking a run in the list shows it in the plots.
  panel.addChannel("pendulum.angle");
  QCOMPARE(panel.currentPlot()->curveCount(), 1);
  list->item(0)->setCheckState(Qt::Checked);
  QVERIFY(panel.isRunShown(0));
  QCOMPARE(panel.currentPlot()->curveCount(), 2);
  // At most kMaxRuns, the oldest dropped.
  for (int i = 0; i < PlotPanel::kMaxRuns; ++i) panel.addRun(rkRun());
  QCOMPARE(panel.runCount(), PlotPanel::kMaxRuns);
  QCOMPARE(panel.energyDriftPlot()->curveCount(), PlotPanel::kMaxRuns);
  panel.clearRuns();
  QCOMPARE(panel.runCount(), 0);
  QCOMPARE(panel.currentPlot()->curveCount(), 0);
  QCOMPARE(panel.channelTree()->channels().size(), 0);
}

void TestPlotPanel::channelsToCurrentPlot() {
  PlotPanel panel;
  panel.addRun(hhtRun());
  // The tree: every column but t, grouped, with the derived energy drift and units.
  ChannelTree* tree = panel.channelTree();
  QCOMPARE(tree->channels().size(), hhtRun().columns.size());  // - t + energy_drift
  QTreeWidgetItem* omega = tree->itemOf("pendulum.omega");
  QVERIFY(omega);
  QCOMPARE(omega->text(1), QString("rad/s"));
  QCOMPARE(omega->parent()->text(0), QString("pendulum"));
  QCOMPARE(omega->parent()->parent()->text(0), QString("Bodies"));
  QCOMPARE(tree->itemOf("pin.fy")->parent()->parent()->text(0), QString("Joints"));
  QCOMPARE(tree->itemOf(kEnergyDrift)->parent()->text(0), QString("Energy"));
  QCOMPARE(tree->itemOf("constraint_error")->parent()->text(0), QString("Constraint errors"));
  // Activating a channel adds it to the current plot; a second plot becomes current.
  emit tree->itemActivated(omega, 0);
  QCOMPARE(panel.channelsOf(panel.plot(0)), QStringList({"pendulum.omega"}));
  PlotView* second = panel.addPlot();
  panel.setCurrentPlot(second);
  emit tree->itemActivated(tree->itemOf("pin.fy"), 0);
  panel.addChannel(kEnergyDrift);
  QCOMPARE(panel.channelsOf(second), QStringList({"pin.fy", kEnergyDrift}));
  QCOMPARE(second->curveCount(), 2);
  QCOMPARE(panel.plot(0)->curveCount(), 1);
  // A drift channel starting a plot switches it to log scale.
  PlotView* third = panel.addPlot();
  panel.addChannel(third, "constraint_error");
  QVERIFY(third->logY());
  // The plot's context menu removes a channel; removing a plot keeps the others.
  emit second->removeChannelRequested("pin.fy");
  QCOMPARE(panel.channelsOf(second), QStringList({kEnergyDrift}));
  panel.removePlot(third);
  QCOMPARE(panel.plotCount(), 2);
  // Filtering the tree hides what does not match.
  tree->setFilter("omega");
  QVERIFY(!tree->itemOf("pendulum.omega")->isHidden());
  QVERIFY(tree->itemOf("pin.fy")->isHidden());
  QVERIFY(tree->itemOf("pin.fy")->parent()->parent()->isHidden());
}

void TestPlotPanel::cursorAndClicks() {
  PlotPanel panel;
  panel.addRun(hhtRun());
  panel.addChannel("pendulum.angle");
  panel.addPlot();
  panel.addChannel(panel.plot(1), "pin.fy");
  panel.resize(1200, 800);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  // The cursor reaches every plot, the drift plots too.
  panel.setCursorTime(0.75);
  for (PlotView* view : {panel.plot(0), panel.plot(1), panel.constraintDriftPlot()}) {
    QCOMPARE(view->plotChart()->cursorTime(), 0.75);
  }
  const PlotChart* chart = panel.plot(1)->plotChart();
  QVERIFY(chart->cursorLine()->isVisible());
  QVERIFY(std::abs(chart->xAt(chart->cursorLine()->line().p1()) - 0.75) < 1e-9);
  // A new run keeps the cursor where it is.
  panel.addRun(rkRun());
  QCOMPARE(panel.plot(0)->plotChart()->cursorTime(), 0.75);
  // A click in a plot comes out of the panel.
  QSignalSpy clicked(&panel, &PlotPanel::timeClicked);
  PlotView* view = panel.plot(1);
  const QRectF area = view->plotChart()->plotArea();
  const QPoint at = view->mapFromScene(view->plotChart()->mapToScene(area.center()));
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  QCOMPARE(clicked.size(), 1);
  QVERIFY(std::abs(clicked.front().at(0).toDouble() - 1.0) < 2.0 / area.width() * 2.0);
  QCOMPARE(panel.currentPlot(), view);
}

void TestPlotPanel::screenshots() {
  // The panel as a user sees it after comparing two integrators.
  PlotPanel panel;
  panel.addRun(hhtRun());
  panel.addRun(rkRun());
  panel.setRunShown(0, true);
  panel.addChannel("pendulum.angle");
  panel.addPlot();
  panel.addChannel(panel.plot(1), "pin.fy");
  panel.resize(1400, 860);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  panel.setCursorTime(0.8);
  QApplication::processEvents();
  const QImage plots = screenshot(panel, "plot_panel.png");
  panel.showDriftView();
  QApplication::processEvents();
  const QImage drift = screenshot(panel, "plot_drift_view.png");
  // Not blank: many colours, and the two views differ.
  for (const QImage& image : {plots, drift}) {
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 3)
      for (int x = 0; x < image.width(); x += 3) colors.insert(image.pixel(x, y));
    QVERIFY2(colors.size() > 100, qPrintable(QString::number(colors.size())));
  }
  QVERIFY(plots != drift);
}

QTEST_MAIN(TestPlotPanel)
#include "tst_plot_panel.moc"
