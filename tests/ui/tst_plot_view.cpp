// PlotView and the exports: curves and legends, one y axis per unit titled with it, the time
// cursor in data coordinates, a click that reports the time under the mouse, drag to zoom, log
// scale on and off, and PNG/SVG/PDF/CSV files that are valid and hold the plot.
#include "output/csv.h"
#include "plot/plot_export.h"
#include "plot/plot_export_dialog.h"
#include "plot/plot_view.h"
#include "plot_test_runs.h"

#include <QCategoryAxis>
#include <QDialogButtonBox>
#include <QDir>
#include <QGraphicsLineItem>
#include <QImage>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QXmlStreamReader>
#include <QtTest>

#include <cmath>

using namespace rlx;
using namespace rlx::ui;

namespace {

// The pendulum's first 2 s with hht, once for all tests.
const RunSeries& pendulum() {
  static const RunSeries run = [] {
    const test::ExampleRun r = test::runExample("simple_pendulum.rlx", "hht", 2.0);
    return runSeriesFromResults(r.model, r.results);
  }();
  return run;
}

PlotCurve curveOf(const QString& column) {
  return *makeCurve(pendulum(), column);
}

// A shown view with the pendulum's angle and rate.
struct ShownView {
  PlotView view;
  ShownView() {
    view.addCurve(curveOf("pendulum.angle"));
    view.addCurve(curveOf("pendulum.omega"));
    view.resize(800, 500);
    view.show();
  }
};

// The viewport point of data x at the vertical middle of the plot area.
QPoint viewportPointAt(const PlotView& view, double x) {
  const PlotChart* chart = view.plotChart();
  const QRectF area = chart->plotArea();
  const QPointF range = chart->xRange();
  const double px = area.left() + (x - range.x()) / (range.y() - range.x()) * area.width();
  return view.mapFromScene(chart->mapToScene(QPointF(px, area.center().y())));
}

int distinctColors(const QImage& image) {
  QSet<QRgb> colors;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) colors.insert(image.pixel(x, y));
  return static_cast<int>(colors.size());
}

// Pixels within a small distance of a colour.
int pixelsNear(const QImage& image, const QColor& color) {
  int count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
              std::abs(c.blue() - color.blue()) <
          30)
        ++count;
    }
  return count;
}

}  // namespace

class TestPlotView : public QObject {
  Q_OBJECT
 private slots:
  void curvesAndAxes();
  void oneAxisPerUnit();
  void roundTickLabels();
  void cursorInDataCoordinates();
  void clickEmitsTime();
  void dragZooms();
  void logScale();
  void longCurvesDecimated();
  void exportPng();
  void exportSvg();
  void exportPdf();
  void exportCsv();
  void exportErrors();
  void exportDialog();
};

