#pragma once
// Runs an analysis on a worker thread. The worker owns its copy of the model and its state; the
// UI thread never waits on it. Progress arrives through queued signals (at most every 100 ms);
// cancel() stops the run at its next frame and the frames computed so far are delivered.

#include "model/model.h"
#include "plot/run_series.h"
#include "results/results.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <memory>

namespace rlx::ui {

// One finished (or cancelled, or failed) run: the model it ran, its results, and the same
// results as the plots read them (computed on the worker thread).
struct Run {
  std::shared_ptr<const Model> model;
  Results results;
  RunSeries series;  // series.label: "hht h=0.001", for legends and the runs list
};

class Simulation : public QObject {
  Q_OBJECT
 public:
  explicit Simulation(QObject* parent = nullptr);
  ~Simulation() override;  // cancels a running analysis and waits for the thread

  bool isRunning() const { return thread_ != nullptr; }

  // Starts the model's analysis (assembly, then its type). Ignored while a run is going.
  void start(const Model& model);
  void cancel();

 signals:
  void progress(double fraction, double time);  // fraction of the time span done
  void finished(std::shared_ptr<const rlx::ui::Run> run);

 private:
  QThread* thread_ = nullptr;
  std::atomic<bool> cancel_{false};
  std::shared_ptr<const Run> result_;  // written by the worker, read after it ended
};

}  // namespace rlx::ui

Q_DECLARE_METATYPE(std::shared_ptr<const rlx::ui::Run>)
