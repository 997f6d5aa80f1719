// The spatial examples: the spatial slider-crank against its closed form (kinematics and
// dynamics), Bricard's linkage (one redundant equation, mobility 1 though Gruebler says 0,
// energy conserved over 10 s) and the heavy symmetric top (steady precession at the rate of the
// closed form).
#include "joints/rotation.h"
#include "output/csv.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/dynamics.h"
#include "solve/kinematics/kinematics.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

struct Run {
  Model model;
  AssemblyReport assembly;
  Results results;
};

Run assembled(const std::string& file) {
  Run out{test::compileOrFail(test::loadSpec(test::examplePath(file))), {}, {}};
  return out;
}

Run runDynamicsOf(const std::string& file, const std::string& integrator, double endTime,
                  double step, double tolerance) {
  Run out = assembled(file);
  Workspace ws(out.model);
  State state{0.0, out.model.q0, out.model.v0};
  out.assembly = assemble(out.model, state, ws);
  if (!out.assembly.ok()) throw std::runtime_error(out.assembly.message);
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.endTime = endTime;
  options.step = step;
  options.outputStep = 0.01;
  options.tolerance = tolerance;
  runDynamics(out.model, state, ws, options, out.results);
  if (!out.results.report.ok()) throw std::runtime_error(out.results.report.message);
  return out;
}

Eigen::Matrix3d rotationOf(const Model& model, const State& state, const std::string& body) {
  const Body& b = test::body(model, body);
  return rotation::fromCoordinates(state.q.segment<4>(b.q + 3)).toRotationMatrix();
}

// Spatial slider-crank: x of the slider at crank angle theta.
double sliderX(double theta) {
  const double r = 0.08, L = 0.3, d = 0.1;
  const double y = d - r * std::cos(theta), z = r * std::sin(theta);
  return std::sqrt(L * L - y * y - z * z);
}

}  // namespace

class TestSpatialExamples : public QObject {
  Q_OBJECT

 private slots:
  void sliderCrankKinematics();
  void sliderCrankDynamics_data();
  void sliderCrankDynamics();
  void bricard_data();
  void bricard();
  void heavyTop_data();
  void heavyTop();
};

void TestSpatialExamples::sliderCrankKinematics() {
  Run run = assembled("spatial_slider_crank.rlx");
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  run.assembly = assemble(run.model, state, ws);
  QVERIFY(run.assembly.ok());
  QCOMPARE(run.assembly.redundancy.dof, 0);
  QCOMPARE(run.assembly.redundancy.dofGrubler, 0);
  KinematicsOptions options;
  options.endTime = 2.0;
  runKinematics(run.model, state, ws, options, run.results);
  QVERIFY(run.results.report.ok());
  const Body& slider = test::body(run.model, "slider");
  double worst = 0.0, worstRate = 0.0;
  for (const Frame& f : run.results.frames) {
    const double theta = 2 * kPi * f.state.t;
    worst = std::max(worst, std::abs(f.state.q(slider.q) - sliderX(theta)));
    const double rate = (sliderX(theta + 1e-6) - sliderX(theta - 1e-6)) / 2e-6 * 2 * kPi;
    worstRate = std::max(worstRate, std::abs(f.state.v(slider.v) - rate));
  }
  qInfo("spatial slider-crank kinematics, %zu frames: slider x error %.3g m, rate error %.3g m/s",
        run.results.frames.size(), worst, worstRate);
  QCOMPARE(run.results.frames.size(), std::size_t{201});
  QVERIFY(worst < 1e-10);
  QVERIFY(worstRate < 1e-7);
}

void TestSpatialExamples::sliderCrankDynamics_data() {
  QTest::addColumn<QString>("integrator");
  for (const char* name : {"hht", "corrected-rk", "corrected-rk45", "bdf"})
    QTest::newRow(name) << name;
}

