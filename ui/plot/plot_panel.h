#pragma once
// The plots dock: the kept runs, the channel tree and several plots at once, plus the
// ready-made "Constraint and energy drift" view.
//
// Runs: addRun() keeps each finished run (at most kMaxRuns, the oldest dropped first). The
// newest run is shown in the user's plots and earlier ones are hidden but kept: tick them in
// the run list to compare, or remove them. The drift view overlays every kept run:
// |constraint_error| and |energy_drift| on log scales, one curve per run. When no plot has a
// channel of a new run (none yet, or another model's), the run's defaultChannels() (channels.h)
// replace the current plot's, so a run shows something at once; an empty plot says what fills
// it.
//
// Layout: the plots get most of the panel, the run and channel lists the rest, in a splitter
// beside the plots when the panel is wide and below them when it is tall (a dock at the side).
// The Channels toggle of the toolbar (or dragging the splitter to the edge) hides the lists.
//
// Plots: each plot holds a list of channels and shows them for every shown run. A channel goes
// to the current plot (the last one clicked; framed) by double-click or Enter in the tree, the
// Add button, or by dragging it onto any plot. The time cursor is forwarded to every plot, and a
// click in any plot emits timeClicked.

#include "plot/channel_tree.h"
#include "plot/plot_view.h"
#include "plot/run_series.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <vector>

class QAction;
class QListWidget;
class QSplitter;
class QTabWidget;

namespace rlx::ui {

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kMaxRuns = 8;

  explicit PlotPanel(QWidget* parent = nullptr);

  // Runs, oldest first. A label already kept gets " (2)", " (3)", ... appended.
  void addRun(const RunSeries& run);
  void removeRun(int index);
  void clearRuns();
  int runCount() const { return static_cast<int>(runs_.size()); }
  const RunSeries& run(int index) const { return *runs_[static_cast<std::size_t>(index)].series; }
  bool isRunShown(int index) const { return runs_[static_cast<std::size_t>(index)].shown; }
  void setRunShown(int index, bool shown);

  // The user's plots.
  int plotCount() const { return static_cast<int>(plots_.size()); }
  PlotView* plot(int index) const { return plots_[static_cast<std::size_t>(index)]; }
  PlotView* currentPlot() const { return current_; }
  void setCurrentPlot(PlotView* plot);
  PlotView* addPlot();
  void removePlot(PlotView* plot);  // the last plot stays (emptied)
  QStringList channelsOf(const PlotView* plot) const { return channels_.value(plot); }
  void addChannel(const QString& column);  // to the current plot
  void addChannel(PlotView* plot, const QString& column);
  void removeChannel(PlotView* plot, const QString& column);

  // The drift view: its two plots, and showing its tab.
  PlotView* constraintDriftPlot() const { return constraintDrift_; }
  PlotView* energyDriftPlot() const { return energyDrift_; }
  void showDriftView();

  ChannelTree* channelTree() const { return tree_; }

  // The run and channel lists beside or below the plots.
  bool listsShown() const { return listsShown_; }
  void setListsShown(bool shown);
  QSplitter* mainSplitter() const { return mainSplitter_; }

 public slots:
  void setCursorTime(double t);

 signals:
  void timeClicked(double t);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct KeptRun {
    std::shared_ptr<const RunSeries> series;
    bool shown = true;
  };

  PlotView* makeView();
  PlotView* activePlot() const;  // the plot the toolbar acts on
  void refreshPlot(PlotView* plot);
  void refreshAll();
  void refreshRunList();
  void refreshTree();
  void updateActions();
  void updateHints();
  QString hintFor(const PlotView* plot) const;
  bool fitOrientation();  // true when it turned the splitter
  void fillEmptyPlots();

  std::vector<KeptRun> runs_;
  std::vector<PlotView*> plots_;
  QHash<const PlotView*, QStringList> channels_;
  PlotView* current_ = nullptr;
  PlotView* driftCurrent_ = nullptr;
  double cursorTime_;
  bool listsShown_ = true;
  bool listsSizedByUser_ = false;

  QListWidget* runList_;
  ChannelTree* tree_;
  QTabWidget* tabs_;
  QSplitter* plotSplitter_;
  QSplitter* mainSplitter_;
  QSplitter* listSplitter_;
  PlotView* constraintDrift_;
  PlotView* energyDrift_;
  QAction* logAction_ = nullptr;
  QAction* removePlotAction_ = nullptr;
  QAction* removeRunAction_ = nullptr;
  QAction* listsAction_ = nullptr;
};

}  // namespace rlx::ui
