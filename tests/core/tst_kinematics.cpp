// Kinematic analysis against closed forms: the offset slider-crank, the four-bar (loop-closure
// equations), the driven pendulum's pin reaction, driving torque and the drive's work, and a chain
// with every pin driven on the dense and the sparse path.
#include "bench_common.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/equations/reactions.h"
#include "solve/kinematics/kinematics.h"
#include "test_support.h"

#include <QtTest>

#include <complex>

using namespace rlx;

namespace {

struct Run {
  Model model;
  Results results;
};

Run runExample(const std::string& file) {
  Run run{test::compileOrFail(test::loadSpec(test::examplePath(file))), {}};
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  const AssemblyReport assembly = assemble(run.model, state, ws);
  if (!assembly.ok()) throw std::runtime_error(assembly.message);
  KinematicsOptions options;
  options.endTime = run.model.endTime;
  options.step = run.model.step;
  options.outputStep = run.model.outputStep;
  options.tolerance = 1e-12;
  runKinematics(run.model, state, ws, options, run.results);
  return run;
}

}  // namespace

class TestKinematics : public QObject {
  Q_OBJECT

 private slots:
  void offsetSliderCrank();
  void fourBar();
  void drivenPendulumReactionsAndWork();
  void framesAtOutputTimes();
  void notFullyDriven();
  void drivenChain_data();
  void drivenChain();
};

