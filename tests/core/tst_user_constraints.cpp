// User-defined constraints: derivatives against finite differences, the user-equation pendulum
// against the revolute pendulum, the knife-edge sled against its closed form (dynamics with every
// integrator, kinematics, statics), diagnostics, redundancy and the .rlx round trip.
#include "io/model_file.h"
#include "output/csv.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/measures.h"
#include "solve/equations/reactions.h"
#include "solve/equations/user_constraints.h"
#include "solve/integrators/dynamics.h"
#include "solve/statics/statics.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace rlx;

namespace {

// Two bodies joined by a pin, with user constraints of every kind (explicit time, joint
// coordinates, their rates); the states need not satisfy anything.
const char* kTwoBodies = R"~({
  "reuleaux": 1, "name": "two bodies", "dimension": 2,
  "parameters": {"k": 0.7},
  "bodies": [
    {"name": "a", "mass": 2, "inertia": 0.3, "position": [0.5, 0.1], "angle": 0.2},
    {"name": "b", "mass": 1, "inertia": 0.1, "position": [1.4, 0.3], "angle": -0.4}
  ],
  "joints": [{"name": "pin", "type": "revolute", "body1": "a", "body2": "b",
              "point1": [0.5, 0], "point2": [-0.4, 0]}],
  "constraints": [
    {"name": "curve", "type": "holonomic",
     "equations": ["a.x^2 + b.y*sin(t) + a.angle*b.angle - k*cos(2*t)", "pin.q^2 + a.x*t - b.x"]},
    {"name": "skate", "type": "nonholonomic",
     "equations": ["a.vx*cos(a.angle) + b.vy*t + pin.qd*a.x - sin(t) + b.omega*b.x^2",
                   "a.vy - a.omega*b.y"]}
  ]
})~";

Model compileText(const std::string& text) {
  const LoadResult loaded = readRlx(text, "test.rlx");
  if (!loaded.spec) throw std::runtime_error("cannot read the test model");
  return test::compileOrFail(*loaded.spec);
}

// The diagnostics of compiling the text (empty if it compiles).
std::string compileErrors(const std::string& text) {
  const LoadResult loaded = readRlx(text, "test.rlx");
  if (!loaded.spec) return "read failed: " + loaded.diagnostics.front().text();
  const CompileResult compiled = compile(*loaded.spec);
  std::string out;
  for (const Diagnostic& d : compiled.diagnostics) out += d.text() + "\n";
  return out;
}

// Pendulum rows: the residual Phi (holonomic) or the velocity residual A v - b (all rows).
Eigen::VectorXd holonomicPhi(const Model& model, const State& s) {
  Workspace ws(model);
  evaluatePhi(model, s, ws);
  return ws.Phi;
}

Eigen::VectorXd velocityResidual(const Model& model, const State& s) {
  Workspace ws(model);
  evaluateConstraintDerivatives(model, s, ws);
  return ws.Phi_q * s.v - ws.nu;
}

struct Run {
  Model model;
  Results results;
};

Run runDynamicsOf(Model model, DynamicsOptions options) {
  Run run{std::move(model), {}};
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  const AssemblyReport assembly = assemble(run.model, state, ws);
  if (!assembly.ok()) throw std::runtime_error(assembly.message);
  runDynamics(run.model, state, ws, options, run.results);
  return run;
}

DynamicsOptions options(const std::string& integrator, double endTime, double step,
                        double outputStep) {
  DynamicsOptions o;
  o.integrator = *integratorFromName(integrator);
  o.endTime = endTime;
  o.step = step;
  o.outputStep = outputStep;
  return o;
}

// The knife-edge sled of examples/knife_edge_sled.rlx in closed form: heading w t, forward speed
// u = u0 + (a/w)(cos wt - 1), a = 9.81 sin(10 deg).
struct SledState {
  double x, y, phi, u;
};

SledState sledExact(double t) {
  const double u0 = 1.0, w = 1.0, a = 9.81 * std::sin(10 * M_PI / 180);
  const double c = u0 - a / w, wt = w * t;
  return {c * std::sin(wt) / w + (a / w) * (t / 2 + std::sin(2 * wt) / (4 * w)),
          c * (1 - std::cos(wt)) / w + (a / w) * std::sin(wt) * std::sin(wt) / (2 * w), wt,
          u0 + (a / w) * (std::cos(wt) - 1)};
}

}  // namespace

class TestUserConstraints : public QObject {
  Q_OBJECT

 private slots:
  void derivativesAgainstFiniteDifferences();
  void convectiveTermAgainstFiniteDifferences();
  void spatialMeasuresAgainstFiniteDifferences();
  void pendulumMatchesRevolute_data();
  void pendulumMatchesRevolute();
  void knifeEdgeClosedForm_data();
  void knifeEdgeClosedForm();
  void knifeEdgeConvergence_data();
  void knifeEdgeConvergence();
  void chaplyginSleigh_data();
  void chaplyginSleigh();
  void knifeEdgeKinematics();
  void knifeEdgeStatics();
  void diagnostics_data();
  void diagnostics();
  void spatialJointCoordinateRefused();
  void redundantUserConstraint();
  void assemblyVelocities();
  void roundTrip();
  void resultColumns();
  void doesWork();
};

