#include "plot/plot_chart.h"

#include "plot/channels.h"

#include <QCategoryAxis>
#include <QFont>
#include <QGraphicsLineItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace rlx::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Distinct colours for curves (a colour-blind-friendly qualitative palette).
QColor curveColor(int index) {
  static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                  QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                  QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                  QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf),
                                  QColor(0xbc, 0xbd, 0x22), QColor(0x7f, 0x7f, 0x7f)};
  return colors[index % static_cast<int>(std::size(colors))];
}

// A round step (1, 2 or 5 times a power of ten) near range / count.
double niceStep(double range, double count) {
  const double raw = range / std::max(count, 1.0);
  if (!(raw > 0) || !std::isfinite(raw)) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / power;
  const double nice = fraction < 1.5 ? 1.0 : fraction < 3.5 ? 2.0 : fraction < 7.5 ? 5.0 : 10.0;
  return nice * power;
}

// The range of the finite values, or nothing.
std::optional<QPointF> finiteRange(const std::vector<const QVector<double>*>& vectors,
                                   bool positiveOnly) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const QVector<double>* v : vectors)
    for (const double x : *v) {
      if (!std::isfinite(x) || (positiveOnly && x <= 0)) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  if (lo > hi) return std::nullopt;
  return QPointF(lo, hi);
}

// A linear range that holds [lo, hi] with a margin, widened to whole steps.
QPointF niceLinearRange(double lo, double hi) {
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {
    const double pad = std::max(std::abs(lo), 1.0) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const double step = niceStep(hi - lo, 5);
  const double margin = 0.02 * (hi - lo);
  return {std::floor((lo - margin) / step) * step, std::ceil((hi + margin) / step) * step};
}

QFont fontOfSize(double points, bool bold = false) {
  QFont font;
  font.setPointSizeF(points);
  font.setBold(bold);
  return font;
}

// Shared look of both axes: fonts, grid and line pens.
void styleAxis(QAbstractAxis* axis) {
  axis->setLabelsFont(fontOfSize(8.5));
  axis->setTitleFont(fontOfSize(9, true));
  axis->setGridLinePen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
  axis->setMinorGridLinePen(QPen(QColor(0xf0, 0xf0, 0xf0), 1));
  axis->setLinePen(QPen(QColor(0x88, 0x88, 0x88), 1));
}

// Ticks of a linear axis at the whole multiples of a round step in its range, each labelled
// with k * step (a running sum would label zero -1.38778e-16).
void setRoundTicks(QCategoryAxis* axis, double step) {
  for (const QString& label : axis->categoriesLabels()) axis->remove(label);
  const double lo = axis->min(), hi = axis->max();
  axis->setStartValue(lo);
  if (!(step > 0) || !((hi - lo) / step < 1000)) return;
  // Enough digits to tell neighbouring ticks apart far from zero.
  const double ratio = std::max(std::abs(lo), std::abs(hi)) / step;
  const int digits =
      ratio > 1e4 ? static_cast<int>(std::min(17.0, std::ceil(std::log10(ratio)) + 2)) : 6;
  for (double k = std::ceil(lo / step - 1e-9); k <= std::floor(hi / step + 1e-9); ++k) {
    const double value = k * step + 0.0;  // + 0.0: no "-0"
    axis->append(QString::number(value, 'g', digits), value);
  }
}

// A linear axis with round ticks (setRoundTicks).
QCategoryAxis* linearAxis() {
  auto* axis = new QCategoryAxis;
  axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  return axis;
}

QPointF axisRange(const QAbstractAxis* axis) {
  if (const auto* value = qobject_cast<const QValueAxis*>(axis))
    return {value->min(), value->max()};
  if (const auto* log = qobject_cast<const QLogValueAxis*>(axis)) return {log->min(), log->max()};
  return {0.0, 1.0};
}

// For each of `buckets` slices of [x0, x1], the first, smallest, largest and last point in x
// order, plus the neighbours outside the range so the lines run to the edges. Points are
// sorted by x.
QList<QPointF> decimate(const QList<QPointF>& points, double x0, double x1, int buckets) {
  auto begin = std::lower_bound(points.begin(), points.end(), x0,
                                [](const QPointF& p, double x) { return p.x() < x; });
  auto end = std::upper_bound(begin, points.end(), x1,
                              [](double x, const QPointF& p) { return x < p.x(); });
  if (begin != points.begin()) --begin;
  if (end != points.end()) ++end;
  QList<QPointF> out;
  const double width = (x1 - x0) / buckets;
  for (auto it = begin; it != end;) {
    // One slice: [it, next).
    const double slice = std::floor((it->x() - x0) / width);
    auto next = it + 1;
    while (next != end && std::floor((next->x() - x0) / width) == slice) ++next;
    const auto [low, high] = std::minmax_element(
        it, next, [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); });
    std::vector<QList<QPointF>::const_iterator> keep{it, low, high, next - 1};
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    for (const auto& k : keep) out.append(*k);
    it = next;
  }
  return out;
}

}  // namespace

