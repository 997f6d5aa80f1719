// Gears, rack and pinion, screws (core/joints/gear.cpp, rack_pinion.cpp, screw.cpp) against
// closed forms: transmission ratios in kinematics, the Willis equation of a planetary set, tooth
// forces and drive efforts from the multipliers, a screw jack's effort, a 3-D rack lift's travel,
// effort and tooth force, the acceleration of a free gear pair under a torque and of the lift
// running backwards with every integrator, a geared statics balance, the separating forces of
// teeth cut at a pressure angle and the bearings that carry them, and the messages for gears
// that cannot mesh.
#include "constraint_check.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/equations/reactions.h"
#include "solve/recording/reaction_multipliers.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

// One row per integrator of the dynamics tests, in the column "integrator".
void integratorRows() {
  QTest::addColumn<QString>("integrator");
  for (const char* name : {"hht", "bdf", "corrected-rk", "corrected-rk45"})
    QTest::newRow(name) << name;
}

Results runOrFail(const Model& model) {
  AnalysisOutcome outcome = runAnalysis(model, {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

double angleOf(const Model& model, const Frame& f, const char* body) {
  return f.state.q(test::body(model, body).q + 2);
}
double omegaOf(const Model& model, const Frame& f, const char* body) {
  return f.state.v(test::body(model, body).v + 2);
}

int jointIndex(const Model& model, const std::string& name) {
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].name == name) return static_cast<int>(j);
  qFatal("no joint %s", name.c_str());
  return -1;
}

// A planar torque on a body.
ForceSpec torqueOn(const std::string& body, const std::string& name, const std::string& value) {
  ForceSpec torque;
  torque.name = name;
  torque.type = ForceType::Torque;
  torque.body = body;
  torque.value = value;
  return torque;
}

// A free external pair: pinion (R1, J1) driven by a torque T, gear (R2, J2), both on ground
// bearings; no gravity.
Spec freePair(const std::string& integrator) {
  Spec spec = test::loadSpec(test::examplePath("gear_train.rlx"));
  spec.motions.clear();
  spec.forces.clear();
  spec.joints.erase(spec.joints.begin() + 2);  // output_bearing
  spec.joints.pop_back();                       // mesh_34
  spec.bodies.pop_back();                       // output
  spec.gravity = Vector{0.0, 0.0};
  for (BodySpec& b : spec.bodies) b.angularVelocity.clear();
  spec.forces.push_back(torqueOn("input", "drive_torque", "0.5"));
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Dynamics;
  analysis.endTime = 1.0;
  analysis.step = 1e-3;
  analysis.outputStep = 0.01;
  analysis.integrator = integrator;
  analysis.tolerance = 1e-8;
  spec.analysis = analysis;
  return spec;
}

const double kTan20 = std::tan(kPi / 9);  // the default pressure angle's

// A tooth force split along the line from `from` to `to` (radial) and across it (tangential).
struct ToothForce {
  double tangential = 0, radial = 0;
};
ToothForce split(const Reaction& r, const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
  const Eigen::Vector3d e = (to - from).normalized();
  return {(r.force - e.dot(r.force) * e).norm(), e.dot(r.force)};
}

Eigen::Vector3d centreOf(const Model& model, const Frame& f, const char* body) {
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  c.head(model.dimension) = f.state.q.segment(test::body(model, body).q, model.dimension);
  return c;
}

// The largest force imbalance on any body, relative to the largest reaction: the reactions of
// every joint on it (a joint's reaction acts on body2, its opposite on body1) and the applied
// forces' share of Q (weight, loads) against m a. With `carried` the multipliers come from
// loadReactionMultipliers, and the bearings must carry the meshes' separating forces for the sum
// to vanish; without, the frame's own.
double largestImbalance(const Model& model, const Results& results, bool carried) {
  Workspace ws(model);
  double worst = 0, scale = 0;
  for (const Frame& f : results.frames) {
    evaluateAppliedForces(model, f.state, ws);
    const Eigen::VectorXd Q = ws.Q;
    if (carried) {
      loadReactionMultipliers(model, f.state, f.lambda, ws);
    } else {
      evaluateConstraintDerivatives(model, f.state, ws);
      ws.lambda = f.lambda;
    }
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      const Body& body = model.bodies[b];
      const int n = model.dimension;
      Eigen::Vector3d sum = Eigen::Vector3d::Zero();
      sum.head(n) = Q.segment(body.v, n) - body.mass * f.vdot.segment(body.v, n);
      for (std::size_t j = 0; j < model.joints.size(); ++j) {
        const Joint& joint = model.joints[j];
        const Reaction r = jointReaction(model, f.state, ws, static_cast<int>(j));
        if (joint.body2 == static_cast<int>(b)) sum += r.force;
        if (joint.body1 == static_cast<int>(b)) sum -= r.force;
        scale = std::max(scale, r.force.norm());
      }
      worst = std::max(worst, sum.norm());
    }
  }
  return worst / scale;
}

