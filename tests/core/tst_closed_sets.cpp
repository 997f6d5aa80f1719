// The closed sets are enums with one name table each (docs/architecture.md, "Closed sets are
// enums"): the integrators' names round-trip, an unknown name gets the compiler's message that
// lists them all, and a run reports its analysis and integrator as enums that the summary names.
#include "model/integrator.h"
#include "output/summary.h"
#include "solve/analysis/analysis.h"
#include "test_support.h"

#include <QtTest>

using namespace rlx;

class TestClosedSets : public QObject {
  Q_OBJECT
 private slots:
  void integratorNamesRoundTrip();
  void unknownIntegratorNamed();
  void runReportsAnalysisAndIntegrator();
};

void TestClosedSets::integratorNamesRoundTrip() {
  std::vector<std::string> names;
  for (const Integrator integrator : kIntegrators) {
    names.push_back(integratorName(integrator));
    QCOMPARE(integratorFromName(names.back()), std::optional<Integrator>(integrator));
  }
  QCOMPARE(names, (std::vector<std::string>{"hht", "bdf", "corrected-rk", "corrected-rk45"}));
  QCOMPARE(integratorNameList(), std::string("hht, bdf, corrected-rk, corrected-rk45"));
  for (const char* unknown : {"", "rk4", "HHT", "corrected-rk4"})
    QVERIFY2(!integratorFromName(unknown), unknown);
}

void TestClosedSets::unknownIntegratorNamed() {
  Spec spec = test::loadSpec(test::examplePath("four_bar.rlx"));
  AnalysisSpec analysis = spec.analysis.value_or(AnalysisSpec{});
  analysis.type = AnalysisType::Dynamics;
  analysis.integrator = "rk4";
  spec.analysis = analysis;
  const CompileResult compiled = compile(spec);
  QVERIFY(!compiled.model);
  bool found = false;
  for (const Diagnostic& d : compiled.diagnostics)
    found = found || (d.element == "analysis" && d.field == "integrator" &&
                      d.message == "\"rk4\" is unknown (hht, bdf, corrected-rk, corrected-rk45)");
  QVERIFY(found);
}

void TestClosedSets::runReportsAnalysisAndIntegrator() {
  Spec spec = test::loadSpec(test::examplePath("four_bar.rlx"));
  AnalysisSpec analysis = spec.analysis.value_or(AnalysisSpec{});
  analysis.endTime = 0.05;
  analysis.step = 1e-3;
  analysis.outputStep = 1e-2;
  analysis.type = AnalysisType::Kinematics;
  spec.analysis = analysis;
  const Model kinematic = test::compileOrFail(spec);
  const AnalysisOutcome kinematics = runAnalysis(kinematic, {});
  QVERIFY(kinematics.results.report.ok());
  QCOMPARE(kinematics.results.analysis, AnalysisType::Kinematics);
  QVERIFY(!kinematics.results.integrator);
  const nlohmann::json kinematicsSummary = makeSummary(kinematic, kinematics.results, true);
  QCOMPARE(kinematicsSummary["analysis"].get<std::string>(), std::string("kinematics"));
  QCOMPARE(kinematicsSummary["integrator"].get<std::string>(), std::string());

  analysis.type = AnalysisType::Dynamics;
  analysis.integrator = "bdf";
  spec.analysis = analysis;
  const Model dynamic = test::compileOrFail(spec);
  QCOMPARE(dynamic.integrator, Integrator::BDF);
  const AnalysisOutcome dynamics = runAnalysis(dynamic, {});
  QVERIFY2(dynamics.results.report.ok(), dynamics.results.report.message.c_str());
  QCOMPARE(dynamics.results.analysis, AnalysisType::Dynamics);
  QCOMPARE(dynamics.results.integrator, std::optional<Integrator>(Integrator::BDF));
  const nlohmann::json dynamicsSummary = makeSummary(dynamic, dynamics.results, true);
  QCOMPARE(dynamicsSummary["analysis"].get<std::string>(), std::string("dynamics"));
  QCOMPARE(dynamicsSummary["integrator"].get<std::string>(), std::string("bdf"));
}

QTEST_GUILESS_MAIN(TestClosedSets)
#include "tst_closed_sets.moc"
