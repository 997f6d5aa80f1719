// Braun-Goldfarb corrected Runge-Kutta integration against minimal-coordinate references: the
// slider-crank through its singular configuration, the double four-bar over a long run, the
// convergence order on the pendulum, step-size control on a stiff spring, the energy balance of
// driven models, failure reports.
#include "perturbed_double_four_bar.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/corrected_rk.h"
#include "solve/integrators/dynamics.h"
#include "solve/integrators/hht.h"
#include "test_support.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <functional>

using namespace rlx;

namespace {

constexpr double g = 9.81;

struct Run {
  Model model;
  Results results;
};

Run runModel(Model model, const std::string& integrator, double step, double endTime,
             double outputStep, const std::function<void(DynamicsOptions&)>& adjust = {}) {
  Run run{std::move(model), {}};
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  const AssemblyReport assembly = assemble(run.model, state, ws);
  if (!assembly.ok()) throw std::runtime_error(assembly.message);
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.step = step;
  options.endTime = endTime;
  options.outputStep = outputStep;
  if (adjust) adjust(options);
  runDynamics(run.model, state, ws, options, run.results);
  return run;
}

Model example(const std::string& file) {
  return test::compileOrFail(test::loadSpec(test::examplePath(file)));
}

// theta'' = accel(theta, theta') integrated by RK4 at step h, sampled every `every` seconds.
std::vector<double> reference(const std::function<double(double, double)>& accel, double theta0,
                              double omega0, double h, double every, double endTime) {
  std::vector<double> samples{theta0};
  double th = theta0, w = omega0;
  const long perSample = std::lround(every / h), samplesCount = std::lround(endTime / every);
  for (long s = 0; s < samplesCount; ++s) {
    for (long i = 0; i < perSample; ++i) {
      const double k1t = w, k1w = accel(th, w);
      const double k2t = w + 0.5 * h * k1w, k2w = accel(th + 0.5 * h * k1t, k2t);
      const double k3t = w + 0.5 * h * k2w, k3w = accel(th + 0.5 * h * k2t, k3t);
      const double k4t = w + h * k3w, k4w = accel(th + h * k3t, k4t);
      th += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
      w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
    samples.push_back(th);
  }
  return samples;
}

// Slider-crank in the crank angle: (2/3 + 2 sin^2) theta'' = -2 sin cos theta'^2 - g cos.
double sliderCrankAccel(double th, double w) {
  const double s = std::sin(th), c = std::cos(th);
  return (-2 * s * c * w * w - g * c) / (2.0 / 3 + 2 * s * s);
}

// max |E - W - E0| over the frames.
double energyError(const Results& results) {
  const Frame& first = results.frames.front();
  const double E0 = first.kinetic + first.potential;
  double worst = 0;
  for (const Frame& f : results.frames)
    worst = std::max(worst, std::abs(f.kinetic + f.potential - f.workNonconservative - E0));
  return worst;
}

double constraintError(const Results& results) {
  double worst = 0;
  for (const Frame& f : results.frames) worst = std::max(worst, f.constraintError);
  return worst;
}

struct SliderCrankErrors {
  double slider = 0, constraint = 0, energy = 0;
  int singularPasses = 0;
};

SliderCrankErrors sliderCrankErrors(const Run& run, const std::vector<double>& ref) {
  const Body& crank = test::body(run.model, "crank");
  const Body& rod = test::body(run.model, "rod");
  SliderCrankErrors e;
  const auto& frames = run.results.frames;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Eigen::VectorXd& q = frames[i].state.q;
    const double x = q(rod.q) + 0.5 * std::cos(q(rod.q + 2));
    e.slider = std::max(e.slider, std::abs(x - 2 * std::cos(ref[i])));
    if (i > 0 && (frames[i - 1].state.q(crank.q + 2) + M_PI / 2) * (q(crank.q + 2) + M_PI / 2) < 0)
      ++e.singularPasses;
  }
  e.constraint = constraintError(run.results);
  e.energy = energyError(run.results);
  return e;
}

}  // namespace

class TestCorrectedRK : public QObject {
  Q_OBJECT