std::string firstError(const Spec& spec) {
  const CompileResult compiled = compile(spec);
  return compiled.diagnostics.empty() ? std::string() : compiled.diagnostics.front().text();
}

}  // namespace

class TestGearing : public QObject {
  Q_OBJECT

 private slots:
  void twoStageTrain();
  void planetaryWillis();
  void rackTravel();
  void spatialRackLift();
  void spatialTrain();
  void spatialGearRatios();
  void spatialRackFalls_data();
  void spatialRackFalls();
  void screwJack();
  void freePairAccelerates_data();
  void freePairAccelerates();
  void gearedStatics();
  void separatingForces();
  void meshingMessages();
  void beltCoupler();
  void threeJointCoupler();
  void couplerMessages();
  void spatialBeltJack();
  void spatialBeltJackDynamics_data();
  void spatialBeltJackDynamics();
  void spatialCouplerDerivatives();
  void spatialCouplerMessages();
};

void TestGearing::twoStageTrain() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("gear_train.rlx")));
  const Results results = runOrFail(model);
  const double r1 = 0.02, r2 = 0.06, r3 = 0.025, r4 = 0.05, load = 2.0;
  const double ratio = (r1 / r2) * (r3 / r4);
  Workspace ws(model);
  double angle = 0, force = 0;
  for (const Frame& f : results.frames) {
    // Two external meshes: the output turns with the input at 1/6 of its speed.
    const double in = angleOf(model, f, "input");
    angle = std::max({angle, std::abs(angleOf(model, f, "output") - ratio * in) / std::max(1.0, std::abs(in)),
                      std::abs(omegaOf(model, f, "output") - ratio * 2 * kPi) / (2 * kPi)});
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    // Tooth forces at the pitch points (no moment there): tangential, and the separating
    // force tan(20 deg) of it pushing each driven wheel away from its driver; the drive's effort.
    const Reaction m34 = jointReaction(model, f.state, ws, jointIndex(model, "mesh_34"));
    const Reaction m12 = jointReaction(model, f.state, ws, jointIndex(model, "mesh_12"));
    const double f34 = load / r4, f12 = f34 * r3 / r2;
    const ToothForce t34 = split(m34, centreOf(model, f, "compound"), centreOf(model, f, "output"));
    const ToothForce t12 = split(m12, centreOf(model, f, "input"), centreOf(model, f, "compound"));
    force = std::max(
        {force, std::abs(t34.tangential - f34) / f34, std::abs(t12.tangential - f12) / f34,
         std::abs(t34.radial - kTan20 * f34) / f34, std::abs(t12.radial - kTan20 * f12) / f34,
         std::abs(m34.torque.z()) / load, std::abs(m12.torque.z()) / load,
         std::abs(motionEffort(model, ws, 0) - load * ratio) / load});
  }
  qInfo("largest relative error: ratio %.1e, tooth forces and effort %.1e", angle, force);
  QVERIFY2(angle < 1e-12, QByteArray::number(angle));
  QVERIFY2(force < 1e-9, QByteArray::number(force));
}

void TestGearing::planetaryWillis() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("planetary_gears.rlx")));
  const Results results = runOrFail(model);
  const double rs = 0.03, rp = 0.015, rr = rs + 2 * rp;
  double worst = 0;
  for (const Frame& f : results.frames) {
    const double sun = angleOf(model, f, "sun"), carrier = angleOf(model, f, "carrier");
    const double ws = omegaOf(model, f, "sun"), wc = omegaOf(model, f, "carrier");
    const double wp = omegaOf(model, f, "planet");
    // Willis with the ring fixed: (ws - wc) / (0 - wc) = -rr/rs; the sun-planet pair on the
    // carrier: (wp - wc) / (ws - wc) = -rs/rp.
    worst = std::max({worst, std::abs(carrier - rs / (rs + rr) * sun) / std::max(1.0, std::abs(sun)),
                      std::abs((ws - wc) * rs - rr * wc) / (2 * kPi * rr),
                      std::abs((wp - wc) * rp + rs * (ws - wc)) / (2 * kPi * rs)});
  }
  qInfo("largest relative error of the Willis relations: %.1e", worst);
  QVERIFY2(worst < 1e-12, QByteArray::number(worst));
}

void TestGearing::rackTravel() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("rack_pinion_steering.rlx")));
  const Results results = runOrFail(model);
  const double r = 0.03;
  double worst = 0;
  for (const Frame& f : results.frames) {
    const double x = f.state.q(test::body(model, "rack").q);
    worst = std::max(worst, std::abs(x - r * angleOf(model, f, "pinion")) / r);
  }
  qInfo("largest error of s = r theta: %.1e of r", worst);
  QVERIFY2(worst < 1e-12, QByteArray::number(worst));
}

