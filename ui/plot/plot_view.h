#pragma once
// A PlotChart on screen: click to move the time cursor (timeClicked), drag a rectangle to zoom,
// double-click or "Reset zoom" to see everything, a context menu with log scale, export and
// curve removal, and drops of channels from the ChannelTree. A plot without curves shows a hint
// in its middle (what to do to fill it); exports never show it.

#include "plot/plot_chart.h"

#include <QChartView>
#include <QPoint>

class QLabel;
class QRubberBand;

namespace rlx::ui {

class PlotView : public QChartView {
  Q_OBJECT
 public:
  explicit PlotView(QWidget* parent = nullptr);

  PlotChart* plotChart() const { return chart_; }

  // Shortcuts to the chart.
  void addCurve(const PlotCurve& curve) { chart_->addCurve(curve); }
  int curveCount() const { return chart_->curveCount(); }
  void setLogY(bool on) { chart_->setLogY(on); }
  bool logY() const { return chart_->logY(); }

  // Marks the plot as the one new channels go to (a highlighted frame).
  void setCurrent(bool current);

  // The sentence shown while the plot has no curves ("Double-click a channel to plot it").
  void setEmptyHint(const QString& hint);
  QString emptyHint() const;
  bool isEmptyHintShown() const;

 public slots:
  void setCursorTime(double t) { chart_->setCursorTime(t); }
  void resetZoom() { chart_->resetZoom(); }
  // Asks for a file, size and resolution and exports the plot (plot_export.h).
  void exportWithDialog();

 signals:
  // A click in the plot area (not a zoom drag) at time t.
  void timeClicked(double t);
  // The user pressed on the plot (it becomes the current one).
  void activated();
  // A channel was dropped on the plot, or its removal chosen in the context menu.
  void channelDropped(const QString& column);
  void removeChannelRequested(const QString& column);
  // The log-scale toggle of the context menu.
  void logYToggled(bool on);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  QPointF chartPosition(const QPoint& viewportPosition) const;
  void updateEmptyHint();

  PlotChart* chart_;
  QRubberBand* band_;
  QLabel* hint_;
  QPoint pressAt_;
  bool pressed_ = false;
  bool dragging_ = false;
};

// The MIME type of a dragged channel (the column name as UTF-8).
inline constexpr const char* kChannelMimeType = "application/x-reuleaux-channel";

}  // namespace rlx::ui