void TestUserConstraints::derivativesAgainstFiniteDifferences() {
  const Model model = compileText(kTwoBodies);
  QCOMPARE(model.nh, 4);  // pin (2), curve (2)
  QCOMPARE(model.nn, 2);
  QCOMPARE(model.rowNames.back(), std::string("skate.2"));
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  double worst[4] = {0, 0, 0, 0};  // Phi_q, nu, gamma (holonomic); A, b, gamma (nonholonomic)
  double worstNh[3] = {0, 0, 0};
  for (int trial = 0; trial < 20; ++trial) {
    State s{uniform(random), Eigen::VectorXd(model.nq), Eigen::VectorXd(model.nv)};
    for (Eigen::Index i = 0; i < model.nq; ++i) s.q(i) = uniform(random), s.v(i) = uniform(random);
    Workspace ws(model);
    evaluateConstraintDerivatives(model, s, ws);
    // Holonomic rows 2, 3: Phi_q = dPhi/dq, nu = -dPhi/dt, gamma = -d2Phi/dtau2 along
    // (q + tau v, t + tau) (so that vdot = 0).
    const auto phiAt = [&](const Eigen::VectorXd& q, double t) {
      return holonomicPhi(model, State{t, q, s.v});
    };
    const Eigen::MatrixXd J =
        test::numericJacobian([&](const Eigen::VectorXd& q) { return phiAt(q, s.t); }, s.q);
    worst[0] = std::max(worst[0], test::relativeError(ws.Phi_q.topRows(4), J));
    const double dt = 1e-6;
    const Eigen::VectorXd Phi_t = (phiAt(s.q, s.t + dt) - phiAt(s.q, s.t - dt)) / (2 * dt);
    worst[1] = std::max(worst[1], test::relativeError(ws.nu.head(4), -Phi_t));
    const double tau = 1e-4;
    const Eigen::VectorXd second = (phiAt(s.q + tau * s.v, s.t + tau) - 2 * phiAt(s.q, s.t) +
                                    phiAt(s.q - tau * s.v, s.t - tau)) /
                                   (tau * tau);
    worst[2] =
        std::max(worst[2], test::relativeError(ws.gamma.segment(2, 2), -second.segment(2, 2)));
    // Nonholonomic rows 4, 5: f = A v - b; A = df/dv, b = -f(v = 0), gamma = -df/dtau along
    // (q + tau v, v, t + tau).
    const auto fAt = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t) {
      return Eigen::VectorXd(velocityResidual(model, State{t, q, v}).tail(2));
    };
    const Eigen::MatrixXd A =
        test::numericJacobian([&](const Eigen::VectorXd& v) { return fAt(s.q, v, s.t); }, s.v);
    worstNh[0] = std::max(worstNh[0], test::relativeError(ws.Phi_q.bottomRows(2), A));
    worstNh[1] = std::max(
        worstNh[1],
        test::relativeError(ws.nu.tail(2), -fAt(s.q, Eigen::VectorXd::Zero(model.nv), s.t)));
    const Eigen::VectorXd rate =
        (fAt(s.q + dt * s.v, s.v, s.t + dt) - fAt(s.q - dt * s.v, s.v, s.t - dt)) / (2 * dt);
    worstNh[2] = std::max(worstNh[2], test::relativeError(ws.gamma.tail(2), -rate));
  }
  qInfo("holonomic: Phi_q %.2e, nu %.2e, gamma %.2e; nonholonomic: A %.2e, b %.2e, gamma %.2e",
        worst[0], worst[1], worst[2], worstNh[0], worstNh[1], worstNh[2]);
  QVERIFY(worst[0] < 1e-8);
  QVERIFY(worst[1] < 1e-8);
  QVERIFY(worst[2] < 1e-5);  // second difference: error ~ tau^2 + eps / tau^2
  QVERIFY(worstNh[0] < 1e-8);
  QVERIFY(worstNh[1] < 1e-12);
  QVERIFY(worstNh[2] < 1e-8);
}

void TestUserConstraints::convectiveTermAgainstFiniteDifferences() {
  // b_nu(w) = -(dPhi_nu/dq w + dPhi_nu/dt), Phi_nu = Phi_q v - nu, on the user rows 2 ... 5.
  const Model model = compileText(kTwoBodies);
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    State s{uniform(random), Eigen::VectorXd(model.nq), Eigen::VectorXd(model.nv)};
    Eigen::VectorXd w(model.nv);
    for (Eigen::Index i = 0; i < model.nq; ++i)
      s.q(i) = uniform(random), s.v(i) = uniform(random), w(i) = uniform(random);
    Workspace ws(model);
    Eigen::VectorXd b = Eigen::VectorXd::Zero(model.nh + model.nn);
    userConstraintConvective(model, s, w, ws, b);
    const double h = 1e-6;
    const Eigen::VectorXd rate = (velocityResidual(model, State{s.t + h, s.q + h * w, s.v}) -
                                  velocityResidual(model, State{s.t - h, s.q - h * w, s.v})) /
                                 (2 * h);
    worst = std::max(worst, test::relativeError(b.tail(4), -rate.tail(4)));
    QCOMPARE(b.head(2), Eigen::VectorXd(Eigen::VectorXd::Zero(2)));  // joint rows untouched
  }
  qInfo("Braun-Goldfarb convective term of the user rows: relative error %.2e", worst);
  QVERIFY(worst < 1e-8);
}

