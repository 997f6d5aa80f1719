// The same model and options give bit-identical results: every analysis and every dynamics
// integrator, on planar and spatial models, with user constraints (holonomic and nonholonomic)
// and with redundant constraints, run twice in one process. Between the two runs the process runs
// other models (a larger one among them), so state kept across runs (thread-local scratch,
// caches) would show. What is compared: the bytes of the CSV results file and the summary without
// its wall time (the only entry that is not a result of the computation). And the numbers are
// written the same whatever the process's locale (the desktop application takes it from the
// environment).
#include "decimal_comma_locale.h"
#include "output/csv.h"
#include "output/summary.h"
#include "solve/analysis/analysis.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QtTest>

#include <clocale>
#include <cstdio>
#include <sstream>

using namespace rlx;

namespace {

// A model file (examples/ or tests/data/) with its analysis set as the row says.
struct Case {
  QString file;        // "examples/four_bar.rlx" or "data/..."
  QString analysis;    // assembly | kinematics | statics | dynamics
  QString integrator;  // dynamics only
  bool variableStep = false;
};

Spec caseSpec(const Case& c) {
  const std::string name = c.file.section('/', 1).toStdString();
  Spec spec = test::loadSpec(c.file.startsWith("examples/") ? test::examplePath(name)
                                                            : test::testDataPath(name));
  AnalysisSpec& analysis = spec.analysis ? *spec.analysis : spec.analysis.emplace();
  analysis.type = *analysisTypeFromName(c.analysis.toStdString());
  analysis.endTime = 0.5;
  analysis.step = 1e-3;
  analysis.outputStep = Number(0.01);
  if (analysis.type == AnalysisType::Statics) analysis.outputStep = Number(0.25);
  if (analysis.type == AnalysisType::Dynamics) {
    analysis.integrator = c.integrator.toStdString();
    analysis.variableStep = c.variableStep;
  }
  return spec;
}

// The results file and the summary (without wall_time_s) of one run of `spec`, compiled anew.
struct Written {
  std::string csv;
  std::string summary;
  SolveReport report;
};

Written runAndWrite(const Spec& spec) {
  const Model model = test::compileOrFail(spec);
  const AnalysisOutcome outcome = runAnalysis(model, {});
  Written out;
  std::ostringstream csv;
  if (!writeCsv(csv, model, outcome.results)) qFatal("writing the CSV to memory failed");
  out.csv = csv.str();
  nlohmann::json summary = makeSummary(model, outcome.results, outcome.assembled);
  summary.erase("wall_time_s");
  out.summary = summary.dump(1);
  out.report = outcome.results.report;
  return out;
}

// The first line where two texts differ, both versions, for the failure message.
QByteArray firstDifference(const std::string& a, const std::string& b) {
  std::istringstream ia(a), ib(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool moreA = static_cast<bool>(std::getline(ia, la));
    const bool moreB = static_cast<bool>(std::getline(ib, lb));
    if (!moreA && !moreB) return "no line differs (the line endings do)";
    if (la != lb || moreA != moreB)
      return QByteArray("line ") + QByteArray::number(line) + ":\n  " + la.c_str() + "\n  " +
             lb.c_str();
  }
}

}  // namespace

class TestDeterminism : public QObject {
  Q_OBJECT

 private slots:
  void twiceInOneProcess_data();
  void twiceInOneProcess();
  void numbersIgnoreTheLocale();
};

void TestDeterminism::twiceInOneProcess_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("analysis");
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<bool>("variableStep");
  const auto row = [](const char* file, const char* analysis, const char* integrator = "",
                      bool variableStep = false) {
    QTest::addRow("%s %s%s%s", file, analysis, *integrator ? " " : "",
                  (QByteArray(integrator) + (variableStep ? " variable-step" : "")).constData())
        << QString(file) << QString(analysis) << QString(integrator) << variableStep;
  };
  // Assembly, kinematics and statics on planar, spatial and redundant models (the spatial one
  // with every joint family and user constraints only assembles).
  for (const char* file : {"examples/four_bar.rlx", "examples/spatial_slider_crank.rlx",
                           "data/four_bar_duplicate_pin.rlx"}) {
    row(file, "assembly");
    row(file, "kinematics");
  }
  row("data/rich_spatial.rlx", "assembly");
  for (const char* file : {"data/statics_four_bar_spring.rlx", "data/statics_pendulum_spring_3d.rlx",
                           "data/statics_driven_crank_link.rlx"})
    row(file, "statics");
  // Every dynamics integrator: planar, spatial, user constraints (the knife edge and the coin are
  // nonholonomic), redundant constraints.
  for (const char* file : {"examples/four_bar.rlx", "examples/heavy_top.rlx",
                           "examples/knife_edge_sled.rlx", "examples/user_pendulum.rlx",
                           "data/rolling_disk_user.rlx", "data/four_bar_duplicate_pin.rlx"}) {
    for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"})
      row(file, "dynamics", integrator);
    row(file, "dynamics", "hht", true);
  }
}

void TestDeterminism::twiceInOneProcess() {
  QFETCH(QString, file);
  QFETCH(QString, analysis);
  QFETCH(QString, integrator);
  QFETCH(bool, variableStep);
  const Spec spec = caseSpec({file, analysis, integrator, variableStep});
  const Written first = runAndWrite(spec);
  QVERIFY2(first.report.ok(), first.report.message.c_str());
  QVERIFY(std::count(first.csv.begin(), first.csv.end(), '\n') >= 2);

  // Other runs in between: a larger planar model and a spatial one, another integrator.
  for (const char* other : {"examples/watt_six_bar.rlx", "examples/bricard.rlx"})
    runAndWrite(caseSpec({other, "dynamics", "hht"}));

  const Written second = runAndWrite(spec);
  QVERIFY2(first.csv == second.csv, firstDifference(first.csv, second.csv).constData());
  QVERIFY2(first.summary == second.summary,
           firstDifference(first.summary, second.summary).constData());
}

void TestDeterminism::numbersIgnoreTheLocale() {
  const Spec spec = caseSpec({"examples/four_bar.rlx", "dynamics", "hht"});
  const Written inC = runAndWrite(spec);
  QTemporaryDir dir;
  if (!test::useDecimalCommaLocale(dir.path())) QSKIP("no locale with a decimal comma is installed or can be built");
  char comma[8];
  std::snprintf(comma, sizeof comma, "%.1f", 0.5);
  QCOMPARE(QByteArray(comma), QByteArray("0,5"));  // the locale is in effect
  const std::string half = formatNumber(0.5);
  const Written inGerman = runAndWrite(spec);
  std::setlocale(LC_NUMERIC, "C");
  QCOMPARE(half, std::string("0.5"));
  QVERIFY2(inC.csv == inGerman.csv, firstDifference(inC.csv, inGerman.csv).constData());
}

QTEST_GUILESS_MAIN(TestDeterminism)
#include "tst_determinism.moc"