void TestGearing::spatialRackLift() {
  // The pinion turns at omega about -y; the rack rises r omega t, and at constant speed the
  // drive's torque and the tooth force balance the rack's weight and the load.
  const Model model =
      test::compileOrFail(test::loadSpec(test::examplePath("rack_pinion_lift.rlx")));
  const Results results = runOrFail(model);
  const double r = 0.04, omega = 2, weight = 200 + 10 * 9.81;
  const int rack = test::body(model, "rack").q, mesh = jointIndex(model, "mesh");
  Workspace ws(model);
  double travel = 0, effort = 0, tooth = 0, pitchPoint = 0;
  for (const Frame& f : results.frames) {
    const double z = 0.3 + r * omega * f.state.t;
    travel = std::max(travel, std::abs(f.state.q(rack + 2) - z));
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    effort = std::max(effort, std::abs(motionEffort(model, ws, 0) - weight * r) / (weight * r));
    // On the pinion, from the rack, at the pitch point: the rack presses down and, at the
    // pressure angle of 20 degrees, pushes the pinion away (-x), with no moment.
    const Reaction reaction = jointReaction(model, f.state, ws, mesh);
    tooth = std::max(
        tooth, (reaction.force - Eigen::Vector3d(-kTan20 * weight, 0, -weight)).norm() / weight);
    pitchPoint = std::max(pitchPoint, reaction.torque.norm() / (weight * r));
  }
  qInfo(
      "largest error: travel %.1e m, effort %.1e, tooth force %.1e (relative), moment at the "
      "pitch point %.1e (of the torque)",
      travel, effort, tooth, pitchPoint);
  QVERIFY2(travel < 1e-12, QByteArray::number(travel));
  QVERIFY2(effort < 1e-9, QByteArray::number(effort));
  QVERIFY2(tooth < 1e-9, QByteArray::number(tooth));
  QVERIFY2(pitchPoint < 1e-12, QByteArray::number(pitchPoint));
}

// The rotation about y of a body turning about a y axis (its quaternion (cos a/2, 0, sin a/2, 0)).
double angleAboutY(const Frame& f, int q) {
  return 2 * std::atan2(f.state.q(q + 5), f.state.q(q + 3));
}

void TestGearing::spatialTrain() {
  // The 3-D twin of the two-stage train, shafts along y: the output at 1/6 of the input's angle,
  // the tooth forces load / r4 and that times r3 / r2 along the pitch circles, the drive's effort
  // load / 6.
  const Model model =
      test::compileOrFail(test::loadSpec(test::examplePath("spatial_gear_train.rlx")));
  const Results results = runOrFail(model);
  const double r2 = 0.06, r3 = 0.025, r4 = 0.05, load = 2.0;
  const int input = test::body(model, "input").q, output = test::body(model, "output").q;
  const int mesh12 = jointIndex(model, "mesh_12"), mesh34 = jointIndex(model, "mesh_34");
  Workspace ws(model);
  double ratio = 0, force = 0, moment = 0, effort = 0;
  for (const Frame& f : results.frames) {
    const double turned = 2 * kPi * f.state.t;
    ratio = std::max({ratio, std::abs(std::remainder(angleAboutY(f, input) - turned, 2 * kPi)),
                      std::abs(std::remainder(angleAboutY(f, output) - turned / 6, 2 * kPi))});
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction r12 = jointReaction(model, f.state, ws, mesh12),
                   r34 = jointReaction(model, f.state, ws, mesh34);
    const double f34 = load / r4, f12 = f34 * r3 / r2;
    const ToothForce t34 = split(r34, centreOf(model, f, "compound"), centreOf(model, f, "output"));
    const ToothForce t12 = split(r12, centreOf(model, f, "input"), centreOf(model, f, "compound"));
    force =
        std::max({force, std::abs(t34.tangential - f34) / f34, std::abs(t12.tangential - f12) / f12,
                  std::abs(t34.radial - kTan20 * f34) / f34,
                  std::abs(t12.radial - kTan20 * f12) / f12, std::abs(r34.force.y()) / f34});
    moment = std::max({moment, r12.torque.norm() / (f12 * r2), r34.torque.norm() / (f34 * r4)});
    effort = std::max(effort, std::abs(motionEffort(model, ws, 0) - load / 6) / (load / 6));
  }
  qInfo(
      "largest error: angles %.1e rad, tooth forces %.1e, moment at the pitch points %.1e, "
      "effort %.1e (relative)",
      ratio, force, moment, effort);
  QVERIFY2(ratio < 1e-12, QByteArray::number(ratio));
  QVERIFY2(force < 1e-9, QByteArray::number(force));
  QVERIFY2(moment < 1e-9, QByteArray::number(moment));
  QVERIFY2(effort < 1e-9, QByteArray::number(effort));
}

