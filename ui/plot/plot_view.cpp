#include "plot/plot_view.h"

#include "plot/plot_export_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QMouseEvent>
#include <QRubberBand>
#include <QToolTip>

#include <cmath>

namespace rlx::ui {
namespace {

// A press that moves less than this is a click, not a zoom drag.
constexpr int kDragThreshold = 4;

}  // namespace

PlotView::PlotView(QWidget* parent)
    : QChartView(new PlotChart, parent),  // a chart given later would leak the view's own
      chart_(static_cast<PlotChart*>(chart())),
      band_(new QRubberBand(QRubberBand::Rectangle, viewport())),
      hint_(new QLabel(viewport())) {
  setRenderHint(QPainter::Antialiasing);
  setRubberBand(QChartView::NoRubberBand);
  setAcceptDrops(true);
  setMinimumSize(240, 160);
  setCurrent(false);
  viewport()->setMouseTracking(true);
  // The hint: grey, centred, clicks pass through to the plot.
  hint_->setAlignment(Qt::AlignCenter);
  hint_->setWordWrap(true);
  hint_->setAttribute(Qt::WA_TransparentForMouseEvents);
  QFont font = hint_->font();
  font.setPointSizeF(font.pointSizeF() * 1.15);
  hint_->setFont(font);
  hint_->setStyleSheet("color: #808080; background: transparent;");
  connect(chart_, &PlotChart::contentChanged, this, &PlotView::updateEmptyHint);
  updateEmptyHint();
}

void PlotView::setEmptyHint(const QString& hint) {
  hint_->setText(hint);
  updateEmptyHint();
}

QString PlotView::emptyHint() const {
  return hint_->text();
}

bool PlotView::isEmptyHintShown() const {
  return !hint_->isHidden();
}

void PlotView::updateEmptyHint() {
  hint_->setVisible(curveCount() == 0 && !hint_->text().isEmpty());
  hint_->setGeometry(viewport()->rect().adjusted(12, 12, -12, -12));
}

void PlotView::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  updateEmptyHint();
}

void PlotView::setCurrent(bool current) {
  setStyleSheet(QString("QGraphicsView { border: 2px solid %1; }")
                    .arg(current ? palette().color(QPalette::Highlight).name() : "transparent"));
}

void PlotView::exportWithDialog() {
  PlotExportDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted) return;
  QString error;
  if (!exportPlot(*chart_, dialog.path(), dialog.options(), &error))
    QMessageBox::warning(this, tr("Export Plot"), error);
}

QPointF PlotView::chartPosition(const QPoint& viewportPosition) const {
  return chart_->mapFromScene(mapToScene(viewportPosition));
}

void PlotView::mousePressEvent(QMouseEvent* event) {
  emit activated();
  if (event->button() != Qt::LeftButton) {
    QChartView::mousePressEvent(event);
    return;
  }
  pressed_ = true;
  dragging_ = false;
  pressAt_ = event->position().toPoint();
  event->accept();
}

void PlotView::mouseMoveEvent(QMouseEvent* event) {
  // Hovering: the values under the mouse, and how to use the plot.
  if (!pressed_) {
    const QString readout =
        chart_->readoutAt(chart_->xAt(chartPosition(event->position().toPoint())));
    if (readout.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(event->globalPosition().toPoint(),
                         readout + tr("\n\nClick: time cursor · Drag: zoom · Double-click: reset"),
                         viewport());
    QChartView::mouseMoveEvent(event);
    return;
  }
  // Past the threshold the press becomes a zoom rectangle.
  const QPoint at = event->position().toPoint();
  if (!dragging_ && (at - pressAt_).manhattanLength() > kDragThreshold) dragging_ = true;
  if (dragging_) {
    band_->setGeometry(QRect(pressAt_, at).normalized());
    band_->show();
  }
  event->accept();
}

void PlotView::mouseReleaseEvent(QMouseEvent* event) {
  if (!pressed_ || event->button() != Qt::LeftButton) {
    QChartView::mouseReleaseEvent(event);
    return;
  }
  pressed_ = false;
  const QPoint at = event->position().toPoint();
  if (dragging_) {
    // Zoom to the dragged rectangle.
    band_->hide();
    dragging_ = false;
    chart_->zoomToArea(QRectF(chartPosition(pressAt_), chartPosition(at)));
  } else if (chart_->content().xColumn == "t") {
    // A click: the time under the mouse.
    const double t = chart_->xAt(chartPosition(at));
    if (std::isfinite(t)) emit timeClicked(t);
  }
  event->accept();
}

void PlotView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    resetZoom();
    event->accept();
    return;
  }
  QChartView::mouseDoubleClickEvent(event);
}

void PlotView::contextMenuEvent(QContextMenuEvent* event) {
  emit activated();
  QMenu menu(this);
  menu.addAction(tr("Reset Zoom"), this, &PlotView::resetZoom);
  QAction* log = menu.addAction(tr("Log Scale"));
  log->setCheckable(true);
  log->setChecked(logY());
  connect(log, &QAction::toggled, this, [this](bool on) {
    setLogY(on);
    emit logYToggled(on);
  });
  menu.addSeparator();
  menu.addAction(tr("Export…"), this, &PlotView::exportWithDialog);
  menu.addAction(tr("Copy Image"), this, [this] { QApplication::clipboard()->setPixmap(grab()); });

  // One entry per plotted channel to take it off the plot.
  QStringList columns;
  for (const PlotCurve& c : chart_->content().curves)
    if (!columns.contains(c.column)) columns.append(c.column);
  if (!columns.isEmpty()) {
    QMenu* remove = menu.addMenu(tr("Remove Curve"));
    for (const QString& column : columns)
      remove->addAction(column, this, [this, column] { emit removeChannelRequested(column); });
  }
  menu.exec(event->globalPos());
}

void PlotView::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasFormat(kChannelMimeType))
    event->acceptProposedAction();
  else
    event->ignore();
}

void PlotView::dragMoveEvent(QDragMoveEvent* event) {
  if (event->mimeData()->hasFormat(kChannelMimeType))
    event->acceptProposedAction();
  else
    event->ignore();
}

void PlotView::dropEvent(QDropEvent* event) {
  if (!event->mimeData()->hasFormat(kChannelMimeType)) {
    event->ignore();
    return;
  }
  emit activated();
  emit channelDropped(QString::fromUtf8(event->mimeData()->data(kChannelMimeType)));
  event->acceptProposedAction();
}

}  // namespace rlx::ui
