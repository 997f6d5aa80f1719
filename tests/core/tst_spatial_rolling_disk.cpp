// A coin rolling in a steady circle (examples/rolling_disk.rlx): the rolling_disk joint (a
// holonomic contact height and two nonholonomic no-slip rows) keeps the tilt and the radius of
// the path constant from the initial state of Routh's steady-motion condition, the contact point
// at rest, and the contact force equal to m (a_G - g).
#include "joints/joints.h"
#include "joints/rotation.h"
#include "solve/assembly.h"
#include "solve/constraints.h"
#include "solve/dynamics.h"
#include "solve/reactions.h"
#include "solve/spatial_constraints.h"
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

}  // namespace

class TestSpatialRollingDisk : public QObject {
  Q_OBJECT

 private slots:
  void steadyCircle();
  void correctedRungeKuttaSaysWhy();
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
  DynamicsOptions options;
  options.integrator = "hht";
  options.hhtAlpha = 0.0;
  options.endTime = 5.0;
  options.step = 1e-4;
  options.outputStep = 0.01;
  options.tolerance = 1e-10;
  Results results;
  runDynamics(model, state, ws, options, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  const Joint& joint = model.joints[0];
  double tiltError = 0.0, radiusError = 0.0, slip = 0.0, sink = 0.0, forceError = 0.0, torque = 0.0,
         azimuth = 0.0;
  double previous = 0.0;
  for (std::size_t k = 0; k < results.frames.size(); ++k) {
    const Frame& f = results.frames[k];
    const spatial::Body coin = spatialBody(model, f.state, 0);
    const Eigen::Vector3d n = coin.A.col(2);
    tiltError = std::max(tiltError, std::abs(std::asin(n.z()) - tilt));
    radiusError = std::max(radiusError, std::abs(coin.r.head<2>().norm() - R));
    // The disk's material point at the contact is at rest.
    const Eigen::Vector3d P = rollingDiskContact(joint, spatial::Body{}, coin);
    // In the plane (the nonholonomic rows, held at each step) and along the normal (the rate of
    // the holonomic contact height, which an index-3 method holds to O(h^2)).
    const Eigen::Vector3d contactVelocity = coin.rdot + coin.omega.cross(P - coin.r);
    slip = std::max(slip, contactVelocity.head<2>().norm());
    sink = std::max(sink, std::abs(contactVelocity.z()));
    // Contact force m (a_G + g z), a_G = -Omega^2 R rho, and no torque about the contact point.
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction r = jointReaction(model, f.state, ws, 0);
    const Eigen::Vector3d rho(coin.r.x() / R, coin.r.y() / R, 0);
    forceError =
        std::max(forceError,
                 (r.force - (-m * Omega * Omega * R * rho + Eigen::Vector3d(0, 0, m * g))).norm());
    torque = std::max(torque, r.torque.norm());
    const double angle = std::atan2(coin.r.y(), coin.r.x());
    if (k > 0) azimuth += std::remainder(angle - previous, 2 * kPi);
    previous = angle;
  }
  const double measured = azimuth / results.frames.back().state.t;
  qInfo(
      "coin, hht alpha = 0, h = 1e-4, 5 s: tilt deviation %.3g rad, radius deviation %.3g m, "
      "contact "
      "point slip %.3g m/s and normal speed %.3g m/s, contact force error %.3g N, torque %.3g N m, "
      "Omega %.10f against %.10f; "
      "%d steps in %.2f s",
      tiltError, radiusError, slip, sink, forceError, torque, measured, Omega, results.stats.steps,
      results.stats.wallTime);
  QVERIFY(tiltError < 1e-6);
  QVERIFY(radiusError < 1e-6);
  QVERIFY(slip < 1e-9);
  QVERIFY(sink < 1e-6);
  QVERIFY(forceError < 1e-4);
  QVERIFY(torque < 1e-8);
  QVERIFY(std::abs(measured / Omega - 1) < 1e-6);
}

void TestSpatialRollingDisk::correctedRungeKuttaSaysWhy() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("rolling_disk.rlx")));
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  QVERIFY(assemble(model, state, ws).ok());
  DynamicsOptions options;
  options.integrator = "corrected-rk";
  Results results;
  runDynamics(model, state, ws, options, results);
  QCOMPARE(results.report.status, SolveStatus::Unsupported);
  QCOMPARE(
      QString::fromStdString(results.report.message),
      QString("dynamic analysis failed at t = 0 s: the corrected Runge-Kutta integrators do not "
              "handle nonholonomic constraints yet"));
}

QTEST_GUILESS_MAIN(TestSpatialRollingDisk)
#include "tst_spatial_rolling_disk.moc"
