#include "plot/plot_panel.h"

#include "plot/channels.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
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

// A widget of a caption over its content, without margins.
QWidget* captioned(const QString& title, const QList<QWidget*>& content, QWidget* stretched) {
  auto* pane = new QWidget;
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(caption(title));
  for (QWidget* widget : content) layout->addWidget(widget, widget == stretched ? 1 : 0);
  return pane;
}

// The lists' share of the panel along the splitter: a third at most, within [min, max] pixels.
int listsShare(int total) {
  return std::clamp(total * 3 / 10, std::min(140, total / 2), 320);
}

}  // namespace

PlotPanel::PlotPanel(QWidget* parent)
    : QWidget(parent),
      cursorTime_(std::numeric_limits<double>::quiet_NaN()),
      runList_(new QListWidget),
      tree_(new ChannelTree),
      tabs_(new QTabWidget),
      plotSplitter_(new QSplitter(Qt::Vertical)),
      mainSplitter_(new QSplitter(Qt::Horizontal)),
      listSplitter_(new QSplitter(Qt::Vertical)),
      constraintDrift_(makeView()),
      energyDrift_(makeView()) {
  // The lists: the kept runs, then a filter and the channel tree.
  auto* filter = new QLineEdit;
  filter->setPlaceholderText(tr("Filter channels"));
  filter->setClearButtonEnabled(true);
  runList_->setToolTip(tr("Ticked runs are shown in the plots; the drift view shows all runs"));
  runList_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  auto* runBar = new QToolBar;
  runBar->setIconSize(QSize(16, 16));
  removeRunAction_ = runBar->addAction(tr("Remove Run"), this, [this] {
    for (int i = runList_->count() - 1; i >= 0; --i)
      if (runList_->item(i)->isSelected()) removeRun(i);
  });
  listSplitter_->addWidget(captioned(tr("Runs"), {runList_, runBar}, runList_));
  listSplitter_->addWidget(captioned(tr("Channels"), {filter, tree_}, tree_));

  // The plots: a toolbar over the tabs of user plots and the drift view.
  auto* toolbar = new QToolBar;
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  listsAction_ = toolbar->addAction(tr("Channels"));
  listsAction_->setCheckable(true);
  listsAction_->setChecked(true);
  listsAction_->setToolTip(tr("Show or hide the run and channel lists"));
  connect(listsAction_, &QAction::triggered, this, &PlotPanel::setListsShown);
  toolbar->addSeparator();
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
  auto* plotsPane = new QWidget;
  auto* plotsLayout = new QVBoxLayout(plotsPane);
  plotsLayout->setContentsMargins(0, 0, 0, 0);
  plotsLayout->setSpacing(0);
  plotsLayout->addWidget(toolbar);
  plotsLayout->addWidget(tabs_, 1);

  // The plots first and stretched; the lists beside or below them (fitOrientation).
  mainSplitter_->addWidget(plotsPane);
  mainSplitter_->addWidget(listSplitter_);
  mainSplitter_->setStretchFactor(0, 1);
  mainSplitter_->setStretchFactor(1, 0);
  mainSplitter_->setCollapsible(0, false);
  connect(mainSplitter_, &QSplitter::splitterMoved, this, [this] {
    // Dragged by the user: keep the sizes, follow a collapse.
    listsSizedByUser_ = true;
    listsShown_ = mainSplitter_->sizes().value(1) > 0;
    listsAction_->setChecked(listsShown_);
    updateHints();
  });
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(mainSplitter_);

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
  fitOrientation();
  setListsShown(true);
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
  fillEmptyPlots();
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
  updateHints();
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
  updateHints();
  return plot;
}

void PlotPanel::removePlot(PlotView* plot) {
  // The last plot is emptied rather than removed.
  if (plots_.size() <= 1) {
    channels_[plot].clear();
    refreshPlot(plot);
    updateHints();
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
  updateHints();
  tabs_->setCurrentIndex(0);
  updateActions();
}

void PlotPanel::removeChannel(PlotView* plot, const QString& column) {
  channels_[plot].removeAll(column);
  refreshPlot(plot);
  updateHints();
}

void PlotPanel::setListsShown(bool shown) {
  listsShown_ = shown;
  // Sizes along the splitter: the lists get their share or nothing.
  const bool across = mainSplitter_->orientation() == Qt::Horizontal;
  const int total = std::max(1, across ? mainSplitter_->width() : mainSplitter_->height());
  const int lists = shown ? listsShare(total) : 0;
  mainSplitter_->setSizes({total - lists, lists});
  listsAction_->setChecked(shown);
  updateHints();
}

void PlotPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // The lists keep their share until the user drags the splitter.
  if (!fitOrientation() && !listsSizedByUser_) setListsShown(listsShown_);
}

bool PlotPanel::fitOrientation() {
  // Wide: the lists beside the plots, runs over channels; tall: below, runs beside channels.
  const Qt::Orientation wanted = width() >= height() * 6 / 5 ? Qt::Horizontal : Qt::Vertical;
  // Runs over channels: a quarter of the height; beside them: two fifths of the width.
  listSplitter_->setStretchFactor(0, wanted == Qt::Horizontal ? 1 : 2);
  listSplitter_->setStretchFactor(1, 3);
  if (wanted == mainSplitter_->orientation()) return false;
  mainSplitter_->setOrientation(wanted);
  listSplitter_->setOrientation(wanted == Qt::Horizontal ? Qt::Vertical : Qt::Horizontal);
  setListsShown(listsShown_);
  return true;
}

void PlotPanel::fillEmptyPlots() {
  // Only when no plot has a channel of the newest run (none yet, or another model's): its
  // default channels to the current plot.
  if (runs_.empty()) return;
  const RunSeries& newest = *runs_.back().series;
  for (PlotView* plot : plots_)
    for (const QString& column : channels_.value(plot))
      if (newest.hasChannel(column)) return;
  const QStringList channels = defaultChannels(newest.columns);
  if (!current_) setCurrentPlot(plots_.back());
  channels_[current_] = channels;
  current_->setLogY(false);
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
  updateHints();
}

void PlotPanel::updateHints() {
  for (PlotView* plot : plots_) plot->setEmptyHint(hintFor(plot));
  for (PlotView* drift : {constraintDrift_, energyDrift_}) drift->setEmptyHint(hintFor(drift));
}

QString PlotPanel::hintFor(const PlotView* plot) const {
  // What would fill the plot, in the order the user has to do it.
  if (runs_.empty()) return tr("Run the analysis to get results");
  if (plot == constraintDrift_ || plot == energyDrift_)
    return tr("The kept runs have no %1").arg(channels_.value(plot).value(0));
  if (std::none_of(runs_.begin(), runs_.end(), [](const KeptRun& r) { return r.shown; }))
    return tr("Tick a run in the Runs list to show it");
  if (!channels_.value(plot).isEmpty())
    return tr("The shown runs have none of this plot's channels");
  return listsShown() ? tr("Double-click a channel to plot it, or drag it here")
                      : tr("Show the Channels, then double-click one to plot it");
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