void TestPlotView::curvesAndAxes() {
  PlotView view;
  view.addCurve(curveOf("pendulum.angle"));
  view.addCurve(curveOf("pendulum.omega"));
  QCOMPARE(view.curveCount(), 2);
  const QList<QAbstractSeries*> series = view.chart()->series();
  QCOMPARE(series.size(), 2);
  // One run: the legend names the channels alone; 201 frames each.
  QCOMPARE(series[0]->name(), QString("pendulum.angle"));
  QCOMPARE(series[1]->name(), QString("pendulum.omega"));
  QCOMPARE(static_cast<QLineSeries*>(series[0])->count(), 201);
  QCOMPARE(static_cast<QLineSeries*>(series[1])->at(100).y(), pendulum().values(100, 6));
  QCOMPARE(view.chart()->legend()->markers().size(), 2);
  // Axes titled with units, one y axis per unit: rad on the left, rad/s on the right; the x
  // axis spans the run.
  const auto* x = qobject_cast<QValueAxis*>(view.chart()->axes(Qt::Horizontal).value(0));
  QCOMPARE(view.chart()->axes(Qt::Vertical).size(), 2);
  const auto* y = qobject_cast<QValueAxis*>(view.plotChart()->yAxis(0));
  const auto* rate = qobject_cast<QValueAxis*>(view.plotChart()->yAxis(1));
  QVERIFY(x && y && rate);
  QCOMPARE(x->titleText(), QString("t [s]"));
  QCOMPARE(y->titleText(), QString("pendulum.angle [rad]"));
  QCOMPARE(rate->titleText(), QString("pendulum.omega [rad/s]"));
  QCOMPARE(y->alignment(), Qt::AlignLeft);
  QCOMPARE(rate->alignment(), Qt::AlignRight);
  QVERIFY(series[0]->attachedAxes().contains(view.plotChart()->yAxis(0)));
  QVERIFY(series[1]->attachedAxes().contains(view.plotChart()->yAxis(1)));
  QCOMPARE(x->min(), 0.0);
  QVERIFY(std::abs(x->max() - 2.0) < 1e-9);
  // Each y range holds its own data: the angle within [-pi, 0], the rate down to -5.42 rad/s;
  // the angle's axis is not stretched to the rate's.
  const Eigen::VectorXd angle = pendulum().channel("pendulum.angle");
  QVERIFY(y->min() <= angle.minCoeff() && y->max() >= angle.maxCoeff());
  QVERIFY(rate->min() <= -5.42 && rate->max() >= 0.0);
  QVERIFY2(y->max() - y->min() < 0.6 * (rate->max() - rate->min()),
           qPrintable(QString("%1 .. %2").arg(y->min()).arg(y->max())));
  // Two runs: the legend adds the run.
  RunSeries other = pendulum();
  other.label = "copy";
  view.addCurve(*makeCurve(other, "pendulum.angle"));
  QCOMPARE(view.chart()->series().at(2)->name(), QString("pendulum.angle — copy"));
  QCOMPARE(view.chart()->series().at(0)->name(), QString("pendulum.angle — hht h=0.001"));
  view.plotChart()->removeCurves("pendulum.angle");
  QCOMPARE(view.curveCount(), 1);
  QCOMPARE(view.chart()->series().at(0)->name(), QString("pendulum.omega"));
}