void TestUserConstraints::spatialMeasuresAgainstFiniteDifferences() {
  // A hand-built spatial body (the compiler refuses 3-D for now) with every body measure:
  // g w, c and B(v, w) against differences along q (+) e w (orientation: exp([e w_rot]x) R).
  Model model;
  model.dimension = 3;
  model.nq = 7;
  model.nv = 6;
  model.bodies.push_back(Body{});
  const MeasureKind kinds[] = {MeasureKind::BodyX,  MeasureKind::BodyY,  MeasureKind::BodyZ,
                               MeasureKind::BodyVx, MeasureKind::BodyVy, MeasureKind::BodyVz,
                               MeasureKind::BodyWx, MeasureKind::BodyWy, MeasureKind::BodyWz};
  for (const MeasureKind kind : kinds) model.measures.push_back(Measure{kind, 0, -1, -1, 0, "m"});
  for (int c = 0; c < 9; ++c)
    model.measures.push_back(Measure{MeasureKind::BodyR, 0, -1, -1, c, "R"});
  const auto moved = [](const State& s, const Eigen::VectorXd& w, double e) {
    State out = s;
    out.q.head<3>() += e * w.head<3>();
    const Eigen::Vector3d turn = e * w.tail<3>();
    const Eigen::Quaterniond q(s.q(3), s.q(4), s.q(5), s.q(6));
    const Eigen::Quaterniond r =
        Eigen::Quaterniond(Eigen::AngleAxisd(turn.norm(), turn.normalized())) * q;
    out.q.tail<4>() << r.w(), r.x(), r.y(), r.z();
    return out;
  };
  std::mt19937 random(5);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  double worst = 0.0;
  for (int trial = 0; trial < 10; ++trial) {
    State s{0.0, Eigen::VectorXd(7), Eigen::VectorXd(6)};
    Eigen::VectorXd w(6);
    for (int i = 0; i < 6; ++i) s.v(i) = uniform(random), w(i) = uniform(random);
    const Eigen::Quaterniond q = Eigen::Quaterniond::UnitRandom();
    s.q << uniform(random), uniform(random), uniform(random), q.w(), q.x(), q.y(), q.z();
    const double e = 1e-6;
    for (int k = 0; k < static_cast<int>(model.measures.size()); ++k) {
      const MeasureJet jet = evaluateMeasure(model, s, k);
      const auto at = [&](const Eigen::VectorXd& direction, double step) {
        return evaluateMeasure(model, moved(s, direction, step), k);
      };
      // A position's value changes at g w; every measure's rate g v changes along v at c and
      // along w at B(v, w).
      if (!jet.velocity)
        worst = std::max(worst, std::abs((at(w, e).value - at(w, -e).value) / (2 * e) -
                                         measureRateAlong(model, jet, w)));
      worst = std::max(worst,
                       std::abs((at(s.v, e).rate - at(s.v, -e).rate) / (2 * e) - jet.convective));
      worst = std::max(worst, std::abs((at(w, e).rate - at(w, -e).rate) / (2 * e) -
                                       measureCurvature(model, s, k, w)));
      worst = std::max(worst, std::abs(jet.rate - measureRateAlong(model, jet, s.v)));
    }
  }
  qInfo("spatial measures (B.x ... B.wz, B.R11 ... B.R33): largest error %.2e", worst);
  QVERIFY(worst < 1e-8);
}

void TestUserConstraints::pendulumMatchesRevolute_data() {
  QTest::addColumn<QString>("integrator");
  QTest::newRow("hht") << "hht";
  QTest::newRow("corrected-rk") << "corrected-rk";
  QTest::newRow("corrected-rk45") << "corrected-rk45";
}