 private slots:
  void sliderCrank();
  void doubleFourBar();
  void perturbedDoubleFourBars();
  void rk4Order();
  void rk45Tolerance();
  void rk45TightTolerances_data();
  void rk45TightTolerances();
  void drivenEnergyBalance_data();
  void drivenEnergyBalance();
  void stiffSpringReducesStep();
  void singularMassMatrix();
  void nonFiniteForceNamed();
  void unstableStepExplained();
  void lockUpStops();
};

void TestCorrectedRK::sliderCrank() {
  const double endTime = 100, every = 0.05;
  const std::vector<double> ref = reference(sliderCrankAccel, M_PI / 4, 0, 1e-4, every, endTime);
  const Model model = example("braun_goldfarb_slider_crank.rlx");

  const Run fine = runModel(model, "corrected-rk", 0.01, endTime, every);
  QVERIFY2(fine.results.report.ok(), fine.results.report.message.c_str());
  QCOMPARE(fine.results.frames.size(), ref.size());
  const SliderCrankErrors on = sliderCrankErrors(fine, ref);
  const RunStats& stats = fine.results.stats;
  qInfo(
      "corrected-rk h = 0.01, energy correction on: slider %.3g m, constraint %.3g, energy %.3g J, "
      "%d singular passes, %d steps, %d RHS evaluations in %.3f s = %.0f RHS/s",
      on.slider, on.constraint, on.energy, on.singularPasses, stats.steps, stats.rhsEvaluations,
      stats.wallTime, stats.rhsEvaluations / stats.wallTime);
  int referencePasses = 0;
  for (std::size_t i = 1; i < ref.size(); ++i)
    if ((ref[i - 1] + M_PI / 2) * (ref[i] + M_PI / 2) < 0) ++referencePasses;
  QCOMPARE(referencePasses, 57);  // first at 0.88 s, then every 1.765 s
  QCOMPARE(on.singularPasses, referencePasses);
  QVERIFY2(on.slider < 1e-3, QByteArray::number(on.slider));
  QVERIFY2(on.constraint < 1e-6, QByteArray::number(on.constraint));
  QVERIFY2(on.energy < 1e-4, QByteArray::number(on.energy));
  QCOMPARE(stats.steps, 10000);
  QCOMPARE(stats.rhsEvaluations, 4 * 10000 + 1);

  const Run uncorrected = runModel(model, "corrected-rk", 0.01, endTime, every,
                                   [](DynamicsOptions& o) { o.energyCorrection = false; });
  QVERIFY2(uncorrected.results.report.ok(), uncorrected.results.report.message.c_str());
  const SliderCrankErrors off = sliderCrankErrors(uncorrected, ref);
  qInfo(
      "corrected-rk h = 0.01, energy correction off: slider %.3g m, constraint %.3g, energy %.3g J",
      off.slider, off.constraint, off.energy);
  QVERIFY2(off.energy > 5 * on.energy, QByteArray::number(off.energy / on.energy));

  const Run coarse = runModel(model, "corrected-rk", 0.05, endTime, every);
  QVERIFY2(coarse.results.report.ok(), coarse.results.report.message.c_str());
  const SliderCrankErrors big = sliderCrankErrors(coarse, ref);
  qInfo(
      "corrected-rk h = 0.05, energy correction on: slider %.3g m, constraint %.3g, energy %.3g J",
      big.slider, big.constraint, big.energy);
  QCOMPARE(coarse.results.frames.size(), ref.size());
  QVERIFY2(big.energy < 2e-2, QByteArray::number(big.energy));

  const Run adaptive = runModel(model, "corrected-rk45", 0.05, endTime, every,
                                [](DynamicsOptions& o) { o.tolerance = 1e-8; });
  QVERIFY2(adaptive.results.report.ok(), adaptive.results.report.message.c_str());
  const SliderCrankErrors dp = sliderCrankErrors(adaptive, ref);
  qInfo(
      "corrected-rk45 tol 1e-8: slider %.3g m, constraint %.3g, energy %.3g J, %d steps, "
      "%d rejected, %d RHS evaluations",
      dp.slider, dp.constraint, dp.energy, adaptive.results.stats.steps,
      adaptive.results.stats.rejectedSteps, adaptive.results.stats.rhsEvaluations);
  QVERIFY2(dp.slider < 1e-3, QByteArray::number(dp.slider));
  QVERIFY2(dp.energy < 1e-4, QByteArray::number(dp.energy));
}