std::optional<PlotCurve> makeCurve(const RunSeries& run, const QString& column,
                                   const QString& xColumn) {
  if (!run.hasChannel(column) || !run.hasChannel(xColumn)) return std::nullopt;
  const Eigen::VectorXd x = run.channel(xColumn), y = run.channel(column);
  PlotCurve curve{run.label, column, run.unitOf(column), {}, {}};
  curve.x = QVector<double>(x.data(), x.data() + x.size());
  curve.y = QVector<double>(y.data(), y.data() + y.size());
  return curve;
}

PlotChart::PlotChart(QGraphicsItem* parent)
    : QChart(parent), floor_(kNaN), cursorTime_(kNaN), cursor_(new QGraphicsLineItem(this)) {
  // A plain, printable look: white, square, small margins, legend on top.
  setBackgroundRoundness(0);
  setMargins(QMargins(6, 4, 10, 4));
  setTitleFont(fontOfSize(11, true));
  legend()->setAlignment(Qt::AlignTop);
  legend()->setFont(fontOfSize(8.5));
  legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  setAnimationOptions(QChart::NoAnimation);

  // The time cursor above the curves.
  QPen cursorPen(QColor(0x20, 0x20, 0x20), 1.2, Qt::DashLine);
  cursor_->setPen(cursorPen);
  cursor_->setZValue(100);
  cursor_->hide();
  connect(this, &QChart::plotAreaChanged, this, [this] {
    updateTicks();
    updateCursor();
  });
  rebuild();
}

void PlotChart::setContent(const PlotContent& content) {
  content_ = content;
  setTitle(content_.title);
  rebuild();
}

void PlotChart::addCurve(const PlotCurve& curve) {
  content_.curves.push_back(curve);
  rebuild();
}

void PlotChart::removeCurves(const QString& column) {
  std::erase_if(content_.curves, [&](const PlotCurve& c) { return c.column == column; });
  rebuild();
}

void PlotChart::clearCurves() {
  content_.curves.clear();
  rebuild();
}

void PlotChart::setLogY(bool on) {
  if (content_.logY == on) return;
  content_.logY = on;
  rebuild();
}

void PlotChart::setPlotTitle(const QString& title) {
  content_.title = title;
  setTitle(title);
}

QString PlotChart::curveName(int curve) const {
  const PlotCurve& c = content_.curves[static_cast<std::size_t>(curve)];
  QString name = content_.logY ? "|" + c.column + "|" : c.column;
  std::set<QString> runs;
  for (const PlotCurve& other : content_.curves) runs.insert(other.run);
  if (runs.size() > 1) name += " — " + c.run;
  // Say where zeros are drawn on a log scale.
  if (content_.logY && std::isfinite(floor_) && c.y.contains(0.0))
    name += " (0 drawn at " + QString::number(floor_, 'g', 2) + ")";
  return name;
}

QList<QPointF> PlotChart::plottedPoints(int curve) const {
  const PlotCurve& c = content_.curves[static_cast<std::size_t>(curve)];
  QList<QPointF> points;
  points.reserve(c.x.size());
  for (qsizetype k = 0; k < std::min(c.x.size(), c.y.size()); ++k) {
    double y = c.y[k];
    if (!std::isfinite(c.x[k]) || !std::isfinite(y)) continue;
    if (content_.logY) {
      y = std::abs(y);
      if (y == 0.0) y = floor_;
    }
    points.append(QPointF(c.x[k], y));
  }
  return points;
}