void TestUserConstraints::pendulumMatchesRevolute() {
  QFETCH(QString, integrator);
  const DynamicsOptions o = options(integrator.toStdString(), 2.0, 1e-3, 0.01);
  const Run joint = runDynamicsOf(
      test::compileOrFail(test::loadSpec(test::examplePath("simple_pendulum.rlx"))), o);
  const Run user =
      runDynamicsOf(test::compileOrFail(test::loadSpec(test::examplePath("user_pendulum.rlx"))), o);
  QVERIFY2(joint.results.report.ok(), joint.results.report.message.c_str());
  QVERIFY2(user.results.report.ok(), user.results.report.message.c_str());
  QCOMPARE(user.results.frames.size(), joint.results.frames.size());
  QCOMPARE(user.model.constraints[0].bodies, std::vector<int>{0});
  Workspace wsJoint(joint.model), wsUser(user.model);
  double state = 0.0, force = 0.0, torque = 0.0, largest = 0.0;
  for (std::size_t k = 0; k < joint.results.frames.size(); ++k) {
    const Frame& a = joint.results.frames[k];
    const Frame& b = user.results.frames[k];
    state = std::max({state, (a.state.q - b.state.q).lpNorm<Eigen::Infinity>(),
                      (a.state.v - b.state.v).lpNorm<Eigen::Infinity>()});
    evaluateConstraintDerivatives(joint.model, a.state, wsJoint);
    wsJoint.lambda = a.lambda;
    evaluateConstraintDerivatives(user.model, b.state, wsUser);
    wsUser.lambda = b.lambda;
    const Reaction pin = jointReaction(joint.model, a.state, wsJoint, 0);
    const Reaction equation = userConstraintReactions(user.model, wsUser, 0).front();
    force = std::max(force, (pin.force - equation.force).lpNorm<Eigen::Infinity>());
    // The user reaction's torque is about the centre of mass: p x F, p = the pin from the centre.
    const double phi = b.state.q(2);
    const Eigen::Vector2d p(-0.5 * std::cos(phi), -0.5 * std::sin(phi));
    torque = std::max(
        torque, std::abs(equation.torque.z() - (p.x() * pin.force.y() - p.y() * pin.force.x())));
    largest = std::max(largest, pin.force.norm());
  }
  qInfo("%s: max state difference %.2e, reaction force %.2e N (largest %.3f N), torque %.2e N m",
        qPrintable(integrator), state, force, largest, torque);
  QVERIFY(largest > 24.0);  // 2.5 m g at the bottom
  QVERIFY(state < 1e-8);
  QVERIFY(force < 1e-8);
  QVERIFY(torque < 1e-8);
}

void TestUserConstraints::knifeEdgeClosedForm_data() {
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("step");
  QTest::addColumn<double>("tolerance");  // on positions (m, rad) and speed (m/s) over 10 s
  // Measured orders (knifeEdgeConvergence): hht 2, corrected-rk 4; the tolerances are 4 times
  // the errors of those convergent sequences at these steps (hht 5e-6, RK4 1e-6).
  QTest::newRow("hht") << "hht" << 1e-3 << 2e-5;
  QTest::newRow("corrected-rk") << "corrected-rk" << 1e-2 << 4e-6;
  // Dormand-Prince at a local tolerance of 1e-9 over about 400 steps: at most 4e-7.
  QTest::newRow("corrected-rk45") << "corrected-rk45" << 0.1 << 1e-6;
}

void TestUserConstraints::knifeEdgeClosedForm() {
  QFETCH(QString, integrator);
  QFETCH(double, step);
  QFETCH(double, tolerance);
  DynamicsOptions o = options(integrator.toStdString(), 10.0, step, 0.1);
  o.tolerance = 1e-9;
  const Run run = runDynamicsOf(
      test::compileOrFail(test::loadSpec(test::examplePath("knife_edge_sled.rlx"))), o);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  QCOMPARE(run.results.frames.size(), std::size_t(101));
  double position = 0.0, speed = 0.0, velocityError = 0.0, energy = 0.0, lateral = 0.0;
  const double e0 = run.results.frames.front().kinetic + run.results.frames.front().potential;
  Workspace ws(run.model);
  const double a = 9.81 * std::sin(10 * M_PI / 180);
  for (const Frame& f : run.results.frames) {
    const SledState exact = sledExact(f.state.t);
    position = std::max({position, std::abs(f.state.q(0) - exact.x),
                         std::abs(f.state.q(1) - exact.y), std::abs(f.state.q(2) - exact.phi)});
    const double u = f.state.v(0) * std::cos(f.state.q(2)) + f.state.v(1) * std::sin(f.state.q(2));
    speed = std::max(speed, std::abs(u - exact.u));
    velocityError = std::max(velocityError, f.velocityConstraintError);
    energy = std::max(energy, std::abs(f.kinetic + f.potential - e0));
    // Lateral force m (u w + a cos(w t)) along (-sin phi, cos phi).
    evaluateConstraintDerivatives(run.model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction r = userConstraintReactions(run.model, ws, 0).front();
    const double expected = exact.u + a * std::cos(f.state.t);
    lateral =
        std::max({lateral, std::abs(-std::sin(exact.phi) * expected - r.force.x()),
                  std::abs(std::cos(exact.phi) * expected - r.force.y()), std::abs(r.torque.z())});
  }
  const RunStats& stats = run.results.stats;
  qInfo(
      "%s h = %g: position error %.2e, speed error %.2e, |A v - b| %.2e, energy %.2e J, "
      "lateral force %.2e N; %d steps (%d rejected), %.3f s",
      qPrintable(integrator), step, position, speed, velocityError, energy, lateral, stats.steps,
      stats.rejectedSteps, stats.wallTime);
  QVERIFY(position < tolerance);
  QVERIFY(speed < tolerance);
  QVERIFY(velocityError < 1e-8);
  QVERIFY(lateral < 100 * tolerance);
}

void TestUserConstraints::knifeEdgeConvergence_data() {
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("step");
  QTest::addColumn<double>("order");
  QTest::newRow("hht") << "hht" << 2e-3 << 2.0;
  QTest::newRow("corrected-rk") << "corrected-rk" << 2e-2 << 4.0;
}

void TestUserConstraints::knifeEdgeConvergence() {
  // Halving the step divides the largest position error by about 2^order.
  QFETCH(QString, integrator);
  QFETCH(double, step);
  QFETCH(double, order);
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("knife_edge_sled.rlx")));
  double error[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const Run run =
        runDynamicsOf(model, options(integrator.toStdString(), 10.0, step / (1 << k), 0.1));
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    for (const Frame& f : run.results.frames) {
      const SledState exact = sledExact(f.state.t);
      error[k] = std::max({error[k], std::abs(f.state.q(0) - exact.x),
                           std::abs(f.state.q(1) - exact.y), std::abs(f.state.q(2) - exact.phi)});
    }
  }
  const double observed = std::log2(error[0] / error[1]);
  qInfo("%s: position error %.3e at h = %g, %.3e at h/2: order %.2f", qPrintable(integrator),
        error[0], step, error[1], observed);
  QVERIFY(std::abs(observed - order) < 0.3);
}

