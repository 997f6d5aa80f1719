// A run started from the desktop application (the Run action: the document's model, run on the
// Simulation's worker thread) gives the same bits as reuleaux-cli with the same options: its
// results written by the CLI's writer are byte-identical to the CLI's file, and the numbers the
// plots hold are those the CLI's file reads back as, with the application in a locale whose
// decimal separator is a comma. And a run that meets a value that is not a
// number ends with the element named on screen and the frames before it on the timeline and in
// the plots.

#include "decimal_comma_locale.h"
#include "docks/diagnostics_dock.h"
#include "document/commands.h"
#include "document/edits.h"
#include "main_window.h"
#include "output/csv.h"
#include "plot/plot_panel.h"
#include "plot/run_series.h"
#include "run/simulation.h"
#include "test_support.h"
#include "timeline/timeline.h"

#include <QDockWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace rlx;
using namespace rlx::ui;

namespace {

QString modelPath(const QString& file) {
  const std::string name = file.section('/', 1).toStdString();
  return QString::fromStdString(file.startsWith("examples/") ? test::examplePath(name)
                                                             : test::testDataPath(name));
}

QByteArray readBytes(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The options of a row as the CLI takes them and as the analysis dialog sets them.
struct Options {
  QString analysis, integrator;
  double end = 0.5;
};

AnalysisSpec withOptions(AnalysisSpec analysis, const Options& o) {
  analysis.type = *analysisTypeFromName(o.analysis.toStdString());
  analysis.endTime = o.end;
  if (!o.integrator.isEmpty()) analysis.integrator = o.integrator.toStdString();
  return analysis;
}

QStringList cliOptions(const Options& o) {
  QStringList out{"--analysis", o.analysis, "--end", QString::number(o.end)};
  if (!o.integrator.isEmpty()) out << "--integrator" << o.integrator;
  return out;
}

// Runs the window's model as the Run action does and returns the run (also one without frames).
std::shared_ptr<const Run> runFromWindow(MainWindow& window) {
  QSignalSpy finished(window.simulation(), &Simulation::finished);
  QSignalSpy completed(&window, &MainWindow::runCompleted);
  window.action("run")->trigger();
  if (!completed.wait(120000) || finished.isEmpty()) return nullptr;
  return finished.front().front().value<std::shared_ptr<const Run>>();
}

}  // namespace

class TestRunDeterminism : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void guiRunEqualsCli_data();
  void guiRunEqualsCli();
  void nanForceEndsTheRunKeepingTheFrames();
  void userConstraintDividingByZeroIsNamed();
  void floorStepsAreReported();
  void cleanupTestCase() { window_.reset(); }

 private:
  QTemporaryDir dir_;
  QTemporaryDir recovery_;
  std::unique_ptr<MainWindow> window_;
};

void TestRunDeterminism::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(dir_.isValid() && recovery_.isValid());
  // The application as a German desktop runs it: LC_NUMERIC with a decimal comma.
  if (!test::useDecimalCommaLocale(dir_.path()))
    qWarning("no locale with a decimal comma: the runs compare in the C locale only");
  window_ = std::make_unique<MainWindow>(recovery_.path());
  window_->show();
}

void TestRunDeterminism::guiRunEqualsCli_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("analysis");
  QTest::addColumn<QString>("integrator");
  const auto row = [](const char* file, const char* analysis, const char* integrator = "") {
    QTest::addRow("%s %s %s", file, analysis, integrator)
        << QString(file) << QString(analysis) << QString(integrator);
  };
  row("examples/four_bar.rlx", "assembly");
  row("examples/four_bar.rlx", "kinematics");
  row("examples/spatial_slider_crank.rlx", "kinematics");
  row("data/four_bar_duplicate_pin.rlx", "kinematics");
  row("data/statics_four_bar_spring.rlx", "statics");
  for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"}) {
    row("examples/four_bar.rlx", "dynamics", integrator);
    row("data/rolling_disk_user.rlx", "dynamics", integrator);
  }
  row("data/four_bar_duplicate_pin.rlx", "dynamics", "hht");
}

void TestRunDeterminism::guiRunEqualsCli() {
  QFETCH(QString, file);
  QFETCH(QString, analysis);
  QFETCH(QString, integrator);
  const Options options{analysis, integrator};

  // The CLI's results file.
  const QString cliCsv = dir_.filePath("cli.csv");
  const test::CliRun cli = test::runCli(QStringList{"run", modelPath(file), "-o", cliCsv, "--quiet"} +
                                        cliOptions(options));
  QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));

  // The same model and options in the window, run on the worker thread.
  QVERIFY(window_->openPath(modelPath(file)));
  Document* doc = window_->document();
  pushEdit(doc, withAnalysis(doc->spec(), withOptions(doc->spec().analysis.value_or(AnalysisSpec{}), options)),
           "options");
  QVERIFY(doc->model());
  const std::shared_ptr<const Run> run = runFromWindow(*window_);
  QVERIFY(run);
  QVERIFY2(run->results.report.ok(), run->results.report.message.c_str());

  // Its results written as the CLI writes them: the same bytes.
  std::ostringstream written;
  QVERIFY(writeCsv(written, *run->model, run->results));
  const QByteArray gui = QByteArray::fromStdString(written.str());
  const QByteArray reference = readBytes(cliCsv);
  QVERIFY(reference.count('\n') >= 2);
  QVERIFY2(gui == reference, "the GUI's run and the CLI's file differ");

  // The plots' numbers are the CLI file's, bit for bit.
  QString error;
  const std::optional<RunSeries> read = readRunSeriesCsv(cliCsv, &error);
  QVERIFY2(read, qPrintable(error));
  QCOMPARE(run->series.columns, read->columns);
  QCOMPARE(run->series.values.rows(), read->values.rows());
  QVERIFY(run->series.values.cwiseEqual(read->values).all());
}

