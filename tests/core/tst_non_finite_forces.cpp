// Forces that are finite in the model file but overflow in the run: a weight m g beyond the
// largest double, a spatial body's inertia forces omega x J omega, a spring's stiffness times its
// stretch. Every analysis that needs the forces stops with a message naming the element and the
// cause, through the whole path a user starts (runAnalysis: assembly at t0, then the analysis).
#include "solve/analysis/analysis.h"
#include "test_support.h"

#include <QtTest>

using namespace rlx;

namespace {

// A pendulum (planar or spatial) whose forces overflow as `model` says, run by `integrator` (or
// statics).
Spec overflowing(const QString& model, const QString& integrator) {
  Spec spec;
  if (model == "planar weight") {
    spec = test::loadSpec(test::examplePath("simple_pendulum.rlx"));
    spec.bodies[0].mass = 1e308;
  } else if (model == "spatial weight") {
    spec = test::loadSpec(test::testDataPath("simple_pendulum_3d.rlx"));
    spec.bodies[0].mass = 1e308;
  } else if (model == "spatial inertia forces") {
    // The heavy top's spin off its axes of inertia: J omega ~ 1e308, omega x J omega ~ 1e310.
    spec = test::loadSpec(test::examplePath("heavy_top.rlx"));
    spec.bodies[0].inertia = {1e306, 1e306, 3e306};
  } else {
    // A spring of stiffness 1e308 stretched 2 m: -k (length - free length) = -2e308.
    spec = test::loadSpec(test::examplePath("simple_pendulum.rlx"));
    ForceSpec spring;
    spring.name = "stiff_spring";
    spring.type = ForceType::SpringDamper;
    spring.body1 = "ground";
    spring.body2 = "pendulum";
    spring.at1 = Vector{0.0, 3.0};
    spring.point2 = Vector{0.0, 0.0};
    spring.stiffness = 1e308;
    spring.freeLength = 1.0;
    spec.forces.push_back(spring);
  }
  AnalysisSpec& analysis = spec.analysis.emplace();
  analysis.endTime = 0.1;
  analysis.outputStep = 0.01;
  analysis.type = integrator == "statics" ? AnalysisType::Statics : AnalysisType::Dynamics;
  if (analysis.type == AnalysisType::Dynamics) analysis.integrator = integrator.toStdString();
  return spec;
}

}  // namespace

class TestNonFiniteForces : public QObject {
  Q_OBJECT

 private slots:
  void overflowNamed_data();
  void overflowNamed();
};

void TestNonFiniteForces::overflowNamed_data() {
  QTest::addColumn<QString>("model");
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<QString>("element");
  QTest::addColumn<QString>("cause");
  const QStringList analyses{"hht", "bdf", "corrected-rk", "corrected-rk45", "statics"};
  for (const QString& analysis : analyses) {
    const auto row = [&](const char* model, const char* element, const char* cause) {
      QTest::addRow("%s, %s", model, qPrintable(analysis)) << model << analysis << element << cause;
    };
    row("planar weight", "pendulum", R"(the weight of body "pendulum" (mass 1e+308 kg) is not finite)");
    row("spatial weight", "pendulum", R"(the weight of body "pendulum" (mass 1e+308 kg) is not finite)");
    row("spatial inertia forces", "top",
        R"(the inertia forces of body "top" (its angular velocity times its inertia) are not finite)");
    row("stretched stiff spring", "stiff_spring", R"(the force "stiff_spring" is not finite)");
  }
}

void TestNonFiniteForces::overflowNamed() {
  QFETCH(QString, model);
  QFETCH(QString, integrator);
  QFETCH(QString, element);
  QFETCH(QString, cause);
  const Model compiled = test::compileOrFail(overflowing(model, integrator));
  const AnalysisOutcome outcome = runAnalysis(compiled, {});
  const SolveReport& report = outcome.results.report;
  qInfo("%s", report.message.c_str());
  QCOMPARE(report.status, SolveStatus::NotFinite);
  QCOMPARE(report.elements, std::vector<std::string>{element.toStdString()});
  QVERIFY2(QString::fromStdString(report.message).contains(cause), report.message.c_str());
  QCOMPARE(report.time, 0.0);
}

QTEST_GUILESS_MAIN(TestNonFiniteForces)
#include "tst_non_finite_forces.moc"
