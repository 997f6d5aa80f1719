// A coin rolling in a steady circle (examples/rolling_disk.rlx): the rolling_disk joint (a
// holonomic contact height and two nonholonomic no-slip rows) keeps the tilt and the radius of
// the path constant from the initial state of Routh's steady-motion condition, the contact point
// at rest, and the contact force equal to m (a_G - g), with hht, corrected-rk and bdf; the same
// constraint written as user equations (tests/data/rolling_disk_user.rlx) gives the same motion.
// On a free plate (tests/data/rolling_disk_on_plate.rlx: body1 moves) the total momentum, angular
// momentum and energy are conserved and the contact forces on the two bodies are opposite.
#include "joints/joints.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/equations/spatial_constraints.h"
#include "solve/integrators/dynamics.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double a = 0.3, m = 5.0, g = 9.81, R = 2.0, tilt = 20 * kPi / 180;

// Steady rolling on a circle: the centre G at radius R turning at Omega about z, the axis
// n = cos(tilt) rho + sin(tilt) z (rho: from the circle's centre to G), e = cos(tilt) z - sin(tilt)
// rho (towards the top of the disk), contact P = G - a e. Omega = Omega z + psi n; no slip at P,
// Omega R + a (Omega sin(tilt) + psi) = 0, gives psi = -Omega (R + a sin(tilt)) / a and the spin
// w_n = omega . n = -Omega R / a. The angular momentum about G, H = A Omega cos(tilt) e + C w_n n,
// turns with Omega: dH/dt = Omega cos(tilt) (C w_n - A Omega sin(tilt)) phi (phi = z x rho). The
// contact force F = m (a_G + g z) = -m Omega^2 R rho + m g z has the moment
// (P - G) x F = m a (Omega^2 R cos(tilt) - g sin(tilt)) phi about G. Equal, with A = m a^2/4 and
// C = m a^2/2:  Omega^2 = 4 g tan(tilt) / (6 R + a sin(tilt)).
double steadyOmega() {
  return std::sqrt(4 * g * std::tan(tilt) / (6 * R + a * std::sin(tilt)));
}

// The coin's deviations over a run: the tilt and the radius of the path from their steady values,
// the contact point's velocity in the plane (the no-slip rows) and along the normal (the rate of
// the contact height), and the measured turning rate.
struct Deviation {
  double tilt = 0.0, radius = 0.0, slip = 0.0, sink = 0.0, Omega = 0.0;
};

Deviation deviation(const Model& model, const Results& results) {
  Deviation out;
  double azimuth = 0.0, previous = 0.0;
  for (std::size_t k = 0; k < results.frames.size(); ++k) {
    const spatial::Body coin = spatialBody(model, results.frames[k].state, 0);
    const Eigen::Vector3d n = coin.A.col(2);
    out.tilt = std::max(out.tilt, std::abs(std::asin(n.z()) - tilt));
    out.radius = std::max(out.radius, std::abs(coin.r.head<2>().norm() - R));
    // The disk's material point at the contact, P = G - a e, e = (z - n_z n) / |z - n_z n|.
    const Eigen::Vector3d e = (Eigen::Vector3d::UnitZ() - n.z() * n).normalized();
    const Eigen::Vector3d contactVelocity = coin.rdot + coin.omega.cross(-a * e);
    out.slip = std::max(out.slip, contactVelocity.head<2>().norm());
    out.sink = std::max(out.sink, std::abs(contactVelocity.z()));
    const double angle = std::atan2(coin.r.y(), coin.r.x());
    if (k > 0) azimuth += std::remainder(angle - previous, 2 * kPi);
    previous = angle;
  }
  out.Omega = azimuth / results.frames.back().state.t;
  return out;
}

// Assembles the model and runs it for 5 s with the integrator at the step.
Results run(const Model& model, const std::string& integrator, double step) {
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport assembly = assemble(model, state, ws);
  if (!assembly.ok()) qFatal("assembly failed");
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.hhtAlpha = 0.0;
  options.endTime = 5.0;
  options.step = step;
  options.outputStep = 0.01;
  options.tolerance = 1e-10;
  Results results;
  runDynamics(model, state, ws, options, results);
  return results;
}

