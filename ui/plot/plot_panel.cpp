#include "plot/plot_panel.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace rlx::ui {
namespace {

// A small bold caption above a list.
QLabel* caption(const QString& text) {
  auto* label = new QLabel(text);
  QFont bold = label->font();
  bold.setBold(true);
  label->setFont(bold);
  return label;
}

}  // namespace

PlotPanel::PlotPanel(QWidget* parent)
    : QWidget(parent),
      cursorTime_(std::numeric_limits<double>::quiet_NaN()),
      runList_(new QListWidget),
      tree_(new ChannelTree),
      tabs_(new QTabWidget),
      plotSplitter_(new QSplitter(Qt::Vertical)),
      constraintDrift_(makeView()),
      energyDrift_(makeView()) {
  // Left: the kept runs, a filter and the channel tree.
  auto* filter = new QLineEdit;
  filter->setPlaceholderText(tr("Filter channels"));
  filter->setClearButtonEnabled(true);
  runList_->setToolTip(tr("Ticked runs are shown in the plots; the drift view shows all runs"));
  runList_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  runList_->setMaximumHeight(110);
  auto* runBar = new QToolBar;
  runBar->setIconSize(QSize(16, 16));
  removeRunAction_ = runBar->addAction(tr("Remove Run"), this, [this] {
    for (int i = runList_->count() - 1; i >= 0; --i)
      if (runList_->item(i)->isSelected()) removeRun(i);
  });
  auto* left = new QWidget;
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(caption(tr("Runs")));
  leftLayout->addWidget(runList_);
  leftLayout->addWidget(runBar);
  leftLayout->addWidget(caption(tr("Channels")));
  leftLayout->addWidget(filter);
  leftLayout->addWidget(tree_, 1);

  // Right: a toolbar over the tabs of user plots and the drift view.
  auto* toolbar = new QToolBar;
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  toolbar->addAction(tr("Add Plot"), this, [this] { setCurrentPlot(addPlot()); });
  removePlotAction_ = toolbar->addAction(tr("Remove Plot"), this, [this] {
    if (current_) removePlot(current_);
  });
  toolbar->addAction(tr("Add Channel"), this, [this] {
    for (const QString& column : tree_->selectedChannels()) addChannel(column);
  });
  toolbar->addSeparator();
  logAction_ = toolbar->addAction(tr("Log Scale"));
  logAction_->setCheckable(true);
  connect(logAction_, &QAction::triggered, this, [this](bool on) {
    if (PlotView* plot = activePlot()) plot->setLogY(on);
  });
  toolbar->addAction(tr("Reset Zoom"), this, [this] {
    if (PlotView* plot = activePlot()) plot->resetZoom();
  });
  toolbar->addAction(tr("Export…"), this, [this] {
    if (PlotView* plot = activePlot()) plot->exportWithDialog();
  });
  auto* driftSplitter = new QSplitter(Qt::Vertical);
  driftSplitter->addWidget(constraintDrift_);
  driftSplitter->addWidget(energyDrift_);
  tabs_->addTab(plotSplitter_, tr("Plots"));
  tabs_->addTab(driftSplitter, tr("Constraint and energy drift"));
  tabs_->setDocumentMode(true);
  auto* right = new QWidget;
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->setSpacing(0);
  rightLayout->addWidget(toolbar);
  rightLayout->addWidget(tabs_, 1);

  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({270, 700});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(splitter);

  // The drift plots: fixed channels on log scales.
  for (PlotView* drift : {constraintDrift_, energyDrift_}) {
    drift->setLogY(true);
    connect(drift, &PlotView::activated, this, [this, drift] {
      driftCurrent_ = drift;
      updateActions();
    });
  }
  constraintDrift_->plotChart()->setPlotTitle(tr("Constraint error"));
  energyDrift_->plotChart()->setPlotTitle(tr("Energy drift: (energy − work) − its value at t0"));
  channels_[constraintDrift_] = {"constraint_error"};
  channels_[energyDrift_] = {kEnergyDrift};

  connect(filter, &QLineEdit::textChanged, tree_, &ChannelTree::setFilter);
  connect(tree_, &ChannelTree::channelActivated, this,
          qOverload<const QString&>(&PlotPanel::addChannel));
  connect(runList_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    const int index = runList_->row(item);
    if (index >= 0 && index < runCount()) setRunShown(index, item->checkState() == Qt::Checked);
  });
  connect(runList_, &QListWidget::itemSelectionChanged, this, &PlotPanel::updateActions);
  connect(tabs_, &QTabWidget::currentChanged, this, &PlotPanel::updateActions);
  setCurrentPlot(addPlot());
}

void PlotPanel::addRun(const RunSeries& run) {
  // A unique label, then the run, the oldest dropped beyond the limit.
  auto series = std::make_shared<RunSeries>(run);
  const auto taken = [this](const QString& label) {
    for (const KeptRun& kept : runs_)
      if (kept.series->label == label) return true;
    return false;
  };
  for (int n = 2; taken(series->label); ++n)
    series->label = run.label + " (" + QString::number(n) + ")";
  for (KeptRun& kept : runs_) kept.shown = false;
  runs_.push_back({std::move(series), true});
  while (runs_.size() > static_cast<std::size_t>(kMaxRuns)) runs_.erase(runs_.begin());
  refreshRunList();
  refreshTree();
  refreshAll();
}

