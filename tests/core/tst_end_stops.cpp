// End stops (`limit` forces, solve/equations/stop_law.h): the IMPACT law and its derivatives
// against differences, a pendulum's rebound against the spring-damper's closed form for the
// restitution set through the damping, every integrator through impacts at steps from 1e-4 to
// 1e-2, the energy each impact takes against the kinetic energy lost, an upper bound on a slider,
// and the messages for stops that cannot be built.
#include "model/compile.h"
#include "output/summary.h"
#include "solve/analysis/analysis.h"
#include "solve/equations/stop_law.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

// The example: a rod (I = 1/3 about the pin) falls from horizontal onto a linear stop at -pi/2
// with k = 1e4 and the damping of a restitution of 0.8.
constexpr double kInertia = 1.0 / 3.0, kStiffness = 1e4, kRestitution = 0.8;

// The rebound ratio of a linear spring-damper contact that can push but not pull: it ends when
// k delta + c deltadot = 0, before the half period (delta = v0/wd exp(-zeta wn t) sin(wd t)).
double clampedRestitution(double e) {
  const double zeta = -std::log(e) / std::sqrt(kPi * kPi + std::log(e) * std::log(e));
  const double wn = std::sqrt(kStiffness / kInertia), wd = wn * std::sqrt(1 - zeta * zeta);
  const double cot = (zeta * wn - wn / (2 * zeta)) / wd;  // at separation
  const double t = (kPi - std::atan(-1 / cot)) / wd;
  return -std::exp(-zeta * wn * t) * (std::cos(wd * t) - zeta * wn / wd * std::sin(wd * t));
}

Spec pendulum(const std::string& integrator, double step) {
  Spec spec = test::loadSpec(test::examplePath("end_stop_pendulum.rlx"));
  spec.analysis->integrator = integrator;
  spec.analysis->step = step;
  spec.analysis->outputStep = Number{0.01};
  spec.analysis->endTime = 2.0;
  return spec;
}

