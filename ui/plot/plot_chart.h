#pragma once
// A plot of result channels against time (or another column): the curves with a legend, axes
// titled with units, nice ticks and a grid, optional log-scale y axes for drift plots, and a
// vertical time cursor.
//
// One y axis per unit: the curves' units in the order they first appear get the left axis, the
// right axis, then further axes outside those (left, right, ...), each titled with its channels
// and unit and ranged to its own curves. With several axes each title takes its first curve's
// colour, and only the first axis draws a grid. The same chart is shown by PlotView and drawn by
// the exports and by `reuleaux-cli plot`.
//
// Log scale: a curve is drawn as |y|, and values that are 0 as the smallest positive |y| of
// the plot (the floor); the legend says |y| and the axis title gives the floor when it is used.
// Non-finite values (frames without accelerations) are left out of every curve.
//
// Long curves stay fast: a curve of more than kDecimateAbove points (in time order) is drawn
// from the first, smallest, largest and last point of each of kDecimateBuckets slices of the
// visible x range, which keeps its envelope at any zoom (images too); plottedPoints() and the
// CSV export keep every point.

#include "plot/run_series.h"

#include <QChart>
#include <QList>
#include <QPointF>
#include <QString>
#include <QVector>

#include <optional>
#include <vector>

class QGraphicsLineItem;
class QAbstractAxis;

namespace rlx::ui {

// One curve: a channel of a run against the plot's x column.
struct PlotCurve {
  QString run;     // the run's label
  QString column;  // the y channel: a CSV column or a derived channel (energy_drift)
  QString unit;    // of the y channel
  QVector<double> x, y;
};

// Everything a plot shows; a chart can be rebuilt from it (for export at another size).
struct PlotContent {
  QString title;  // above the plot; empty for none
  QString xColumn = "t";
  QString xUnit = "s";
  bool logY = false;
  std::vector<PlotCurve> curves;
};

// The curve of `column` against `xColumn` from a run; nothing when the run has either not.
std::optional<PlotCurve> makeCurve(const RunSeries& run, const QString& column,
                                   const QString& xColumn = "t");

class PlotChart : public QChart {
  Q_OBJECT
 public:
  static constexpr int kDecimateAbove = 8000;
  static constexpr int kDecimateBuckets = 1500;

  explicit PlotChart(QGraphicsItem* parent = nullptr);

  const PlotContent& content() const { return content_; }
  void setContent(const PlotContent& content);  // resets the zoom
  void addCurve(const PlotCurve& curve);
  void removeCurves(const QString& column);  // every run's curve of that channel
  void clearCurves();
  int curveCount() const { return static_cast<int>(content_.curves.size()); }

  // Log-scale y axis (|y| with a floor, see above).
  bool logY() const { return content_.logY; }
  void setLogY(bool on);
  void setPlotTitle(const QString& title);

  // The legend name of a curve: "|column|" in log scale, then " — run" when the plot shows
  // several runs.
  QString curveName(int curve) const;
  // The points drawn for a curve (finite values; |y| with the floor in log scale).
  QList<QPointF> plottedPoints(int curve) const;
  // The value drawn for y = 0 in log scale, or NaN when nothing is floored.
  double logFloor() const { return floor_; }

  // The y axes: one per unit, in the order the units first appear among the curves.
  int yAxisCount() const { return static_cast<int>(yAxes_.size()); }
  QAbstractAxis* yAxis(int axis) const { return yAxes_[static_cast<std::size_t>(axis)]; }
  QString yAxisUnit(int axis) const { return axisUnits_[static_cast<std::size_t>(axis)]; }
  int axisOfCurve(int curve) const { return curveAxis_[static_cast<std::size_t>(curve)]; }

  // The visible axis ranges (after zooming); setting them zooms.
  QPointF xRange() const;
  QPointF yRange(int axis = 0) const;
  std::vector<QPointF> yRanges() const;
  void setXRange(const QPointF& x);
  void setRanges(const QPointF& x, const std::vector<QPointF>& y);
  // Back to the full extent of the data.
  void resetZoom();
  // Zooms to the part of the plot area inside a rectangle in chart coordinates.
  void zoomToArea(const QRectF& chartRect);

  // The time cursor: a vertical line at t when the x column is the time and t is in view; NaN
  // hides it.
  void setCursorTime(double t);
  double cursorTime() const { return cursorTime_; }
  const QGraphicsLineItem* cursorLine() const { return cursor_; }
  void setCursorVisible(bool visible);  // hidden while exporting

  // The x value (time) under a point in chart coordinates; NaN outside the plot area.
  double xAt(const QPointF& chartPosition) const;
  // The curves' values at the sample nearest to x, one line each after the x value
  // ("t = 0.53 s", "pendulum.angle = -1.234 rad"); empty without curves.
  QString readoutAt(double x) const;

 signals:
  // The curves or the scale changed (the chart was rebuilt).
  void contentChanged();

 private:
  void rebuild();
  void fitRanges();
  void updateTicks();
  void updateCursor();
  void updateSeriesPoints();
  void addYAxis(const QString& unit);
  QString yAxisTitle(int axis) const;

  PlotContent content_;
  std::vector<QList<QPointF>> points_;  // per curve, as plottedPoints()
  std::vector<bool> decimated_;         // per curve: drawn decimated
  std::vector<QString> axisUnits_;      // per y axis
  std::vector<int> curveAxis_;          // per curve: its y axis
  QPointF fullX_;                       // the ranges that show all the data
  std::vector<QPointF> fullY_;          // per y axis
  double floor_;
  double cursorTime_;
  bool cursorShown_ = true;
  QGraphicsLineItem* cursor_;
  QAbstractAxis* xAxis_ = nullptr;
  std::vector<QAbstractAxis*> yAxes_;
};

}  // namespace rlx::ui