void PlotPanel::removeRun(int index) {
  if (index < 0 || index >= runCount()) return;
  runs_.erase(runs_.begin() + index);
  refreshRunList();
  refreshTree();
  refreshAll();
}

void PlotPanel::clearRuns() {
  runs_.clear();
  refreshRunList();
  refreshTree();
  refreshAll();
}

void PlotPanel::setRunShown(int index, bool shown) {
  if (index < 0 || index >= runCount() || runs_[static_cast<std::size_t>(index)].shown == shown)
    return;
  runs_[static_cast<std::size_t>(index)].shown = shown;
  refreshRunList();
  for (PlotView* plot : plots_) refreshPlot(plot);
}

void PlotPanel::setCurrentPlot(PlotView* plot) {
  current_ = plot;
  for (PlotView* p : plots_) p->setCurrent(p == plot);
  updateActions();
}

PlotView* PlotPanel::addPlot() {
  PlotView* plot = makeView();
  plots_.push_back(plot);
  channels_[plot] = {};
  plotSplitter_->addWidget(plot);
  connect(plot, &PlotView::activated, this, [this, plot] { setCurrentPlot(plot); });
  connect(plot, &PlotView::channelDropped, this,
          [this, plot](const QString& column) { addChannel(plot, column); });
  connect(plot, &PlotView::removeChannelRequested, this,
          [this, plot](const QString& column) { removeChannel(plot, column); });
  tabs_->setCurrentIndex(0);
  updateActions();
  return plot;
}

void PlotPanel::removePlot(PlotView* plot) {
  // The last plot is emptied rather than removed.
  if (plots_.size() <= 1) {
    channels_[plot].clear();
    refreshPlot(plot);
    return;
  }
  std::erase(plots_, plot);
  channels_.remove(plot);
  plot->deleteLater();
  plot->hide();
  if (current_ == plot) setCurrentPlot(plots_.back());
}

void PlotPanel::addChannel(const QString& column) {
  if (!current_) setCurrentPlot(plots_.back());
  addChannel(current_, column);
}

void PlotPanel::addChannel(PlotView* plot, const QString& column) {
  QStringList& channels = channels_[plot];
  if (channels.contains(column)) return;
  channels.append(column);
  // Drift channels read best on a log scale when they start a plot.
  if (channels.size() == 1)
    plot->setLogY(column == kEnergyDrift || column.endsWith("constraint_error"));
  refreshPlot(plot);
  tabs_->setCurrentIndex(0);
  updateActions();
}

void PlotPanel::removeChannel(PlotView* plot, const QString& column) {
  channels_[plot].removeAll(column);
  refreshPlot(plot);
}

void PlotPanel::showDriftView() {
  tabs_->setCurrentIndex(1);
}

void PlotPanel::setCursorTime(double t) {
  cursorTime_ = t;
  for (PlotView* plot : plots_) plot->setCursorTime(t);
  constraintDrift_->setCursorTime(t);
  energyDrift_->setCursorTime(t);
}

PlotView* PlotPanel::makeView() {
  auto* view = new PlotView;
  connect(view, &PlotView::timeClicked, this, &PlotPanel::timeClicked);
  connect(view, &PlotView::logYToggled, this, &PlotPanel::updateActions);
  return view;
}

PlotView* PlotPanel::activePlot() const {
  if (tabs_->currentIndex() == 1) return driftCurrent_ ? driftCurrent_ : constraintDrift_;
  return current_;
}

void PlotPanel::refreshPlot(PlotView* plot) {
  // The plot's channels for each run it shows (every run in the drift view).
  const bool drift = plot == constraintDrift_ || plot == energyDrift_;
  PlotContent content = plot->plotChart()->content();
  content.curves.clear();
  for (const QString& column : channels_.value(plot))
    for (const KeptRun& kept : runs_) {
      if (!drift && !kept.shown) continue;
      if (std::optional<PlotCurve> curve = makeCurve(*kept.series, column))
        content.curves.push_back(std::move(*curve));
    }
  plot->plotChart()->setContent(content);
  plot->setCursorTime(cursorTime_);
}

void PlotPanel::refreshAll() {
  for (PlotView* plot : plots_) refreshPlot(plot);
  refreshPlot(constraintDrift_);
  refreshPlot(energyDrift_);
  updateActions();
}

void PlotPanel::refreshRunList() {
  const QSignalBlocker blocker(runList_);
  runList_->clear();
  for (const KeptRun& kept : runs_) {
    auto* item = new QListWidgetItem(kept.series->label, runList_);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    item->setCheckState(kept.shown ? Qt::Checked : Qt::Unchecked);
    item->setToolTip(tr("%1: %2 frames").arg(kept.series->label).arg(kept.series->frameCount()));
  }
  updateActions();
}

void PlotPanel::refreshTree() {
  // Every kept run's channels, the newest run's first.
  QStringList columns, units;
  for (auto it = runs_.rbegin(); it != runs_.rend(); ++it)
    for (int c = 0; c < it->series->columns.size(); ++c)
      if (!columns.contains(it->series->columns[c])) {
        columns.append(it->series->columns[c]);
        units.append(it->series->units.value(c));
      }
  tree_->setChannels(columns, units);
}

void PlotPanel::updateActions() {
  PlotView* plot = activePlot();
  logAction_->setChecked(plot && plot->logY());
  removePlotAction_->setEnabled(tabs_->currentIndex() == 0 && current_);
  removeRunAction_->setEnabled(!runList_->selectedItems().isEmpty());
}

}  // namespace rlx::ui
