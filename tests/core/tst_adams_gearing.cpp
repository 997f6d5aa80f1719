// Adams' gearing and rotational springs read as Reuleaux elements (io/adams_read_joints.cpp,
// io/adams_read_forces.cpp), each run against its closed form: Chrono's rack-and-pinion dataset
// (RACKPIN), a screw in millimetres (SCREW, with and without its CYLINDRICAL pair), spur gears
// and a rack through a CV marker (GEAR), and a rotational spring-damper on a joint, turned
// round, and between parts no joint joins (SPRINGDAMPER/ROTATIONAL).
#include "io/model_file.h"
#include "joints/rotation.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

Results runOrFail(const Spec& spec) {
  const Model model = test::compileOrFail(spec);
  AnalysisOutcome outcome = runAnalysis(model, {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

Spec kinematics(Spec spec, double end) {
  AnalysisSpec a;
  a.type = AnalysisType::Kinematics;
  a.endTime = end;
  a.step = 0.01;
  a.outputStep = 0.1;
  a.tolerance = 1e-12;
  spec.analysis = a;
  return spec;
}

// A body's rotation about a global axis from its file orientation (small turns or one axis).
double turnAbout(const Frame& f, const Model& model, const std::string& body,
                 const Eigen::Vector3d& axis) {
  const int q = test::body(model, body).q;
  const Eigen::Quaterniond now = rotation::fromCoordinates(f.state.q.segment<4>(q + 3));
  const Eigen::Quaterniond start = rotation::fromCoordinates(model.q0.segment<4>(q + 3));
  const Eigen::AngleAxisd turn(now * start.conjugate());
  return turn.angle() * turn.axis().dot(axis);
}

double position(const Frame& f, const Model& model, const std::string& body, int k) {
  return f.state.q(test::body(model, body).q + k);
}

// Two parts on ground in SI: `wheel` and `other`, CM markers at their QG (no rotation), with
// the markers and statements given.
std::string dataset(const std::string& parts, const std::string& rest) {
  return "Reuleaux test\nUNITS/, FORCE = NEWTON, MASS = KILOGRAM, LENGTH = METER, TIME = SECOND\n"
         "PART/1, GROUND\nMARKER/1, PART = 1\n" +
         parts + rest + "END\n";
}

std::string part(int id, const std::string& name, const std::string& qg) {
  return "!  adams_view_name='" + name + "'\nPART/" + std::to_string(id) +
         ", MASS = 1, CM = " + std::to_string(id * 10) + ", IP = 1, 1, 2, QG = " + qg +
         "\nMARKER/" + std::to_string(id * 10) + ", PART = " + std::to_string(id) + "\n";
}

}  // namespace

class TestAdamsGearing : public QObject {
  Q_OBJECT

 private slots:
  void chronoRackPinion();
  void screwInMillimetres();
  void spurGearsAndRackThroughCv();
  void rotationalSpringDamper_data();
  void rotationalSpringDamper();
  void refusals();
};

void TestAdamsGearing::chronoRackPinion() {
  // Chrono's test_RackPinion_Case01, written by Adams/View: a pinion (pitch diameter 0.1 m,
  // 0.1 kg m^2 about its shaft, global x) on a revolute joint, a 1 kg rack on a translational
  // joint along -z, gravity down. The rack falls at a = g m / (m + I / R^2) = 9.80665 / 41, and
  // the pinion turns a / R about +x (the rack's pitch line on its -y side).
  const Spec spec = test::readAdamsOrFail(
      test::readFile(test::testDataPath("adams/chrono/test_RackPinion_Case01.adm")));
  QCOMPARE(spec.joints.size(), std::size_t(3));
  QCOMPARE(spec.joints[2].type, JointType::RackPinion);
  QCOMPARE(spec.joints[2].numbers.at("pitch_radius").value, 0.05);
  Spec run = spec;
  run.analysis->endTime = 5;
  run.analysis->outputStep = 0.1;
  const Model model = test::compileOrFail(run);
  const Results results = runOrFail(run);
  const double a = 9.80665 / 41, R = 0.05;
  double worstFall = 0, worstTurn = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t;
    worstFall = std::max(worstFall, std::abs(position(f, model, "part_3", 2) + a * t * t / 2));
    const int pinion = test::body(model, "part_2").v;
    worstTurn = std::max(worstTurn, std::abs(f.state.v(pinion + 3) - a * t / R));
  }
  qInfo(
      "rack's fall against a t^2 / 2 over 5 s: %.1e m; pinion's rate against a t / R: %.1e "
      "rad/s",
      worstFall, worstTurn);
  QCOMPARE(results.frames.back().state.t, 5.0);
  QVERIFY(worstFall < 1e-6);
  QVERIFY(worstTurn < 1e-6);
}

void TestAdamsGearing::screwInMillimetres() {
  // A spindle turns at 1 rev/s on a revolute joint; a nut kept from turning by a translational
  // joint rides its thread, PITCH = 5 mm (then -5: a left-hand thread). Relative to the spindle
  // the nut turns back, -1 rev/s, so it moves down the right-hand thread at 5 mm/s.
  const std::string parts = part(2, "spindle", "0, 0, 0") + part(3, "nut", "0, 0, 100") +
                            "MARKER/21, PART = 2\nMARKER/31, PART = 3\n";
  for (const double pitch : {5.0, -5.0}) {
    const std::string rest =
        "JOINT/1, REVOLUTE, I = 21, J = 1\nJOINT/2, TRANSLATIONAL, I = 31, J = 1\n"
        "JOINT/3, SCREW, I = 31, J = 21, PITCH = " +
        std::to_string(pitch) + "\nMOTION/1, JOINT = 1, FUNCTION = 360D * TIME\n";
    std::string text = dataset(parts, rest);
    text.replace(text.find("METER"), 5, "MILLIMETER");
    const Spec spec = test::readAdamsOrFail(text);
    QCOMPARE(spec.joints[2].type, JointType::Screw);
    QCOMPARE(spec.joints[2].numbers.at("pitch").value, pitch / 1000);
    const Model model = test::compileOrFail(kinematics(spec, 2));
    const Results results = runOrFail(kinematics(spec, 2));
    double worst = 0;
    for (const Frame& f : results.frames)
      worst =
          std::max(worst, std::abs(position(f, model, "nut", 2) - 0.1 + pitch / 1000 * f.state.t));
    qInfo("pitch %+.0f mm: nut's travel against -p t: %.1e m", pitch, worst);
    QVERIFY(worst < 1e-12);
  }
  // Adams/View pairs a screw with a CYLINDRICAL joint on its markers: the screw takes its place,
  // and a MOTION on the cylindrical joint turns the nut on the fixed spindle, 5 mm a turn.
  const std::string paired =
      "JOINT/1, CYLINDRICAL, I = 31, J = 21\nJOINT/2, SCREW, I = 31, J = 21, PITCH = 5\n"
      "JOINT/3, FIXED, I = 21, J = 1\nMOTION/1, JOINT = 1, FUNCTION = 360D * TIME\n";
  std::string text = dataset(parts, paired);
  text.replace(text.find("METER"), 5, "MILLIMETER");
  const Spec spec = test::readAdamsOrFail(text);
  QCOMPARE(spec.joints.size(), std::size_t(2));
  QCOMPARE(spec.joints[0].type, JointType::Screw);
  QCOMPARE(spec.motions.front().joint, spec.joints[0].name);
  const Model model = test::compileOrFail(kinematics(spec, 1));
  const Results results = runOrFail(kinematics(spec, 1));
  double worst = 0;
  for (const Frame& f : results.frames)
    worst = std::max({worst, std::abs(position(f, model, "nut", 2) - 0.1 - 0.005 * f.state.t),
                      std::abs(std::remainder(turnAbout(f, model, "nut", Eigen::Vector3d::UnitZ()) -
                                                  2 * kPi * f.state.t,
                                              2 * kPi))});
  qInfo("the paired screw: nut's travel and turn against 5 mm and 1 rev a second: %.1e", worst);
  QVERIFY(worst < 1e-12);
}

void TestAdamsGearing::spurGearsAndRackThroughCv() {
  // A wheel of pitch radius 0.1 at the origin drives one of 0.2 at x = 0.3 through a CV marker
  // at their pitch point (0.1, 0, 0), its z along the teeth's motion there (+y); both turn about
  // z on revolute joints to ground. The second turns at -1/2 of the first's rate. The second
  // wheel's joint has its I marker on ground (the wheel is J's part).
  const std::string parts = part(2, "pinion", "0, 0, 0") + part(3, "wheel", "0.3, 0, 0") +
                            "MARKER/21, PART = 2\nMARKER/31, PART = 3\n"
                            "MARKER/2, PART = 1, QP = 0.3, 0, 0\n"
                            "MARKER/3, PART = 1, QP = 0.1, 0, 0, REULER = 0D, -90D, 0D\n";
  const std::string gears =
      "JOINT/1, REVOLUTE, I = 21, J = 1\nJOINT/2, REVOLUTE, I = 2, J = 31\n"
      "GEAR/1, JOINTS = 1, 2, CV = 3\nMOTION/1, JOINT = 1, FUNCTION = 360D * TIME\n";
  const Spec spec = test::readAdamsOrFail(dataset(parts, gears));
  QCOMPARE(spec.constraints.size(), std::size_t(1));
  QCOMPARE(spec.constraints[0].type, ConstraintType::Coupler);
  QCOMPARE(spec.constraints[0].name, std::string("gear_1"));
  const Model model = test::compileOrFail(kinematics(spec, 0.4));
  const Results results = runOrFail(kinematics(spec, 0.4));
  double worst = 0;
  for (const Frame& f : results.frames)
    worst = std::max(
        worst, std::abs(turnAbout(f, model, "wheel", Eigen::Vector3d::UnitZ()) + kPi * f.state.t));
  qInfo("wheel's turn against -pi t: %.1e rad", worst);
  QVERIFY(worst < 1e-12);

  // The pinion on a rack: the rack slides along +y through a translational joint (J's z along
  // y), its teeth at the CV marker: it moves 0.1 m per radian the pinion turns.
  const std::string rack = part(2, "pinion", "0, 0, 0") + part(3, "rack", "0.1, 0, 0") +
                           "MARKER/21, PART = 2\nMARKER/31, PART = 3, REULER = 0D, -90D, 0D\n"
                           "MARKER/2, PART = 1, QP = 0.1, 0, 0, REULER = 0D, -90D, 0D\n"
                           "MARKER/3, PART = 1, QP = 0.1, 0, 0, REULER = 0D, -90D, 0D\n";
  const std::string drive =
      "JOINT/1, REVOLUTE, I = 21, J = 1\nJOINT/2, TRANSLATIONAL, I = 31, J = 2\n"
      "GEAR/1, JOINTS = 1, 2, CV = 3\nMOTION/1, JOINT = 1, FUNCTION = 2 * TIME\n";
  const Spec rackSpec = test::readAdamsOrFail(dataset(rack, drive));
  const Model rackModel = test::compileOrFail(kinematics(rackSpec, 1));
  const Results rackResults = runOrFail(kinematics(rackSpec, 1));
  double worstRack = 0;
  for (const Frame& f : rackResults.frames)
    worstRack = std::max(worstRack, std::abs(position(f, rackModel, "rack", 1) - 0.2 * f.state.t));
  qInfo("rack's travel against 0.1 m x 2 t: %.1e m", worstRack);
  QVERIFY(worstRack < 1e-12);
}

void TestAdamsGearing::rotationalSpringDamper_data() {
  // A rotor (Izz = 2 kg m^2) turning about z, held by a spring-damper KT = 8 N m/rad,
  // CT = 0.4 N m s/rad, ANGLE = 30D, TORQUE = 1 N m, released at rest. I on the rotor: it
  // settles at 30 degrees + 1/8 rad. I on ground (the spring measures ground from the rotor):
  // at -(30 degrees + 1/8 rad). Between a rotor held by a spherical joint and a parallel-axes
  // primitive (no joint to put a torsion spring on): torques of AZ and WZ, as the first.
  QTest::addColumn<QString>("holder");
  QTest::addColumn<QString>("ends");
  QTest::addColumn<double>("settle");
  QTest::addColumn<int>("torsionSprings");
  const double settle = kPi / 6 + 1.0 / 8;
  QTest::newRow("on the joint") << "JOINT/1, REVOLUTE, I = 21, J = 1\n"
                                << "I = 21, J = 1" << settle << 1;
  QTest::newRow("turned round") << "JOINT/1, REVOLUTE, I = 21, J = 1\n"
                                << "I = 1, J = 21" << -settle << 1;
  QTest::newRow("no joint") << "JPRIM/1, ATPOINT, I = 21, J = 1\n"
                               "JPRIM/2, PARALLEL_AXES, I = 21, J = 1\n"
                            << "I = 21, J = 1" << settle << 0;
}

void TestAdamsGearing::rotationalSpringDamper() {
  QFETCH(QString, holder);
  QFETCH(QString, ends);
  QFETCH(double, settle);
  QFETCH(int, torsionSprings);
  const std::string text =
      dataset(part(2, "rotor", "0, 0, 0") + "MARKER/21, PART = 2\n",
              holder.toStdString() + "SPRINGDAMPER/1, ROTATIONAL, " + ends.toStdString() +
                  ", KT = 8, CT = 0.4, ANGLE = 30D, TORQUE = 1\n");
  Spec spec = test::readAdamsOrFail(text);
  int springs = 0;
  for (const ForceSpec& f : spec.forces) springs += f.type == ForceType::TorsionSpring;
  QCOMPARE(springs, torsionSprings);
  spec.analysis->endTime = 3;
  spec.analysis->outputStep = 0.1;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(spec);
  // 2 phi'' + 0.4 phi' + 8 phi = 8 settle, from rest at 0.
  const double w = 2, zeta = 0.4 / (2 * 2 * w), wd = w * std::sqrt(1 - zeta * zeta);
  double worst = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t;
    const double exact = settle * (1 - std::exp(-zeta * w * t) *
                                           (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t)));
    worst =
        std::max(worst, std::abs(turnAbout(f, model, "rotor", Eigen::Vector3d::UnitZ()) - exact));
  }
  qInfo("rotor's angle against the damped oscillator's over 3 s: %.1e rad", worst);
  QVERIFY(worst < 1e-6);
}