void TestCorrectedRK::doubleFourBar() {
  // The paper's run: 1000 s at h = 0.01, about 1030 passes of the singular configuration.
  const double endTime = 1000, every = 0.1, l = 1;
  const Run run = runModel(example("double_four_bar.rlx"), "corrected-rk", 0.01, endTime, every);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const std::vector<double> ref =
      reference([&](double th, double) { return -7 * g / (6 * l) * std::cos(th); }, M_PI / 2, -1,
                1e-4, every, 20);
  const Body& c1 = test::body(run.model, "crank1");
  const Body& c2 = test::body(run.model, "crank2");
  const Body& c3 = test::body(run.model, "crank3");
  const auto& frames = run.results.frames;
  QCOMPARE(frames.size(), std::size_t(10001));
  // The parallelogram branch: the three cranks keep one angle through every horizontal pass.
  double branch = 0, angle = 0;
  int horizontalPasses = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Eigen::VectorXd& q = frames[i].state.q;
    branch = std::max(
        {branch, std::abs(q(c1.q + 2) - q(c2.q + 2)), std::abs(q(c3.q + 2) - q(c2.q + 2))});
    if (i < ref.size()) angle = std::max(angle, std::abs(q(c1.q + 2) - ref[i]));
    if (i > 0 &&
        std::floor(frames[i - 1].state.q(c1.q + 2) / M_PI) != std::floor(q(c1.q + 2) / M_PI))
      ++horizontalPasses;
  }
  // Energy error over the first and the last tenth of the run.
  const Frame& first = frames.front();
  const double E0 = first.kinetic + first.potential;
  double early = 0, late = 0;
  for (const Frame& f : frames) {
    const double e = std::abs(f.kinetic + f.potential - E0);
    if (f.state.t <= endTime / 10) early = std::max(early, e);
    if (f.state.t >= endTime * 9 / 10) late = std::max(late, e);
  }
  qInfo(
      "double four-bar 1000 s, h = 0.01: %d horizontal passes, crank angles differ by %.3g, crank "
      "angle error (20 s) %.3g, constraint %.3g, energy error first tenth %.3g J, last tenth %.3g "
      "J, "
      "%.2f s",
      horizontalPasses, branch, angle, constraintError(run.results), early, late,
      run.results.stats.wallTime);
  QVERIFY2(horizontalPasses > 1000, QByteArray::number(horizontalPasses));
  QVERIFY2(branch < 1e-6, QByteArray::number(branch));
  QVERIFY2(angle < 1e-4, QByteArray::number(angle));
  QVERIFY2(late < 2 * early + 1e-9, QByteArray::number(late / early));
}

// One perturbed double four-bar's run, for a failure message.
QByteArray describe(const DynamicsOptions& options, unsigned seed,
                    const bench::DoubleFourBarRun& run) {
  return QByteArray::fromStdString(integratorName(options.integrator)) + ", seed " + QByteArray::number(seed) +
         ": t = " + QByteArray::number(run.endTime) + " s, |E - E0| " +
         QByteArray::number(run.energyError) + " J " + QByteArray::fromStdString(run.message);
}