void TestUserConstraints::chaplyginSleigh_data() {
  QTest::addColumn<QString>("integrator");
  QTest::addColumn<double>("step");
  QTest::addColumn<double>("tolerance");
  // About 4 times the errors of these runs (hht 6.7e-7, RK4 3.7e-9, Dormand-Prince 1.1e-9), whose
  // orders the sled's convergence test confirms.
  QTest::newRow("hht") << "hht" << 1e-3 << 3e-6;
  QTest::newRow("corrected-rk") << "corrected-rk" << 1e-2 << 2e-8;
  QTest::newRow("corrected-rk45") << "corrected-rk45" << 0.1 << 5e-9;
}

void TestUserConstraints::chaplyginSleigh() {
  // The knife edge moved a = 0.3 m ahead of the centre of mass, no gravity (Chaplygin's sleigh):
  // with J = I + m a^2, u' = -a w^2 and w' = m a u w / J, energy m u^2 + J w^2 = 2E. Closed form:
  //   u = -U tanh(k t + c),  w = sqrt(m / J) U sech(k t + c),  phi = sqrt(J / m) / a (gd(k t + c) -
  //   gd(c))
  // with U = sqrt(2E / m), k = a m U / J, c = -artanh(u0 / U), gd(x) = 2 atan(tanh(x / 2)).
  QFETCH(QString, integrator);
  QFETCH(double, step);
  QFETCH(double, tolerance);
  Spec spec = test::loadSpec(test::examplePath("knife_edge_sled.rlx"));
  spec.gravity = Vector{0.0, 0.0};
  spec.constraints[0].equations = {
      "sled.vy*cos(sled.angle) - sled.vx*sin(sled.angle) + 0.3*sled.omega"};
  DynamicsOptions o = options(integrator.toStdString(), 10.0, step, 0.1);
  o.tolerance = 1e-9;
  const Run run = runDynamicsOf(test::compileOrFail(spec), o);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const double m = 1.0, a = 0.3, J = 0.1 + m * a * a, u0 = 1.0, w0 = 1.0;
  const double U = std::sqrt((m * u0 * u0 + J * w0 * w0) / m), k = a * m * U / J;
  const double c = -std::atanh(u0 / U);
  const auto gd = [](double x) { return 2 * std::atan(std::tanh(x / 2)); };
  double worst = 0.0, velocityError = 0.0, torque = 0.0;
  Workspace ws(run.model);
  for (const Frame& f : run.results.frames) {
    const double x = k * f.state.t + c, phi = f.state.q(2);
    const double u = f.state.v(0) * std::cos(phi) + f.state.v(1) * std::sin(phi);
    worst = std::max({worst, std::abs(u + U * std::tanh(x)),
                      std::abs(f.state.v(2) - std::sqrt(m / J) * U / std::cosh(x)),
                      std::abs(phi - std::sqrt(J / m) / a * (gd(x) - gd(c)))});
    velocityError = std::max(velocityError, f.velocityConstraintError);
    // The reaction acts at the blade: its moment about the centre is a times its lateral force.
    evaluateConstraintDerivatives(run.model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction r = userConstraintReactions(run.model, ws, 0).front();
    const double lateral = -std::sin(phi) * r.force.x() + std::cos(phi) * r.force.y();
    torque = std::max(torque, std::abs(r.torque.z() - a * lateral));
  }
  qInfo("%s h = %g: largest error of u, w, phi %.2e, |A v - b| %.2e, moment - a F %.2e",
        qPrintable(integrator), step, worst, velocityError, torque);
  QVERIFY(worst < tolerance);
  QVERIFY(velocityError < 1e-8);
  QVERIFY(torque < 1e-12);
}

void TestUserConstraints::knifeEdgeKinematics() {
  // Driven sled: angle = w t and x = R sin(w t) by motions; the knife edge gives
  // y = R (1 - cos(w t)) (a circle of radius R), which kinematics integrates from q' = v. The
  // x drive and the knife edge become dependent at a quarter turn: run to 1.2 rad.
  std::string text = test::readFile(test::examplePath("knife_edge_sled.rlx"));
  const std::string from = "\"constraints\"";
  text.replace(text.find(from), from.size(),
               "\"motions\": [{\"name\": \"turn\", \"body\": \"sled\", \"coordinate\": \"angle\", "
               "\"function\": \"w*t\"}, {\"name\": \"drive\", \"body\": \"sled\", \"coordinate\": "
               "\"x\", \"function\": \"2*sin(w*t)\"}],\n  \"constraints\"");
  Model model = compileText(text);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport assembly = assemble(model, state, ws);
  QVERIFY2(assembly.ok(), assembly.message.c_str());
  QCOMPARE(assembly.redundancy.dof, 0);
  Results results;
  KinematicsOptions o;
  o.endTime = 1.2;
  o.step = 1e-2;
  o.outputStep = 0.1;
  runKinematics(model, state, ws, o, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  double worst = 0.0, velocityError = 0.0;
  for (const Frame& f : results.frames) {
    worst = std::max(worst, std::abs(f.state.q(1) - 2 * (1 - std::cos(f.state.t))));
    velocityError = std::max(velocityError, f.velocityConstraintError);
  }
  // Global error O(h^3): h = 1e-2.
  qInfo("kinematics, h = 0.01: y error %.2e m over 1.2 s, |Phi_q v - nu| %.2e", worst,
        velocityError);
  QVERIFY(worst < 1e-5);
  QVERIFY(velocityError < 1e-10);
}

void TestUserConstraints::knifeEdgeStatics() {
  // Heading along x, the knife edge holds the sled on the slope: lateral force m a up the slope.
  std::string text = test::readFile(test::examplePath("knife_edge_sled.rlx"));
  Model model = compileText(text);
  Workspace ws(model);
  State state{0.0, model.q0, Eigen::VectorXd::Zero(model.nv)};
  const AssemblyReport assembly = assemble(model, state, ws);
  QVERIFY2(assembly.ok(), assembly.message.c_str());
  Results results;
  runStatics(model, state, ws, StaticsOptions{}, results);
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QCOMPARE(results.frames.size(), std::size_t(1));
  const Frame& f = results.frames.front();
  evaluateConstraintDerivatives(model, f.state, ws);
  ws.lambda = f.lambda;
  const Reaction r = userConstraintReactions(model, ws, 0).front();
  qInfo("statics: sled at (%.3g, %.3g, %.3g), knife-edge force (%.6f, %.6f) N", f.state.q(0),
        f.state.q(1), f.state.q(2), r.force.x(), r.force.y());
  QVERIFY(std::abs(r.force.y() - 9.81 * std::sin(10 * M_PI / 180)) < 1e-9);
  QVERIFY(std::abs(r.force.x()) < 1e-9);
  QVERIFY(std::abs(f.state.q(2)) < 1e-9);
}

void TestUserConstraints::diagnostics_data() {
  QTest::addColumn<QString>("constraints");
  QTest::addColumn<QString>("message");
  const auto row = [](const char* name, const char* constraint, const char* message) {
    QTest::newRow(name) << QString(constraint) << QString(message);
  };
  row("nonlinear",
      R"~({"name": "knife_edge", "type": "nonholonomic",
           "equations": ["a.vx*cos(a.angle)", "a.vy^2 - a.vx"]})~",
      R"~(constraints[0] "knife_edge": equation 2 is not linear in a.vy)~");
  row("bilinear", R"~({"name": "c", "type": "nonholonomic", "equations": ["a.vx*a.omega"]})~",
      R"~(constraints[0] "c": equation 1 is not linear in the velocities: it multiplies a.vx )~"
      R"~(and a.omega)~");
  row("holonomic velocity",
      R"~({"name": "c", "type": "holonomic", "equations": ["a.x - pin.qd"]})~",
      R"~(constraints[0] "c": equation 1 uses the velocity pin.qd: a holonomic equation depends )~"
      R"~(on positions and t only (declare the constraint nonholonomic))~");
  row("no velocity", R"~({"name": "c", "type": "nonholonomic", "equations": ["a.x"]})~",
      R"~(constraints[0] "c": equation 1 uses no velocity)~");
  row("no position", R"~({"name": "c", "type": "holonomic", "equations": ["t - 1"]})~",
      R"~(constraints[0] "c": equation 1 does not depend on any position: it constrains nothing)~");
  row("unknown variable", R"~({"name": "c", "type": "holonomic", "equations": ["a.x + wheel.y"]})~",
      R"~(constraints[0] "c": equation 1 "a.x + wheel.y": unknown variable 'wheel.y')~");
  row("bad member", R"~({"name": "c", "type": "holonomic", "equations": ["a.z"]})~",
      R"~(constraints[0] "c": equation 1 "a.z": "z" is not a variable of a body in 2-D)~");
  row("empty", R"~({"name": "c", "type": "holonomic", "equations": []})~",
      R"~(constraints[0] "c": equations is empty: give at least one equation)~");
}

