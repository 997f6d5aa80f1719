// The main window's simulation: start and cancel runs, show their results on the timeline.

#include "main_window.h"

#include "docks/diagnostics_dock.h"
#include "plot/plot_panel.h"
#include "timeline/timeline.h"

#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>

namespace rlx::ui {
namespace {

constexpr std::size_t kRunsKept = 8;

}  // namespace

void MainWindow::runAnalysis() {
  if (simulation_.isRunning()) return;
  const std::optional<Model>& model = document_.model();
  if (!model) {
    findChild<QDockWidget*>("diagnosticsDock")->raise();
    QMessageBox::warning(this, tr("Run"),
                         tr("The model has errors and cannot run; the Diagnostics list them."));
    return;
  }
  timeline_->pause();
  progress_->setValue(0);
  progress_->show();
  status_->setText(tr("Running…"));
  simulation_.start(*model);
  updateActions();
}

void MainWindow::runFinished(std::shared_ptr<const Run> run) {
  progress_->hide();
  updateActions();
  const Results& results = run->results;
  diagnostics_->showRun(*run);
  if (!results.report.ok()) findChild<QDockWidget*>("diagnosticsDock")->raise();
  const QString how =
      results.report.ok() ? tr("finished")
      : results.report.status == SolveStatus::Cancelled ? tr("cancelled")
                                                        : tr("failed: %1").arg(QString::fromStdString(results.report.message));
  const auto count = [](std::size_t n, const QString& one, const QString& many) {
    return QString::number(n) + " " + (n == 1 ? one : many);
  };
  status_->setText(tr("%1 %2 — %3, %4, %5 s")
                       .arg(run->series.label, how)
                       .arg(count(results.frames.size(), tr("frame"), tr("frames")))
                       .arg(count(static_cast<std::size_t>(results.stats.steps), tr("step"),
                                  tr("steps")))
                       .arg(results.stats.wallTime, 0, 'g', 3));
  if (!results.frames.empty()) {
    runs_.push_back(run);
    if (runs_.size() > kRunsKept) runs_.erase(runs_.begin());
    std::vector<double> times;
    times.reserve(results.frames.size());
    for (const Frame& frame : results.frames) times.push_back(frame.state.t);
    timeline_->setTimes(std::move(times));
    plots_->addRun(run->series);
  }
  emit runCompleted();
}

}  // namespace rlx::ui