void TestCorrectedRK::perturbedDoubleFourBars() {
  // Rounding-level changes of the double four-bar (masses, lengths, ground spacings, initial angle
  // and rate by up to 1e-9, bodies and joints shuffled; bench/bench_double_four_bar runs 200).
  // Their exact motion leaves the parallelogram within sqrt(1e-9) of a horizontal pass
  // (docs/integrators-corrected-rk.md, "Rounding-level changes of the double four-bar"). The
  // fixed-step corrected-rk must not overflow there: each run reaches 1000 s within
  // |E - E0| < 1e-3 J, or stops at a pass it does not resolve with a message that names the joints
  // and the remedy (the code before overflowed: "the state became NaN or infinite").
  // corrected-rk45 (tolerance 1e-8) resolves the passes: 30 s each here (about 30 passes, 0.5 s
  // a run; the bench runs 1000 s), on either branch, within 1e-5 J: no step across a pass at the
  // error floor skips the turn into the other branch (seeds 8 and 14 did at 11.45 s and 28.5 s,
  // 5e-4 J and 1e-3 J by 100 s).
  DynamicsOptions options;
  options.integrator = Integrator::CorrectedRK;
  options.step = 0.01;
  options.outputStep = 0.01;
  options.endTime = 1000;
  int stopped = 0;
  double latest = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const bench::DoubleFourBarRun run =
        bench::runDoubleFourBar(bench::perturbedDoubleFourBar(seed), options);
    const QByteArray what = describe(options, seed, run);
    if (run.reachedEnd) {
      QVERIFY2(run.energyError < 1e-3, what);
      continue;
    }
    QVERIFY2(run.stoppedAtPass, what);
    QVERIFY2(
        run.message.find("corrected-rk45 (variable step) resolves the pass") != std::string::npos,
        what);
    QVERIFY2(run.message.find("joints involved: \"coupler1_left\"") != std::string::npos, what);
    ++stopped;
    latest = std::max(latest, run.endTime);
  }
  options.integrator = Integrator::CorrectedRK45;
  options.tolerance = 1e-8;
  options.endTime = 30;
  double energy = 0, seconds = 0;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const bench::DoubleFourBarRun run =
        bench::runDoubleFourBar(bench::perturbedDoubleFourBar(seed), options);
    const QByteArray what = describe(options, seed, run);
    QVERIFY2(run.reachedEnd, what);
    QVERIFY2(run.energyError < 1e-5, what);
    energy = std::max(energy, run.energyError);
    seconds += run.seconds;
  }
  qInfo(
      "20 perturbed double four-bars: corrected-rk stopped at a pass in %d runs (the last at "
      "t = %.2f s); corrected-rk45 (1e-8, 30 s): largest |E - E0| %.3g J, %.2f s per run",
      stopped, latest, energy, seconds / 20);
}

void TestCorrectedRK::rk4Order() {
  const Model model = example("simple_pendulum.rlx");
  const Body& rod = test::body(model, "pendulum");
  const double exact =
      reference([](double th, double) { return -1.5 * g * std::cos(th); }, 0, 0, 1e-5, 1, 1)[1];
  std::vector<double> steps, errors;
  for (const double h : {0.025, 0.0125, 0.00625, 0.003125}) {
    const Run run = runModel(model, "corrected-rk", h, 1.0, 0.5,
                             [](DynamicsOptions& o) { o.energyCorrection = false; });
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    const double error = std::abs(run.results.frames.back().state.q(rod.q + 2) - exact);
    qInfo("corrected-rk pendulum h = %g: angle error at t = 1 s %.3e", h, error);
    steps.push_back(h);
    errors.push_back(error);
  }
  const double slope = test::logLogSlope(steps, errors);
  qInfo("corrected-rk fitted order %.3f", slope);
  QVERIFY2(std::abs(slope - 4) < 0.3, QByteArray::number(slope));
}

void TestCorrectedRK::rk45Tolerance() {
  const Model model = example("simple_pendulum.rlx");
  const Body& rod = test::body(model, "pendulum");
  const double exact =
      reference([](double th, double) { return -1.5 * g * std::cos(th); }, 0, 0, 1e-5, 1, 1)[1];
  std::vector<double> errors;
  for (const double tolerance : {1e-4, 1e-5, 1e-6, 1e-7, 1e-8}) {
    const Run run = runModel(model, "corrected-rk45", 0.1, 1.0, 1.0, [&](DynamicsOptions& o) {
      o.tolerance = tolerance;
      o.energyCorrection = false;
    });
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    errors.push_back(std::abs(run.results.frames.back().state.q(rod.q + 2) - exact));
    QCOMPARE(run.results.stats.floorSteps, 0);  // no singular configuration: every step meets it
    qInfo(
        "corrected-rk45 pendulum tolerance %g: angle error at t = 1 s %.3e, %d steps, %d rejected",
        tolerance, errors.back(), run.results.stats.steps, run.results.stats.rejectedSteps);
  }
  // The error falls with the tolerance, about proportionally: the slope of log(error) against
  // log(tolerance) from 1e-4 to 1e-8 is near 1.
  for (std::size_t i = 1; i < errors.size(); ++i) QVERIFY(errors[i] < errors[i - 1]);
  const double slope = std::log(errors.front() / errors.back()) / std::log(1e4);
  qInfo("corrected-rk45 error against tolerance: slope %.3f", slope);
  QVERIFY2(std::abs(slope - 1) < 0.3, QByteArray::number(slope));
}