QPointF PlotChart::xRange() const {
  return axisRange(xAxis_);
}

QPointF PlotChart::yRange(int axis) const {
  return axisRange(yAxes_[static_cast<std::size_t>(axis)]);
}

std::vector<QPointF> PlotChart::yRanges() const {
  std::vector<QPointF> ranges;
  for (const QAbstractAxis* axis : yAxes_) ranges.push_back(axisRange(axis));
  return ranges;
}

void PlotChart::setXRange(const QPointF& x) {
  xAxis_->setRange(x.x(), x.y());
}

void PlotChart::setRanges(const QPointF& x, const std::vector<QPointF>& y) {
  setXRange(x);
  for (std::size_t i = 0; i < std::min(y.size(), yAxes_.size()); ++i)
    yAxes_[i]->setRange(y[i].x(), y[i].y());
}

void PlotChart::resetZoom() {
  setRanges(fullX_, fullY_);
}

void PlotChart::zoomToArea(const QRectF& chartRect) {
  const QRectF area = plotArea();
  const QRectF r = chartRect.normalized().intersected(area);
  if (r.width() < 2 || r.height() < 2) return;
  // Fractions of the plot area, then each axis's values there (geometric on a log axis).
  const QPointF x = xRange();
  const auto along = [](double a, double b, double f, bool log) {
    return log ? a * std::pow(b / a, f) : a + (b - a) * f;
  };
  const double left = (r.left() - area.left()) / area.width();
  const double right = (r.right() - area.left()) / area.width();
  const double bottom = (area.bottom() - r.bottom()) / area.height();
  const double top = (area.bottom() - r.top()) / area.height();
  std::vector<QPointF> ys;
  for (const QPointF& y : yRanges())
    ys.emplace_back(along(y.x(), y.y(), bottom, content_.logY),
                    along(y.x(), y.y(), top, content_.logY));
  setRanges(QPointF(along(x.x(), x.y(), left, false), along(x.x(), x.y(), right, false)), ys);
}

void PlotChart::setCursorTime(double t) {
  cursorTime_ = t;
  updateCursor();
}

void PlotChart::setCursorVisible(bool visible) {
  cursorShown_ = visible;
  updateCursor();
}

double PlotChart::xAt(const QPointF& chartPosition) const {
  const QRectF area = plotArea();
  if (!area.adjusted(-1, -1, 1, 1).contains(chartPosition) || area.width() <= 0) return kNaN;
  const QPointF range = xRange();
  return range.x() + (chartPosition.x() - area.left()) / area.width() * (range.y() - range.x());
}

QString PlotChart::readoutAt(double x) const {
  if (content_.curves.empty() || !std::isfinite(x)) return {};
  const auto number = [](double v) { return QString::number(v, 'g', 6); };
  QStringList lines{content_.xColumn + " = " + number(x) + " " + content_.xUnit};
  for (int i = 0; i < curveCount(); ++i) {
    // The nearest sample by x (curves in x order or not).
    const PlotCurve& c = content_.curves[static_cast<std::size_t>(i)];
    qsizetype best = -1;
    for (qsizetype k = 0; k < std::min(c.x.size(), c.y.size()); ++k)
      if (std::isfinite(c.x[k]) && (best < 0 || std::abs(c.x[k] - x) < std::abs(c.x[best] - x)))
        best = k;
    if (best < 0) continue;
    const QString name = curveName(i).section(" (0 drawn", 0, 0).remove('|');
    lines.append(name + " = " + number(c.y[best]) + (c.unit.isEmpty() ? "" : " " + c.unit));
  }
  return lines.join('\n');
}

