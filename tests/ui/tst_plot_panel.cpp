// PlotPanel: kept runs (labels, shown runs, removal), channels from the tree into the current
// plot, the "Constraint and energy drift" view with hht and corrected-rk on the same model, the
// time cursor forwarded to every plot and clicks forwarded back; a run that fills an empty plot
// at once, the hints of empty plots, and the plots' share of the panel with the lists toggled.
// Screenshots of the panel go to $REULEAUX_SCREENSHOTS when it is set.
#include "plot/plot_panel.h"
#include "plot_test_runs.h"

#include <QDir>
#include <QGraphicsLineItem>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QSet>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
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

// A run of a driven crank, made up: its motion's effort is what a plot shows first.
RunSeries drivenRun() {
  RunSeries run;
  run.label = "kinematics";
  run.columns = {"t", "crank.x", "crank.angle", "crank_pin.tz", "drive.effort"};
  run.units = {"s", "m", "rad", "N·m", "N·m"};
  run.values.resize(11, 5);
  for (int k = 0; k <= 10; ++k) {
    const double t = 0.1 * k;
    run.values.row(k) << t, 0.05 * std::cos(t), t, std::sin(t), 2 * std::sin(t);
  }
  return run;
}

// The toolbar button of a panel's action named `text`.
QToolButton* toolButton(const PlotPanel& panel, const QString& text) {
  for (QToolButton* button : panel.findChildren<QToolButton*>())
    if (button->defaultAction() && button->defaultAction()->text() == text) return button;
  return nullptr;
}

// Double-clicks a channel in the tree as a person does: on its text, a few pixels in.
void doubleClickChannel(ChannelTree* tree, const QString& column) {
  QTreeWidgetItem* item = tree->itemOf(column);
  QVERIFY(item);
  tree->scrollToItem(item);
  const QRect rect = tree->visualItemRect(item);
  const QPoint at(rect.left() + 12, rect.center().y() + 1);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, at);
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
  void runFillsEmptyPlot();
  void emptyPlotHints();
  void plotsGetMostOfThePanel();
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
  // Ticking a run in the list shows it in the plots (the pendulum's x, y and angle).
  QCOMPARE(panel.currentPlot()->curveCount(), 3);
  list->item(0)->setCheckState(Qt::Checked);
  QVERIFY(panel.isRunShown(0));
  QCOMPARE(panel.currentPlot()->curveCount(), 6);
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
  // Activating a channel adds it to the current plot (after the run's x, y and angle); a second
  // plot becomes current.
  emit tree->itemActivated(omega, 0);
  QCOMPARE(panel.channelsOf(panel.plot(0)),
           QStringList({"pendulum.x", "pendulum.y", "pendulum.angle", "pendulum.omega"}));
  PlotView* second = panel.addPlot();
  panel.setCurrentPlot(second);
  emit tree->itemActivated(tree->itemOf("pin.fy"), 0);
  panel.addChannel(kEnergyDrift);
  QCOMPARE(panel.channelsOf(second), QStringList({"pin.fy", kEnergyDrift}));
  QCOMPARE(second->curveCount(), 2);
  QCOMPARE(panel.plot(0)->curveCount(), 4);
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

void TestPlotPanel::runFillsEmptyPlot() {
  // Without a motion: the first body's position, metres on the left, radians on the right.
  PlotPanel panel;
  panel.addRun(hhtRun());
  QCOMPARE(panel.channelsOf(panel.plot(0)),
           QStringList({"pendulum.x", "pendulum.y", "pendulum.angle"}));
  const PlotChart* chart = panel.plot(0)->plotChart();
  QCOMPARE(chart->curveCount(), 3);
  QCOMPARE(chart->yAxisCount(), 2);
  QCOMPARE(chart->yAxis(0)->titleText(), QString("pendulum.x, pendulum.y [m]"));
  QCOMPARE(chart->yAxis(1)->titleText(), QString("pendulum.angle [rad]"));
  // A plot with channels of the new run keeps them, the user's choice too.
  emit panel.plot(0)->removeChannelRequested("pendulum.x");
  panel.addChannel("pendulum.omega");
  panel.addRun(rkRun());
  QCOMPARE(panel.channelsOf(panel.plot(0)),
           QStringList({"pendulum.y", "pendulum.angle", "pendulum.omega"}));
  // A run of another model, with none of them: its motion's effort replaces them.
  panel.addRun(drivenRun());
  QCOMPARE(panel.channelsOf(panel.plot(0)), QStringList({"drive.effort"}));
  QCOMPARE(panel.plot(0)->curveCount(), 1);
  QCOMPARE(chart->yAxisCount(), 1);
  QCOMPARE(chart->yAxis(0)->titleText(), QString("drive.effort [N·m]"));
  QVERIFY(!panel.plot(0)->logY());
  // Emptied by the user, the plot takes the next run's choice again.
  emit panel.plot(0)->removeChannelRequested("drive.effort");
  panel.addRun(drivenRun());
  QCOMPARE(panel.channelsOf(panel.plot(0)), QStringList({"drive.effort"}));
  // A second plot with a channel of the run: the current plot stays as the user left it.
  emit panel.plot(0)->removeChannelRequested("drive.effort");
  panel.addChannel(panel.addPlot(), "crank.angle");
  panel.addRun(drivenRun());
  QVERIFY(panel.channelsOf(panel.plot(0)).isEmpty());
}