void TestKinematics::offsetSliderCrank() {
  const Run run = runExample("slider_crank.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const double r = 0.15, l = 0.5, e = 0.05, w = 2 * M_PI;
  const Body& slider = test::body(run.model, "slider");
  const Body& rod = test::body(run.model, "rod");
  double worst = 0;
  for (const Frame& f : run.results.frames) {
    // x = r cos(theta) + sqrt(l^2 - s^2) with s = e - r sin(theta), theta = 30 deg + w t.
    const double th = M_PI / 6 + w * f.state.t;
    const double s = e - r * std::sin(th), sd = -r * std::cos(th) * w, sdd = r * std::sin(th) * w * w;
    const double root = std::sqrt(l * l - s * s);
    const double x = r * std::cos(th) + root;
    const double xd = -r * std::sin(th) * w - s * sd / root;
    const double xdd = -r * std::cos(th) * w * w - (sd * sd + s * sdd) / root - s * s * sd * sd / (root * root * root);
    const double rodAngle = std::atan2(s, root);
    worst = std::max({worst, std::abs(f.state.q(slider.q) - x), std::abs(f.state.v(slider.v) - xd),
                      std::abs(f.vdot(slider.v) - xdd) / (1 + std::abs(xdd)),
                      std::abs(f.state.q(rod.q + 2) - rodAngle), std::abs(f.state.q(slider.q + 1) - e)});
  }
  QVERIFY2(worst < 1e-9, QByteArray::number(worst));
}

void TestKinematics::fourBar() {
  const Run run = runExample("four_bar.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const double a = 0.1, b = 0.35, c = 0.3, d = 0.4, w2 = 2 * M_PI;
  const Body& coupler = test::body(run.model, "coupler");
  const Body& rocker = test::body(run.model, "rocker");
  using C = std::complex<double>;
  const C i(0, 1);
  double worst = 0;
  for (const Frame& f : run.results.frames) {
    // Loop closure a e^{i t2} + b e^{i t3} = d + c e^{i t4}, upper branch (rocker tip above ground).
    const double t2 = M_PI / 4 + w2 * f.state.t;
    const C A = a * std::exp(i * t2), O4(d, 0);
    const double dist = std::abs(A - O4);
    const double along = (b * b - c * c + dist * dist) / (2 * dist), across = std::sqrt(b * b - along * along);
    const C u = (O4 - A) / dist;
    const C B = A + along * u + across * (-i * u) * (std::imag((-i * u)) > 0 ? 1.0 : -1.0);
    const double t3 = std::arg(B - A), t4 = std::arg(B - O4);
    // Velocities and accelerations from the differentiated loop equation (2x2 real systems).
    const C e3 = i * b * std::exp(i * t3), e4 = -i * c * std::exp(i * t4);
    const auto solve = [&](C rhs) {
      Eigen::Matrix2d M;
      M << e3.real(), e4.real(), e3.imag(), e4.imag();
      return Eigen::Vector2d(M.inverse() * Eigen::Vector2d(rhs.real(), rhs.imag()));
    };
    const Eigen::Vector2d w34 = solve(-i * a * w2 * std::exp(i * t2));
    const C centripetal = a * w2 * w2 * std::exp(i * t2) + b * w34(0) * w34(0) * std::exp(i * t3) -
                          c * w34(1) * w34(1) * std::exp(i * t4);
    const Eigen::Vector2d al34 = solve(centripetal);
    const auto wrapDiff = [](double x, double y) { return std::abs(std::remainder(x - y, 2 * M_PI)); };
    worst = std::max({worst, wrapDiff(f.state.q(coupler.q + 2), t3), wrapDiff(f.state.q(rocker.q + 2), t4),
                      std::abs(f.state.v(coupler.v + 2) - w34(0)), std::abs(f.state.v(rocker.v + 2) - w34(1)),
                      std::abs(f.vdot(coupler.v + 2) - al34(0)) / (1 + std::abs(al34(0))),
                      std::abs(f.vdot(rocker.v + 2) - al34(1)) / (1 + std::abs(al34(1)))});
  }
  QVERIFY2(worst < 1e-9, QByteArray::number(worst));
}

void TestKinematics::drivenPendulumReactionsAndWork() {
  const Run run = runExample("driven_pendulum.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const double m = 1, l = 1, g = 9.81, w = 2 * M_PI;
  Workspace ws(run.model);
  double worst = 0, work = 0;
  for (const Frame& f : run.results.frames) {
    evaluateConstraintDerivatives(run.model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction pin = jointReaction(run.model, f.state, ws, 0);
    const double phi = -M_PI / 2 + w * f.state.t;
    const double fx = -m * w * w * (l / 2) * std::cos(phi);
    const double fy = m * g - m * w * w * (l / 2) * std::sin(phi);
    const double torque = m * g * (l / 2) * std::cos(phi);
    worst = std::max({worst, std::abs(pin.force.x() - fx), std::abs(pin.force.y() - fy),
                      std::abs(pin.torque.z()), std::abs(motionEffort(run.model, ws, 0) - torque)});
    // The drive's work, the integral of torque * w: m g (l/2) (sin(phi) + 1), the potential
    // energy gained (solves 1e-3 s apart; the trapezoidal rule was off by 3.2e-5 J).
    work = std::max(work, std::abs(f.workNonconservative - m * g * (l / 2) * (std::sin(phi) + 1)));
  }
  qInfo("largest error: reactions and torque %.1e, drive's work %.1e J", worst, work);
  QVERIFY2(worst < 1e-9, QByteArray::number(worst));
  QVERIFY2(work < 1e-9, QByteArray::number(work));
}

void TestKinematics::framesAtOutputTimes() {
  const Run run = runExample("slider_crank.rlx");
  QCOMPARE(run.results.frames.size(), std::size_t(201));
  for (std::size_t k = 0; k < run.results.frames.size(); ++k)
    QVERIFY(std::abs(run.results.frames[k].state.t - 0.01 * static_cast<double>(k)) < 1e-12);
  // Angles are continuous: the crank turns two full revolutions.
  const Body& crank = run.model.bodies[0];
  QVERIFY(std::abs(run.results.frames.back().state.q(crank.q + 2) - (M_PI / 6 + 4 * M_PI)) < 1e-9);
}

void TestKinematics::notFullyDriven() {
  Model model = test::compileOrFail(test::loadSpec(test::examplePath("simple_pendulum.rlx")));
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  QVERIFY(assemble(model, state, ws).ok());
  Results results;
  runKinematics(model, state, ws, {}, results);
  QCOMPARE(results.report.status, SolveStatus::Unsupported);
  QVERIFY(results.report.message.find("1 degree of freedom remains") != std::string::npos);
}

void TestKinematics::drivenChain_data() {
  // Dense below kSparseFromVelocities velocities, sparse (KLU) from there on.
  QTest::addColumn<int>("links");
  QTest::newRow("10 links, dense") << 10;
  QTest::newRow("40 links, sparse") << 40;
}

void TestKinematics::drivenChain() {
  // Every pin of a horizontal chain driven by the same relative angle f(t) = 0.5 sin(2 t): link k
  // turns by (k + 1) f, its centre at sum_{i<k} l (cos, sin)((i + 1) f) + l/2 (cos, sin)((k + 1) f).
  QFETCH(int, links);
  const Model model = test::compileOrFail(bench::drivenChain(links, "0.5*sin(2*t)"));
  QCOMPARE(model.nv >= kSparseFromVelocities, links == 40);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  QVERIFY(assemble(model, state, ws).ok());
  KinematicsOptions options;
  options.endTime = 2.0;
  options.step = 1e-2;
  options.outputStep = 0.1;
  options.tolerance = 1e-12;
  Results results;
  runKinematics(model, state, ws, options, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QCOMPARE(results.frames.size(), std::size_t(21));
  const double l = 1.0 / links;
  double position = 0, rates = 0, balance = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t, angle = 0.5 * std::sin(2 * t), rate = std::cos(2 * t),
                 acceleration = -2 * std::sin(2 * t);
    Eigen::Vector2d joint(0, 0);
    for (int k = 0; k < links; ++k) {
      const Body& body = model.bodies[static_cast<std::size_t>(k)];
      const double phi = (k + 1) * angle;
      const Eigen::Vector2d centre = joint + l / 2 * Eigen::Vector2d(std::cos(phi), std::sin(phi));
      joint += l * Eigen::Vector2d(std::cos(phi), std::sin(phi));
      position = std::max({position, (f.state.q.segment<2>(body.q) - centre).norm(),
                           std::abs(f.state.q(body.q + 2) - phi)});
      rates = std::max({rates, std::abs(f.state.v(body.v + 2) - (k + 1) * rate),
                        std::abs(f.vdot(body.v + 2) - (k + 1) * acceleration)});
    }
    // The multipliers balance the equations of motion: M vdot + Phi_q^T lambda = Q.
    evaluateConstraintDerivatives(model, f.state, ws);
    evaluateMassMatrix(model, f.state, ws);
    evaluateAppliedForces(model, f.state, ws);
    balance = std::max(
        balance, (ws.M * f.vdot + ws.Phi_q.transpose() * f.lambda - ws.Q).lpNorm<Eigen::Infinity>());
  }
  qInfo("%d links: position error %.1e, rate error %.1e, force balance %.1e", links, position,
        rates, balance);
  QVERIFY(position < 1e-10);
  QVERIFY(rates < 1e-8);
  QVERIFY(balance < 1e-9);
}

QTEST_GUILESS_MAIN(TestKinematics)
#include "tst_kinematics.moc"