void TestUserConstraints::diagnostics() {
  QFETCH(QString, constraints);
  QFETCH(QString, message);
  const std::string text = R"~({"reuleaux": 1, "name": "d", "dimension": 2,
    "bodies": [{"name": "a", "mass": 1, "inertia": 1}],
    "joints": [{"name": "pin", "type": "revolute", "body1": "ground", "body2": "a", "at": [0, 0]}],
    "constraints": [)~" + constraints.toStdString() +
                           "]}";
  const std::string errors = compileErrors(text);
  qInfo("%s", errors.c_str());
  QVERIFY2(errors.find(message.toStdString()) != std::string::npos, errors.c_str());
}

void TestUserConstraints::spatialJointCoordinateRefused() {
  // In 3-D a turning joint's angle is known only modulo 2 pi and a joint's rate has no curvature
  // (a nonholonomic row's need): refused by name rather than a row that jumps by 2 pi or lacks a
  // term. A sliding joint's travel is a measure like any other.
  const std::string errors = compileErrors(R"~({"reuleaux": 1, "name": "d", "dimension": 3,
    "bodies": [{"name": "a", "mass": 1, "inertia": [1, 1, 1]},
               {"name": "b", "mass": 1, "inertia": [1, 1, 1]}],
    "joints": [{"name": "pin", "type": "revolute", "body1": "ground", "body2": "a",
                "at": [0, 0, 0], "axis": [0, 0, 1]},
               {"name": "slide", "type": "translational", "body1": "ground", "body2": "b",
                "at": [0, 0, 0], "axis": [1, 0, 0]}],
    "constraints": [{"name": "c", "type": "holonomic", "equations": ["pin.q - 0.5*t"]},
                    {"name": "n", "type": "nonholonomic", "equations": ["slide.qd - b.wz"]},
                    {"name": "s", "type": "holonomic", "equations": ["slide.q - 0.1*t"]}]})~");
  qInfo("%s", errors.c_str());
  QVERIFY2(errors.find(R"~(constraints[0] "c": equation 1 uses pin.q: a turning joint's angle )~"
                       R"~(cannot enter a 3-D equation (it is known only modulo 2 pi); relate )~"
                       R"~(turning joints with a coupler)~") != std::string::npos,
           errors.c_str());
  QVERIFY2(errors.find(R"~(constraints[1] "n": equation 1 uses slide.qd: a joint's rate cannot )~"
                       R"~(enter a 3-D nonholonomic equation yet)~") != std::string::npos,
           errors.c_str());
  QVERIFY2(errors.find("constraints[2]") == std::string::npos, errors.c_str());
}

