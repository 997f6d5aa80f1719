// BDF (GSTIFF-style) integration of the index-3 DAE: the global error against a 1-DOF reference
// scales with the tolerance, energy and constraints held on the pendulum and the Braun-Goldfarb
// slider-crank, a stiff spring at steps far beyond the explicit limit with the order rising, and
// the failures (a NaN force, a four-bar driven into lock-up).
#include "solve/assembly/assembly.h"
#include "solve/integrators/bdf.h"
#include "test_support.h"

#include <QtTest>

#include <chrono>
#include <cmath>

using namespace rlx;

namespace {

struct Run {
  Model model;
  Results results;
  double seconds = 0.0;
};

// Loads, assembles and integrates with BDF (as runDynamics does).
Run runBdf(const std::string& path, DynamicsOptions options) {
  Run run{test::compileOrFail(test::loadSpec(path)), {}, 0.0};
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  const AssemblyReport assembly = assemble(run.model, state, ws);
  if (!assembly.ok()) throw std::runtime_error(assembly.message);
  const auto start = std::chrono::steady_clock::now();
  Recorder recorder(run.model, run.results, {}, state.t, options.endTime, options.outputStep);
  if (recorder.accept(state, ws))
    integrateBDF(run.model, state, ws, options, recorder, run.results.report);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

DynamicsOptions pendulumOptions(double tolerance, double outputStep = 0.5) {
  DynamicsOptions options;
  options.integrator = Integrator::BDF;
  options.endTime = 2.0;
  options.step = 0.05;
  options.outputStep = outputStep;
  options.tolerance = tolerance;
  return options;
}

// The rod's angle and rate every 0.1 s up to 2 s by RK4 (h = 1e-5) on
// theta'' = -(3 g / (2 l)) cos(theta), from rest at 0.
std::vector<Eigen::Vector2d> pendulumReference() {
  const double c = 3 * 9.81 / 2, h = 1e-5;
  const auto f = [c](const Eigen::Vector2d& y) {
    return Eigen::Vector2d(y(1), -c * std::cos(y(0)));
  };
  std::vector<Eigen::Vector2d> samples{Eigen::Vector2d(0, 0)};
  Eigen::Vector2d y(0, 0);
  for (int i = 1; i <= 200000; ++i) {
    const Eigen::Vector2d k1 = f(y), k2 = f(y + 0.5 * h * k1), k3 = f(y + 0.5 * h * k2),
                          k4 = f(y + h * k3);
    y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    if (i % 10000 == 0) samples.push_back(y);
  }
  return samples;
}

}  // namespace

class TestBdf : public QObject {
  Q_OBJECT

 private slots:
  void pendulumAccuracyScalesWithTolerance();
  void pendulumEnergyAndConstraints();
  void sliderCrankEnergyAndConstraints();
  void drivenFourBarVelocities();
  void stiffSpringAtLargeSteps();
  void orderRises();
  void nanForceNamed();
  void lockUpNamesJoints();
  void badOptionsRefused();
};

void TestBdf::pendulumAccuracyScalesWithTolerance() {
  // The largest error over the frames every 0.1 s up to 2 s (the period is 1.933 s).
  const std::vector<Eigen::Vector2d> reference = pendulumReference();
  const std::vector<double> tolerances{1e-4, 1e-5, 1e-6, 1e-7};
  std::vector<double> errors;
  for (const double tol : tolerances) {
    const Run run = runBdf(test::examplePath("simple_pendulum.rlx"), pendulumOptions(tol, 0.1));
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    QCOMPARE(run.results.frames.size(), reference.size());
    double angleError = 0, rateError = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      const State& state = run.results.frames[i].state;
      QVERIFY(std::abs(state.t - 0.1 * static_cast<double>(i)) < 1e-12);
      angleError = std::max(angleError, std::abs(state.q(2) - reference[i](0)));
      rateError = std::max(rateError, std::abs(state.v(2) - reference[i](1)));
    }
    const RunStats& s = run.results.stats;
    qInfo(
        "tol %.0e: angle error %.3e (%.1f tol), rate error %.3e (%.1f tol), steps %d, rejected %d, "
        "newton %d, max order %d, %.4f s",
        tol, angleError, angleError / tol, rateError, rateError / tol, s.steps, s.rejectedSteps,
        s.newtonIterations, s.maxOrder, run.seconds);
    errors.push_back(std::max(angleError, rateError));
  }
  const double slope = test::logLogSlope(tolerances, errors);
  qInfo("log-log slope of the global error against the tolerance: %.3f", slope);
  QVERIFY2(slope > 0.7 && slope < 1.3, QByteArray::number(slope));
  for (std::size_t i = 0; i < errors.size(); ++i)
    QVERIFY2(errors[i] < 50 * tolerances[i], QByteArray::number(errors[i] / tolerances[i]));
}