void PlotChart::rebuild() {
  // Start over: no series, no axes.
  removeAllSeries();
  for (QAbstractAxis* axis : axes()) {
    removeAxis(axis);
    delete axis;
  }
  xAxis_ = nullptr;
  yAxes_.clear();
  axisUnits_.clear();
  curveAxis_.clear();

  // The floor of a log plot: the smallest positive |y|, used only when some y is 0.
  floor_ = kNaN;
  if (content_.logY) {
    bool zero = false;
    double smallest = std::numeric_limits<double>::infinity();
    for (const PlotCurve& c : content_.curves)
      for (const double y : c.y) {
        if (!std::isfinite(y)) continue;
        if (y == 0.0)
          zero = true;
        else
          smallest = std::min(smallest, std::abs(y));
      }
    if (zero) floor_ = std::isfinite(smallest) ? smallest : 1e-16;
  }

  // The x axis, then one y axis per unit (one for an empty plot).
  QCategoryAxis* x = linearAxis();
  x->setTitleText(withUnit(content_.xColumn, content_.xUnit));
  xAxis_ = x;
  connect(x, &QValueAxis::rangeChanged, this, [this] {
    updateTicks();
    updateCursor();
    updateSeriesPoints();
  });
  styleAxis(xAxis_);
  addAxis(xAxis_, Qt::AlignBottom);
  for (const PlotCurve& c : content_.curves) {
    const auto known = std::find(axisUnits_.begin(), axisUnits_.end(), c.unit);
    curveAxis_.push_back(static_cast<int>(known - axisUnits_.begin()));
    if (known == axisUnits_.end()) addYAxis(c.unit);
  }
  if (yAxes_.empty()) addYAxis({});
  for (int axis = 0; axis < yAxisCount(); ++axis) {
    yAxes_[static_cast<std::size_t>(axis)]->setTitleText(yAxisTitle(axis));
    // Several axes: each title in its first curve's colour, one grid.
    if (yAxisCount() < 2) continue;
    const auto first = std::find(curveAxis_.begin(), curveAxis_.end(), axis) - curveAxis_.begin();
    yAxes_[static_cast<std::size_t>(axis)]->setTitleBrush(curveColor(static_cast<int>(first)));
    yAxes_[static_cast<std::size_t>(axis)]->setGridLineVisible(axis == 0);
    yAxes_[static_cast<std::size_t>(axis)]->setMinorGridLineVisible(axis == 0);
  }

  // One line series per curve, filled in one call (long ones decimated once ranges are set).
  points_.clear();
  decimated_.clear();
  for (int i = 0; i < curveCount(); ++i) {
    points_.push_back(plottedPoints(i));
    const QList<QPointF>& p = points_.back();
    decimated_.push_back(p.size() > kDecimateAbove &&
                         std::is_sorted(p.begin(), p.end(), [](const QPointF& a, const QPointF& b) {
                           return a.x() < b.x();
                         }));
    auto* series = new QLineSeries;
    series->setName(curveName(i));
    series->setPen(QPen(curveColor(i), 1.6));
    series->setUseOpenGL(false);
    addSeries(series);
    series->attachAxis(xAxis_);
    series->attachAxis(yAxes_[static_cast<std::size_t>(axisOfCurve(i))]);
    if (!decimated_.back()) series->replace(p);
  }
  legend()->setVisible(curveCount() > 0);
  fitRanges();
  resetZoom();
  updateSeriesPoints();
  emit contentChanged();
}

void PlotChart::addYAxis(const QString& unit) {
  // Linear or log; left, right, then outside those.
  QAbstractAxis* axis = nullptr;
  if (content_.logY) {
    auto* log = new QLogValueAxis;
    log->setLabelFormat("%.0e");
    log->setBase(10.0);
    connect(log, &QLogValueAxis::rangeChanged, this, [this] { updateTicks(); });
    axis = log;
  } else {
    QCategoryAxis* linear = linearAxis();
    connect(linear, &QValueAxis::rangeChanged, this, [this] { updateTicks(); });
    axis = linear;
  }
  styleAxis(axis);
  addAxis(axis, yAxes_.size() % 2 == 0 ? Qt::AlignLeft : Qt::AlignRight);
  yAxes_.push_back(axis);
  axisUnits_.push_back(unit);
}