// Checks the steady circle: tilt, radius and the contact point's velocity held, Omega kept.
void checkSteady(const Model& model, const Results& results, const char* label) {
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  const Deviation d = deviation(model, results);
  qInfo(
      "coin, %s, 5 s: tilt deviation %.3g rad, radius deviation %.3g m, contact point slip %.3g "
      "m/s and normal speed %.3g m/s, Omega %.10f against %.10f; %d steps in %.2f s",
      label, d.tilt, d.radius, d.slip, d.sink, d.Omega, steadyOmega(), results.stats.steps,
      results.stats.wallTime);
  QVERIFY(d.tilt < 1e-6);
  QVERIFY(d.radius < 1e-6);
  QVERIFY(d.slip < 1e-9);
  QVERIFY(d.sink < 1e-6);
  QVERIFY(std::abs(d.Omega / steadyOmega() - 1) < 1e-6);
}

// The largest difference of the positions of two runs' frames.
double largestDifference(const Results& first, const Results& second) {
  if (first.frames.size() != second.frames.size()) return INFINITY;
  double out = 0.0;
  for (std::size_t k = 0; k < first.frames.size(); ++k)
    out = std::max(out,
                   (first.frames[k].state.q - second.frames[k].state.q).lpNorm<Eigen::Infinity>());
  return out;
}

}  // namespace

class TestSpatialRollingDisk : public QObject {
  Q_OBJECT

 private slots:
  void steadyCircle();
  void steadyCircleCorrectedRungeKutta();
  void steadyCircleBdf();
  void userConstraintsGiveTheSameMotion();
  void floatingPlate_data();
  void floatingPlate();
};

void TestSpatialRollingDisk::steadyCircle() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("rolling_disk.rlx")));
  QCOMPARE(model.nh, 1);
  QCOMPARE(model.nn, 2);
  QCOMPARE(QString::fromStdString(model.rowNames[2]), QString("table.slip_y"));
  const double Omega = steadyOmega();
  QVERIFY(std::abs(model.v0(1) - Omega * R) < 1e-12);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport assembly = assemble(model, state, ws);
  QVERIFY(assembly.ok());
  QCOMPARE(assembly.redundancy.dof, 3);
  QVERIFY((state.q - model.q0).norm() < 1e-12 && (state.v - model.v0).norm() < 1e-12);
  const Results results = run(model, "hht", 1e-4);
  checkSteady(model, results, "hht alpha = 0, h = 1e-4");
  // Contact force m (a_G + g z), a_G = -Omega^2 R rho, and no torque about the contact point.
  double forceError = 0.0, torque = 0.0;
  for (const Frame& f : results.frames) {
    const spatial::Body coin = spatialBody(model, f.state, 0);
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction r = jointReaction(model, f.state, ws, 0);
    const Eigen::Vector3d rho(coin.r.x() / R, coin.r.y() / R, 0);
    forceError =
        std::max(forceError,
                 (r.force - (-m * Omega * Omega * R * rho + Eigen::Vector3d(0, 0, m * g))).norm());
    torque = std::max(torque, r.torque.norm());
  }
  qInfo("coin, hht: contact force error %.3g N, torque %.3g N m", forceError, torque);
  QVERIFY(forceError < 1e-4);
  QVERIFY(torque < 1e-8);
}

void TestSpatialRollingDisk::steadyCircleCorrectedRungeKutta() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("rolling_disk.rlx")));
  checkSteady(model, run(model, "corrected-rk", 1e-3), "corrected-rk, h = 1e-3");
}

void TestSpatialRollingDisk::steadyCircleBdf() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("rolling_disk.rlx")));
  const Results results = run(model, "bdf", 1e-2);
  checkSteady(model, results, "bdf, tolerance 1e-10, step at most 1e-2");
  QVERIFY(results.stats.maxOrder >= 3);
}

void TestSpatialRollingDisk::userConstraintsGiveTheSameMotion() {
  const Model joint = test::compileOrFail(test::loadSpec(test::examplePath("rolling_disk.rlx")));
  const Model user =
      test::compileOrFail(test::loadSpec(test::testDataPath("rolling_disk_user.rlx")));
  QCOMPARE(user.nh, 1);
  QCOMPARE(user.nn, 2);
  QCOMPARE(QString::fromStdString(user.rowNames[2]), QString("no_slip.2"));
  for (const auto& [integrator, step] :
       {std::pair<std::string, double>{"hht", 1e-4}, {"corrected-rk", 1e-3}}) {
    const Results withJoint = run(joint, integrator, step);
    const Results withUser = run(user, integrator, step);
    checkSteady(user, withUser, (integrator + ", user constraints").c_str());
    const double difference = largestDifference(withJoint, withUser);
    qInfo("coin, %s: joint and user constraints differ by %.3g in q", integrator.c_str(),
          difference);
    QVERIFY(difference < 1e-6);
  }
}

