// BDF (GSTIFF-style) integration of the index-3 DAE: accuracy against a 1-DOF reference that
// scales with the tolerance, position constraints held, a stiff spring at large steps, order
// selection, and failures (a NaN force, a four-bar driven into lock-up).
#include "solve/assembly.h"
#include "solve/bdf.h"
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
  if (recorder.accept(state, ws)) integrateBDF(run.model, state, ws, options, recorder, run.results.report);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

DynamicsOptions pendulumOptions(double tolerance, double outputStep = 0.5) {
  DynamicsOptions options;
  options.integrator = "bdf";
  options.endTime = 2.0;
  options.step = 0.05;
  options.outputStep = outputStep;
  options.tolerance = tolerance;
  return options;
}

// The rod's angle and rate at t by RK4 on theta'' = -(3 g / (2 l)) cos(theta), from rest at 0.
Eigen::Vector2d pendulumReference(double t) {
  const double c = 3 * 9.81 / 2;
  const auto f = [c](const Eigen::Vector2d& y) { return Eigen::Vector2d(y(1), -c * std::cos(y(0))); };
  Eigen::Vector2d y(0, 0);
  const int n = 200000;
  const double h = t / n;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d k1 = f(y), k2 = f(y + 0.5 * h * k1), k3 = f(y + 0.5 * h * k2), k4 = f(y + h * k3);
    y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return y;
}

}  // namespace

class TestBdf : public QObject {
  Q_OBJECT

 private slots:
  void pendulumAccuracyScalesWithTolerance();
  void constraintsHeld();
  void stiffSpringAtLargeSteps();
  void orderRises();
  void nanForceNamed();
  void lockUpNamesJoints();
};

void TestBdf::pendulumAccuracyScalesWithTolerance() {
  const Eigen::Vector2d reference = pendulumReference(2.0);
  std::vector<double> errors;
  for (const double tol : {1e-3, 1e-4, 1e-5, 1e-6, 1e-7}) {
    const Run run = runBdf(test::examplePath("simple_pendulum.rlx"), pendulumOptions(tol));
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    const Frame& last = run.results.frames.back();
    QCOMPARE(last.state.t, 2.0);
    const double error = std::max(std::abs(last.state.q(2) - reference(0)), std::abs(last.state.v(2) - reference(1)));
    const RunStats& s = run.results.stats;
    qInfo("tol %.0e: angle error %.3e, rate error %.3e, steps %d, rejected %d, newton %d, max order %d, %.3f s", tol,
          std::abs(last.state.q(2) - reference(0)), std::abs(last.state.v(2) - reference(1)), s.steps, s.rejectedSteps, s.newtonIterations, s.maxOrder, run.seconds);
    QVERIFY2(error < 50 * tol, QByteArray::number(error));
    errors.push_back(error);
  }
  // 1e-4 against 1e-6: the error falls at least tenfold.
  QVERIFY2(errors[1] / errors[3] >= 10, QByteArray::number(errors[1] / errors[3]));
}

void TestBdf::constraintsHeld() {
  double worst = 0;
  for (const double tol : {1e-3, 1e-6}) {
    const Run run = runBdf(test::examplePath("simple_pendulum.rlx"), pendulumOptions(tol, 0.01));
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    for (const Frame& f : run.results.frames) worst = std::max(worst, f.constraintError);
  }
  qInfo("max constraint error %.3e", worst);
  QVERIFY2(worst < 1e-8, QByteArray::number(worst));
}

void TestBdf::stiffSpringAtLargeSteps() {
  DynamicsOptions options;
  options.integrator = "bdf";
  options.endTime = 1.0;
  options.step = 1e-2;
  options.outputStep = 0.1;
  options.tolerance = 1e-6;
  const Run run = runBdf(test::testDataPath("stiff_slider.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const RunStats& s = run.results.stats;
  const double y = run.results.frames.back().state.q(1), yStatic = -(100 + 0.01 * 9.81) / 1e6;
  qInfo("stiff: steps %d, rejected %d, newton %d, max order %d, y %.9e (static %.9e), %.3f s", s.steps,
        s.rejectedSteps, s.newtonIterations, s.maxOrder, y, yStatic, run.seconds);
  // Explicit RK4 is stable only for h < 2.785 / omega = 2.8e-4 s (omega = sqrt(k/m) = 1e4 rad/s):
  // at least 3590 steps over 1 s. The 1e-2 cap alone needs 100; 400 leaves room for the transient.
  QVERIFY2(s.steps < 400, QByteArray::number(s.steps));
  QVERIFY2(std::abs(y - yStatic) < 1e-4 * std::abs(yStatic), QByteArray::number(y - yStatic));
  QVERIFY(std::abs(run.results.frames.back().state.v(1)) < 1e-8);
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
  QVERIFY(run.results.report.time > 0.5 - 1e-9 && run.results.report.time <= 0.55);  // the first step past 0.5 s
  QVERIFY(run.results.report.message.find("\"bad_torque\"") != std::string::npos);
  QVERIFY(run.results.report.message.find("t = 0.5") != std::string::npos);
}

void TestBdf::lockUpNamesJoints() {
  DynamicsOptions options;
  options.integrator = "bdf";
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

QTEST_GUILESS_MAIN(TestBdf)
#include "tst_bdf.moc"