void TestUserConstraints::redundantUserConstraint() {
  // The revolute pendulum with its pin's x equation repeated as a user constraint.
  Spec spec = test::loadSpec(test::examplePath("simple_pendulum.rlx"));
  spec.constraints.push_back({"x_again", ConstraintType::Holonomic, {"pendulum.x - l/2*cos(pendulum.angle)"}, {}, {}});
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport report = assemble(model, state, ws);
  QVERIFY2(report.ok(), report.message.c_str());
  QCOMPARE(report.redundancy.redundant.size(), std::size_t(1));
  QCOMPARE(report.redundancy.redundant[0].element, std::string("x_again"));
  QCOMPARE(report.redundancy.redundant[0].equation, std::string("x_again.1"));
  QCOMPARE(report.redundancy.dof, 1);
  QCOMPARE(report.redundancy.dofGrubler, 0);
  // A conflicting one (the pin at x = 0.1 instead) is named when the assembly fails.
  spec.constraints.back().equations = {"pendulum.x - l/2*cos(pendulum.angle) - 0.1"};
  const Model conflict = test::compileOrFail(spec);
  Workspace ws2(conflict);
  State guess{0.0, conflict.q0, conflict.v0};
  const AssemblyReport failed = assemble(conflict, guess, ws2);
  qInfo("%s", failed.message.c_str());
  QCOMPARE(failed.status, SolveStatus::Inconsistent);
  QVERIFY(std::find(failed.elements.begin(), failed.elements.end(), "x_again") !=
          failed.elements.end());
}