void TestPlotPanel::emptyPlotHints() {
  PlotPanel panel;
  panel.resize(1200, 700);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  // Before any run every plot says how to get results.
  for (PlotView* view : {panel.plot(0), panel.constraintDriftPlot(), panel.energyDriftPlot()}) {
    QVERIFY(view->isEmptyHintShown());
    QCOMPARE(view->emptyHint(), QString("Run the analysis to get results"));
  }
  auto* label = panel.plot(0)->viewport()->findChild<QLabel*>();
  QVERIFY(label && label->isVisible() && label->text() == panel.plot(0)->emptyHint());
  // A run fills the plot: no hint.
  panel.addRun(hhtRun());
  QVERIFY(!panel.plot(0)->isEmptyHintShown());
  QVERIFY(!label->isVisible());
  QVERIFY(!panel.energyDriftPlot()->isEmptyHintShown());
  // A new plot, empty: says to double-click a channel, and a double-click fills it.
  PlotView* second = panel.addPlot();
  panel.setCurrentPlot(second);
  QApplication::processEvents();
  QVERIFY(second->isEmptyHintShown());
  QCOMPARE(second->emptyHint(), QString("Double-click a channel to plot it, or drag it here"));
  doubleClickChannel(panel.channelTree(), "pendulum.omega");
  QCOMPARE(panel.channelsOf(second), QStringList({"pendulum.omega"}));
  QVERIFY(!second->isEmptyHintShown());
  // With the lists hidden the hint says where the channels are.
  emit second->removeChannelRequested("pendulum.omega");
  QTest::mouseClick(toolButton(panel, "Channels"), Qt::LeftButton);
  QCOMPARE(second->emptyHint(), QString("Show the Channels, then double-click one to plot it"));
  // No run ticked: says to tick one.
  panel.setRunShown(0, false);
  QCOMPARE(panel.plot(0)->emptyHint(), QString("Tick a run in the Runs list to show it"));
  QVERIFY(panel.plot(0)->isEmptyHintShown());
  // Clicks go through the hint to the plot.
  QSignalSpy activated(second, &PlotView::activated);
  QTest::mouseClick(second->viewport(), Qt::LeftButton, {}, second->viewport()->rect().center());
  QCOMPARE(activated.size(), 1);
  panel.clearRuns();
  QCOMPARE(second->emptyHint(), QString("Run the analysis to get results"));
}

void TestPlotPanel::plotsGetMostOfThePanel() {
  // A tall panel (the dock at the window's side): the lists below the plots, a third at most.
  PlotPanel panel;
  panel.addRun(hhtRun());
  panel.resize(520, 860);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QSplitter* splitter = panel.mainSplitter();
  QCOMPARE(splitter->orientation(), Qt::Vertical);
  QWidget* plots = splitter->widget(0);
  QWidget* lists = splitter->widget(1);
  QVERIFY2(plots->height() >= 0.6 * panel.height(), qPrintable(QString::number(plots->height())));
  QVERIFY2(lists->height() >= 140, qPrintable(QString::number(lists->height())));
  QVERIFY(panel.channelTree()->isVisible());
  QVERIFY(panel.plot(0)->height() > 400);
  // The Channels button hides the lists and gives their room to the plots, and brings them back.
  QToolButton* toggle = toolButton(panel, "Channels");
  QVERIFY(toggle && toggle->isChecked());
  const int before = plots->height();
  QTest::mouseClick(toggle, Qt::LeftButton, {}, toggle->rect().center() + QPoint(2, 1));
  QVERIFY(!panel.listsShown() && !toggle->isChecked());
  QCOMPARE(splitter->sizes().value(1), 0);
  QVERIFY(plots->height() > before + 100);
  QTest::mouseClick(toggle, Qt::LeftButton, {}, toggle->rect().center() - QPoint(2, 1));
  QVERIFY(panel.listsShown() && toggle->isChecked());
  QCOMPARE(plots->height(), before);
  // Wide (the dock below the viewport): the lists beside the plots, runs over channels.
  panel.resize(1500, 520);
  QApplication::processEvents();
  QCOMPARE(splitter->orientation(), Qt::Horizontal);
  QVERIFY2(plots->width() >= 0.7 * panel.width(), qPrintable(QString::number(plots->width())));
  QVERIFY(lists->width() >= 140);
  // Dragging the splitter to the edge collapses the lists too, and the button follows.
  QSplitterHandle* handle = splitter->handle(1);
  const QPoint grip = handle->rect().center() + QPoint(0, 7);
  QTest::mousePress(handle, Qt::LeftButton, {}, grip);
  QTest::mouseMove(handle, grip + QPoint(200, 0));
  QTest::mouseMove(handle, grip + QPoint(600, 0));
  QTest::mouseRelease(handle, Qt::LeftButton, {}, grip + QPoint(600, 0));
  QCOMPARE(splitter->sizes().value(1), 0);
  QVERIFY(!toggle->isChecked());
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
  // In a dock at the window's side: the lists below the plots.
  PlotPanel dock;
  dock.addRun(hhtRun());
  dock.resize(520, 860);
  dock.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dock));
  QCOMPARE(dock.mainSplitter()->orientation(), Qt::Vertical);
  QVERIFY(screenshot(dock, "plot_panel_tall.png") != plots);
}

QTEST_MAIN(TestPlotPanel)
#include "tst_plot_panel.moc"