void TestPlotView::oneAxisPerUnit() {
  // Three units: rad left, N right, then m/s outside the left one; two curves of one unit share.
  PlotView view;
  for (const char* column : {"pendulum.angle", "pin.fy", "pendulum.vx", "pin.fx"})
    view.addCurve(curveOf(column));
  PlotChart* chart = view.plotChart();
  QCOMPARE(chart->yAxisCount(), 3);
  QCOMPARE(chart->yAxis(0)->titleText(), QString("pendulum.angle [rad]"));
  QCOMPARE(chart->yAxis(1)->titleText(), QString("pin.fy, pin.fx [N]"));
  QCOMPARE(chart->yAxis(2)->titleText(), QString("pendulum.vx [m/s]"));
  QCOMPARE(chart->yAxis(0)->alignment(), Qt::AlignLeft);
  QCOMPARE(chart->yAxis(1)->alignment(), Qt::AlignRight);
  QCOMPARE(chart->yAxis(2)->alignment(), Qt::AlignLeft);
  QCOMPARE(chart->axisOfCurve(3), 1);
  // Several axes: each title in its first curve's colour, one grid.
  QCOMPARE(chart->yAxis(1)->titleBrush().color(), QColor(0xd6, 0x27, 0x28));
  QVERIFY(chart->yAxis(0)->isGridLineVisible() && !chart->yAxis(1)->isGridLineVisible());
  // The force axis holds both forces.
  const QPointF forces = chart->yRange(1);
  for (const char* column : {"pin.fy", "pin.fx"}) {
    const Eigen::VectorXd f = pendulum().channel(column);
    QVERIFY(forces.x() <= f.minCoeff() && forces.y() >= f.maxCoeff());
  }
  // A drag zooms every axis: the upper half of the plot area halves each y range.
  view.resize(900, 500);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  // Ticks at whole multiples of a round step, zero labelled "0" (not -1.38778e-16).
  for (int axis = 0; axis < 3; ++axis) {
    const QStringList labels = static_cast<QCategoryAxis*>(chart->yAxis(axis))->categoriesLabels();
    QVERIFY2(labels.size() >= 4 && labels.contains("0"), qPrintable(labels.join(' ')));
    for (const QString& label : labels) QVERIFY2(!label.contains('e'), qPrintable(label));
  }
  const std::vector<QPointF> before = chart->yRanges();
  const QRectF area = chart->plotArea();
  const auto at = [&](double fx, double fy) {
    return view.mapFromScene(chart->mapToScene(
        QPointF(area.left() + fx * area.width(), area.top() + fy * area.height())));
  };
  QTest::mousePress(view.viewport(), Qt::LeftButton, {}, at(0.2, 0.0));
  QTest::mouseMove(view.viewport(), at(0.5, 0.3));
  QTest::mouseMove(view.viewport(), at(0.8, 0.5));
  QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, at(0.8, 0.5));
  const std::vector<QPointF> after = chart->yRanges();
  QCOMPARE(after.size(), std::size_t(3));
  for (std::size_t i = 0; i < 3; ++i) {
    const double height = before[i].y() - before[i].x();
    QVERIFY2(std::abs((after[i].y() - after[i].x()) / height - 0.5) < 0.02,
             qPrintable(QString("axis %1: %2 .. %3").arg(i).arg(after[i].x()).arg(after[i].y())));
    QVERIFY(std::abs(after[i].y() - before[i].y()) < 0.02 * height);
  }
  // Exports keep the zoom of each axis.
  QTemporaryDir dir;
  QString error;
  QVERIFY2(exportPlot(*chart, dir.filePath("three.svg"), {QSize(900, 500), 96}, &error),
           qPrintable(error));
  const QString svg =
      QString::fromStdString(test::readFile(dir.filePath("three.svg").toStdString()));
  for (const char* title : {"pendulum.angle [rad]", "pin.fy, pin.fx [N]", "pendulum.vx [m/s]"})
    QVERIFY2(svg.contains(title), title);
  view.resetZoom();
  QCOMPARE(chart->yRanges(), before);
}

void TestPlotView::roundTickLabels() {
  // Far from zero (1e6 + 0.5 sin t) and across it: each label reads back as its tick's value.
  for (const double offset : {1e6, 0.0}) {
    PlotCurve curve{"synthetic", "a.x", "m", {}, {}};
    for (int k = 0; k <= 100; ++k) {
      curve.x.append(k * 0.01);
      curve.y.append(offset + 0.5 * std::sin(k * 0.1) - 0.1);
    }
    PlotView view;
    view.addCurve(curve);
    view.resize(700, 450);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (QAbstractAxis* axis :
         {view.plotChart()->axes(Qt::Horizontal).value(0), view.plotChart()->yAxis(0)}) {
      auto* ticks = qobject_cast<QCategoryAxis*>(axis);
      QVERIFY(ticks && ticks->count() >= 4);
      for (const QString& label : ticks->categoriesLabels()) {
        const double value = ticks->endValue(label);
        QVERIFY2(std::abs(label.toDouble() - value) <= 1e-9 * std::max(1.0, std::abs(value)),
                 qPrintable(label + " at " + QString::number(value, 'g', 17)));
        QVERIFY(value >= ticks->min() - 1e-9 && value <= ticks->max() + 1e-9);
      }
    }
  }
}