void TestSpatialRollingDisk::floatingPlate_data() {
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("step");
  QTest::newRow("hht") << "hht" << 1e-4;
  QTest::newRow("corrected-rk") << "corrected-rk" << 1e-3;
  QTest::newRow("bdf") << "bdf" << 1e-2;
}

void TestSpatialRollingDisk::floatingPlate() {
  QFETCH(QString, integrator);
  QFETCH(double, step);
  const Model model =
      test::compileOrFail(test::loadSpec(test::testDataPath("rolling_disk_on_plate.rlx")));
  QCOMPARE(model.joints[0].body1, 0);
  const Results results = run(model, integrator.toStdString(), step);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  // Momentum, angular momentum about the origin, energy; the contact's velocity on the plate.
  Workspace ws(model);
  Eigen::Vector3d P0, L0;
  double E0 = 0.0, momentum = 0.0, angular = 0.0, energy = 0.0, slip = 0.0, height = 0.0,
         opposite = 0.0, turned = 0.0;
  for (std::size_t k = 0; k < results.frames.size(); ++k) {
    const Frame& f = results.frames[k];
    Eigen::Vector3d P = Eigen::Vector3d::Zero(), L = Eigen::Vector3d::Zero();
    for (int b = 0; b < 2; ++b) {
      const spatial::Body body = spatialBody(model, f.state, b);
      const Body& spec = model.bodies[static_cast<std::size_t>(b)];
      P += spec.mass * body.rdot;
      L += spec.mass * body.r.cross(body.rdot) +
           body.A * spec.inertia * body.A.transpose() * body.omega;
    }
    if (k == 0) P0 = P, L0 = L, E0 = f.kinetic;
    momentum = std::max(momentum, (P - P0).norm());
    angular = std::max(angular, (L - L0).norm());
    energy = std::max(energy, std::abs(f.kinetic + f.potential - E0));
    height = std::max(height, f.constraintError);
    turned = std::max(turned, std::abs(spatialBody(model, f.state, 0).omega.z() - 0.5));
    // The reaction on the coin at the contact point, and the rows' wrench on the plate: the
    // opposite force at the same point.
    evaluateConstraintDerivatives(model, f.state, ws);
    slip = std::max(slip, (ws.Phi_q.middleRows(model.nh, 2) * f.state.v).norm());
    ws.lambda = f.lambda;
    const Reaction onCoin = jointReaction(model, f.state, ws, 0);
    Eigen::VectorXd onPlate = -ws.Phi_q.block(0, 0, 1, 6).transpose() * f.lambda.head(1);
    onPlate -= ws.Phi_q.block(model.joints[0].velocityRow, 0, 2, 6).transpose() *
               f.lambda.segment<2>(model.joints[0].velocityRow);
    const spatial::Body plate = spatialBody(model, f.state, 0),
                        coin = spatialBody(model, f.state, 1);
    const Eigen::Vector3d contact = rollingDiskContact(model.joints[0], plate, coin);
    opposite = std::max({opposite, (onPlate.head<3>() + onCoin.force).norm(),
                         (onPlate.tail<3>() - (contact - plate.r).cross(onPlate.head<3>())).norm(),
                         onCoin.torque.norm()});
  }
  qInfo(
      "coin on a floating plate, %s h = %g, 5 s: momentum change %.3g kg m/s, angular momentum "
      "change %.3g kg m^2/s, energy change %.3g J (E0 = %.4f J), contact height %.3g m, slip %.3g "
      "m/s, plate spin change %.3g rad/s, reactions off opposite by %.3g; %d steps",
      qPrintable(integrator), step, momentum, angular, energy, E0, height, slip, turned, opposite,
      results.stats.steps);
  QVERIFY(turned > 1e-3);  // the coin drives the plate
  QVERIFY(momentum < 1e-8);
  QVERIFY(angular < 1e-6);
  QVERIFY(energy < 1e-6);
  QVERIFY(height < 1e-8);
  QVERIFY(slip < 1e-8);
  QVERIFY(opposite < 1e-8);
}

QTEST_GUILESS_MAIN(TestSpatialRollingDisk)
#include "tst_spatial_rolling_disk.moc"