void TestGearing::spatialGearRatios() {
  // In 3-D the radii's ratio must be one of whole numbers (the tooth counts): 17 : 43 teeth on
  // the first stage's centre distance build and keep the ratio; 1 : sqrt(2) is refused by name.
  Spec train = test::loadSpec(test::examplePath("spatial_gear_train.rlx"));
  const double apart = 0.08;
  train.joints[3].numbers["radius1"] = Number{apart * 17 / 60};
  train.joints[3].numbers["radius2"] = Number{apart * 43 / 60};
  const Model model = test::compileOrFail(train);
  const Results results = runOrFail(model);
  const int input = test::body(model, "input").q, compound = test::body(model, "compound").q;
  double worst = 0;  // the input turns 2 pi t
  for (const Frame& f : results.frames)
    worst = std::max(
        {worst, std::abs(std::remainder(angleAboutY(f, input) - 2 * kPi * f.state.t, 2 * kPi)),
         std::abs(
             std::remainder(angleAboutY(f, compound) + 17.0 / 43 * 2 * kPi * f.state.t, 2 * kPi))});
  qInfo("17 : 43: largest error of the compound's angle %.1e rad", worst);
  QVERIFY2(worst < 1e-12, QByteArray::number(worst));
  train.joints[3].numbers["radius1"] = Number{apart / (1 + std::sqrt(2.0))};
  train.joints[3].numbers["radius2"] = Number{apart * std::sqrt(2.0) / (1 + std::sqrt(2.0))};
  QCOMPARE(firstError(train),
           std::string("joints[3] \"mesh_12\": in 3-D radius1 / radius2 must be a ratio of whole "
                       "numbers up to 10000 (the wheels' tooth counts), got 0.707107"));
}

void TestGearing::spatialRackFalls_data() {
  integratorRows();
}

void TestGearing::spatialRackFalls() {
  // Undriven, the lift runs backwards: the rack's weight and the load F accelerate the rack and,
  // through the teeth, the pinion (J about its shaft): a = F_total / (m + J / r^2), the pinion
  // turning about +y at a t / r, and the kinetic energy the work done.
  QFETCH(QString, integrator);
  Spec spec = test::loadSpec(test::examplePath("rack_pinion_lift.rlx"));
  spec.motions.clear();
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Dynamics;
  analysis.endTime = 1.0;
  analysis.step = 1e-3;
  analysis.outputStep = 0.01;
  analysis.integrator = integrator.toStdString();
  analysis.tolerance = 1e-8;
  spec.analysis = analysis;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const double r = 0.04, m = 10, J = 8e-4, weight = 200 + m * 9.81;
  const double a = weight / (m + J / (r * r));
  const int rack = test::body(model, "rack").q, pinion = test::body(model, "pinion").v;
  double worst = 0, energy = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t, drop = a * t * t / 2;
    worst = std::max({worst, std::abs(f.state.q(rack + 2) - (0.3 - drop)) / (a / 2),
                      std::abs(f.state.v(pinion + 4) - a * t / r) / (a / r)});
    energy = std::max(energy, std::abs(f.kinetic - weight * drop) / (weight * a / 2));
  }
  qInfo(
      "%s: largest error of the drop and the pinion's rate %.1e, of the energy %.1e (of their "
      "values at 1 s)",
      qPrintable(integrator), worst, energy);
  QVERIFY2(worst < 1e-5, QByteArray::number(worst));
  QVERIFY2(energy < 1e-5, QByteArray::number(energy));
}

void TestGearing::screwJack() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("screw_jack.rlx")));
  const Results results = runOrFail(model);
  const double p = 0.005, weight = 1000 + 2.0 * 9.81;
  Workspace ws(model);
  double travel = 0, effort = 0;
  const int nut = test::body(model, "nut").q;
  for (const Frame& f : results.frames) {
    // The spindle turns by -2 pi t, the nut rises p per turn.
    const double turned = 2 * kPi * f.state.t;
    travel = std::max(travel, std::abs(f.state.q(nut + 2) - 0.2 - p * turned / (2 * kPi)));
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    effort = std::max(effort, std::abs(-motionEffort(model, ws, 0) - weight * p / (2 * kPi)) /
                                  (weight * p / (2 * kPi)));
  }
  qInfo("largest error: travel %.1e m (of 10 mm), relative error of the effort %.1e", travel, effort);
  QVERIFY2(travel < 1e-12, QByteArray::number(travel));
  QVERIFY2(effort < 1e-9, QByteArray::number(effort));
}

void TestGearing::freePairAccelerates_data() {
  integratorRows();
}