void TestUserConstraints::assemblyVelocities() {
  // A sideways initial velocity is projected onto the knife edge; the positions are untouched
  // (nonholonomic rows have no position residual); a second copy of the knife edge is redundant.
  Spec spec = test::loadSpec(test::examplePath("knife_edge_sled.rlx"));
  spec.bodies[0].velocity = {1.0, 0.5};
  spec.bodies[0].hold.clear();
  spec.constraints.push_back(
      {"knife_copy", ConstraintType::Nonholonomic, {"2*sled.vy*cos(sled.angle) - 2*sled.vx*sin(sled.angle)"}, {}, {}});
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport report = assemble(model, state, ws);
  QVERIFY2(report.ok(), report.message.c_str());
  qInfo("assembled velocity (%.6f, %.6f, %.6f)", state.v(0), state.v(1), state.v(2));
  QCOMPARE(report.iterations, 0);
  QVERIFY(std::abs(state.v(1)) < 1e-14);
  QVERIFY(std::abs(state.v(0) - 1.0) < 1e-14);
  QVERIFY(std::abs(state.v(2) - 1.0) < 1e-14);
  QCOMPARE(report.redundancy.redundant.size(), std::size_t(1));
  QCOMPARE(report.redundancy.redundant[0].element, std::string("knife_copy"));
  QCOMPARE(report.redundancy.redundant[0].equation, std::string("knife_copy.1"));
  QCOMPARE(report.redundancy.dof, 2);
  // Accelerations with the redundant row dropped: the lateral force is shared (minimum norm).
  const Reaction first = userConstraintReactions(model, ws, 0).front();
  const Reaction second = userConstraintReactions(model, ws, 1).front();
  const double total = first.force.y() + second.force.y();
  qInfo("lateral forces %.6f + %.6f = %.6f N", first.force.y(), second.force.y(), total);
  QVERIFY(std::abs(total - (1.0 + 9.81 * std::sin(M_PI / 18))) < 1e-12);
  QVERIFY(std::abs(second.force.y() - 4 * first.force.y()) < 1e-12);
}

void TestUserConstraints::roundTrip() {
  const Spec spec = test::loadSpec(test::examplePath("knife_edge_sled.rlx"));
  QCOMPARE(spec.constraints.size(), std::size_t(1));
  QVERIFY(spec.constraints[0].type == ConstraintType::Nonholonomic);
  const LoadResult back = readRlx(writeRlx(spec), "again.rlx");
  QVERIFY(back.spec.has_value());
  QVERIFY(*back.spec == spec);
  const LoadResult two = readRlx(kTwoBodies, "two.rlx");
  QVERIFY(two.spec.has_value());
  const LoadResult twoBack = readRlx(writeRlx(*two.spec), "two-again.rlx");
  QVERIFY(twoBack.spec.has_value());
  QVERIFY(*twoBack.spec == *two.spec);
  QCOMPARE(twoBack.spec->constraints[1].equations[1], std::string("a.vy - a.omega*b.y"));
}

void TestUserConstraints::resultColumns() {
  const Model model = compileText(kTwoBodies);
  const std::vector<std::string> columns = rlx::resultColumns(model);
  const auto at = [&](const std::string& name) {
    return std::find(columns.begin(), columns.end(), name) - columns.begin();
  };
  // curve involves a, b and the pin's bodies; skate the same two.
  for (const char* name : {"curve.a.fx", "curve.a.fy", "curve.a.tz", "curve.b.fx", "curve.b.tz",
                           "skate.a.fx", "skate.b.tz"})
    QVERIFY2(at(name) < static_cast<long>(columns.size()), name);
  QVERIFY(at("pin.tz") < at("curve.a.fx"));
  QVERIFY(at("skate.b.tz") < at("kinetic"));
}

void TestUserConstraints::doesWork() {
  // The flag that turns the Braun-Goldfarb energy correction off: time, or a nonholonomic b != 0.
  const Model two = compileText(kTwoBodies);
  QVERIFY(two.constraints[0].doesWork);  // uses t
  QVERIFY(two.constraints[1].doesWork);  // uses t, and -sin(t) is a velocity-free term
  const Model sled = test::compileOrFail(test::loadSpec(test::examplePath("knife_edge_sled.rlx")));
  QVERIFY(!sled.constraints[0].doesWork);
  Spec spec = test::loadSpec(test::examplePath("knife_edge_sled.rlx"));
  spec.constraints[0].equations.push_back("sled.omega - 0*sled.x - 1");  // b = 1: a spin drive
  spec.constraints[0].equations.push_back("sled.omega*sled.x + ground.vx");
  QVERIFY(test::compileOrFail(spec).constraints[0].doesWork);
  spec.constraints[0].equations.erase(spec.constraints[0].equations.begin() + 1);
  QVERIFY(!test::compileOrFail(spec).constraints[0].doesWork);
  const Model pendulum =
      test::compileOrFail(test::loadSpec(test::examplePath("user_pendulum.rlx")));
  QVERIFY(!pendulum.constraints[0].doesWork);
}

QTEST_GUILESS_MAIN(TestUserConstraints)
#include "tst_user_constraints.moc"