void TestPlotView::cursorInDataCoordinates() {
  ShownView shown;
  QVERIFY(QTest::qWaitForWindowExposed(&shown.view));
  PlotChart* chart = shown.view.plotChart();
  chart->setCursorTime(0.7);
  const QGraphicsLineItem* line = chart->cursorLine();
  QVERIFY(line->isVisible());
  // Its ends map back to t = 0.7 and span the plot area's height.
  const QPointF top = line->line().p1(), bottom = line->line().p2();
  QVERIFY(std::abs(chart->xAt(top) - 0.7) < 1e-9);
  QVERIFY(std::abs(chart->xAt(bottom) - 0.7) < 1e-9);
  QCOMPARE(top.y(), chart->plotArea().top());
  QCOMPARE(bottom.y(), chart->plotArea().bottom());
  // The same through Qt Charts' own mapping.
  const QPointF value = chart->mapToValue(top, chart->series().front());
  QVERIFY(std::abs(value.x() - 0.7) < 1e-9);
  // Moving it moves the line; outside the run it hides.
  chart->setCursorTime(1.5);
  QVERIFY(std::abs(chart->xAt(chart->cursorLine()->line().p1()) - 1.5) < 1e-9);
  chart->setCursorTime(7.0);
  QVERIFY(!chart->cursorLine()->isVisible());
  chart->setCursorTime(std::nan(""));
  QVERIFY(!chart->cursorLine()->isVisible());
  // It follows a zoom.
  chart->setCursorTime(1.0);
  chart->setXRange(QPointF(0.5, 1.5));
  QVERIFY(std::abs(chart->cursorLine()->line().p1().x() - chart->plotArea().center().x()) < 1e-6);
}

void TestPlotView::clickEmitsTime() {
  ShownView shown;
  QVERIFY(QTest::qWaitForWindowExposed(&shown.view));
  QSignalSpy clicked(&shown.view, &PlotView::timeClicked);
  const double pixel = 2.0 / shown.view.plotChart()->plotArea().width();
  for (const double t : {0.25, 1.0, 1.875}) {
    QTest::mouseClick(shown.view.viewport(), Qt::LeftButton, {}, viewportPointAt(shown.view, t));
    QCOMPARE(clicked.size(), 1);
    const double got = clicked.takeFirst().at(0).toDouble();
    QVERIFY2(std::abs(got - t) <= pixel, qPrintable(QString("clicked %1, got %2").arg(t).arg(got)));
  }
  // The hover readout names the values at the nearest frame with units.
  const QString readout = shown.view.plotChart()->readoutAt(1.004);
  QCOMPARE(readout.split('\n').value(0), QString("t = 1.004 s"));
  QCOMPARE(readout.split('\n').value(1),
           "pendulum.angle = " + QString::number(pendulum().values(100, 3), 'g', 6) + " rad");
  QVERIFY(readout.split('\n').value(2).startsWith("pendulum.omega = "));
  QVERIFY(readout.endsWith(" rad/s"));
  // Outside the plot area: nothing.
  QTest::mouseClick(shown.view.viewport(), Qt::LeftButton, {}, QPoint(2, 2));
  QCOMPARE(clicked.size(), 0);
}

void TestPlotView::dragZooms() {
  ShownView shown;
  QVERIFY(QTest::qWaitForWindowExposed(&shown.view));
  QSignalSpy clicked(&shown.view, &PlotView::timeClicked);
  const QPoint from = viewportPointAt(shown.view, 0.5) - QPoint(0, 60);
  const QPoint to = viewportPointAt(shown.view, 1.0) + QPoint(0, 60);
  QTest::mousePress(shown.view.viewport(), Qt::LeftButton, {}, from);
  QTest::mouseMove(shown.view.viewport(), (from + to) / 2);
  QTest::mouseMove(shown.view.viewport(), to);
  QTest::mouseRelease(shown.view.viewport(), Qt::LeftButton, {}, to);
  // The x range is now about [0.5, 1] and the drag was no click.
  const QPointF x = shown.view.plotChart()->xRange();
  const double pixel = 2.0 / shown.view.plotChart()->plotArea().width();
  QVERIFY2(std::abs(x.x() - 0.5) < 2 * pixel && std::abs(x.y() - 1.0) < 2 * pixel,
           qPrintable(QString("%1 .. %2").arg(x.x()).arg(x.y())));
  QCOMPARE(clicked.size(), 0);
  shown.view.resetZoom();
  QCOMPARE(shown.view.plotChart()->xRange().x(), 0.0);
  QVERIFY(std::abs(shown.view.plotChart()->xRange().y() - 2.0) < 1e-9);
}