void TestGearing::freePairAccelerates() {
  // T on the pinion against both inertias: alpha1 = T / (J1 + J2 (R1/R2)^2), so
  // theta1 = alpha1 t^2 / 2 and theta2 = -(R1/R2) theta1; the kinetic energy is the work T theta1.
  QFETCH(QString, integrator);
  const Model model = test::compileOrFail(freePair(integrator.toStdString()));
  const Results results = runOrFail(model);
  const double rho = 7800, width = 0.01, R1 = 0.02, R2 = 0.06, T = 0.5;
  const auto inertia = [&](double r) { return rho * kPi * r * r * width * r * r / 2; };
  const double alpha = T / (inertia(R1) + inertia(R2) * (R1 / R2) * (R1 / R2));
  double angle = 0, energy = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t, expected = alpha * t * t / 2;
    angle = std::max({angle, std::abs(angleOf(model, f, "input") - expected) / (alpha / 2),
                      std::abs(angleOf(model, f, "compound") + R1 / R2 * expected) / (alpha / 2)});
    energy = std::max(energy, std::abs(f.kinetic - T * angleOf(model, f, "input")) / (T * alpha / 2));
  }
  qInfo("%s: largest error of the angles %.1e, of the energy %.1e (of their values at 1 s)",
        qPrintable(integrator), angle, energy);
  QVERIFY2(angle < 1e-5, QByteArray::number(angle));
  QVERIFY2(energy < 1e-5, QByteArray::number(energy));
}

void TestGearing::gearedStatics() {
  // A torque T on the pinion held by a torsion spring k on the gear's bearing: the gear turns
  // until k theta2 = T R2 / R1, against the pinion's turn theta1 = -(R2/R1) theta2.
  Spec spec = freePair("hht");
  ForceSpec spring;
  spring.name = "spring";
  spring.type = ForceType::TorsionSpring;
  spring.joint = "compound_bearing";
  spring.stiffness = Number{40.0};
  spec.forces.push_back(spring);
  spec.analysis->type = AnalysisType::Statics;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const double R1 = 0.02, R2 = 0.06, T = 0.5, k = 40.0;
  const Frame& f = results.frames.back();
  const double theta2 = -T * (R2 / R1) / k;
  qInfo("gear at %.15f rad (expected %.15f)", angleOf(model, f, "compound"), theta2);
  QVERIFY(std::abs(angleOf(model, f, "compound") - theta2) < 1e-9);
  QVERIFY(std::abs(angleOf(model, f, "input") + R2 / R1 * theta2) < 1e-9);
}

void TestGearing::separatingForces() {
  // Every body of the gear sets balances with its bearings carrying the meshes' separating
  // forces (2-D and 3-D trains, the planetary set with its internal ring and a load on the
  // carrier, the 3-D rack lift); with the frames' own multipliers the driven wheels are off by
  // the separating force, tan(20 deg) = 36 % of the tooth force.
  for (const char* example : {"gear_train.rlx", "planetary_gears.rlx", "spatial_gear_train.rlx",
                              "rack_pinion_lift.rlx"}) {
    Spec spec = test::loadSpec(test::examplePath(example));
    if (std::string(example) == "planetary_gears.rlx")
      spec.forces.push_back(torqueOn("carrier", "carrier_load", "-1"));
    const Model model = test::compileOrFail(spec);
    const Results results = runOrFail(model);
    const double carried = largestImbalance(model, results, true);
    const double alone = largestImbalance(model, results, false);
    qInfo(
        "%s: largest imbalance %.1e with the bearings carrying, %.2f without (of the largest "
        "reaction)",
        example, carried, alone);
    QVERIFY2(carried < 1e-9, example);
    QVERIFY2(alone > 0.1, example);
  }

  // The angle is the teeth's: 0 leaves the tangential force alone, 25 degrees makes it tan(25).
  for (const double degrees : {0.0, 25.0}) {
    Spec spec = test::loadSpec(test::examplePath("gear_train.rlx"));
    spec.joints[4].numbers["pressure_angle"] = Number{degrees * kPi / 180};
    const Model model = test::compileOrFail(spec);
    const Results results = runOrFail(model);
    const Frame& f = results.frames.back();
    Workspace ws(model);
    loadReactionMultipliers(model, f.state, f.lambda, ws);
    const ToothForce t = split(jointReaction(model, f.state, ws, jointIndex(model, "mesh_34")),
                               centreOf(model, f, "compound"), centreOf(model, f, "output"));
    QVERIFY2(std::abs(t.tangential - 40) < 1e-9 * 40, QByteArray::number(t.tangential));
    QVERIFY2(std::abs(t.radial - std::tan(degrees * kPi / 180) * 40) < 1e-9 * 40,
             QByteArray::number(t.radial));
    QVERIFY2(largestImbalance(model, results, true) < 1e-9, QByteArray::number(degrees));
  }
}