void TestCorrectedRK::rk45TightTolerances_data() {
  QTest::addColumn<double>("tolerance");
  for (const double tolerance : {1e-10, 5e-12, 1e-12}) QTest::addRow("%g", tolerance) << tolerance;
}

void TestCorrectedRK::rk45TightTolerances() {
  // The B&G slider-crank, 20 s (11 passes of its singular configuration, where its branches
  // cross): corrected-rk45 at tolerances of 5e-12 and below stopped at the first or second pass
  // ("the step size fell below the minimum step"). It passes them at the error floor and stays on
  // the slider-crank's own branch: the slider follows the minimal-coordinate reference.
  QFETCH(double, tolerance);
  const double endTime = 20, every = 0.05;
  const std::vector<double> ref = reference(sliderCrankAccel, M_PI / 4, 0, 1e-4, every, endTime);
  const Run run = runModel(example("braun_goldfarb_slider_crank.rlx"), "corrected-rk45", 0.01,
                           endTime, every, [&](DynamicsOptions& o) { o.tolerance = tolerance; });
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  QCOMPARE(run.results.frames.size(), ref.size());
  const SliderCrankErrors e = sliderCrankErrors(run, ref);
  const RunStats& stats = run.results.stats;
  qInfo("corrected-rk45 %g: slider %.3g m, energy %.3g J, %d passes, %d steps, %d at the floor "
        "(up to %.3g times the tolerance)",
        tolerance, e.slider, e.energy, e.singularPasses, stats.steps, stats.floorSteps,
        stats.floorError);
  QCOMPARE(e.singularPasses, 11);
  QVERIFY(e.slider < 1e-8);
  QVERIFY(e.energy < 1e-9);
}

void TestCorrectedRK::drivenEnergyBalance_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("integrator");
  for (const char* file :
       {"driven_pendulum.rlx", "four_bar.rlx", "slider_crank.rlx", "spatial_slider_crank.rlx"})
    for (const char* integrator : {"corrected-rk", "corrected-rk45"})
      QTest::addRow("%s %s", file, integrator) << file << integrator;
}

void TestCorrectedRK::drivenEnergyBalance() {
  // Motions do work: E - W (W the recorded work of the drives, solve/recording/work_integral.h) is
  // constant to the integrator's own accuracy, 2 s at h = 1e-3. With the trapezoidal rule on W the
  // balance was off by 1e-5 ... 3e-5 J on the planar models, whichever the integrator.
  QFETCH(QString, file);
  QFETCH(QString, integrator);
  const Run run = runModel(example(file.toStdString()), integrator.toStdString(), 1e-3, 2.0, 0.01);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  double work = 0;
  for (const Frame& f : run.results.frames) work = std::max(work, std::abs(f.workNonconservative));
  const double balance = energyError(run.results);
  qInfo("%s: largest |W| %.3g J, largest |E - W - E0| %.2e J", qPrintable(file), work, balance);
  QVERIFY2(work > 0.1, QByteArray::number(work));
  QVERIFY2(balance < 1e-8, QByteArray::number(balance));
}

void TestCorrectedRK::stiffSpringReducesStep() {
  const Model model = test::compileOrFail(test::loadSpec(test::testDataPath("stiff_spring.rlx")));
  const Body& block = test::body(model, "block");
  const Run run = runModel(model, "corrected-rk45", 0.01, 0.05, 0.01,
                           [](DynamicsOptions& o) { o.tolerance = 1e-6; });
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const RunStats& stats = run.results.stats;
  // x(t) = 1 + 0.01 cos(1000 t).
  double worst = 0;
  for (const Frame& f : run.results.frames)
    worst = std::max(worst, std::abs(f.state.q(block.q) - 1 - 0.01 * std::cos(1000 * f.state.t)));
  qInfo(
      "stiff spring, corrected-rk45 (step <= 0.01, tolerance 1e-6): %d steps, %d rejected, "
      "%d RHS evaluations, position error %.3g m",
      stats.steps, stats.rejectedSteps, stats.rhsEvaluations, worst);
  QCOMPARE(run.results.frames.size(), std::size_t(6));
  QVERIFY(stats.rejectedSteps > 0);
  QVERIFY2(stats.steps > 100, QByteArray::number(stats.steps));
  QVERIFY2(worst < 1e-4, QByteArray::number(worst));
}

