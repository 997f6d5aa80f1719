// HHT-alpha on the index-3 DAE: the pendulum's pin reaction against the closed form, the order of
// convergence, the double four-bar through its singular passes, a stiff spring far beyond the
// explicit stability limit, and the failure reports (lock-up, a non-finite force, bad options).
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/integrators/dynamics.h"
#include "test_support.h"

#include <QtTest>

#include <chrono>
#include <cmath>

using namespace rlx;

namespace {

constexpr double g = 9.81;

struct Run {
  Model model;
  Results results;
};

Run runModel(Model model, DynamicsOptions options) {
  Run run{std::move(model), {}};
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  // A non-finite force fails the assembly's accelerations only: the integrator must report it too.
  const AssemblyReport assembly = assemble(run.model, state, ws);
  if (!assembly.ok() && assembly.status != SolveStatus::NotFinite)
    throw std::runtime_error(assembly.message);
  options.integrator = Integrator::HHT;
  runDynamics(run.model, state, ws, options, run.results);
  return run;
}

Run runFile(const std::string& path, const DynamicsOptions& options) {
  return runModel(test::compileOrFail(test::loadSpec(path)), options);
}

DynamicsOptions optionsFor(double endTime, double step, double outputStep) {
  DynamicsOptions options;
  options.endTime = endTime;
  options.step = step;
  options.outputStep = outputStep;
  return options;
}

// theta'' = f(theta) from (theta0, omega0) to each time in `times` (ascending) by classical RK4
// with steps of at most h: the reference of a one-degree-of-freedom linkage.
std::vector<Eigen::Vector2d> integrateOneDof(const std::function<double(double)>& f, double theta0,
                                             double omega0, const std::vector<double>& times,
                                             double h = 1e-5) {
  std::vector<Eigen::Vector2d> out;
  Eigen::Vector2d y(theta0, omega0);
  double t = 0.0;
  const auto rate = [&](const Eigen::Vector2d& s) { return Eigen::Vector2d(s(1), f(s(0))); };
  for (const double target : times) {
    const auto n = static_cast<long>(std::ceil((target - t) / h - 1e-9));
    const double dt = n > 0 ? (target - t) / static_cast<double>(n) : 0.0;
    for (long k = 0; k < n; ++k) {
      const Eigen::Vector2d k1 = rate(y), k2 = rate(y + 0.5 * dt * k1),
                            k3 = rate(y + 0.5 * dt * k2), k4 = rate(y + dt * k3);
      y += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    t = target;
    out.push_back(y);
  }
  return out;
}

// The pendulum rod (l = 1, m = 1) from the horizontal: phi'' = -(3 g / 2 l) cos(phi).
double pendulumAcceleration(double phi) {
  return -1.5 * g * std::cos(phi);
}

// Pin force on the rod from the ground, m a_cm - m g, at angle phi and rate w (rod l = 1, m = 1).
Eigen::Vector2d pinForce(double phi, double w) {
  const double alpha = pendulumAcceleration(phi);
  const Eigen::Vector2d acm(0.5 * (-std::sin(phi) * alpha - std::cos(phi) * w * w),
                            0.5 * (std::cos(phi) * alpha - std::sin(phi) * w * w));
  return acm - Eigen::Vector2d(0, -g);
}

std::vector<double> frameTimes(const Results& results) {
  std::vector<double> times;
  for (const Frame& f : results.frames) times.push_back(f.state.t);
  return times;
}

}  // namespace

class TestHHT : public QObject {
  Q_OBJECT

