// Static equilibrium and quasi-statics against hand computations: a pendulum on a torsion spring,
// a four-bar on a crank spring with a hanging load (virtual work), neutral equilibrium, a far
// start, a rod released horizontally, the Bricard linkage (dynamic relaxation), the stability of
// equilibria, a driven crank with a spring-loaded link, and a model without any equilibrium.
#include "bench_common.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/equations/reactions.h"
#include "solve/integrators/dynamics.h"
#include "solve/statics/statics.h"
#include "test_support.h"

#include <QtTest>

#include <complex>
#include <functional>

using namespace rlx;

namespace {

constexpr double g = 9.81;

Model loadModel(const std::string& file) {
  return test::compileOrFail(test::loadSpec(test::testDataPath(file)));
}

State assembled(const Model& model, Workspace& ws) {
  State state{0.0, model.q0, model.v0};
  const AssemblyReport report = assemble(model, state, ws);
  if (!report.ok()) throw std::runtime_error(report.message);
  return state;
}

int bodyIndex(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (model.bodies[i].name == name) return static_cast<int>(i);
  throw std::runtime_error("no body " + name);
}

int jointIndex(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.joints.size(); ++i)
    if (model.joints[i].name == name) return static_cast<int>(i);
  throw std::runtime_error("no joint " + name);
}

double angleOf(const Model& model, const State& state, const std::string& body) {
  return state.q(model.bodies[static_cast<std::size_t>(bodyIndex(model, body))].q + 2);
}