void TestCorrectedRK::singularMassMatrix() {
  Model model = example("simple_pendulum.rlx");
  model.bodies[0].inertia(2, 2) = 0.0;
  const Run run = runModel(model, "corrected-rk", 0.01, 1.0, 0.1);
  QCOMPARE(run.results.report.status, SolveStatus::Singular);
  QCOMPARE(QString::fromStdString(run.results.report.message),
           QString("dynamic analysis failed at t = 0 s: the mass matrix is singular (body "
                   "\"pendulum\" has no mass or inertia in a direction it can move); "
                   "corrected-rk needs M^-1, use hht or give the body an inertia"));
  QCOMPARE(run.results.report.elements, std::vector<std::string>{"pendulum"});
  QCOMPARE(run.results.frames.size(), std::size_t(1));
}

void TestCorrectedRK::nonFiniteForceNamed() {
  const Model model =
      test::compileOrFail(test::loadSpec(test::testDataPath("nan_force_pendulum.rlx")));
  const Run run = runModel(model, "corrected-rk", 0.01, 1.0, 0.1);
  QCOMPARE(run.results.report.status, SolveStatus::NotFinite);
  QCOMPARE(QString::fromStdString(run.results.report.message),
           QString("dynamic analysis failed at t = 0.31 s: the state became NaN or infinite "
                   "(the force \"push\" is not finite)"));
  QCOMPARE(run.results.report.elements, std::vector<std::string>{"push"});
  QCOMPARE(run.results.report.time, 0.31);
}

void TestCorrectedRK::unstableStepExplained() {
  // The stiff spring (omega = 1000 rad/s) at a fixed step of 0.01 s, ten times RK4's stability
  // limit (omega h <= 2.8): the state grows about 400 times a step until it overflows, with every
  // force finite; the message says what to change.
  const Model model = test::compileOrFail(test::loadSpec(test::testDataPath("stiff_spring.rlx")));
  const Run run = runModel(model, "corrected-rk", 0.01, 5.0, 0.01);
  const std::string& message = run.results.report.message;
  qInfo("%s", message.c_str());
  QCOMPARE(run.results.report.status, SolveStatus::NotFinite);
  QVERIFY(run.results.report.time > 0.5 && run.results.report.time < 5.0);
  QVERIFY(run.results.report.elements.empty());
  QVERIFY2(message.ends_with(
               "the state became NaN or infinite: every force is finite, so the step of 0.01 s is "
               "likely beyond the stability limit of the model's fastest motion (corrected-rk is "
               "explicit); take a smaller step, corrected-rk45 (which chooses its steps) or an "
               "implicit integrator (hht, bdf)"),
           message.c_str());
}

void TestCorrectedRK::lockUpStops() {
  // A non-Grashof four-bar whose driven crank pulls coupler and rocker into one line at
  // t = 0.0634 s, beyond which the loop cannot close. The code before ran on to the end; now the
  // step after the lock-up stops, naming the loop's joints and the motion.
  const Model model =
      test::compileOrFail(test::loadSpec(test::testDataPath("four_bar_lockup.rlx")));
  for (const double h : {0.01, 0.001}) {
    const Run run = runModel(model, "corrected-rk", h, 0.5, 0.01);
    const SolveReport& report = run.results.report;
    qInfo("%s", report.message.c_str());
    QCOMPARE(report.status, SolveStatus::Singular);
    QVERIFY2(report.time > 0.0634 && report.time <= 0.0634 + h, report.message.c_str());
    QVERIFY2(report.message.find("the mechanism locks up") != std::string::npos,
             report.message.c_str());
    QCOMPARE(report.elements, (std::vector<std::string>{"coupler_rocker_pin", "crank_coupler_pin",
                                                        "crank_drive", "crank_pin", "rocker_pin"}));
  }
}

QTEST_GUILESS_MAIN(TestCorrectedRK)
#include "tst_corrected_rk.moc"