 private slots:
  void pendulumPinReaction();
  void convergenceOrder();
  void variableStep();
  void variableStepTolerance();
  void doubleFourBarSingularPasses_data();
  void doubleFourBarSingularPasses();
  void stiffSpring();
  void lockUp();
  void nonFiniteForce_data();
  void nonFiniteForce();
  void alphaOutOfRange();
  void sliderCrankTiming();
};

void TestHHT::pendulumPinReaction() {
  DynamicsOptions options = optionsFor(1.0, 1e-4, 0.01);
  const Run run = runFile(test::examplePath("simple_pendulum.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  QCOMPARE(run.results.frames.size(), std::size_t(101));
  const Body& rod = test::body(run.model, "pendulum");
  const std::vector<Eigen::Vector2d> exact =
      integrateOneDof(pendulumAcceleration, 0.0, 0.0, frameTimes(run.results));
  Workspace ws(run.model);
  double ofAngle = 0, ofTime = 0, drift = 0;
  for (std::size_t k = 0; k < run.results.frames.size(); ++k) {
    const Frame& f = run.results.frames[k];
    evaluateConstraintDerivatives(run.model, f.state, ws);
    ws.lambda = f.lambda;
    const Eigen::Vector2d force = jointReaction(run.model, f.state, ws, 0).force.head<2>();
    // Closed form at the simulated angle phi in [-pi, 0], with w^2 = -3 g sin(phi) / l from the
    // energy (w <= 0 on the first swing): checks the multipliers and the energy of the state.
    const double phi = f.state.q(rod.q + 2), w = -std::sqrt(std::max(0.0, -3 * g * std::sin(phi)));
    ofAngle = std::max(ofAngle, (force - pinForce(phi, w)).lpNorm<Eigen::Infinity>());
    // Closed form along the exact time history: adds the global error of the angle.
    ofTime =
        std::max(ofTime, (force - pinForce(exact[k](0), exact[k](1))).lpNorm<Eigen::Infinity>());
    drift = std::max(drift, f.constraintError);
  }
  qInfo(
      "pendulum h = 1e-4: pin force off the closed form by %.3g N at the simulated angle, %.3g N "
      "along the exact time history; constraint error %.3g; %d steps, %d iterations",
      ofAngle, ofTime, drift, run.results.stats.steps, run.results.stats.newtonIterations);
  // Both are the O(h^2) energy error of the method (2e-6 N at h = 1e-4): within 1e-6 of the
  // largest pin force, 2.5 m g.
  QVERIFY2(ofAngle < 1e-6 * 2.5 * g, QByteArray::number(ofAngle));
  QVERIFY2(ofTime < 1e-6 * 2.5 * g, QByteArray::number(ofTime));
  QVERIFY2(drift < 1e-8, QByteArray::number(drift));
}

void TestHHT::convergenceOrder() {
  // The largest angle error over [0, 1] s: at t = 1 s itself the rod is near its turning point
  // (phi = -pi at 0.967 s), where the leading h^2 term of the error nearly vanishes.
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("simple_pendulum.rlx")));
  std::vector<double> times;
  for (int k = 0; k <= 20; ++k) times.push_back(0.05 * k);
  const std::vector<Eigen::Vector2d> exact = integrateOneDof(pendulumAcceleration, 0.0, 0.0, times);
  std::vector<double> steps, errors;
  for (const double h : {4e-3, 2e-3, 1e-3, 5e-4}) {
    DynamicsOptions options = optionsFor(1.0, h, 0.05);
    options.tolerance = 1e-10;
    const Run run = runModel(model, options);
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    QCOMPARE(run.results.frames.size(), times.size());
    double error = 0;
    for (std::size_t k = 0; k < times.size(); ++k)
      error = std::max(error, std::abs(run.results.frames[k].state.q(2) - exact[k](0)));
    qInfo("h = %g: largest angle error over [0, 1] s %.4g rad", h, error);
    steps.push_back(h);
    errors.push_back(error);
  }
  const double slope = test::logLogSlope(steps, errors);
  qInfo("fitted order %.3f", slope);
  QVERIFY2(std::abs(slope - 2) < 0.2, QByteArray::number(slope));
}

void TestHHT::variableStep() {
  DynamicsOptions options = optionsFor(1.0, 1e-2, 0.1);
  options.variableStep = true;
  options.tolerance = 1e-7;
  const Run run = runFile(test::examplePath("simple_pendulum.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const std::vector<Eigen::Vector2d> exact =
      integrateOneDof(pendulumAcceleration, 0.0, 0.0, frameTimes(run.results));
  double worst = 0;
  for (std::size_t k = 0; k < run.results.frames.size(); ++k)
    worst = std::max(worst, std::abs(run.results.frames[k].state.q(2) - exact[k](0)));
  qInfo("variable step, tolerance 1e-7: %d steps, %d rejected, angle error %.3g rad",
        run.results.stats.steps, run.results.stats.rejectedSteps, worst);
  QVERIFY2(worst < 1e-4, QByteArray::number(worst));
}

void TestHHT::variableStepTolerance() {
  // A local error tol per step of length h ~ tol^(1/3) gives a global error ~ tol^(2/3), also
  // while the steps change (they are cut to land on every frame): the method stays second order.
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("simple_pendulum.rlx")));
  std::vector<double> tolerances, errors;
  for (const double tolerance : {1e-6, 1e-7, 1e-8, 1e-9}) {
    DynamicsOptions options = optionsFor(1.0, 1e-2, 0.03);
    options.variableStep = true;
    options.tolerance = tolerance;
    const Run run = runModel(model, options);
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    const std::vector<Eigen::Vector2d> exact =
        integrateOneDof(pendulumAcceleration, 0.0, 0.0, frameTimes(run.results));
    double error = 0;
    for (std::size_t k = 0; k < exact.size(); ++k)
      error = std::max(error, std::abs(run.results.frames[k].state.q(2) - exact[k](0)));
    qInfo("tolerance %g: %d steps, largest angle error %.4g rad", tolerance,
          run.results.stats.steps, error);
    tolerances.push_back(tolerance);
    errors.push_back(error);
  }
  const double slope = test::logLogSlope(tolerances, errors);
  qInfo("error ~ tolerance^%.3f", slope);
  QVERIFY2(std::abs(slope - 2.0 / 3.0) < 0.1, QByteArray::number(slope));
}

void TestHHT::doubleFourBarSingularPasses_data() {
  // Fixed step 1e-3 (the phase error of the method reaches 7e-4 rad in 20 s), and steps of at
  // most 1e-3 under a local error tolerance of 5e-10.
  QTest::addColumn<bool>("variableStep");
  QTest::addColumn<double>("angleBound");
  QTest::newRow("fixed") << false << 1e-3;
  QTest::newRow("variable") << true << 1e-4;
}

void TestHHT::doubleFourBarSingularPasses() {
  QFETCH(bool, variableStep);
  QFETCH(double, angleBound);
  const auto start = std::chrono::steady_clock::now();
  DynamicsOptions options = optionsFor(100.0, 1e-3, 0.01);
  options.variableStep = variableStep;
  options.tolerance = variableStep ? 5e-10 : options.tolerance;
  const Run run = runFile(test::examplePath("double_four_bar.rlx"), options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Model& model = run.model;
  const Body &c1 = test::body(model, "crank1"), &c2 = test::body(model, "crank2"), &c3 = test::body(model, "crank3");
  const Body &k1 = test::body(model, "coupler1"), &k2 = test::body(model, "coupler2");
  const std::vector<double> times = frameTimes(run.results);
  const std::vector<Eigen::Vector2d> exact =
      integrateOneDof([](double th) { return -7 * g / 6 * std::cos(th); }, M_PI / 2, -1.0, times);
  const double E0 = run.results.frames.front().kinetic + run.results.frames.front().potential;
  double parallel = 0, horizontal = 0, angle20 = 0, energyFirst = 0, energyLast = 0, drift = 0;
  for (std::size_t k = 0; k < run.results.frames.size(); ++k) {
    const Frame& f = run.results.frames[k];
    const double th = f.state.q(c1.q + 2);
    parallel = std::max(
        {parallel, std::abs(f.state.q(c2.q + 2) - th), std::abs(f.state.q(c3.q + 2) - th)});
    horizontal = std::max({horizontal, std::abs(std::remainder(f.state.q(k1.q + 2), 2 * M_PI)),
                           std::abs(std::remainder(f.state.q(k2.q + 2), 2 * M_PI))});
    const double energyError = std::abs(f.kinetic + f.potential - E0);
    if (times[k] <= 20) {
      angle20 = std::max(angle20, std::abs(th - exact[k](0)));
      energyFirst = std::max(energyFirst, energyError);
    }
    if (times[k] >= 80) energyLast = std::max(energyLast, energyError);
    drift = std::max(drift, f.constraintError);
  }
  qInfo(
      "double four-bar 100 s, h <= 1e-3 (%.2f s wall, %d steps, %d rejected, %d iterations): cranks "
      "parallel within %.3g rad, couplers horizontal within %.3g rad, crank angle error over 20 s "
      "%.3g rad, energy error max %.3g J (0-20 s) and %.3g J (80-100 s), constraint error %.3g",
      seconds, run.results.stats.steps, run.results.stats.rejectedSteps,
      run.results.stats.newtonIterations, parallel, horizontal, angle20, energyFirst, energyLast,
      drift);
  QVERIFY2(parallel < 1e-6, QByteArray::number(parallel));
  QVERIFY2(horizontal < 1e-6, QByteArray::number(horizontal));
  QVERIFY2(angle20 < angleBound, QByteArray::number(angle20));
  QVERIFY2(energyLast <= 2 * energyFirst, QByteArray::number(energyLast / energyFirst));
  QVERIFY2(drift < 1e-9, QByteArray::number(drift));
}

void TestHHT::stiffSpring() {
  DynamicsOptions options = optionsFor(1.0, 1e-2, 0.01);
  const Run run = runFile(test::testDataPath("stiff_spring_slider.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  QCOMPARE(run.results.frames.size(), std::size_t(101));
  const Body& block = test::body(run.model, "block");
  const double yStatic = -(0.49 + g / 1e6);
  double largest = 0;
  for (const Frame& f : run.results.frames)
    largest = std::max(largest, std::abs(f.state.q(block.q + 1) - yStatic));
  const Frame& last = run.results.frames.back();
  const double offset = std::abs(last.state.q(block.q + 1) - yStatic);
  qInfo(
      "stiff spring h = 1e-2: %d steps, %d iterations; largest excursion %.3g m, final offset %.3g "
      "m",
      run.results.stats.steps, run.results.stats.newtonIterations, largest, offset);
  QVERIFY2(largest <= 0.0100001, QByteArray::number(largest));
  QVERIFY2(offset < 1e-7, QByteArray::number(offset));
  QVERIFY(std::abs(last.state.q(block.q)) < 1e-12 && std::abs(last.state.v(block.v + 1)) < 1e-4);
}

void TestHHT::lockUp() {
  DynamicsOptions options = optionsFor(2.0, 1e-3, 0.01);
  const Run run = runFile(test::testDataPath("non_grashof_lockup.rlx"), options);
  const SolveReport& report = run.results.report;
  qInfo("lock-up: %s; %d steps, %d rejected", report.message.c_str(), run.results.stats.steps,
        run.results.stats.rejectedSteps);
  QVERIFY(!report.ok());
  QVERIFY(report.status == SolveStatus::MaxIterations || report.status == SolveStatus::Singular);
  QVERIFY2(std::abs(report.time - 1.1139137) < 1e-3, QByteArray::number(report.time));
  QVERIFY2(report.message.rfind("dynamic analysis failed at t = 1.11", 0) == 0,
           report.message.c_str());
  for (const char* joint : {"crank_coupler_pin", "coupler_rocker_pin", "rocker_pin"})
    QVERIFY2(
        std::find(report.elements.begin(), report.elements.end(), joint) != report.elements.end(),
        joint);
  QVERIFY2(report.message.find("\"coupler_rocker_pin\"") != std::string::npos,
           report.message.c_str());
  QCOMPARE(run.results.frames.back().state.t, 1.11);
}

void TestHHT::nonFiniteForce_data() {
  QTest::addColumn<QString>("value");
  QTest::addColumn<double>("time");
  QTest::newRow("0/0") << "0/0" << 0.0;
  QTest::newRow("sqrt(-1)") << "sqrt(-1)" << 0.0;
  QTest::newRow("later") << "t > 0.5 ? sqrt(-1) : 0" << 0.5;
}

void TestHHT::nonFiniteForce() {
  QFETCH(QString, value);
  QFETCH(double, time);
  Spec spec = test::loadSpec(test::examplePath("simple_pendulum.rlx"));
  ForceSpec torque;
  torque.name = "bad_torque";
  torque.type = ForceType::Torque;
  torque.body = "pendulum";
  torque.value = value.toStdString();
  spec.forces.push_back(torque);
  const Run run = runModel(test::compileOrFail(spec), optionsFor(1.0, 1e-3, 0.01));
  const SolveReport& report = run.results.report;
  QCOMPARE(report.status, SolveStatus::NotFinite);
  QCOMPARE(report.elements, std::vector<std::string>{"bad_torque"});
  QCOMPARE(report.time, time);
  const std::string expected =
      "dynamic analysis failed at t = " + QByteArray::number(time).toStdString() +
      " s: the force \"bad_torque\" is not finite";
  QCOMPARE(report.message, expected);
}

void TestHHT::alphaOutOfRange() {
  for (const double alpha : {-0.5, 0.1}) {
    DynamicsOptions options = optionsFor(1.0, 1e-3, 0.01);
    options.hhtAlpha = alpha;
    const Run run = runFile(test::examplePath("simple_pendulum.rlx"), options);
    QCOMPARE(run.results.report.status, SolveStatus::Unsupported);
    const std::string expected =
        "HHT cannot run: the HHT parameter alpha = " + QByteArray::number(alpha).toStdString() +
        " is outside [-1/3, 0]";
    QCOMPARE(run.results.report.message, expected);
    QCOMPARE(run.results.stats.steps, 0);
  }
}

void TestHHT::sliderCrankTiming() {
  DynamicsOptions options = optionsFor(10.0, 1e-3, 0.05);
  const Run run = runFile(test::examplePath("braun_goldfarb_slider_crank.rlx"), options);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Body &crank = test::body(run.model, "crank"), &rod = test::body(run.model, "rod");
  const double E0 = g * std::sqrt(2.0) / 2;
  double slider = 0, energy = 0, drift = 0;
  for (const Frame& f : run.results.frames) {
    const double x = f.state.q(rod.q) + 0.5 * std::cos(f.state.q(rod.q + 2));
    slider = std::max(slider, std::abs(x - 2 * std::cos(f.state.q(crank.q + 2))));
    energy = std::max(energy, std::abs(f.kinetic + f.potential - E0));
    drift = std::max(drift, f.constraintError);
  }
  const RunStats& stats = run.results.stats;
  qInfo(
      "slider-crank 10 s, h = 1e-3: %d steps, %d rejected, %d iterations, %d force evaluations, "
      "%.2f us per step; slider off x = 2 cos(theta) by %.3g m, energy error %.3g J, constraint "
      "error %.3g",
      stats.steps, stats.rejectedSteps, stats.newtonIterations, stats.rhsEvaluations,
      1e6 * stats.wallTime / stats.steps, slider, energy, drift);
  QVERIFY2(slider < 1e-6, QByteArray::number(slider));
  QVERIFY2(energy < 1e-2, QByteArray::number(energy));
}

QTEST_GUILESS_MAIN(TestHHT)
#include "tst_hht.moc"