void TestGearing::meshingMessages() {
  Spec train = test::loadSpec(test::examplePath("gear_train.rlx"));
  train.joints[3].numbers["radius2"] = Number{0.05};
  QCOMPARE(firstError(train),
           std::string("joints[3] \"mesh_12\": the pitch circles do not touch: the centres are "
                       "0.080000 m apart, radius1 + radius2 = 0.070000 m"));
  train = test::loadSpec(test::examplePath("gear_train.rlx"));
  train.joints[3].numbers.erase("radius1");
  QCOMPARE(firstError(train), std::string("joints[3] \"mesh_12\": radius1 is missing (body1's pitch radius)"));
  train.joints[3].numbers["radius1"] = Number{-0.02};
  QCOMPARE(firstError(train),
           std::string("joints[3] \"mesh_12\": radius1 must be a positive number, got -0.020000"));
  train = test::loadSpec(test::examplePath("gear_train.rlx"));
  train.joints[3].numbers["pressure_angle"] = Number{1.6};
  QCOMPARE(firstError(train),
           std::string("joints[3] \"mesh_12\": pressure_angle must be an angle from 0 up to 90 "
                       "degrees (pi/2, not included), got 1.600000 rad"));

  Spec steering = test::loadSpec(test::examplePath("rack_pinion_steering.rlx"));
  steering.joints[2].numbers["pitch_radius"] = Number{0.01};
  QCOMPARE(firstError(steering),
           std::string("joints[2] \"mesh\": the pinion's pitch circle does not touch the rack's "
                       "pitch line: its centre is 0.030000 m from the line, pitch_radius = 0.010000 m"));

  Spec lift = test::loadSpec(test::examplePath("rack_pinion_lift.rlx"));
  lift.joints[2].numbers["pitch_radius"] = Number{0.05};
  QCOMPARE(
      firstError(lift),
      std::string("joints[2] \"mesh\": the pinion's pitch circle does not touch the rack's "
                  "pitch line: its centre is 0.040000 m from the line, pitch_radius = 0.050000 m"));

  Spec jack = test::loadSpec(test::examplePath("screw_jack.rlx"));
  jack.joints[1].numbers["pitch"] = Number{0.0};
  QCOMPARE(firstError(jack), std::string("joints[1] \"thread\": pitch must be a non-zero number, got 0.000000"));
  jack.joints[1].type = JointType::PointOnCurve;
  QVERIFY(firstError(jack).find("\"point_on_curve\" needs a 2-D model") != std::string::npos);
  train = test::loadSpec(test::examplePath("gear_train.rlx"));
  train.joints[3].type = JointType::Screw;
  QVERIFY(firstError(train).find("\"screw\" needs a 3-D model") != std::string::npos);
  train = test::loadSpec(test::examplePath("gear_train.rlx"));
  train.joints[3].at = Vector{0.0, 0.0};
  QVERIFY(firstError(train).find("at is not read by a gear: give point1 and point2") != std::string::npos);
}

void TestGearing::beltCoupler() {
  // r1 theta1 = r2 theta2; the multiplier is the tension difference, load / r2.
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("belt_drive.rlx")));
  const Results results = runOrFail(model);
  const double r1 = 0.05, r2 = 0.12, load = 3.0;
  Workspace ws(model);
  double angle = 0, effort = 0;
  for (const Frame& f : results.frames) {
    const double driver = angleOf(model, f, "driver");
    angle = std::max(angle, std::abs(angleOf(model, f, "driven") - r1 / r2 * driver) / std::max(1.0, driver));
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    effort = std::max({effort, std::abs(motionEffort(model, ws, 0) - load * r1 / r2) / load,
                       std::abs(std::abs(f.lambda(model.constraints[0].row)) - load / r2) / (load / r2)});
  }
  qInfo("largest relative error: ratio %.1e, effort and tension difference %.1e", angle, effort);
  QVERIFY2(angle < 1e-12, QByteArray::number(angle));
  QVERIFY2(effort < 1e-9, QByteArray::number(effort));
}

void TestGearing::threeJointCoupler() {
  // A differential: the third pulley turns at the mean of two driven ones.
  Spec spec = test::loadSpec(test::examplePath("belt_drive.rlx"));
  BodySpec third = spec.bodies[1];
  third.name = "third";
  third.position = {0.0, 0.4};
  spec.bodies.push_back(third);
  JointSpec bearing = spec.joints[1];
  bearing.name = "third_bearing";
  bearing.body2 = "third";
  bearing.at = Vector{0.0, 0.4};
  spec.joints.push_back(bearing);
  MotionSpec second;
  second.name = "second_drive";
  second.joint = "driven_bearing";
  second.function = "sin(3*t)";
  spec.motions.push_back(second);
  spec.constraints[0].joints = {"drive_bearing", "driven_bearing", "third_bearing"};
  spec.constraints[0].ratios = {Number{1.0}, Number{1.0}, Number{-2.0}};
  spec.analysis->tolerance = 1e-13;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  double worst = 0;
  for (const Frame& f : results.frames)
    worst = std::max(worst, std::abs(angleOf(model, f, "third") -
                                     (2 * kPi * f.state.t + std::sin(3 * f.state.t)) / 2) /
                                std::max(1.0, 2 * kPi * f.state.t));
  qInfo("largest relative error of the mean: %.1e", worst);
  QVERIFY2(worst < 1e-12, QByteArray::number(worst));
}