void TestBdf::pendulumEnergyAndConstraints() {
  // The energy is 0 J (datum at the pin); BDF damps it a little, less at a tighter tolerance.
  std::vector<double> drifts;
  for (const double tol : {1e-4, 1e-6}) {
    DynamicsOptions options = pendulumOptions(tol, 0.01);
    options.endTime = 10.0;
    const Run run = runBdf(test::examplePath("simple_pendulum.rlx"), options);
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    double energy = 0, position = 0, velocity = 0;
    for (const Frame& f : run.results.frames) {
      energy = std::max(energy, std::abs(f.kinetic + f.potential));
      position = std::max(position, f.constraintError);
      velocity = std::max(velocity, f.velocityConstraintError);
    }
    qInfo(
        "pendulum 10 s, tol %.0e: energy error max %.3e J, constraint error %.3e m, velocity "
        "constraint error %.3e m/s, %d steps",
        tol, energy, position, velocity, run.results.stats.steps);
    QVERIFY2(position < 1e-10, QByteArray::number(position));
    QVERIFY2(energy < 200 * tol, QByteArray::number(energy));
    drifts.push_back(energy);
  }
  QVERIFY2(drifts[1] < drifts[0] / 10, QByteArray::number(drifts[1] / drifts[0]));
}

void TestBdf::sliderCrankEnergyAndConstraints() {
  // 100 s through the singular configuration (slider on the crank pivot) twice per period.
  DynamicsOptions options;
  options.integrator = Integrator::BDF;
  options.endTime = 100.0;
  options.step = 0.01;
  options.outputStep = 0.05;
  options.tolerance = 1e-6;
  const Run run = runBdf(test::examplePath("braun_goldfarb_slider_crank.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Model& model = run.model;
  const Body &crank = test::body(model, "crank"), &rod = test::body(model, "rod");
  const double E0 = 9.81 * std::sqrt(2.0) / 2;
  double slider = 0, energyFirst = 0, energyLast = 0, position = 0;
  for (const Frame& f : run.results.frames) {
    const double x = f.state.q(rod.q) + 0.5 * std::cos(f.state.q(rod.q + 2));
    slider = std::max(slider, std::abs(x - 2 * std::cos(f.state.q(crank.q + 2))));
    const double energy = std::abs(f.kinetic + f.potential - E0);
    double& window = f.state.t <= 10 ? energyFirst : energyLast;
    window = std::max(window, energy);
    position = std::max(position, f.constraintError);
  }
  const RunStats& s = run.results.stats;
  qInfo(
      "slider-crank 100 s, tol 1e-6: energy error max %.3e J (0-10 s), %.3e J (10-100 s), slider "
      "off 2 cos(theta) by %.3e m, constraint error %.3e, %d steps, %d rejected, max order %d, "
      "%.3f s",
      energyFirst, energyLast, slider, position, s.steps, s.rejectedSteps, s.maxOrder, run.seconds);
  QVERIFY2(position < 1e-10, QByteArray::number(position));
  QVERIFY2(slider < 1e-10, QByteArray::number(slider));
  QVERIFY2(energyLast < 1e-2, QByteArray::number(energyLast));
}

void TestBdf::drivenFourBarVelocities() {
  // Fully driven: the local error of the projected estimate is negligible and the step stays at
  // its cap; the order rises on the velocity constraint defect of the index-3 velocities, which
  // would be 1e-3 at order 1, and the energy balance E - W holds.
  DynamicsOptions options;
  options.integrator = Integrator::BDF;
  options.endTime = 2.0;
  options.step = 1e-3;
  options.outputStep = 0.01;
  options.tolerance = 1e-6;
  const Run run = runBdf(test::examplePath("four_bar.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Frame& first = run.results.frames.front();
  const double E0 = first.kinetic + first.potential;
  double velocity = 0, balance = 0;
  for (const Frame& f : run.results.frames) {
    velocity = std::max(velocity, f.velocityConstraintError);
    balance = std::max(balance, std::abs(f.kinetic + f.potential - f.workNonconservative - E0));
  }
  const RunStats& s = run.results.stats;
  qInfo(
      "driven four-bar 2 s: velocity constraint error %.3e, energy balance error %.3e J, steps "
      "%d, max order %d",
      velocity, balance, s.steps, s.maxOrder);
  QVERIFY2(velocity < 1e-8, QByteArray::number(velocity));
  QVERIFY2(balance < 1e-4, QByteArray::number(balance));
  QCOMPARE(s.maxOrder, 5);
}

void TestBdf::stiffSpringAtLargeSteps() {
  // Explicit RK4 is stable only for h < 2.785 / omega = 2.8e-4 s (omega = sqrt(k/m) = 1e4 rad/s):
  // at least 3590 steps per second. BDF resolves the transient (a few ms) to the tolerance, then
  // runs at the largest step, 1e-2 s: the second second costs 100 steps.
  std::vector<int> steps;
  for (const double end : {1.0, 2.0}) {
    DynamicsOptions options;
    options.integrator = Integrator::BDF;
    options.endTime = end;
    options.step = 1e-2;
    options.outputStep = 0.1;
    options.tolerance = 1e-6;
    const Run run = runBdf(test::testDataPath("stiff_slider.rlx"), options);
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    const RunStats& s = run.results.stats;
    const double y = run.results.frames.back().state.q(1), yStatic = -(100 + 0.01 * 9.81) / 1e6;
    qInfo(
        "stiff, %.0f s: steps %d, rejected %d, newton %d, max order %d, y %.9e (static %.9e), "
        "%.4f s",
        end, s.steps, s.rejectedSteps, s.newtonIterations, s.maxOrder, y, yStatic, run.seconds);
    QVERIFY2(std::abs(y - yStatic) < 1e-4 * std::abs(yStatic), QByteArray::number(y - yStatic));
    QVERIFY(std::abs(run.results.frames.back().state.v(1)) < 1e-8);
    QVERIFY2(s.maxOrder >= 3, QByteArray::number(s.maxOrder));
    steps.push_back(s.steps);
  }
  QVERIFY2(steps[0] < 3590 / 4, QByteArray::number(steps[0]));
  QVERIFY2(steps[1] - steps[0] <= 101, QByteArray::number(steps[1] - steps[0]));
}

void TestBdf::orderRises() {
  const Run low = runBdf(test::examplePath("simple_pendulum.rlx"), pendulumOptions(1e-7));
  QVERIFY2(low.results.report.ok(), low.results.report.message.c_str());
  QVERIFY2(low.results.stats.maxOrder >= 3, QByteArray::number(low.results.stats.maxOrder));
  QVERIFY(low.results.stats.maxOrder <= 5);
}

void TestBdf::nanForceNamed() {
  const Run run = runBdf(test::testDataPath("pendulum_nan_torque.rlx"), pendulumOptions(1e-5));
  QCOMPARE(run.results.report.status, SolveStatus::NotFinite);
  qInfo("%s", run.results.report.message.c_str());
  QCOMPARE(run.results.report.elements, std::vector<std::string>{"bad_torque"});
  QVERIFY(run.results.report.time > 0.5 - 1e-9 &&
          run.results.report.time <= 0.55);  // the first step past 0.5 s
  QVERIFY(run.results.report.message.find("\"bad_torque\"") != std::string::npos);
  QVERIFY(run.results.report.message.find("t = 0.5") != std::string::npos);
}

void TestBdf::lockUpNamesJoints() {
  DynamicsOptions options;
  options.integrator = Integrator::BDF;
  options.endTime = 0.5;
  options.step = 0.01;
  options.outputStep = 0.01;
  options.tolerance = 1e-6;
  options.minStep = 1e-8;
  const Run run = runBdf(test::testDataPath("four_bar_lockup.rlx"), options);
  const SolveReport& report = run.results.report;
  qInfo("%s (steps %d, rejected %d, %.3f s)", report.message.c_str(), run.results.stats.steps,
        run.results.stats.rejectedSteps, run.seconds);
  QVERIFY(!report.ok());
  // The loop stretches straight at crank angle acos(0.125) = 82.82 deg, t = 0.0634 s.
  const double tLock = (std::acos(0.125) - M_PI / 3) / (2 * M_PI);
  QVERIFY2(std::abs(report.time - tLock) < 2e-3, QByteArray::number(report.time));
  QVERIFY(report.message.find("dynamic analysis failed at t = 0.06") != std::string::npos);
  for (const char* joint : {"coupler_rocker_pin", "rocker_pin"})
    QVERIFY2(report.message.find(joint) != std::string::npos, report.message.c_str());
}

void TestBdf::badOptionsRefused() {
  DynamicsOptions options = pendulumOptions(0.0);
  const Run run = runBdf(test::examplePath("simple_pendulum.rlx"), options);
  QCOMPARE(run.results.report.status, SolveStatus::Unsupported);
  QCOMPARE(run.results.report.message,
           std::string("BDF cannot run: the tolerance must be positive, got 0"));
  QCOMPARE(run.results.stats.steps, 0);
  for (const int order : {0, 6}) {
    options = pendulumOptions(1e-6);
    options.bdfMaxOrder = order;
    const Run capped = runBdf(test::examplePath("simple_pendulum.rlx"), options);
    QCOMPARE(capped.results.report.status, SolveStatus::Unsupported);
    QCOMPARE(capped.results.report.message,
             "BDF cannot run: the highest order must be 1 to 5, got " + std::to_string(order));
  }
}

QTEST_GUILESS_MAIN(TestBdf)
#include "tst_bdf.moc"