void TestRunDeterminism::nanForceEndsTheRunKeepingTheFrames() {
  // sqrt(3 - t) is NaN after t = 3 s: hht ends in the step from 3 s to 3.001 s.
  QVERIFY(window_->openPath(modelPath("data/pendulum_force_nan_at_3s.rlx")));
  const std::shared_ptr<const Run> run = runFromWindow(*window_);
  QVERIFY(run);
  const Results& results = run->results;
  QCOMPARE(results.report.status, SolveStatus::NotFinite);
  QCOMPARE(results.report.elements, std::vector<std::string>{"push"});
  QCOMPARE(results.frames.back().state.t, 3.0);
  QCOMPARE(results.frames.size(), std::size_t(301));  // 0, 0.01, ..., 3

  // The message on screen names the force and the time; the frames are on the timeline and in
  // the plots.
  DiagnosticsDock* dock = window_->diagnostics();
  QVERIFY(dock->errorCount() >= 1);
  const QString shown = dock->item(dock->count() - 1)->text();
  QVERIFY2(shown.contains("t = 3") && shown.contains(R"(the force "push" is not finite)"),
           qPrintable(shown));
  QCOMPARE(window_->timeline()->frameCount(), 301);
  QCOMPARE(window_->plots()->run(window_->plots()->runCount() - 1).frameCount(), 301);
  window_->timeline()->setFrame(300);
  QCOMPARE(window_->timeline()->frame(), 300);
}

void TestRunDeterminism::userConstraintDividingByZeroIsNamed() {
  // The user constraint "pin" divides by t: 0/0 at the start. No frame; the constraint is named.
  QVERIFY(window_->openPath(modelPath("data/user_constraint_divides_by_zero.rlx")));
  const int runsBefore = window_->plots()->runCount();
  const std::shared_ptr<const Run> run = runFromWindow(*window_);
  QVERIFY(run);
  QCOMPARE(run->results.report.status, SolveStatus::NotFinite);
  QCOMPARE(run->results.report.elements, std::vector<std::string>{"pin"});
  QVERIFY(run->results.frames.empty());
  DiagnosticsDock* dock = window_->diagnostics();
  const QString shown = dock->item(dock->count() - 1)->text();
  QVERIFY2(shown.contains(R"(the constraint "pin" is not finite: equation pin.1 is NaN)"),
           qPrintable(shown));
  QCOMPARE(window_->plots()->runCount(), runsBefore);
  QVERIFY(window_->action("run")->isEnabled());
}

void TestRunDeterminism::floorStepsAreReported() {
  // corrected-rk45 at 1e-10 on the double four-bar: its third pass (t = 2.65 s) is stepped across
  // at the error floor (it used to stop there). The run ends, and the diagnostics dock says so
  // as information, next to the plot of the whole run.
  QVERIFY(window_->openPath(modelPath("examples/double_four_bar.rlx")));
  Document* doc = window_->document();
  AnalysisSpec analysis = doc->spec().analysis.value_or(AnalysisSpec{});
  analysis.integrator = "corrected-rk45";
  analysis.tolerance = 1e-10;
  analysis.endTime = 3.0;
  pushEdit(doc, withAnalysis(doc->spec(), analysis), "tight tolerance");
  const std::shared_ptr<const Run> run = runFromWindow(*window_);
  QVERIFY(run);
  QVERIFY2(run->results.report.ok(), run->results.report.message.c_str());
  QVERIFY(run->results.stats.floorSteps >= 1);
  DiagnosticsDock* dock = window_->diagnostics();
  QCOMPARE(dock->errorCount(), 0);
  bool listed = false;
  for (int i = 0; i < dock->count(); ++i)
    listed = listed || dock->item(i)->text().contains("across a singular configuration met the "
                                                      "tolerance only to");
  QVERIFY(listed);
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    window_->findChild<QDockWidget*>("diagnosticsDock")->raise();
    QTest::qWait(300);
    window_->grab().save(shots + "/floor_steps_reported.png");
  }
}

QTEST_MAIN(TestRunDeterminism)
#include "tst_run_determinism.moc"