void TestGearing::couplerMessages() {
  Spec belt = test::loadSpec(test::examplePath("belt_drive.rlx"));
  belt.constraints[0].joints[1] = "pulley";
  QCOMPARE(firstError(belt), std::string("constraints[0] \"belt\": joints[1] names an unknown joint \"pulley\""));
  belt = test::loadSpec(test::examplePath("belt_drive.rlx"));
  belt.constraints[0].ratios = {Number{0.0}, Number{0.0}};
  QCOMPARE(firstError(belt), std::string("constraints[0] \"belt\": ratios are all zero: the coupler relates nothing"));
  belt = test::loadSpec(test::examplePath("belt_drive.rlx"));
  belt.joints[1].type = JointType::Fixed;
  belt.motions.clear();
  QCOMPARE(firstError(belt), std::string("constraints[0] \"belt\": joints[1] \"driven_bearing\" is a fixed joint, "
                                         "which has no coordinate to couple"));
}

// The spindle's rotation about z (its quaternion's), in (-pi, pi].
double spindleAngle(const Model& model, const Frame& f) {
  const int q = test::body(model, "spindle").q;
  const Eigen::Quaterniond r(f.state.q(q + 3), f.state.q(q + 4), f.state.q(q + 5),
                             f.state.q(q + 6));
  const Eigen::Matrix3d R = r.normalized().toRotationMatrix();
  return std::atan2(R(1, 0), R(0, 0));
}

void TestGearing::spatialBeltJack() {
  // The motor turns at -4 pi t; through the belt the spindle turns at r1/r2 of it, -2 pi t, for
  // 4 and 2 turns, past +-pi each half turn (the coupler is wrapped modulo 2 pi r1); the nut rises
  // p per spindle turn. Effort (W p / 2 pi) r1 / r2; the tension difference (W p / 2 pi) / r2.
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("belt_screw_jack.rlx")));
  QCOMPARE(model.constraints[0].period, 2 * kPi * 0.03);
  const Results results = runOrFail(model);
  const double p = 0.005, r1 = 0.03, r2 = 0.06, torque = (1000 + 2.0 * 9.81) * p / (2 * kPi);
  Workspace ws(model);
  double angle = 0, travel = 0, effort = 0;
  const int nut = test::body(model, "nut").q, spindle = test::body(model, "spindle").v;
  for (const Frame& f : results.frames) {
    const double t = f.state.t;
    angle =
        std::max({angle, std::abs(std::remainder(spindleAngle(model, f) + 2 * kPi * t, 2 * kPi)),
                  std::abs(f.state.v(spindle + 5) + 2 * kPi) / (2 * kPi)});
    travel = std::max(travel, std::abs(f.state.q(nut + 2) - 0.2 - p * t));
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    effort = std::max(
        {effort, std::abs(-motionEffort(model, ws, 0) - torque * r1 / r2) / (torque * r1 / r2),
         std::abs(std::abs(f.lambda(model.constraints[0].row)) - torque / r2) / (torque / r2)});
  }
  qInfo(
      "largest error: spindle angle %.1e rad, travel %.1e m (of 10 mm), relative error of the "
      "effort and the tension difference %.1e",
      angle, travel, effort);
  QVERIFY2(angle < 1e-12, QByteArray::number(angle));
  QVERIFY2(travel < 1e-12, QByteArray::number(travel));
  QVERIFY2(effort < 1e-9, QByteArray::number(effort));
}

void TestGearing::spatialBeltJackDynamics_data() {
  integratorRows();
}

void TestGearing::spatialBeltJackDynamics() {
  // Undriven, a torque T = 1 N m on the motor (about -z) lifts the load W: with k = p r1 / (2 pi
  // r2) the nut's rise per radian of the motor, the nut accelerates at a = k (T - W k) / J, J =
  // J_motor + J_spindle (r1/r2)^2 + m_nut k^2; the pulleys pass +-pi over and over (0.9 and 0.45
  // turns a second at the end), and the work T turns equals the kinetic and potential energy.
  QFETCH(QString, integrator);
  Spec spec = test::loadSpec(test::examplePath("belt_screw_jack.rlx"));
  spec.motions.clear();
  ForceSpec drive;
  drive.name = "motor_torque";
  drive.type = ForceType::JointForce;
  drive.joint = "motor_bearing";
  drive.value = "-1";
  spec.forces.push_back(drive);
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Dynamics;
  analysis.endTime = 1.0;
  analysis.step = 1e-3;
  analysis.outputStep = 0.01;
  analysis.integrator = integrator.toStdString();
  analysis.tolerance = 1e-8;
  spec.analysis = analysis;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const double p = 0.005, r1 = 0.03, r2 = 0.06, W = 1000 + 2.0 * 9.81, k = p * r1 / (2 * kPi * r2);
  const double J = 0.000135 + 0.0002 * (r1 / r2) * (r1 / r2) + 2.0 * k * k;
  const double a = k * (1.0 - W * k) / J;
  const int nut = test::body(model, "nut").q, motor = test::body(model, "motor_pulley").v;
  double worst = 0, energy = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t, rise = a * t * t / 2;
    worst = std::max({worst, std::abs(f.state.q(nut + 2) - 0.2 - rise) / (a / 2),
                      std::abs(f.state.v(motor + 5) + a * t / k) / (a / k)});
    energy =
        std::max(energy, std::abs(f.kinetic + W * rise - 1.0 * rise / k) / (rise / k + 1e-300));
  }
  qInfo(
      "%s: largest error of the rise and the motor's rate %.1e (of their values at 1 s), of the "
      "energy %.1e (of the work)",
      qPrintable(integrator), worst, energy);
  QVERIFY2(worst < 1e-5, QByteArray::number(worst));
  QVERIFY2(energy < 1e-5, QByteArray::number(energy));
}