void PlotChart::fitRanges() {
  std::vector<const QVector<double>*> xs;
  for (const PlotCurve& c : content_.curves) xs.push_back(&c.x);
  // x: exactly the data's extent.
  const std::optional<QPointF> x = finiteRange(xs, false);
  fullX_ = x ? *x : QPointF(0, 1);
  if (fullX_.y() - fullX_.x() <= 0) fullX_ += QPointF(-0.5, 0.5);
  // A hair wider, so that a tick at the end time (0.2 * 15 = 3.0000000000000004) is drawn.
  fullX_.ry() += 1e-12 * (fullX_.y() - fullX_.x());

  // Each y axis from its curves' drawn values: whole decades on a log scale, whole ticks on a
  // linear one.
  fullY_.clear();
  for (int axis = 0; axis < yAxisCount(); ++axis) {
    std::vector<QVector<double>> drawn;
    for (int i = 0; i < curveCount(); ++i) {
      if (axisOfCurve(i) != axis) continue;
      QVector<double> values;
      for (const QPointF& p : points_[static_cast<std::size_t>(i)]) values.append(p.y());
      drawn.push_back(std::move(values));
    }
    std::vector<const QVector<double>*> pointers;
    for (const QVector<double>& values : drawn) pointers.push_back(&values);
    const std::optional<QPointF> y = finiteRange(pointers, content_.logY);
    if (!content_.logY) {
      fullY_.push_back(y ? niceLinearRange(y->x(), y->y()) : QPointF(0, 1));
      continue;
    }
    double lo = y ? std::pow(10.0, std::floor(std::log10(y->x()))) : 1e-16;
    double hi = y ? std::pow(10.0, std::ceil(std::log10(y->y()))) : 1.0;
    if (hi <= lo) {
      lo /= 10;
      hi *= 10;
    }
    // A hair wider, so that the end decades (10^k as computed) get their labels.
    fullY_.emplace_back(lo * (1 - 1e-9), hi * (1 + 1e-9));
  }
}

void PlotChart::updateTicks() {
  if (!xAxis_) return;
  const QRectF area = plotArea();
  // About one label every 90 pixels across and every 40 pixels up.
  const QPointF xr = xRange();
  setRoundTicks(static_cast<QCategoryAxis*>(xAxis_),
                niceStep(xr.y() - xr.x(), std::max(2.0, area.width() / 90)));
  for (QAbstractAxis* axis : yAxes_) {
    const QPointF r = axisRange(axis);
    if (auto* y = qobject_cast<QCategoryAxis*>(axis))
      setRoundTicks(y, niceStep(r.y() - r.x(), std::max(2.0, area.height() / 40)));
    // Log axis: a label every 10^k decades so that the labels do not overlap.
    if (auto* y = qobject_cast<QLogValueAxis*>(axis)) {
      const double decades = std::log10(r.y() / r.x());
      const double labels = std::max(2.0, area.height() / 28);
      const double every = std::max(1.0, std::ceil(decades / labels));
      y->setBase(std::pow(10.0, every));
      y->setMinorTickCount(every == 1.0 && decades <= 6 ? 8 : 0);
    }
  }
}

void PlotChart::updateSeriesPoints() {
  const QList<QAbstractSeries*> all = series();
  if (!xAxis_ || all.size() != static_cast<qsizetype>(decimated_.size())) return;
  const QPointF range = xRange();
  for (std::size_t i = 0; i < decimated_.size(); ++i)
    if (decimated_[i])
      static_cast<QLineSeries*>(all[static_cast<qsizetype>(i)])
          ->replace(decimate(points_[i], range.x(), range.y(), kDecimateBuckets));
}

void PlotChart::updateCursor() {
  const QRectF area = plotArea();
  const QPointF range = xAxis_ ? xRange() : QPointF();
  const bool shown = cursorShown_ && std::isfinite(cursorTime_) && content_.xColumn == "t" &&
                     range.y() > range.x() && cursorTime_ >= range.x() &&
                     cursorTime_ <= range.y() && area.width() > 0;
  cursor_->setVisible(shown);
  if (!shown) return;
  const double px =
      area.left() + (cursorTime_ - range.x()) / (range.y() - range.x()) * area.width();
  cursor_->setLine(px, area.top(), px, area.bottom());
}

QString PlotChart::yAxisTitle(int axis) const {
  // The axis's distinct channels (three at most) and its unit.
  QStringList columns;
  for (int i = 0; i < curveCount(); ++i) {
    const PlotCurve& c = content_.curves[static_cast<std::size_t>(i)];
    const QString name = content_.logY ? "|" + c.column + "|" : c.column;
    if (axisOfCurve(i) == axis && !columns.contains(name)) columns.append(name);
  }
  if (columns.size() > 3) columns = columns.mid(0, 3) << "…";
  return withUnit(columns.join(", "), yAxisUnit(axis));
}

}  // namespace rlx::ui