// A root of f in [a, b] (f(a), f(b) of opposite signs) by bisection to machine precision.
double bisect(const std::function<double(double)>& f, double a, double b) {
  double fa = f(a);
  for (int i = 0; i < 200 && b - a > 1e-15; ++i) {
    const double m = 0.5 * (a + b), fm = f(m);
    if ((fm < 0) == (fa < 0)) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

// A root of f by Newton's method with a central-difference derivative.
double scalarNewton(const std::function<double(double)>& f, double x) {
  for (int i = 0; i < 50; ++i) {
    const double h = 1e-7, dfdx = (f(x + h) - f(x - h)) / (2 * h), dx = -f(x) / dfdx;
    x += dx;
    if (std::abs(dx) < 1e-15) break;
  }
  return x;
}

const char* failureName(SolveStatus status) {
  return status == SolveStatus::Singular        ? "Singular"
         : status == SolveStatus::MaxIterations ? "MaxIterations"
                                                : "other";
}

// max |Q - Phi_q^T lambda| and max |Phi| at a frame.
double equilibriumResidual(const Model& model, const Frame& frame) {
  Workspace ws(model);
  evaluateAppliedForces(model, frame.state, ws);
  evaluateConstraintDerivatives(model, frame.state, ws);
  evaluatePhi(model, frame.state, ws);
  return std::max((ws.Q - ws.Phi_q.transpose() * frame.lambda).lpNorm<Eigen::Infinity>(),
                  ws.Phi.lpNorm<Eigen::Infinity>());
}

// The pendulum on a spring (l = 1, m = 1, k = 10): m g (l/2) cos(theta) = -k theta.
double pendulumAngle() {
  return scalarNewton([](double th) { return g * 0.5 * std::cos(th) + 10.0 * th; }, 0.0);
}

}  // namespace

class TestStatics : public QObject {
  Q_OBJECT

 private slots:
  void pendulumOnSpring();
  void fourBarVirtualWork();
  void neutralSlider();
  void neutralSliderWithPendulum();
  void farStart();
  void tooFewIterations();
  void releasedHorizontally_data();
  void releasedHorizontally();
  void bricardRelaxes();
  void stabilityOfEquilibria_data();
  void stabilityOfEquilibria();
  void quasiStatics();
  void noEquilibrium();
};

void TestStatics::pendulumOnSpring() {
  const Model model = loadModel("statics_pendulum_spring.rlx");
  Workspace ws(model);
  const State start = assembled(model, ws);
  StaticsOptions options;
  Results results;
  runStatics(model, start, ws, options, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QCOMPARE(results.analysis, AnalysisType::Statics);
  QCOMPARE(results.frames.size(), std::size_t{1});  // no time dependence: one equilibrium
  const Frame& frame = results.frames.front();
  const double theta = pendulumAngle();
  QVERIFY2(std::abs(theta + 0.443126) < 1e-6, QByteArray::number(theta));
  const double angleError = std::abs(angleOf(model, frame.state, "pendulum") - theta);
  QVERIFY2(angleError < 1e-9, QByteArray::number(angleError));
  QCOMPARE(frame.state.v.norm(), 0.0);
  QCOMPARE(frame.vdot.norm(), 0.0);
  // The pin carries the weight: the reaction on the rod is m g upward.
  const Reaction pin = jointReaction(model, frame.state, ws, jointIndex(model, "pin"));
  const double reactionError = std::max(std::abs(pin.force.x()), std::abs(pin.force.y() - g));
  QVERIFY2(reactionError < 1e-9, QByteArray::number(reactionError));
  QVERIFY2(equilibriumResidual(model, frame) < 1e-9,
           QByteArray::number(equilibriumResidual(model, frame)));
  qInfo("pendulum: theta = %.12f, angle error %.2e, reaction error %.2e, %d iterations", theta,
        angleError, reactionError, results.report.iterations);
}

void TestStatics::fourBarVirtualWork() {
  const Model model = loadModel("statics_four_bar_spring.rlx");
  Workspace ws(model);
  State state = assembled(model, ws);
  const SolveReport report = equilibrium(model, state, ws, StaticsOptions{});
  QVERIFY2(report.ok(), report.message.c_str());

  // Closed form in the crank angle th: A = a e^{i th}, B on the upper branch, the coupler and
  // rocker angles th3, th4 and their rates per unit crank rate from the loop equation.
  using C = std::complex<double>;
  const C i(0, 1);
  const double a = 0.1, b = 0.35, c = 0.3, d = 0.4, m1 = 1, m2 = 2, m3 = 1.5, k = 30, W = 20;
  const double free = M_PI / 4 + 0.3;
  const C load(0.05, 0.03);  // coupler point, coupler axes
  // The generalized force along th of the weights and the load (virtual work), without the spring.
  const auto loadForce = [&](double th) {
    const C A = a * std::exp(i * th), O4(d, 0);
    const double dist = std::abs(A - O4);
    const double along = (b * b - c * c + dist * dist) / (2 * dist),
                 across = std::sqrt(b * b - along * along);
    const C u = (O4 - A) / dist, n = i * u;
    const C B = A + along * u + across * (std::imag(n) > 0 ? n : -n);
    const double th3 = std::arg(B - A), th4 = std::arg(B - O4);
    Eigen::Matrix2d M;
    const C e3 = i * b * std::exp(i * th3), e4 = -i * c * std::exp(i * th4);
    M << e3.real(), e4.real(), e3.imag(), e4.imag();
    const C rhs = -i * a * std::exp(i * th);
    const Eigen::Vector2d w = M.inverse() * Eigen::Vector2d(rhs.real(), rhs.imag());
    const C dA = i * a * std::exp(i * th);
    const C dCrank = 0.5 * dA;
    const C dCoupler = dA + i * w(0) * 0.5 * b * std::exp(i * th3);
    const C dRocker = i * w(1) * 0.5 * c * std::exp(i * th4);
    const C dLoad = dA + i * w(0) * std::exp(i * th3) * (0.5 * b + load);
    return -g * (m1 * dCrank.imag() + m2 * dCoupler.imag() + m3 * dRocker.imag()) -
           W * dLoad.imag();
  };
  const auto total = [&](double th) { return -k * (th - free) + loadForce(th); };
  // One sign change within a radian of the spring's free angle: a unique equilibrium there.
  std::vector<double> brackets;
  for (double th = free - 1; th < free + 1; th += 0.01)
    if ((total(th) < 0) != (total(th + 0.01) < 0)) brackets.push_back(th);
  QCOMPARE(brackets.size(), std::size_t{1});
  const double hand = bisect(total, brackets[0], brackets[0] + 0.01);

  const double crank = angleOf(model, state, "crank");
  const double angleError = std::abs(crank - hand);
  QVERIFY2(angleError < 1e-8, QByteArray::number(angleError));
  // The spring torque at the solved angle balances the hand-computed load torque.
  const double springTorque = -k * (crank - free);
  const double torqueError = std::abs(springTorque + loadForce(hand));
  QVERIFY2(torqueError < 1e-8, QByteArray::number(torqueError));
  // The ground pins carry the weights and the load.
  const Reaction p1 = jointReaction(model, state, ws, jointIndex(model, "crank_pin"));
  const Reaction p4 = jointReaction(model, state, ws, jointIndex(model, "rocker_pin"));
  const double verticalError = std::abs(p1.force.y() + p4.force.y() - (g * (m1 + m2 + m3) + W));
  const double horizontalError = std::abs(p1.force.x() + p4.force.x());
  QVERIFY2(verticalError < 1e-9 && horizontalError < 1e-9,
           QByteArray::number(verticalError) + " " + QByteArray::number(horizontalError));
  qInfo(
      "four-bar: crank %.12f (hand %.12f, free %.6f), angle error %.2e, torque error %.2e, %d "
      "iterations",
      crank, hand, free, angleError, torqueError, report.iterations);
}

void TestStatics::neutralSlider() {
  const Model model = loadModel("statics_neutral_slider.rlx");
  Workspace ws(model);
  State state = assembled(model, ws);
  const Eigen::VectorXd before = state.q;
  const SolveReport report = equilibrium(model, state, ws, StaticsOptions{});
  QVERIFY2(report.ok(), report.message.c_str());
  const double moved = (state.q - before).lpNorm<Eigen::Infinity>();
  QVERIFY2(moved < 1e-9, QByteArray::number(moved));
  // The slide carries the weight.
  const Reaction slide = jointReaction(model, state, ws, jointIndex(model, "slide"));
  QVERIFY2(std::abs(slide.force.y() - 2 * g) < 1e-9, QByteArray::number(slide.force.y()));
}

void TestStatics::neutralSliderWithPendulum() {
  const Model model = loadModel("statics_neutral_slider_pendulum.rlx");
  Workspace ws(model);
  State state = assembled(model, ws);
  const SolveReport report = equilibrium(model, state, ws, StaticsOptions{});
  QVERIFY2(report.ok(), report.message.c_str());
  const double relative = angleOf(model, state, "pendulum") - angleOf(model, state, "block");
  const double angleError = std::abs(relative - pendulumAngle());
  QVERIFY2(angleError < 1e-9, QByteArray::number(angleError));
  // The block stays on its slide, near where it was (the neutral coordinate does not run away).
  const double x = state.q(model.bodies[static_cast<std::size_t>(bodyIndex(model, "block"))].q);
  QVERIFY2(std::abs(x) < 0.5, QByteArray::number(x));
  qInfo("neutral with pendulum: block x %.3e, angle error %.2e, %d iterations", x, angleError,
        report.iterations);
}

void TestStatics::farStart() {
  const Model model = loadModel("statics_pendulum_spring.rlx");
  const double theta = pendulumAngle();
  for (const double offset : {1.0, -1.0, 2.5}) {
    Workspace ws(model);
    State state = assembled(model, ws);
    // The rod turned about the pin to theta + offset.
    const double start = theta + offset;
    state.q << 0.5 * std::cos(start), 0.5 * std::sin(start), start;
    const SolveReport report = equilibrium(model, state, ws, StaticsOptions{});
    QVERIFY2(report.ok(), report.message.c_str());
    const double error = std::abs(angleOf(model, state, "pendulum") - theta);
    QVERIFY2(error < 1e-9, QByteArray::number(offset) + ": " + QByteArray::number(error));
    qInfo("far start %+.1f rad: angle error %.2e, %d iterations", offset, error, report.iterations);
  }
  // Too few iterations from the farthest start: the descent stops after 2; released from rest,
  // the rod comes to rest near the equilibrium, which 2 more then reach.
  Workspace ws(model);
  State state = assembled(model, ws);
  state.q << 0.5 * std::cos(theta + 2.5), 0.5 * std::sin(theta + 2.5), theta + 2.5;
  StaticsOptions few;
  few.maxIterations = 2;
  const SolveReport report = equilibrium(model, state, ws, few);
  QVERIFY2(report.ok(), report.message.c_str());
  const double error = std::abs(angleOf(model, state, "pendulum") - theta);
  qInfo("far start +2.5 rad, 2 iterations per descent: angle error %.2e, %d iterations in all",
        error, report.iterations);
  QVERIFY2(error < 1e-9, QByteArray::number(error));
  QVERIFY(report.iterations > 2);
}

void TestStatics::tooFewIterations() {
  // Quasi-statics (a driven model: no dynamic relaxation) with one Jacobian per equilibrium, from
  // a start 0.5 rad off: MaxIterations, with the numbers.
  const Model model = loadModel("statics_driven_crank_link.rlx");
  Workspace ws(model);
  State state = assembled(model, ws);
  const Body& link = model.bodies[static_cast<std::size_t>(bodyIndex(model, "link"))];
  state.q(link.q + 2) += 0.5;
  StaticsOptions few;
  few.maxIterations = 1;
  const SolveReport report = equilibrium(model, state, ws, few);
  QVERIFY2(report.status == SolveStatus::MaxIterations, report.message.c_str());
  QCOMPARE(report.iterations, 1);
  QVERIFY2(
      report.message.find("static analysis failed at t = 0 s: no equilibrium found in 1 iteration "
                          "(an unbalanced force of ") == 0,
      report.message.c_str());
  QVERIFY(report.residualNorm > 1e-3);
}

void TestStatics::releasedHorizontally_data() {
  QTest::addColumn<QString>("file");
  QTest::newRow("revolute") << QString::fromStdString(test::examplePath("simple_pendulum.rlx"));
  QTest::newRow("user constraint")
      << QString::fromStdString(test::examplePath("user_pendulum.rlx"));
  QTest::newRow("spatial") << QString::fromStdString(
      test::testDataPath("statics_horizontal_rod_3d.rlx"));
}

void TestStatics::releasedHorizontally() {
  // A rod pinned at one end and horizontal: its unbalanced torque about the pin is largest there,
  // so no small change of position reduces the residual (a stationary point of |F|^2). Let go
  // along its accelerations from rest, it reaches the equilibrium hanging down.
  QFETCH(QString, file);
  const Model model = test::compileOrFail(test::loadSpec(file.toStdString()));
  Workspace ws(model);
  State state = assembled(model, ws);
  const Eigen::Index centre = model.bodies.front().q;
  QCOMPARE(state.q(centre + 1), 0.0);
  const SolveReport report = equilibrium(model, state, ws, StaticsOptions{});
  QVERIFY2(report.ok(), report.message.c_str());
  // Hanging down: the centre at (0, -l/2).
  const double positionError =
      std::max(std::abs(state.q(centre)), std::abs(state.q(centre + 1) + 0.5));
  // The pin (or the user constraint) holds the weight: Phi_q^T lambda = Q, m g along -y.
  const Eigen::VectorXd load = ws.Phi_q.transpose() * ws.lambda;
  const double reactionError = std::max({std::abs(load(0)), std::abs(load(1) + g),
                                         load.tail(load.size() - 2).lpNorm<Eigen::Infinity>()});
  qInfo("%s: centre error %.2e m, reaction error %.2e, %d iterations",
        qPrintable(QFileInfo(file).fileName()), positionError, reactionError, report.iterations);
  QVERIFY2(positionError < 1e-9, QByteArray::number(positionError));
  QVERIFY2(reactionError < 1e-9, QByteArray::number(reactionError));
}

void TestStatics::bricardRelaxes() {
  // The descent heads for a bifurcation point of the linkage (docs/statics.md) and stops after
  // 100 Jacobians; released from rest, the linkage swings to the bottom of its motion, where the
  // descent converges. That equilibrium is the lowest point of the swing of a dynamic run.
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("bricard.rlx")));
  Workspace ws(model);
  const State start = assembled(model, ws);
  Results results;
  runStatics(model, start, ws, StaticsOptions{}, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  const Frame& frame = results.frames.front();
  Workspace swingWs(model);
  State swingStart = assembled(model, swingWs);
  DynamicsOptions options;
  options.integrator = Integrator::CorrectedRK;
  options.endTime = 4.0;
  options.step = 1e-3;
  options.outputStep = 1e-3;
  Results swing;
  runDynamics(model, swingStart, swingWs, options, swing);
  QVERIFY2(swing.report.ok(), swing.report.message.c_str());
  double lowest = swing.frames.front().potential;
  for (const Frame& f : swing.frames) lowest = std::min(lowest, f.potential);
  const double residual = equilibriumResidual(model, frame);
  qInfo("Bricard: potential energy %.9f J at the equilibrium, %.9f J at the swing's lowest frame; "
        "residual on every row %.1e; %d Jacobians",
        frame.potential, lowest, residual, results.report.iterations);
  QVERIFY2(residual < 1e-9, QByteArray::number(residual));
  QVERIFY2(frame.potential <= lowest + 1e-12, QByteArray::number(frame.potential - lowest));
  QVERIFY2(lowest - frame.potential < 1e-4, QByteArray::number(lowest - frame.potential));
}

void TestStatics::stabilityOfEquilibria_data() {
  QTest::addColumn<QString>("file");  // empty: the pendulum chain of 30 links
  QTest::addColumn<int>("kind");
  QTest::addColumn<int>("softDirections");
  QTest::addColumn<QString>("note");
  const auto data = [](const char* file) {
    return QString::fromStdString(test::testDataPath(file));
  };
  QTest::newRow("on a spring") << data("statics_pendulum_spring.rlx")
                               << static_cast<int>(Stability::Stable) << 0 << QString();
  QTest::newRow("upright") << data("statics_upright_rod.rlx")
                           << static_cast<int>(Stability::Unstable) << 1
                           << "the equilibrium at t = 0 s is unstable: its stiffness is negative "
                              "along 1 free motion (a disturbance grows)";
  QTest::newRow("slide") << data("statics_neutral_slider.rlx")
                         << static_cast<int>(Stability::Neutral) << 1
                         << "the equilibrium at t = 0 s is neutral: its stiffness is zero along 1 "
                            "free motion (it holds anywhere along it)";
  QTest::newRow("slide with pendulum") << data("statics_neutral_slider_pendulum.rlx")
                                       << static_cast<int>(Stability::Neutral) << 1 << QString();
  // Released horizontally, the chain's descent ends in a zig-zag, not hanging straight down.
  QTest::newRow("zig-zag chain") << QString() << static_cast<int>(Stability::Unstable) << -1
                                 << QString();
}

void TestStatics::stabilityOfEquilibria() {
  // The sign of the stiffness on the motions the constraints allow, at the equilibrium.
  QFETCH(QString, file);
  QFETCH(int, kind);
  QFETCH(int, softDirections);
  QFETCH(QString, note);
  const Model model = file.isEmpty() ? test::compileOrFail(bench::pendulumChain(30))
                                     : test::compileOrFail(test::loadSpec(file.toStdString()));
  Workspace ws(model);
  const State start = assembled(model, ws);
  Results results;
  runStatics(model, start, ws, StaticsOptions{}, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QCOMPARE(results.equilibria.size(), results.frames.size());
  const EquilibriumStability& found = results.equilibria.front();
  qInfo("%s: %s along %d free motions, potential energy %.4f J",
        qPrintable(QTest::currentDataTag()), stabilityName(found.kind), found.softDirections,
        results.frames.front().potential);
  QCOMPARE(static_cast<int>(found.kind), kind);
  if (softDirections >= 0) QCOMPARE(found.softDirections, softDirections);
  const std::vector<std::string> notes = equilibriumNotes(results);
  if (kind == static_cast<int>(Stability::Stable)) QVERIFY(notes.empty());
  if (!note.isEmpty()) {
    QCOMPARE(notes.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(notes.front()), note);
  }
}

void TestStatics::quasiStatics() {
  const Model model = loadModel("statics_driven_crank_link.rlx");
  Workspace ws(model);
  const State start = assembled(model, ws);
  StaticsOptions options;
  options.endTime = 2.0;
  options.outputStep = 0.5;
  Results results;
  runStatics(model, start, ws, options, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QCOMPARE(results.frames.size(), std::size_t{5});
  for (const EquilibriumStability& e : results.equilibria) QVERIFY(e.kind == Stability::Stable);
  const double l1 = 0.3, l2 = 0.5, m1 = 1, m2 = 2, k = 8;
  double worstAngle = 0, worstResidual = 0;
  for (std::size_t f = 0; f < results.frames.size(); ++f) {
    const Frame& frame = results.frames[f];
    QCOMPARE(frame.state.t, 0.5 * static_cast<double>(f));
    QCOMPARE(frame.state.v.norm(), 0.0);
    QCOMPARE(frame.vdot.norm(), 0.0);
    worstResidual = std::max(worstResidual, equilibriumResidual(model, frame));
    // The link balances its weight on the spring: -m2 g (l2/2) cos(phi2) = k (phi2 - phi1).
    const double phi1 = 0.5 * frame.state.t;
    const double phi2 = scalarNewton(
        [&](double p) { return m2 * g * 0.5 * l2 * std::cos(p) + k * (p - phi1); }, phi1);
    worstAngle = std::max({worstAngle, std::abs(angleOf(model, frame.state, "crank") - phi1),
                           std::abs(angleOf(model, frame.state, "link") - phi2)});
    if (f == 3) {
      // The drive's torque carries both weights about the ground pin.
      Workspace at(model);
      at.lambda = frame.lambda;
      const double effort = motionEffort(model, at, 0);
      const double hand = m1 * g * 0.5 * l1 * std::cos(phi1) +
                          m2 * g * (l1 * std::cos(phi1) + 0.5 * l2 * std::cos(phi2));
      QVERIFY2(std::abs(effort - hand) < 1e-9, QByteArray::number(effort - hand));
      qInfo("quasi-statics at t = %.1f: effort %.12f, hand %.12f", frame.state.t, effort, hand);
    }
  }
  // The drive's work (effort times rate at the equilibria, solve/recording/work_integral.h) is the
  // potential energy stored, weights and spring: at the end, with the cubic through the last four
  // equilibria (the first step integrated again), within 2e-3 J (the trapezoidal rule: 5.7e-2).
  const Frame &first = results.frames.front(), &last = results.frames.back();
  const double balance = std::abs(last.potential - last.workNonconservative - first.potential);
  QVERIFY2(worstResidual < 1e-9, QByteArray::number(worstResidual));
  QVERIFY2(worstAngle < 1e-9, QByteArray::number(worstAngle));
  QVERIFY2(balance < 2e-3, QByteArray::number(balance));
  qInfo("quasi-statics: residual %.2e, angle error %.2e, energy balance at the end %.2e J (drive's "
        "work %.3f J), %d equilibria, %d iterations",
        worstResidual, worstAngle, balance, last.workNonconservative, results.stats.steps,
        results.stats.newtonIterations);
}

void TestStatics::noEquilibrium() {
  const Model model = loadModel("statics_falling_slider.rlx");
  Workspace ws(model);
  const State start = assembled(model, ws);
  Results results;
  runStatics(model, start, ws, StaticsOptions{}, results);
  QVERIFY(!results.report.ok());
  QVERIFY2(results.report.status == SolveStatus::Singular ||
               results.report.status == SolveStatus::MaxIterations,
           failureName(results.report.status));
  QVERIFY(results.frames.empty());
  const std::string& message = results.report.message;
  QVERIFY2(message.find("static analysis failed at t = 0 s: no equilibrium") == 0, message.c_str());
  QVERIFY2(message.find("9.81") != std::string::npos, message.c_str());
  QVERIFY2(message.find("\"block\"") != std::string::npos, message.c_str());
  QCOMPARE(results.report.elements, std::vector<std::string>{"block"});
  qInfo("no equilibrium: %s (%s)", message.c_str(), failureName(results.report.status));
}

QTEST_GUILESS_MAIN(TestStatics)
#include "tst_statics.moc"
