// Values that stop being numbers during a run, through the path a user starts (runAnalysis):
// a force that becomes NaN at t = 3 s, a motion that does, and a user constraint that divides by
// zero at the start. Every analysis ends with NotFinite, names the element and the cause, and
// keeps the frames computed before it (all finite).
#include "solve/analysis/analysis.h"
#include "test_support.h"

#include <QtTest>

using namespace rlx;

namespace {

// tests/data/pendulum_force_nan_at_3s.rlx, its analysis set: statics at output steps of 0.5 s,
// kinematics with the pin driven at 1 rad/s (the force still pushes; the efforts need it).
Spec nanForceAt3s(const QString& analysis) {
  Spec spec = test::loadSpec(test::testDataPath("pendulum_force_nan_at_3s.rlx"));
  AnalysisSpec& a = *spec.analysis;
  if (analysis == "statics") {
    a.type = AnalysisType::Statics;
    a.outputStep = Number(0.5);
  } else if (analysis == "kinematics") {
    a.type = AnalysisType::Kinematics;
    MotionSpec motion;
    motion.name = "driver";
    motion.joint = "pin";
    motion.function = "t";
    spec.motions.push_back(motion);
  } else {
    a.integrator = analysis.toStdString();
  }
  return spec;
}

bool framesFinite(const Results& results) {
  for (const Frame& f : results.frames)
    if (!f.state.q.allFinite() || !f.state.v.allFinite() || !f.vdot.allFinite() ||
        !f.lambda.allFinite())
      return false;
  return true;
}

// The run ended NotFinite naming `element` with `cause`, its last frame at `lastFrame`, and every
// frame kept is finite.
void checkEndedAt(const Results& results, const std::string& element, const QString& cause,
                  double lastFrame) {
  const SolveReport& report = results.report;
  qInfo("%s", report.message.c_str());
  QCOMPARE(report.status, SolveStatus::NotFinite);
  QCOMPARE(report.elements, std::vector<std::string>{element});
  QVERIFY2(QString::fromStdString(report.message).contains(cause), report.message.c_str());
  QVERIFY2(report.time >= lastFrame && report.time <= lastFrame + 0.5,
           qPrintable(QString::number(report.time)));
  QVERIFY(!results.frames.empty());
  QCOMPARE(results.frames.back().state.t, lastFrame);
  QVERIFY(framesFinite(results));
}

}  // namespace

class TestNonFiniteRuns : public QObject {
  Q_OBJECT

 private slots:
  void forceNanAt3s_data();
  void forceNanAt3s();
  void motionNanAt3s();
  void userConstraintDividesByZeroAtStart_data();
  void userConstraintDividesByZeroAtStart();
  void userConstraintNanAfter1_5s_data();
  void userConstraintNanAfter1_5s();
};

void TestNonFiniteRuns::forceNanAt3s_data() {
  QTest::addColumn<QString>("analysis");
  for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"})
    QTest::newRow(integrator) << QString(integrator);
  QTest::newRow("statics") << "statics";  // frames every 0.5 s: fails at 3.5 s
  QTest::newRow("kinematics") << "kinematics";
}

void TestNonFiniteRuns::forceNanAt3s() {
  QFETCH(QString, analysis);
  const Model model = test::compileOrFail(nanForceAt3s(analysis));
  checkEndedAt(runAnalysis(model, {}).results, "push", R"(the force "push" is not finite)", 3.0);
}

void TestNonFiniteRuns::motionNanAt3s() {
  // The driver's angle sqrt(3 - t) turns at an infinite rate at 3 s and is NaN after: the motion
  // is named at 3 s, the frames up to 2.99 s are kept.
  Spec spec = nanForceAt3s("kinematics");
  spec.forces.clear();
  spec.motions.front().function = "sqrt(3 - t)";
  checkEndedAt(runAnalysis(test::compileOrFail(spec), {}).results, "driver",
               R"(the constraint "driver" is not finite: it has an infinite velocity term)", 2.99);
}

void TestNonFiniteRuns::userConstraintDividesByZeroAtStart_data() {
  QTest::addColumn<QString>("analysis");
  for (const char* analysis : {"assembly", "statics", "dynamics"})
    QTest::newRow(analysis) << QString(analysis);
}

void TestNonFiniteRuns::userConstraintDividesByZeroAtStart() {
  QFETCH(QString, analysis);
  Spec spec = test::loadSpec(test::testDataPath("user_constraint_divides_by_zero.rlx"));
  spec.analysis->type = *analysisTypeFromName(analysis.toStdString());
  const AnalysisOutcome outcome = runAnalysis(test::compileOrFail(spec), {});
  const SolveReport& report = outcome.results.report;
  qInfo("%s", report.message.c_str());
  QCOMPARE(report.status, SolveStatus::NotFinite);
  QCOMPARE(report.elements, std::vector<std::string>{"pin"});
  QCOMPARE(report.message,
           std::string(R"(assembly failed: the constraint "pin" is not finite: equation pin.1 is NaN)"));
  QCOMPARE(report.time, 0.0);
  QVERIFY(outcome.results.frames.empty());
}

void TestNonFiniteRuns::userConstraintNanAfter1_5s_data() {
  QTest::addColumn<QString>("analysis");
  for (const char* analysis : {"hht", "bdf", "corrected-rk", "corrected-rk45", "statics"})
    QTest::newRow(analysis) << QString(analysis);
}

void TestNonFiniteRuns::userConstraintNanAfter1_5s() {
  // The pin's first equation times 1 + sqrt(1.5005 - t): NaN after 1.5005 s, in the step from
  // 1.5 s (statics: at its next output time, 1.51 s).
  QFETCH(QString, analysis);
  Spec spec = test::loadSpec(test::testDataPath("user_constraint_divides_by_zero.rlx"));
  spec.constraints.front().equations.front() =
      "(pendulum.x - l/2*cos(pendulum.angle))*(1 + sqrt(1.5005 - t))";
  spec.analysis->endTime = 2.0;
  if (analysis == "statics")
    spec.analysis->type = AnalysisType::Statics;
  else
    spec.analysis->integrator = analysis.toStdString();
  checkEndedAt(runAnalysis(test::compileOrFail(spec), {}).results, "pin",
               R"(the constraint "pin" is not finite: equation pin.1 is NaN)", 1.5);
}

QTEST_GUILESS_MAIN(TestNonFiniteRuns)
#include "tst_non_finite_runs.moc"