void TestGearing::spatialCouplerDerivatives() {
  // Phi_q, nu and gamma of the 3-D coupler rows against differences, at random states (every
  // body displaced and turned, so the joints' rows are violated too): the jack's belt of two
  // turning joints, and a coupler of a turning and a sliding joint (a rack-like belt). The
  // thread, whose row wraps every pitch, is taken out, and states where a coupler's row lies
  // near its own wrap (+-period / 2) are drawn again: differences across a wrap measure the jump.
  Spec spec = test::loadSpec(test::examplePath("belt_screw_jack.rlx"));
  JointSpec guide;
  guide.name = "guide";
  guide.type = JointType::Translational;
  guide.body1 = "ground";
  guide.body2 = "nut";
  guide.at = Vector{0.0, 0.0, 0.2};
  guide.axis = Vector{0.0, 0.0, 1.0};
  spec.joints.erase(spec.joints.begin() + 2, spec.joints.end());  // thread, key
  spec.joints.push_back(guide);
  ConstraintSpec slide;
  slide.name = "slide";
  slide.type = ConstraintType::Coupler;
  slide.joints = {"spindle_bearing", "guide"};
  slide.ratios = {Number{0.002}, Number{-1.0}};
  spec.constraints.push_back(slide);
  const Model model = test::compileOrFail(spec);
  QCOMPARE(model.constraints[0].period, 2 * kPi * 0.03);
  QCOMPARE(model.constraints[1].period, 2 * kPi * 0.002);
  const auto nearWrap = [&model](const Workspace& ws) {
    for (const UserConstraint& c : model.constraints)
      if (std::abs(ws.Phi(c.row)) > 0.3 * c.period) return true;
    return false;
  };
  std::mt19937 random(11);
  std::normal_distribution<double> normal(0.0, 1.0);
  Workspace ws(model);
  double worst[3] = {0, 0, 0};
  for (int trial = 0; trial < 40;) {
    State s{0.3 * trial, model.q0, Eigen::VectorXd(model.nv)};
    for (const Body& body : model.bodies) {
      for (int i = 0; i < 3; ++i) s.q(body.q + i) += 0.05 * normal(random);
      const Eigen::Quaterniond turned = Eigen::Quaterniond::UnitRandom();
      s.q.segment<4>(body.q + 3) << turned.w(), turned.x(), turned.y(), turned.z();
    }
    evaluatePhi(model, s, ws);
    if (nearWrap(ws)) continue;
    Eigen::VectorXd a(model.nv);
    for (Eigen::Index i = 0; i < model.nv; ++i) s.v(i) = normal(random), a(i) = normal(random);
    const test::ConstraintDerivativeErrors e = test::constraintDerivativeErrors(model, s, a, ws);
    worst[0] = std::max(worst[0], e.Phi_q);
    worst[1] = std::max(worst[1], e.nu);
    worst[2] = std::max(worst[2], e.gamma);
    ++trial;
  }
  qInfo("relative errors against differences: Phi_q %.1e, nu %.1e, gamma %.1e", worst[0], worst[1],
        worst[2]);
  QVERIFY2(worst[0] < 1e-6, QByteArray::number(worst[0]));
  QVERIFY2(worst[1] < 1e-6, QByteArray::number(worst[1]));
  QVERIFY2(worst[2] < 1e-5, QByteArray::number(worst[2]));
}

void TestGearing::spatialCouplerMessages() {
  // Turning joints whose ratios have no common period are refused by name.
  Spec spec = test::loadSpec(test::examplePath("belt_screw_jack.rlx"));
  spec.constraints[0].ratios = {Number{1.0}, Number{-std::sqrt(2.0)}};
  QCOMPARE(
      firstError(spec),
      std::string("constraints[0] \"belt\": ratios of the turning joints must be in a ratio of "
                  "whole numbers up to 10000 in 3-D (an angle there is known only modulo 2 "
                  "pi), got 1 : 1.4142135623730951"));
}

QTEST_GUILESS_MAIN(TestGearing)
#include "tst_gearing.moc"
