#include "run/simulation.h"

#include "solve/analysis/analysis.h"

#include <QElapsedTimer>

#include <sys/resource.h>
#include <unistd.h>

namespace rlx::ui {
namespace {

constexpr int kWorkerNice = 10;
constexpr qint64 kReportInterval = 100;  // ms between progress reports

}  // namespace

Simulation::Simulation(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const Run>>();
}

Simulation::~Simulation() {
  if (!thread_) return;
  cancel();
  thread_->wait();
}

void Simulation::start(const Model& model) {
  if (thread_) return;
  cancel_ = false;
  auto shared = std::make_shared<const Model>(model);
  thread_ = QThread::create([this, shared] {
    // The solver yields to the UI thread when the cores are busy (Linux: a per-thread nice).
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kWorkerNice);
    const double t0 = 0.0, span = std::max(shared->endTime - t0, 1e-300);
    QElapsedTimer sinceReport;
    sinceReport.start();
    const auto observer = [&](const Frame& frame) {
      if (sinceReport.elapsed() >= kReportInterval) {
        sinceReport.restart();
        emit progress(std::clamp((frame.state.t - t0) / span, 0.0, 1.0), frame.state.t);
      }
      return !cancel_.load();
    };
    auto run = std::make_shared<Run>();
    run->model = shared;
    run->results = runAnalysis(*shared, observer).results;
    run->series = runSeriesFromResults(*shared, run->results);
    result_ = run;
  });
  // Delivered on the UI thread once the worker has ended, so a new run can start at once.
  connect(thread_, &QThread::finished, this, [this] {
    thread_->deleteLater();
    thread_ = nullptr;
    emit finished(std::move(result_));
  });
  thread_->start();
}

void Simulation::cancel() { cancel_ = true; }

}  // namespace rlx::ui