void TestPlotView::logScale() {
  PlotView view;
  view.addCurve(curveOf("constraint_error"));
  view.addCurve(curveOf(kEnergyDrift));
  view.setLogY(true);
  QVERIFY(view.logY());
  const auto* log = qobject_cast<QLogValueAxis*>(view.chart()->axes(Qt::Vertical).value(0));
  QVERIFY(log);
  // energy_drift is 0 at t0: drawn at the floor, the smallest |value|, and the legend says so.
  PlotChart* chart = view.plotChart();
  const double floor = chart->logFloor();
  QVERIFY(floor > 0 && std::isfinite(floor));
  const Eigen::VectorXd drift = pendulum().channel(kEnergyDrift);
  QCOMPARE(drift(0), 0.0);
  const QList<QPointF> points = chart->plottedPoints(1);
  QCOMPARE(points.size(), 201);
  QCOMPARE(points[0].y(), floor);
  QCOMPARE(points[150].y(), std::abs(drift(150)));
  for (const QPointF& p : chart->plottedPoints(0)) QVERIFY(p.y() >= floor);
  QVERIFY(view.chart()->series().at(1)->name().startsWith("|energy_drift| (0 drawn at "));
  // Whole decades around the data, on the second axis (J; the first is m or rad).
  QCOMPARE(chart->yAxisCount(), 2);
  const QPointF y = chart->yRange(1);
  QVERIFY(std::abs(std::log10(y.x()) - std::round(std::log10(y.x()))) < 1e-6);
  QVERIFY(y.x() <= floor && y.y() >= drift.cwiseAbs().maxCoeff());
  QCOMPARE(log->titleText(), QString("|constraint_error| [m or rad]"));
  QVERIFY(qobject_cast<QLogValueAxis*>(chart->yAxis(1)));
  QCOMPARE(chart->yAxis(1)->titleText(), QString("|energy_drift| [J]"));
  // And back to linear: signed values again.
  view.setLogY(false);
  QVERIFY(qobject_cast<QValueAxis*>(view.chart()->axes(Qt::Vertical).value(0)));
  QCOMPARE(chart->plottedPoints(1)[150].y(), drift(150));
  QCOMPARE(view.chart()->series().at(1)->name(), QString("energy_drift"));
  QVERIFY(std::isnan(chart->logFloor()));
}

void TestPlotView::longCurvesDecimated() {
  // 200001 samples of a chirp: drawn from about 4 points per slice, the envelope kept.
  PlotCurve chirp{"synthetic", "a.x", "m", {}, {}};
  for (int k = 0; k <= 200000; ++k) {
    const double t = k * 1e-4;
    chirp.x.append(t);
    chirp.y.append(std::sin(t * t * 20) * (1 + t));
  }
  PlotView view;
  view.addCurve(chirp);
  const auto* series = static_cast<QLineSeries*>(view.chart()->series().front());
  QVERIFY2(series->count() <= 4 * PlotChart::kDecimateBuckets + 2,
           qPrintable(QString::number(series->count())));
  QVERIFY(series->count() >= 2 * PlotChart::kDecimateBuckets);
  double low = 1e300, high = -1e300;
  for (const QPointF& p : series->points()) {
    low = std::min(low, p.y());
    high = std::max(high, p.y());
  }
  QCOMPARE(low, *std::min_element(chirp.y.begin(), chirp.y.end()));
  QCOMPARE(high, *std::max_element(chirp.y.begin(), chirp.y.end()));
  QCOMPARE(series->points().front(), QPointF(0, 0));
  QCOMPARE(series->points().back().x(), 20.0);
  QCOMPARE(view.plotChart()->plottedPoints(0).size(), 200001);  // exports keep every point
  // Zoomed in, the slices are finer: the visible part is drawn in detail.
  view.plotChart()->setXRange(QPointF(10, 10.5));
  const QList<QPointF> zoomed = series->points();
  const auto inside = std::count_if(zoomed.begin(), zoomed.end(),
                                    [](const QPointF& p) { return p.x() >= 10 && p.x() <= 10.5; });
  QVERIFY2(inside >= 2 * PlotChart::kDecimateBuckets, qPrintable(QString::number(inside)));
  QVERIFY(zoomed.front().x() < 10 && zoomed.back().x() > 10.5);
}

