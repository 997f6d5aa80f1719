// Kinematic analysis against closed forms: the offset slider-crank, the four-bar (loop-closure
// equations), and the driven pendulum's pin reaction and driving torque.
#include "solve/assembly.h"
#include "solve/constraints.h"
#include "solve/kinematics.h"
#include "solve/reactions.h"
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
  void drivenPendulumReactions();
  void framesAtOutputTimes();
  void notFullyDriven();
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

void TestKinematics::drivenPendulumReactions() {
  const Run run = runExample("driven_pendulum.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const double m = 1, l = 1, g = 9.81, w = 2 * M_PI;
  Workspace ws(run.model);
  double worst = 0;
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
  }
  QVERIFY2(worst < 1e-9, QByteArray::number(worst));
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

QTEST_GUILESS_MAIN(TestKinematics)
#include "tst_kinematics.moc"