void TestSpatialExamples::sliderCrankDynamics() {
  // The driven mechanism integrated as a dynamic system follows the kinematic solution.
  QFETCH(QString, integrator);
  const Run run =
      runDynamicsOf("spatial_slider_crank.rlx", integrator.toStdString(), 1.0, 1e-3, 1e-8);
  const Body& slider = test::body(run.model, "slider");
  double worst = 0.0, constraint = 0.0;
  for (const Frame& f : run.results.frames) {
    worst = std::max(worst, std::abs(f.state.q(slider.q) - sliderX(2 * kPi * f.state.t)));
    constraint = std::max(constraint, f.constraintError);
  }
  qInfo("spatial slider-crank dynamics, %s: slider x error %.3g m, constraint error %.3g, %d steps",
        qPrintable(integrator), worst, constraint, run.results.stats.steps);
  QVERIFY(worst < 1e-6);
  QVERIFY(constraint < 1e-6);
}

void TestSpatialExamples::bricard_data() {
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("step");
  QTest::addColumn<double>("tolerance");
  QTest::newRow("corrected-rk") << "corrected-rk" << 1e-3 << 1e-6;
  QTest::newRow("bdf") << "bdf" << 1e-2 << 1e-10;
}

void TestSpatialExamples::bricard() {
  // Gruebler: 5 rods * 6 - 6 revolutes * 5 = 0; one redundant equation, mobility 1.
  QFETCH(QString, integrator);
  QFETCH(double, step);
  QFETCH(double, tolerance);
  const Run run = runDynamicsOf("bricard.rlx", integrator.toStdString(), 10.0, step, tolerance);
  const Redundancy& r = run.assembly.redundancy;
  QCOMPARE(r.dofGrubler, 0);
  QCOMPARE(r.dof, 1);
  QCOMPARE(static_cast<int>(r.redundant.size()), 1);
  QCOMPARE(QString::fromStdString(r.redundant[0].equation), QString("hinge4.x"));
  // It moves, and keeps its energy.
  const auto& frames = run.results.frames;
  const double E0 = frames.front().kinetic + frames.front().potential;
  double drift = 0.0, kinetic = 0.0, travel = 0.0, constraint = 0.0;
  const Body& rod3 = test::body(run.model, "rod3");
  for (const Frame& f : frames) {
    drift = std::max(drift, std::abs(f.kinetic + f.potential - E0));
    kinetic = std::max(kinetic, f.kinetic);
    travel = std::max(
        travel, (f.state.q.segment<3>(rod3.q) - frames.front().state.q.segment<3>(rod3.q)).norm());
    constraint = std::max(constraint, f.constraintError);
  }
  qInfo(
      "Bricard, %s h = %g, tolerance %g, 10 s: energy drift %.3g J (E0 = %.4f J), largest "
      "kinetic energy %.3f J, rod3 travels up to %.3f m, constraint error %.3g, %d steps in %.2f s",
      qPrintable(integrator), step, tolerance, drift, E0, kinetic, travel, constraint,
      run.results.stats.steps, run.results.stats.wallTime);
  QVERIFY(travel > 0.5);
  QVERIFY(kinetic > 10.0);
  QVERIFY(drift < 1e-6);
  QVERIFY(constraint < 1e-8);
}

void TestSpatialExamples::heavyTop_data() {
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("step");
  QTest::addColumn<double>("tolerance");  // relative, on the precession rate
  QTest::newRow("corrected-rk") << "corrected-rk" << 1e-3 << 1e-6;
  QTest::newRow("corrected-rk45") << "corrected-rk45" << 1e-3 << 1e-7;
  QTest::newRow("hht") << "hht" << 2e-4 << 3e-5;
  QTest::newRow("bdf") << "bdf" << 1e-2 << 1e-6;
}