void TestPlotView::exportPng() {
  ShownView shown;
  shown.view.plotChart()->setPlotTitle("Pendulum");
  shown.view.setCursorTime(1.0);
  QTemporaryDir dir;
  QString error;
  // 1000x600 at 192 DPI: that many pixels, the DPI in the file, a chart laid out at 500x300.
  const QString path = dir.filePath("plot.png");
  QVERIFY2(ui::exportPng(*shown.view.plotChart(), path, {QSize(1000, 600), 192}, &error),
           qPrintable(error));
  const QImage image(path);
  QCOMPARE(image.size(), QSize(1000, 600));
  QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
  // Not blank: many colours (anti-aliased text and lines), both curve colours present.
  QVERIFY2(distinctColors(image) > 100, qPrintable(QString::number(distinctColors(image))));
  QVERIFY(pixelsNear(image, QColor(0x1f, 0x77, 0xb4)) > 500);
  QVERIFY(pixelsNear(image, QColor(0xd6, 0x27, 0x28)) > 500);
  QCOMPARE(image.pixelColor(0, 0), QColor(Qt::white));
  // The export draws the chart afresh: the view on screen is left as it was.
  QVERIFY(shown.view.plotChart()->cursorLine()->isVisible());
}

void TestPlotView::exportSvg() {
  ShownView shown;
  QTemporaryDir dir;
  QString error;
  const QString path = dir.filePath("plot.svg");
  QVERIFY2(exportPlot(*shown.view.plotChart(), path, {QSize(900, 600), 96}, &error),
           qPrintable(error));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&file);
  int lines = 0, texts = 0;
  QString viewBox;
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (xml.name() == u"svg") viewBox = xml.attributes().value("viewBox").toString();
    if (xml.name() == u"path" || xml.name() == u"polyline") ++lines;
    if (xml.name() == u"text") ++texts;
  }
  QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
  QCOMPARE(viewBox, QString("0 0 900 600"));
  // Qt Charts strokes a solid curve segment by segment: 200 per curve, then grid and axes.
  QVERIFY2(lines >= 2 * 200, qPrintable(QString::number(lines)));
  QVERIFY2(texts >= 10, qPrintable(QString::number(texts)));  // tick labels, titles, legend
}

void TestPlotView::exportPdf() {
  ShownView shown;
  QTemporaryDir dir;
  QString error;
  const QString path = dir.filePath("plot.pdf");
  QVERIFY2(exportPlot(*shown.view.plotChart(), path, {QSize(1200, 800), 200}, &error),
           qPrintable(error));
  const QByteArray pdf = QByteArray::fromStdString(test::readFile(path.toStdString()));
  QVERIFY(pdf.startsWith("%PDF-"));
  QVERIFY(pdf.contains("/Type /Page"));
  QVERIFY(pdf.trimmed().endsWith("%%EOF"));
  // One page of 6 x 4 inches = 432 x 288 points.
  QVERIFY(pdf.contains("/MediaBox [0 0 432.000000 288.000000]"));
  QVERIFY(pdf.size() > 5000);
}