Results runOrFail(const Spec& spec) {
  AnalysisOutcome outcome = runAnalysis(test::compileOrFail(spec), {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

std::string firstError(const Spec& spec) {
  const CompileResult compiled = compile(spec);
  return compiled.diagnostics.empty() ? std::string() : compiled.diagnostics.front().text();
}

}  // namespace

class TestEndStops : public QObject {
  Q_OBJECT

 private slots:
  void lawDerivativesMatchDifferences() {
    Force stop;
    stop.type = ForceType::Limit;
    stop.lower = -0.3;
    stop.upper = 0.4;
    stop.stiffness = 2e3;
    stop.exponent = 1.6;
    stop.damping = 40;
    stop.penetration = 0.02;
    // Inside the ramp, past it, entering and leaving, at both bounds.
    for (const auto& [q, qdot] : {std::pair{-0.31, -2.0}, {-0.33, 0.1}, {0.41, 0.7}, {0.45, -0.2}}) {
      const StopContact c = stopContact(stop, q, qdot);
      QVERIFY(c.effort != 0);
      QCOMPARE(c.effort > 0, q < 0);  // pushes back inside
      const double h = 1e-7;
      const double dq = (stopContact(stop, q + h, qdot).effort - stopContact(stop, q - h, qdot).effort) / (2 * h);
      const double dqdot =
          (stopContact(stop, q, qdot + h).effort - stopContact(stop, q, qdot - h).effort) / (2 * h);
      QVERIFY2(std::abs(dq - c.effort_q) < 1e-6 * std::abs(c.effort_q), qPrintable(QString::number(dq)));
      QVERIFY2(std::abs(dqdot - c.effort_qdot) < 1e-6 * std::max(1.0, std::abs(c.effort_qdot)),
               qPrintable(QString::number(dqdot)));
      // The elastic part is the potential's negative slope.
      const double slope = (stopPotential(stop, q + h) - stopPotential(stop, q - h)) / (2 * h);
      QVERIFY(std::abs(-slope - c.elastic) < 1e-6 * std::abs(c.elastic));
      QVERIFY(c.dissipation >= 0);
    }
    // Free between the bounds; no pull when leaving faster than the spring pushes.
    QCOMPARE(stopContact(stop, 0.1, 5.0).effort, 0.0);
    const StopContact leaving = stopContact(stop, -0.301, 50.0);
    QCOMPARE(leaving.effort, 0.0);
    QVERIFY(leaving.dissipation > 0);
    // No jump at first contact: the damping starts from nothing.
    QVERIFY(std::abs(stopContact(stop, -0.3 - 1e-9, -10.0).effort) < 1e-8);
  }

  void pendulumReboundsWithTheRestitutionSet() {
    const Results results = runOrFail(pendulum("hht", 1e-4));
    QVERIFY(results.impacts.size() >= 2);
    const Impact& first = results.impacts.front();
    QVERIFY(!first.upper);
    const double ratio = first.reboundSpeed / first.approachSpeed;
    const double expected = clampedRestitution(kRestitution);
    qInfo("approach %.6f rad/s (closed form %.6f), rebound ratio %.6f, closed form %.6f, target %.2f; "
          "contact %.4f s, depth %.5f rad, energy lost %.6f J",
          first.approachSpeed, std::sqrt(3 * 9.81), ratio, expected, kRestitution, first.end - first.start,
          first.maxPenetration, first.energyLost);
    QVERIFY(std::abs(first.approachSpeed - std::sqrt(3 * 9.81)) < 1e-4);
    QVERIFY(std::abs(ratio - kRestitution) < 0.02 * kRestitution);
    QVERIFY2(std::abs(ratio - expected) < 2e-3 * expected, qPrintable(QString::number(ratio)));
    // The energy it took is the kinetic energy lost (the rod is at the same angle both times).
    const double lost = 0.5 * kInertia * (first.approachSpeed * first.approachSpeed - first.reboundSpeed * first.reboundSpeed);
    QVERIFY2(std::abs(first.energyLost - lost) < 1e-3 * lost, qPrintable(QString::number(first.energyLost)));
    // Each bounce keeps about e^2 of the energy: the second arrives at about e times the first.
    const Impact& second = results.impacts[1];
    QVERIFY(std::abs(second.approachSpeed - first.reboundSpeed) < 1e-3 * first.reboundSpeed);
    // The energy balance holds through the impacts: energy - work stays put.
    QVERIFY2(maxEnergyError(results) < 1e-3, qPrintable(QString::number(maxEnergyError(results))));
  }

  void integratorsStepThroughImpacts_data() {
    QTest::addColumn<QString>("integrator");
    QTest::addColumn<double>("step");
    for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"})
      for (const double step : {1e-4, 1e-3, 1e-2})
        QTest::newRow(qPrintable(QString("%1 h=%2").arg(integrator).arg(step))) << QString(integrator) << step;
  }

  void integratorsStepThroughImpacts() {
    // No failure at any step; the bounces keep the rod above its stop's reach and lose energy.
    QFETCH(QString, integrator);
    QFETCH(double, step);
    const Results results = runOrFail(pendulum(integrator.toStdString(), step));
    QVERIFY(results.impacts.size() >= 2);
    const Impact& first = results.impacts.front();
    const double ratio = first.reboundSpeed / first.approachSpeed;
    qInfo("%s h=%g: %zu impacts, first ratio %.4f, depth %.4f rad, energy lost %.4f J, steps %d",
          qPrintable(integrator), step, results.impacts.size(), ratio, first.maxPenetration,
          first.energyLost, results.stats.steps);
    QVERIFY(first.maxPenetration < 0.05);
    QVERIFY(first.energyLost > 0);
    if (step <= 1e-3) QVERIFY2(std::abs(ratio - kRestitution) < 0.02 * kRestitution, qPrintable(QString::number(ratio)));
    else QVERIFY2(ratio > 0.5 && ratio < 1.0, qPrintable(QString::number(ratio)));
  }

  void spatialTwinBouncesAsThePlanarOne() {
    // The same stop on the 3-D twin of the pendulum (a revolute about z): the same impacts.
    Spec spec = test::loadSpec(test::testDataPath("simple_pendulum_3d.rlx"));
    spec.parameters = test::loadSpec(test::examplePath("end_stop_pendulum.rlx")).parameters;
    spec.forces = pendulum("hht", 1e-4).forces;
    spec.analysis = pendulum("hht", 1e-4).analysis;
    const Results spatial = runOrFail(spec), planar = runOrFail(pendulum("hht", 1e-4));
    QCOMPARE(spatial.impacts.size(), planar.impacts.size());
    for (std::size_t i = 0; i < planar.impacts.size(); ++i) {
      const Impact &a = spatial.impacts[i], &b = planar.impacts[i];
      qInfo("impact %zu: start %.9f / %.9f s, rebound %.9f / %.9f, energy %.9f / %.9f J", i, a.start,
            b.start, a.reboundSpeed, b.reboundSpeed, a.energyLost, b.energyLost);
      QVERIFY(std::abs(a.start - b.start) < 1e-9);
      QVERIFY(std::abs(a.reboundSpeed - b.reboundSpeed) < 1e-6 * b.reboundSpeed);
      QVERIFY(std::abs(a.energyLost - b.energyLost) < 1e-6 * b.energyLost);
    }
  }

  void sliderAgainstAnUpperStop() {
    // A slider pushed along a rail at 2 m/s onto an upper bound at 0.1 m: the stop pushes back
    // (its effort along the rail is negative) and, undamped, returns it at its speed.
    Spec spec = test::loadSpec(test::examplePath("end_stop_pendulum.rlx"));
    spec.gravity = Vector{0.0, 0.0};
    spec.bodies[0].velocity = Vector{2.0, 0.0};
    spec.bodies[0].angularVelocity.clear();
    JointSpec rail;
    rail.name = "rail";
    rail.type = JointType::Translational;
    rail.body1 = "ground";
    rail.body2 = "pendulum";
    rail.at = Vector{0.5, 0.0};
    rail.axis = Vector{1.0, 0.0};
    spec.joints = {rail};
    ForceSpec& stop = spec.forces[0];
    stop.joint = "rail";
    stop.lower.reset();
    stop.upper = Number{0.1};
    stop.damping = Number{0.0};
    stop.stiffness = Number{1e5};
    stop.exponent = Number{1.5};
    spec.analysis->endTime = 0.2;
    spec.analysis->step = 1e-4;
    spec.analysis->outputStep = Number{0.01};
    const Results results = runOrFail(spec);
    QCOMPARE(results.impacts.size(), std::size_t(1));
    const Impact& impact = results.impacts.front();
    QVERIFY(impact.upper);
    QVERIFY(std::abs(impact.start - 0.05) < 1e-6);
    QVERIFY2(std::abs(impact.reboundSpeed - 2.0) < 1e-4, qPrintable(QString::number(impact.reboundSpeed)));
    QVERIFY(std::abs(impact.energyLost) < 1e-6);
    // Hertz-like law: the depth where the kinetic energy is stored, k d^2.5 / 2.5 = m v^2 / 2.
    const double depth = std::pow(2.5 * 0.5 * 1.0 * 4.0 / 1e5, 1 / 2.5);
    QVERIFY2(std::abs(impact.maxPenetration - depth) < 1e-3 * depth, qPrintable(QString::number(impact.maxPenetration)));
    QVERIFY(results.frames.back().state.v(0) < -1.99);
  }

  void restsOnTheStopInStatics() {
    // With the stop at -pi/4 the rod rests on it: k delta = m g (l/2) cos(-pi/4 - delta).
    Spec spec = test::loadSpec(test::examplePath("end_stop_pendulum.rlx"));
    spec.forces[0].lower = Number::expr("-pi/4");
    spec.analysis->type = AnalysisType::Statics;
    spec.analysis->endTime = 0.01;
    spec.analysis->step = 0.01;
    const Results results = runOrFail(spec);
    const double angle = results.frames.back().state.q(2), delta = -kPi / 4 - angle;
    const double balance = kStiffness * delta - 9.81 * 0.5 * std::cos(kPi / 4 + delta);
    qInfo("resting %.6e rad past the stop; moment balance %.1e N m", delta, balance);
    QVERIFY(delta > 3e-4 && delta < 4e-4);
    QVERIFY2(std::abs(balance) < 1e-9, qPrintable(QString::number(balance)));
  }

  void summaryListsImpacts() {
    AnalysisOutcome outcome = runAnalysis(test::compileOrFail(pendulum("hht", 1e-3)), {});
    const nlohmann::json summary = makeSummary(test::compileOrFail(pendulum("hht", 1e-3)), outcome.results, true);
    QVERIFY(summary["impacts"].size() >= 2);
    const nlohmann::json& first = summary["impacts"][0];
    QCOMPARE(first["limit"].get<std::string>(), std::string("stop"));
    QCOMPARE(first["bound"].get<std::string>(), std::string("lower"));
    QVERIFY(first["energy_lost"].get<double>() > 1.0);
    QVERIFY(first["end"].get<double>() > first["start"].get<double>());
  }

  void badStopsAreNamed_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("no bound") << "lower" << "" << "lower is missing: a limit needs lower, upper or both";
    QTest::newRow("crossed bounds") << "upper" << "-2" << "upper must be greater than lower";
    QTest::newRow("soft exponent") << "exponent" << "0.5" << "exponent must be at least 1";
    QTest::newRow("no stiffness") << "stiffness" << "" << "stiffness is missing";
    QTest::newRow("zero penetration") << "penetration" << "0" << "penetration must be positive";
    QTest::newRow("negative damping") << "damping" << "-1" << "damping must not be negative";
  }

  void badStopsAreNamed() {
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, message);
    Spec spec = test::loadSpec(test::examplePath("end_stop_pendulum.rlx"));
    ForceSpec& stop = spec.forces[0];
    std::optional<Number> number;
    if (!value.isEmpty()) number = Number{value.toDouble()};
    if (field == "lower") stop.lower = number;
    if (field == "upper") stop.upper = number;
    if (field == "exponent") stop.exponent = number;
    if (field == "stiffness") stop.stiffness = number;
    if (field == "penetration") stop.penetration = number;
    if (field == "damping") stop.damping = number;
    const std::string error = firstError(spec);
    QVERIFY2(error.find("stop") != std::string::npos && error.find(message.toStdString()) != std::string::npos,
             error.c_str());
  }

  void aJointWithoutCoordinateIsRefused() {
    Spec spec = test::loadSpec(test::examplePath("end_stop_pendulum.rlx"));
    JointSpec weld = spec.joints[0];
    weld.name = "weld";
    weld.type = JointType::Fixed;
    spec.joints = {weld};
    spec.forces[0].joint = "weld";
    const std::string error = firstError(spec);
    QVERIFY2(error.find("has no coordinate") != std::string::npos, error.c_str());
  }
};

QTEST_GUILESS_MAIN(TestEndStops)
#include "tst_end_stops.moc"