void TestSpatialExamples::heavyTop() {
  // Steady precession at tilt theta with spin w3 about the symmetry axis e3: the angular momentum
  // about the tip is L = A Omega (z - cos(theta) e3) + C w3 e3 (A = I1 + m l^2, C = I3); e3 turns
  // about z at Omega, so dL/dt = Omega (C w3 - A Omega cos(theta)) z x e3, which must equal the
  // gravity moment l e3 x (-m g z) = m g l z x e3:
  //   A cos(theta) Omega^2 - C w3 Omega + m g l = 0   (slow precession: the smaller root).
  QFETCH(QString, integrator);
  QFETCH(double, step);
  QFETCH(double, tolerance);
  const double m = 1.0, l = 0.1, I1 = 2.5e-3, I3 = 4e-3, g = 9.81, theta = 30 * kPi / 180, w3 = 100;
  const double A = I1 + m * l * l, C = I3;
  const double Omega = (C * w3 - std::sqrt(C * C * w3 * w3 - 4 * A * std::cos(theta) * m * g * l)) /
                       (2 * A * std::cos(theta));
  const Run run = runDynamicsOf("heavy_top.rlx", integrator.toStdString(), 2.0, step, 1e-10);
  // Azimuth of the symmetry axis (unwrapped) and its tilt.
  double azimuth = 0.0, previous = 0.0, tiltError = 0.0;
  for (std::size_t k = 0; k < run.results.frames.size(); ++k) {
    const Eigen::Vector3d e3 = rotationOf(run.model, run.results.frames[k].state, "top").col(2);
    const double a = std::atan2(e3.x(), -e3.y());
    if (k > 0) azimuth += std::remainder(a - previous, 2 * kPi);
    previous = a;
    tiltError = std::max(tiltError, std::abs(std::acos(e3.z()) - theta));
  }
  const double measured = azimuth / run.results.frames.back().state.t;
  qInfo(
      "heavy top, %s h = %g: precession %.12f rad/s against %.12f (relative %.3g), tilt "
      "deviation %.3g rad, %d steps",
      qPrintable(integrator), step, measured, Omega, std::abs(measured / Omega - 1), tiltError,
      run.results.stats.steps);
  // Results columns: the Euler angles and the tip's reaction on the top, m (a - g) with the
  // centre of mass on a horizontal circle of radius l sin(theta) at Omega (at t = 0 it is at
  // y = -l sin(theta)): F = (0, m Omega^2 l sin(theta), m g), no torque at a ball joint.
  const std::vector<std::string> columns = resultColumns(run.model);
  Workspace ws(run.model);
  const std::vector<double> values = frameValues(run.model, run.results.frames.front(), ws);
  const auto column = [&](const std::string& name) {
    return values[static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                           columns.begin())];
  };
  const Eigen::Vector3d force(column("tip.fx"), column("tip.fy"), column("tip.fz"));
  const Eigen::Vector3d torque(column("tip.tx"), column("tip.ty"), column("tip.tz"));
  const Eigen::Vector3d expected(0, m * Omega * Omega * l * std::sin(theta), m * g);
  qInfo(
      "tip reaction (%.9f, %.9f, %.9f) N against (0, %.9f, %.9f); torque %.3g; Euler angles "
      "(%.6f, %.6f, %.6f)",
      force.x(), force.y(), force.z(), expected.y(), expected.z(), torque.norm(), column("top.psi"),
      column("top.theta"), column("top.phi"));
  QVERIFY((force - expected).norm() < 1e-8);
  QVERIFY(torque.norm() < 1e-10);
  QVERIFY(std::abs(column("top.theta") - theta) < 1e-12);
  QVERIFY(std::abs(column("top.psi")) < 1e-12 && std::abs(column("top.phi")) < 1e-12);
  QVERIFY(std::abs(Omega - 2.6413071655516) < 1e-12);
  QVERIFY(std::abs(measured / Omega - 1) < tolerance);
  QVERIFY(tiltError < 10 * tolerance);
}

QTEST_GUILESS_MAIN(TestSpatialExamples)
#include "tst_spatial_examples.moc"