void TestPlotView::exportCsv() {
  PlotView view;
  view.addCurve(curveOf("pendulum.angle"));
  view.addCurve(curveOf("pin.fy"));
  QTemporaryDir dir;
  QString error;
  const QString path = dir.filePath("plot.csv");
  QVERIFY2(exportPlot(*view.plotChart(), path, {}, &error), qPrintable(error));
  const QStringList lines =
      QString::fromStdString(test::readFile(path.toStdString())).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 202);
  QCOMPARE(lines[0], QString("t,pendulum.angle,pin.fy"));
  // Exactly the plotted numbers, 17 digits.
  const RunSeries& run = pendulum();
  for (int k : {0, 1, 77, 200}) {
    const QString expected =
        QString::fromStdString(formatNumber(run.values(k, 0)) + "," +
                               formatNumber(run.values(k, run.columnIndex("pendulum.angle"))) +
                               "," + formatNumber(run.values(k, run.columnIndex("pin.fy"))));
    QCOMPARE(lines[k + 1], expected);
  }
  // In log scale the CSV holds what is drawn: |y|, and a curve missing at some x leaves gaps.
  view.setLogY(true);
  RunSeries coarse = run;
  coarse.label = "coarse";
  coarse.values = run.values(Eigen::seq(0, Eigen::last, 2), Eigen::all);
  view.addCurve(*makeCurve(coarse, "pin.fy"));
  const QStringList logLines = plottedDataCsv(*view.plotChart()).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(logLines[0], QString("t,|pendulum.angle| — hht h=0.001 (0 drawn at %1),"
                                "|pin.fy| — hht h=0.001,|pin.fy| — coarse")
                            .arg(view.plotChart()->logFloor(), 0, 'g', 2));
  QCOMPARE(logLines.size(), 202);
  QVERIFY(logLines[2].endsWith(","));  // t = 0.01: not in the coarse run
  const QStringList cells = logLines[3].split(',');
  QCOMPARE(cells[1], QString::fromStdString(formatNumber(std::abs(run.values(2, 3)))));
  QCOMPARE(cells[3], cells[2]);
}

void TestPlotView::exportErrors() {
  PlotView view;
  view.addCurve(curveOf("pendulum.angle"));
  QTemporaryDir dir;
  QString error;
  QVERIFY(!exportPlot(*view.plotChart(), dir.filePath("plot.bmp"), {}, &error));
  QCOMPARE(error, dir.filePath("plot.bmp") + ": unknown file type (use .png, .svg, .pdf or .csv)");
  QVERIFY(!exportPlot(*view.plotChart(), dir.filePath("no/such/dir/plot.png"), {}, &error));
  QVERIFY2(error.startsWith("cannot save \"" + dir.filePath("no/such/dir/plot.png") + "\": "),
           qPrintable(error));
  QVERIFY(!exportPlot(*view.plotChart(), dir.filePath("big.png"), {QSize(30000, 10), 96}, &error));
  QVERIFY2(error.contains("between 16 and 20000 pixels, got 30000x10"), qPrintable(error));
}

void TestPlotView::exportDialog() {
  PlotExportDialog dialog;
  dialog.setPath("/tmp/drift.png");
  dialog.setOptions({QSize(1600, 900), 200});
  QCOMPARE(dialog.path(), QString("/tmp/drift.png"));
  QCOMPARE(dialog.options().pixels, QSize(1600, 900));
  QCOMPARE(dialog.options().dpi, 200);
  // Size and DPI apply to images only; OK needs a known file type.
  const QList<QSpinBox*> boxes = dialog.findChildren<QSpinBox*>();
  QCOMPARE(boxes.size(), 3);
  QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
  for (const QSpinBox* box : boxes) QVERIFY(box->isEnabled());
  dialog.setPath("/tmp/drift.csv");
  for (const QSpinBox* box : boxes) QVERIFY(!box->isEnabled());
  QVERIFY(ok->isEnabled());
  dialog.setPath("/tmp/drift.jpg");
  QVERIFY(!ok->isEnabled());
  dialog.setPath("/tmp/drift.pdf");
  dialog.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dialog));
  const QString folder = qEnvironmentVariable("REULEAUX_SCREENSHOTS");
  if (!folder.isEmpty()) dialog.grab().save(QDir(folder).filePath("plot_export_dialog.png"));
}

QTEST_MAIN(TestPlotView)
#include "tst_plot_view.moc"