void TestAdamsGearing::refusals() {
  const std::string parts = part(2, "a", "0, 0, 0") + part(3, "b", "0.3, 0, 0") +
                            "MARKER/21, PART = 2\nMARKER/31, PART = 3\n"
                            "MARKER/3, PART = 1, QP = 0.1, 0, 0, REULER = 0D, -90D, 0D\n";
  const std::string joints = "JOINT/1, REVOLUTE, I = 21, J = 1\nJOINT/2, REVOLUTE, I = 31, J = 1\n";
  QCOMPARE(test::firstAdamsDiagnostic(dataset(parts, joints + "GEAR/1, JOINTS = 1, 2, CV = 21\n")),
           std::string("test.adm:16: GEAR/1: CV must be on the carrier, the part both joints join "
                       "(joint_2 does not join CV's part)"));
  QCOMPARE(test::firstAdamsDiagnostic(dataset(parts, joints + "GEAR/1, JOINTS = 1, 4, CV = 3\n")),
           std::string("test.adm:16: GEAR/1: JOINTS names no JOINT 4"));
  QCOMPARE(test::firstAdamsDiagnostic(dataset(parts, "JOINT/1, RACKPIN, I = 21, J = 31\n")),
           std::string("test.adm:14: JOINT/1: RACKPIN needs PD"));
  QCOMPARE(
      test::firstAdamsDiagnostic(dataset(parts, "JOINT/1, RACKPIN, I = 21, J = 31, PD = 0.1\n")),
      std::string("test.adm:14: JOINT/1: the pinion's z axis (I) must be perpendicular to "
                  "the rack's (J)"));
  QCOMPARE(
      test::firstAdamsDiagnostic(dataset(parts, "JOINT/1, REVOLUTE, I = 21, J = 31, PD = 0.1\n")),
      std::string("test.adm:14: JOINT/1: PD belongs to a RACKPIN"));
  QCOMPARE(
      test::firstAdamsDiagnostic(dataset(parts, "JOINT/1, SCREW, I = 21, J = 31, PITCH = 0.1\n")),
      std::string("test.adm:14: JOINT/1: I must lie on J's z axis with its z axis along J's "
                  "(other screws are not read yet)"));
  QCOMPARE(test::firstAdamsDiagnostic(
               dataset(parts, "SPRINGDAMPER/1, ROTATIONAL, I = 21, J = 31, K = 1\n")),
           std::string("test.adm:14: SPRINGDAMPER/1: K belongs to a TRANSLATIONAL spring-damper"));
}

QTEST_GUILESS_MAIN(TestAdamsGearing)
#include "tst_adams_gearing.moc"
