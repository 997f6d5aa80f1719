// simEngine2D .adm/.acf import: the models in tests/data field by field, the MATLAB function
// translation, and the diagnostics of broken files.

#include "io/matlab_expression.h"
#include "io/model_file.h"
#include "test_support.h"

#include <QObject>
#include <QStringList>
#include <QTest>

#include <array>
#include <charconv>
#include <string>

using namespace rlx;

namespace {

QString numberText(const Number& n) {
  if (n.isExpression()) return QString::fromStdString("=" + n.expression);
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), n.value);
  return QString::fromStdString(std::string(buffer.data(), result.ptr));
}

// "0.1 -0.25": the numbers of a vector, shortest form; "-" for an absent optional vector.
QString text(const std::vector<Number>& v) {
  QStringList parts;
  for (const Number& n : v) parts << numberText(n);
  return parts.join(' ');
}
QString text(const std::optional<Vector>& v) {
  return v ? text(*v) : QStringLiteral("-");
}
QString text(const std::optional<Number>& n) {
  return n ? numberText(*n) : QStringLiteral("-");
}
QString text(const std::vector<std::string>& v) {
  QStringList parts;
  for (const std::string& s : v) parts << QString::fromStdString(s);
  return parts.join(" | ");
}

QStringList texts(const Diagnostics& diagnostics) {
  QStringList out;
  for (const Diagnostic& d : diagnostics) out << QString::fromStdString(d.text());
  return out;
}

LoadResult readData(const std::string& adm, const std::string& acf = {}) {
  const std::string dir = rlx::test::testDataDir() + "/";
  const std::string admText = rlx::test::readFile(dir + adm);
  if (acf.empty()) return readSimEngine2D(admText, std::nullopt, adm);
  const std::string acfText = rlx::test::readFile(dir + acf);
  return readSimEngine2D(admText, acfText, adm);
}

LoadResult readText(const std::string& adm) {
  return readSimEngine2D(adm, std::nullopt, "m.adm");
}

// A row of the translation tables: MATLAB text and the expected translation or error.
void row(const char* name, const QString& matlab, const QString& expected) {
  QTest::newRow(name) << matlab << expected;
}

const std::string kVisWarning = ": vis is skipped: simEngine2D drawing settings are not imported";

}  // namespace

class TstSimEngine2D : public QObject {
  Q_OBJECT

 private slots:
  void sliderCrankModel();
  void sliderCrankAnalysis();
  void pendulumModel();
  void doublePendulumForces();
  void translationalJoint();
  void rsda2AgainstTheJointOrder();
  void defaultsWithoutOptionalKeys();
  void olderPointForceAndActuatorOnlyRsda();
  void unknownKeysAndRenamesAreWarnings();
  void matlabTranslation_data();
  void matlabTranslation();
  void matlabTranslationErrors_data();
  void matlabTranslationErrors();
  void modelErrors_data();
  void modelErrors();
  void analysisErrors_data();
  void analysisErrors();
  void malformedJsonGivesLineAndColumn();
};

void TstSimEngine2D::sliderCrankModel() {
  const LoadResult r = readData("slider_crank_kin.adm", "slider_crank_kin.acf");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  const Spec& s = *r.spec;

  // Only the vis blocks are skipped.
  QCOMPARE(texts(r.diagnostics),
           (QStringList{QString::fromStdString("warning: slider_crank_kin.adm" + kVisWarning),
                        QString::fromStdString("warning: bodies[0] \"crank\"" + kVisWarning),
                        QString::fromStdString("warning: bodies[1] \"rod\"" + kVisWarning),
                        QString::fromStdString("warning: bodies[2] \"slider\"" + kVisWarning)}));

  QCOMPARE(s.name, std::string("SliderCrankKIN"));
  QCOMPARE(s.dimension, 2);
  QCOMPARE(text(s.gravity), QString("0 -9.81"));

  // Bodies: q0 -> position + angle, qd0 -> velocity + angular velocity, jbar -> inertia.
  QCOMPARE(s.bodies.size(), std::size_t(3));
  const BodySpec& crank = s.bodies[0];
  QCOMPARE(crank.name, std::string("crank"));
  QCOMPARE(numberText(crank.mass), QString("1.2"));
  QCOMPARE(text(crank.inertia), QString("0.004"));
  QCOMPARE(text(crank.position), QString("0.1 0"));
  QCOMPARE(numberText(crank.angle), QString("0"));
  QCOMPARE(text(crank.velocity), QString("0 0.6283185307179586"));
  QCOMPARE(text(crank.angularVelocity), QString("6.283185307179586"));
  QVERIFY(crank.hold.empty());
  QVERIFY(crank.shape.type.empty());
  const BodySpec& rod = s.bodies[1];
  QCOMPARE(rod.name, std::string("rod"));
  QCOMPARE(numberText(rod.mass), QString("2.5"));
  QCOMPARE(text(rod.inertia), QString("0.052"));
  QCOMPARE(text(rod.position), QString("0.45 0"));
  QCOMPARE(text(rod.angularVelocity), QString("-2.5132741228718345"));
  const BodySpec& slider = s.bodies[2];
  QCOMPARE(slider.name, std::string("slider"));
  QCOMPARE(numberText(slider.mass), QString("0.8"));
  QCOMPARE(text(slider.inertia), QString("0.001"));
  QCOMPARE(text(slider.position), QString("0.7 0"));
  QCOMPARE(text(slider.velocity), QString("0 0"));

  // Revolute joints with their body points.
  QCOMPARE(s.joints.size(), std::size_t(2));
  const JointSpec& pin = s.joints[0];
  QCOMPARE(pin.name, std::string("rev_crank_rod"));
  QVERIFY(pin.type == JointType::Revolute);
  QCOMPARE(pin.body1, std::string("crank"));
  QCOMPARE(pin.body2, std::string("rod"));
  QCOMPARE(text(pin.point1), QString("0.1 0"));
  QCOMPARE(text(pin.point2), QString("-0.25 0"));
  QCOMPARE(text(pin.at), QString("-"));
  QCOMPARE(text(pin.axis1), QString("-"));
  const JointSpec& wrist = s.joints[1];
  QCOMPARE(wrist.name, std::string("rev_rod_slider"));
  QCOMPARE(wrist.body1, std::string("rod"));
  QCOMPARE(wrist.body2, std::string("slider"));
  QCOMPARE(text(wrist.point1), QString("0.25 0"));
  QCOMPARE(text(wrist.point2), QString("0 0"));

  // Absolute constraints become body motions with the constraint's name.
  QCOMPARE(s.motions.size(), std::size_t(5));
  const std::array<std::array<const char*, 5>, 5> motions{{
      {"absX_crank", "crank", "x", "-0.1 0", "0"},
      {"absY_crank", "crank", "y", "-0.1 0", "0"},
      {"absY_slider", "slider", "y", "0 0", "0"},
      {"absAngle_slider", "slider", "angle", "-", "0"},
      {"driver", "crank", "angle", "-", "2*pi*t"},
  }};
  for (std::size_t i = 0; i < motions.size(); ++i) {
    const MotionSpec& m = s.motions[i];
    QCOMPARE(m.name, std::string(motions[i][0]));
    QCOMPARE(m.body, std::string(motions[i][1]));
    QVERIFY(m.joint.empty());
    QCOMPARE(m.coordinate, std::string(motions[i][2]));
    QCOMPARE(text(m.point), QString(motions[i][3]));
    QVERIFY(!m.at);
    QCOMPARE(m.function, std::string(motions[i][4]));
  }
  QVERIFY(s.forces.empty());
  QVERIFY(s.constraints.empty());
  QVERIFY(s.parameters.empty());
}

void TstSimEngine2D::sliderCrankAnalysis() {
  const LoadResult r = readData("slider_crank_kin.adm", "slider_crank_kin.acf");
  QVERIFY(r.spec && r.spec->analysis);
  const AnalysisSpec& a = *r.spec->analysis;
  QVERIFY(a.type == AnalysisType::Kinematics);
  QCOMPARE(numberText(a.endTime), QString("2"));
  QCOMPARE(numberText(a.step), QString("0.005"));
  // outputSteps = 200 output intervals over tend = 2.
  QCOMPARE(text(a.outputStep), QString("0.01"));
  QCOMPARE(a.integrator, AnalysisSpec{}.integrator);
  QVERIFY(a.tolerance == AnalysisSpec{}.tolerance);

  // Without the .acf there is no analysis.
  QVERIFY(!readData("slider_crank_kin.adm").spec->analysis);
}

void TstSimEngine2D::pendulumModel() {
  const LoadResult r = readData("pendulum_kin.adm", "pendulum_kin.acf");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  const Spec& s = *r.spec;
  QCOMPARE(r.diagnostics.size(), std::size_t(2));  // the two vis blocks
  QCOMPARE(s.name, std::string("PendulumKIN"));
  QCOMPARE(s.bodies.size(), std::size_t(1));
  QCOMPARE(s.bodies[0].name, std::string("pendulum"));
  QCOMPARE(numberText(s.bodies[0].mass), QString("2"));
  QCOMPARE(text(s.bodies[0].inertia), QString("0.1666666666666667"));
  QCOMPARE(text(s.bodies[0].position), QString("0.5 0"));
  QVERIFY(s.joints.empty());

  QCOMPARE(s.motions.size(), std::size_t(3));
  QCOMPARE(s.motions[0].name, std::string("absX_pivot"));
  QCOMPARE(s.motions[0].coordinate, std::string("x"));
  QCOMPARE(text(s.motions[0].point), QString("-0.5 0"));
  QCOMPARE(s.motions[1].name, std::string("absY_pivot"));
  QCOMPARE(s.motions[1].coordinate, std::string("y"));
  QCOMPARE(text(s.motions[1].point), QString("-0.5 0"));
  const MotionSpec& driver = s.motions[2];
  QCOMPARE(driver.name, std::string("driver"));
  QCOMPARE(driver.body, std::string("pendulum"));
  QCOMPARE(driver.coordinate, std::string("angle"));
  QCOMPARE(driver.function, std::string("pi/4*sin(2*pi*t) - 0.1*t^2"));

  QVERIFY(s.analysis->type == AnalysisType::Kinematics);
  QCOMPARE(numberText(s.analysis->endTime), QString("1"));
  QCOMPARE(numberText(s.analysis->step), QString("0.001"));
  QCOMPARE(text(s.analysis->outputStep), QString("0.01"));
}

void TstSimEngine2D::doublePendulumForces() {
  const LoadResult r = readData("double_pendulum_dyn.adm", "double_pendulum_dyn.acf");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  const Spec& s = *r.spec;
  QCOMPARE(r.diagnostics.size(), std::size_t(3));        // the three vis blocks
  QCOMPARE(s.name, std::string("Double Pendulum DYN"));  // the model name is free text
  QCOMPARE(s.joints.size(), std::size_t(1));
  QCOMPARE(s.joints[0].name, std::string("elbow"));
  QCOMPARE(s.forces.size(), std::size_t(5));

  // PointForce in the global frame (GRF).
  const ForceSpec& push = s.forces[0];
  QCOMPARE(push.name, std::string("push"));
  QVERIFY(push.type == ForceType::Force);
  QCOMPARE(push.body, std::string("lower"));
  QCOMPARE(text(push.point), QString("0.5 0"));
  QCOMPARE(text(push.vector), QString("0 | -2*sin(t)"));
  QCOMPARE(push.frame, std::string("global"));

  const ForceSpec& motor = s.forces[1];
  QCOMPARE(motor.name, std::string("motor"));
  QVERIFY(motor.type == ForceType::Torque);
  QCOMPARE(motor.body, std::string("upper"));
  QCOMPARE(motor.value, std::string("0.5*cos(2*pi*t)"));

  // RSDA1: torque -(k*(phi - theta0) + c*omega + h) on the body.
  const ForceSpec& shoulder = s.forces[2];
  QCOMPARE(shoulder.name, std::string("shoulder_spring"));
  QVERIFY(shoulder.type == ForceType::Torque);
  QCOMPARE(shoulder.body, std::string("upper"));
  QCOMPARE(shoulder.value, std::string("-(10*(upper.angle - (-0.5)) + 0.2*upper.omega)"));

  // RSDA2 on the revolute joint: free angle theta0 minus the initial relative angle
  // (0 - (-pi/2)); the actuator h(t) = 0.2*t acts as -h along the joint angle.
  const ForceSpec& spring = s.forces[3];
  QCOMPARE(spring.name, std::string("elbow_spring"));
  QVERIFY(spring.type == ForceType::TorsionSpring);
  QCOMPARE(spring.joint, std::string("elbow"));
  QCOMPARE(text(spring.stiffness), QString("5"));
  QCOMPARE(text(spring.damping), QString("0.1"));
  QCOMPARE(spring.freeAngle->value, 0.3 - 1.5707963267948966);
  QCOMPARE(text(spring.preload), QString("-"));
  const ForceSpec& actuator = s.forces[4];
  QCOMPARE(actuator.name, std::string("elbow_spring_actuator"));
  QVERIFY(actuator.type == ForceType::JointForce);
  QCOMPARE(actuator.joint, std::string("elbow"));
  QCOMPARE(actuator.value, std::string("-(0.2*t)"));

  QVERIFY(s.analysis->type == AnalysisType::Dynamics);
  QCOMPARE(numberText(s.analysis->endTime), QString("3"));
  QCOMPARE(numberText(s.analysis->step), QString("0.001"));
  QCOMPARE(text(s.analysis->outputStep), QString("0.01"));
}

void TstSimEngine2D::translationalJoint() {
  // A collar sliding on a rod, both turned by 30 degrees: vP1 and vP2 parallel (opposite) in q0.
  const LoadResult r = readText(R"~({
    "bodies": [
      {"name": "rod", "id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0.5235987755982988], "qd0": [0, 0, 0]},
      {"name": "collar", "id": 2, "mass": 1, "jbar": 1, "q0": [1, 0.5, 0.5235987755982988], "qd0": [0, 0, 0]}],
    "constraints": [
      {"name": "slide", "id": 1, "type": "TranslationalJoint", "body1": 1, "sP1": [0.5, 0],
       "vP1": [2, 0], "body2": 2, "sP2": [-0.1, 0], "vP2": [-1, 0], "fun": "NONE"}]})~");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  QVERIFY(r.diagnostics.empty());
  const JointSpec& j = r.spec->joints.at(0);
  QCOMPARE(j.name, std::string("slide"));
  QVERIFY(j.type == JointType::Translational);
  QCOMPARE(j.body1, std::string("rod"));
  QCOMPARE(j.body2, std::string("collar"));
  QCOMPARE(text(j.point1), QString("0.5 0"));
  QCOMPARE(text(j.point2), QString("-0.1 0"));
  QCOMPARE(text(j.axis1), QString("2 0"));
  QCOMPARE(text(j.axis2), QString("-1 0"));

  // Axes that are not parallel in q0 are reported; a zero axis is an error.
  const LoadResult skew = readText(R"~({
    "bodies": [
      {"name": "rod", "id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0], "qd0": [0, 0, 0]},
      {"name": "collar", "id": 2, "mass": 1, "jbar": 1, "q0": [1, 0, 0.2], "qd0": [0, 0, 0]}],
    "constraints": [
      {"name": "slide", "id": 1, "type": "TranslationalJoint", "body1": 1, "sP1": [0, 0],
       "vP1": [1, 0], "body2": 2, "sP2": [0, 0], "vP2": [0, 0], "fun": "NONE"},
      {"name": "slide2", "id": 2, "type": "TranslationalJoint", "body1": 1, "sP1": [0, 0],
       "vP1": [1, 0], "body2": 2, "sP2": [0, 0], "vP2": [1, 0], "fun": "NONE"}]})~");
  QCOMPARE(texts(skew.diagnostics),
           (QStringList{"constraints[0] \"slide\": vP2 must not be the zero vector",
                        "warning: constraints[1] \"slide2\": vP2 is at 0.2 rad to vP1 in the "
                        "initial configuration (q0): simEngine2D turns the bodies until the axes "
                        "are parallel, Reuleaux's translational joint keeps the relative angle of "
                        "q0"}));
  QVERIFY(!skew.spec);
}

void TstSimEngine2D::rsda2AgainstTheJointOrder() {
  // The joint has body1 = b, body2 = a; the RSDA2 has body1 = a, body2 = b.
  const LoadResult r = readText(R"~({
    "bodies": [
      {"name": "a", "id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0.25], "qd0": [0, 0, 0]},
      {"name": "b", "id": 2, "mass": 1, "jbar": 1, "q0": [1, 0, 1], "qd0": [0, 0, 0]}],
    "constraints": [
      {"name": "pin", "id": 1, "type": "RevoluteJoint", "body1": 2, "sP1": [0, 0],
       "body2": 1, "sP2": [1, 0], "fun": "NONE"}],
    "forces": [
      {"name": "rsda", "id": 1, "type": "RSDA2", "body1": 1, "body2": 2, "theta0": 0.5,
       "k": 3, "c": 0, "fun": "sin(t)"}]})~");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  const ForceSpec& spring = r.spec->forces.at(0);
  QCOMPARE(spring.joint, std::string("pin"));
  // q = (phi_a - phi_b) - (0.25 - 1); n = k*(phi_b - phi_a - theta0) + h acts as +n on a.
  QCOMPARE(spring.freeAngle->value, -0.5 - (0.25 - 1.0));
  QCOMPARE(text(spring.damping), QString("0"));
  QCOMPARE(r.spec->forces.at(1).value, std::string("sin(t)"));

  // A joint to the ground (body id 0) and an RSDA2 against the ground; "NONE" is no actuator.
  const LoadResult grounded = readText(R"~({
    "bodies": [{"name": "a", "id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0.25], "qd0": [0, 0, 0]}],
    "constraints": [
      {"name": "pin", "id": 1, "type": "RevoluteJoint", "body1": 0, "sP1": [0, 0],
       "body2": 1, "sP2": [-1, 0], "fun": "NONE"}],
    "forces": [
      {"name": "rsda", "id": 1, "type": "RSDA2", "body1": 0, "body2": 1, "theta0": 0.5,
       "k": 3, "c": 1, "fun": "NONE"}]})~");
  QVERIFY2(grounded.spec, qPrintable(texts(grounded.diagnostics).join('\n')));
  QCOMPARE(grounded.spec->joints.at(0).body1, std::string("ground"));
  QCOMPARE(grounded.spec->forces.size(), std::size_t(1));
  QCOMPARE(grounded.spec->forces[0].freeAngle->value, 0.5 - 0.25);
}

void TstSimEngine2D::defaultsWithoutOptionalKeys() {
  // No name, no gravity, no constraints: the simEngine2D defaults; names from the ids.
  const LoadResult r = readText(R"~({"bodies": [
      {"id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0], "qd0": [0, 0, 0]}],
    "forces": [{"id": 4, "type": "Torque", "body1": 1, "fun": "1"}]})~");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  QVERIFY(r.diagnostics.empty());
  QCOMPARE(r.spec->name, std::string("model"));
  QCOMPARE(text(r.spec->gravity), QString("0 -9.81"));
  QCOMPARE(r.spec->bodies.at(0).name, std::string("body_1"));
  QCOMPARE(r.spec->forces.at(0).name, std::string("force_4"));
  QVERIFY(!r.spec->analysis);

  const LoadResult moon = readText(R"~({"name": "moon", "gravity": [0, -1.62], "bodies": []})~");
  QVERIFY(moon.spec);
  QCOMPARE(text(moon.spec->gravity), QString("0 -1.62"));
}

void TstSimEngine2D::olderPointForceAndActuatorOnlyRsda() {
  // The older PointForce form `fun: [fx, fy]` in the body frame; an RSDA1 with only h(t), and one
  // with a signed h(t) after the spring term.
  const LoadResult r = readText(R"~({
    "bodies": [{"name": "b", "id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0], "qd0": [0, 0, 0]}],
    "forces": [
      {"name": "f", "id": 1, "type": "PointForce", "body1": 1, "sP1": [0.5, -0.5], "frame": "LRF",
       "fun": ["2*t", "-1"]},
      {"name": "h", "id": 2, "type": "RSDA1", "body1": 1, "theta0": 1, "k": 0, "c": 0, "fun": "sin(t)"},
      {"name": "kh", "id": 3, "type": "RSDA1", "body1": 1, "theta0": 0, "k": 2, "c": 0, "fun": "-t"}]})~");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  QVERIFY(r.diagnostics.empty());
  const ForceSpec& f = r.spec->forces.at(0);
  QCOMPARE(text(f.vector), QString("2*t | -1"));
  QCOMPARE(f.frame, std::string("body"));
  QCOMPARE(text(f.point), QString("0.5 -0.5"));
  QCOMPARE(r.spec->forces.at(1).value, std::string("-(sin(t))"));
  QCOMPARE(r.spec->forces.at(2).value, std::string("-(2*b.angle + (-t))"));
}

void TstSimEngine2D::unknownKeysAndRenamesAreWarnings() {
  const LoadResult r = readText(R"~({
    "name": "warnings", "contacts": [],
    "bodies": [
      {"name": "slider", "id": 1, "mass": 1, "jbar": 1, "q0": [0, 0, 0], "qd0": [0, 0, 0], "ffo": "bar"},
      {"name": "Long Rod", "id": 2, "mass": 1, "jbar": 1, "q0": [1, 0, 0], "qd0": [0, 0, 0]},
      {"name": "slider", "id": 4, "mass": 1, "jbar": 1, "q0": [2, 0, 0], "qd0": [0, 0, 0]},
      {"name": "ground", "id": 3, "mass": 1, "jbar": 1, "q0": [3, 0, 0], "qd0": [0, 0, 0]}],
    "constraints": [
      {"name": "pin", "id": 1, "type": "RevoluteJoint", "body1": 1, "sP1": [0, 0], "body2": 2,
       "sP2": [0, 0], "fun": "2*pi*t", "comment": "driven?"},
      {"name": "Long Rod", "id": 2, "type": "AbsoluteAngle", "body1": 4, "sP1": [0, 0], "fun": "0"}]})~");
  QVERIFY2(r.spec, qPrintable(texts(r.diagnostics).join('\n')));
  QCOMPARE(texts(r.diagnostics),
           (QStringList{
               "warning: m.adm: contacts is not a key of a simEngine2D model and is skipped",
               "warning: bodies[0] \"slider\": ffo is not a key of a simEngine2D body and is "
               "skipped",
               "warning: bodies[1] \"Long Rod\": name \"Long Rod\" is not an identifier; renamed "
               "\"Long_Rod\"",
               "warning: bodies[2] \"slider\": name \"slider\" is already used; renamed "
               "\"slider_2\"",
               "warning: bodies[2] \"slider\": id 4 differs from the body's position 3 in the "
               "list; simEngine2D refers to bodies by position, this import by id",
               "warning: bodies[3] \"ground\": name \"ground\" is reserved for the fixed ground; "
               "renamed \"ground_2\"",
               "warning: bodies[3] \"ground\": id 3 differs from the body's position 4 in the "
               "list; simEngine2D refers to bodies by position, this import by id",
               "warning: constraints[0] \"pin\": fun is ignored: simEngine2D's RevoluteJoint does "
               "not use it (drive the mechanism with an AbsoluteAngle, AbsoluteX or AbsoluteY "
               "constraint)",
               "warning: constraints[0] \"pin\": comment is not a key of a simEngine2D "
               "RevoluteJoint constraint and is skipped",
               "warning: constraints[1] \"Long Rod\": name \"Long Rod\" is not an identifier and "
               "\"Long_Rod\" is already used; renamed \"Long_Rod_2\"",
               "warning: constraints[1] \"Long Rod\": sP1 is not a key of a simEngine2D "
               "AbsoluteAngle constraint and is skipped",
           }));
  const Spec& s = *r.spec;
  QCOMPARE(s.bodies[2].name, std::string("slider_2"));
  QCOMPARE(s.bodies[3].name, std::string("ground_2"));
  QCOMPARE(s.motions.at(0).name, std::string("Long_Rod_2"));
  QCOMPARE(s.motions.at(0).body, std::string("slider_2"));  // found by id, not by position
  QVERIFY(s.joints.size() == 1 && s.motions.size() == 1);   // the joint's fun made no motion
}

void TstSimEngine2D::matlabTranslation_data() {
  QTest::addColumn<QString>("matlab");
  QTest::addColumn<QString>("expected");
  row("element-wise power", "t.^2", "t^2");
  row("pi*t", "pi*t", "pi*t");
  row("sin(2*pi*t)", "sin(2*pi*t)", "sin(2*pi*t)");
  row("element-wise product, division", "2 .* t ./ 3", "2*t/3");
  row("sum with spaces", "t + pi/6", "t + pi/6");
  row("nested parentheses", "((t + 1))*(t - (1 - t))", "(t + 1)*(t - (1 - t))");
  row("nested calls", "sin(cos(t.^2 + 1))", "sin(cos(t^2 + 1))");
  row("redundant parentheses", "2*(t^2) + (sin(t))", "2*t^2 + sin(t)");
  row("power is left associative", "t^2^3", "(t^2)^3");
  row("explicit right power", "2^(3^t)", "2^(3^t)");
  row("signed exponent", "2^-t", "2^-t");
  row("signed exponent binds one operand", "2^-t^2", "(2^-t)^2");
  row("minus binds below power", "-t^2", "-t^2");
  row("negated base", "(-t)^2", "(-t)^2");
  row("fractional exponent", "t.^(1/2)", "t^(1/2)");
  row("negated sum", "-(t+1)", "-(t + 1)");
  row("signed right operands", "t*-2 - -1", "t*(-2) - (-1)");
  row("unary plus", "+t", "t");
  row("division of a product", "t/(2*t)", "t/(2*t)");
  row("left division", "2\\t", "t/2");
  row("constant", "0.0", "0.0");
  row("leading-dot number", ".5*t", "0.5*t");
  row("trailing-dot number", "5.*t", "5*t");
  row("exponent number", "1e-3*t + 2.5E2", "1e-3*t + 2.5E2");
  row("eps", "eps", "2.220446049250313e-16");
  row("two arguments", "atan2(sin(t), cos(t))", "atan2(sin(t), cos(t))");
  row("decaying cosine", "exp(-t).*cos(3*t)", "exp(-t)*cos(3*t)");
  row("power function", "power(t, 3)", "pow(t, 3)");
  row("degree sine", "sind(30*t)", "sin(30*t*deg)");
  row("degree arc sine", "asind(t)", "asin(t)/deg");
  row("secant", "sec(t)", "1/cos(t)");
  row("log2", "log2(t+1)", "log(t + 1)/log(2)");
  row("hypot", "hypot(t, 2*t)", "sqrt(t^2 + (2*t)^2)");
}

void TstSimEngine2D::matlabTranslation() {
  QFETCH(QString, matlab);
  QFETCH(QString, expected);
  std::string error;
  const std::optional<std::string> translated =
      translateMatlabExpression(matlab.toStdString(), &error);
  QVERIFY2(translated, error.c_str());
  QCOMPARE(QString::fromStdString(*translated), expected);
}

void TstSimEngine2D::matlabTranslationErrors_data() {
  QTest::addColumn<QString>("matlab");
  QTest::addColumn<QString>("expected");
  const QString tOnly = ": a simEngine2D function depends on t only";
  row("NONE", "NONE", "column 1: unknown name 'NONE'" + tOnly);
  row("empty", "  ", "column 3: the function is empty");
  row("unknown variable", "2*x + 1", "column 3: unknown name 'x'" + tOnly);
  row("no e in MATLAB", "e^t", "column 1: unknown name 'e'" + tOnly);
  row("missing parenthesis", "sin(2*pi*t", "column 11: expected ')' after the arguments of 'sin'");
  row("unclosed group", "(t + 1", "column 7: expected ')'");
  row("unknown function", "floor(t)",
      "column 1: function 'floor' has no equivalent in the model language");
  row("argument count", "sin(t, 2)", "column 1: 'sin' takes 1 argument, got 2");
  row("function without arguments", "2*sin", "column 3: 'sin' needs arguments");
  row("comparison", "t > 1", "column 3: unexpected '>'");
  row("matrix", "[1 2]", "column 1: unexpected '['");
  row("transpose", "t'", "column 2: unexpected '''");
  row("complex", "3i*t", "column 1: complex numbers are not supported");
  row("infinity", "Inf", "column 1: 'Inf' is not a finite real number");
  row("dangling operator", "2*", "column 3: unexpected end of the function");
  row("two dots", "1.2.3", "column 1: '1.2.3' is not a number");
  row("t is not a function", "t(1)", "column 1: 't' is not a function");
}

void TstSimEngine2D::matlabTranslationErrors() {
  QFETCH(QString, matlab);
  QFETCH(QString, expected);
  std::string error;
  QVERIFY(!translateMatlabExpression(matlab.toStdString(), &error));
  QCOMPARE(QString::fromStdString(error), expected);
}

void TstSimEngine2D::modelErrors_data() {
  QTest::addColumn<QString>("adm");
  QTest::addColumn<QStringList>("expected");
  const QString body1 =
      R"~({"name": "p", "id": 1, "mass": 1, "jbar": 1, "q0": [1, 0, 0], "qd0": [0, 0, 0]})~";
  auto model = [&](const QString& constraints, const QString& forces = "[]") {
    return R"~({"bodies": [)~" + body1 + R"~(], "constraints": )~" + constraints +
           R"~(, "forces": )~" + forces + "}";
  };

  QTest::newRow("unknown constraint type")
      << model(R"~([{"name": "weld", "id": 1, "type": "WeldJoint", "body1": 1}])~")
      << QStringList{
             "constraints[0] \"weld\": type \"WeldJoint\" is not a simEngine2D "
             "constraint type (AbsoluteX, AbsoluteY, AbsoluteAngle, RevoluteJoint, "
             "TranslationalJoint)"};
  QTest::newRow("rack and pinion")
      << model(R"~([{"name": "rp", "id": 1, "type": "RackPinion", "body1": 1, "body2": 1}])~")
      << QStringList{
             "constraints[0] \"rp\": type RackPinion has no equivalent in Reuleaux and "
             "is not imported"};
  QTest::newRow("missing body id")
      << R"~({"bodies": [{"name": "p", "mass": 1, "jbar": 1, "q0": [0, 0, 0], "qd0": [0, 0, 0]}]})~"
      << QStringList{"bodies[0] \"p\": id is missing"};
  QTest::newRow("body id not declared")
      << model(
             R"~([{"name": "x0", "id": 1, "type": "AbsoluteX", "body1": 1, "sP1": [0, 0], "fun": "0"},
                   {"name": "y0", "id": 2, "type": "AbsoluteY", "body1": 1, "sP1": [0, 0], "fun": "0"},
                   {"name": "driver", "id": 3, "type": "AbsoluteAngle", "body1": 7, "fun": "t"}])~")
      << QStringList{"constraints[2] \"driver\": body1 refers to body id 7, which is not declared"};
  QTest::newRow("ground in an absolute constraint")
      << model(
             R"~([{"name": "x0", "id": 1, "type": "AbsoluteX", "body1": 0, "sP1": [0, 0], "fun": "0"}])~")
      << QStringList{
             "constraints[0] \"x0\": body1 refers to body id 0 (the ground); AbsoluteX "
             "needs a moving body"};
  QTest::newRow("bad fun")
      << model(
             R"~([{"name": "driver", "id": 1, "type": "AbsoluteAngle", "body1": 1, "fun": "sin(2*pi*x)"}])~")
      << QStringList{
             "constraints[0] \"driver\": fun \"sin(2*pi*x)\" cannot be translated: "
             "column 10: unknown name 'x': a simEngine2D function depends on t only"};
  QTest::newRow("NONE on an absolute constraint")
      << model(
             R"~([{"name": "x0", "id": 1, "type": "AbsoluteX", "body1": 1, "sP1": [0, 0], "fun": "NONE"}])~")
      << QStringList{"constraints[0] \"x0\": fun is NONE; AbsoluteX needs a function of t"};
  QTest::newRow("missing keys")
      << model(
             R"~([{"name": "pin", "type": "RevoluteJoint", "body1": 1, "body2": 1, "sP2": [0, 0]}])~")
      << QStringList{"constraints[0] \"pin\": id is missing",
                     "constraints[0] \"pin\": sP1 is missing"};
  QTest::newRow("wrong types and sizes")
      << R"~({"bodies": [{"name": "p", "id": 1, "mass": "1", "jbar": 1, "q0": [0, 0], "qd0": 0}]})~"
      << QStringList{"bodies[0] \"p\": mass must be a number, got a string \"1\"",
                     "bodies[0] \"p\": q0 must have 3 numbers, got 2",
                     "bodies[0] \"p\": qd0 must be an array of 3 numbers, got a number"};
  QTest::newRow("duplicate body id")
      << R"~({"bodies": [)~" + body1 + ", " + QString(body1).replace("\"p\"", "\"q\"") + "]}"
      << QStringList{"bodies[1] \"q\": id 1 is already the id of bodies[0] \"p\""};
  QTest::newRow("non-integer id")
      << R"~({"bodies": [{"name": "p", "id": 1.5, "mass": 1, "jbar": 1, "q0": [0, 0, 0], "qd0": [0, 0, 0]}]})~"
      << QStringList{"bodies[0] \"p\": id must be an integer, got 1.5"};
  QTest::newRow("unknown force type")
      << model("[]", R"~([{"name": "spring", "id": 1, "type": "TSDA", "body1": 1}])~")
      << QStringList{
             "forces[0] \"spring\": type \"TSDA\" is not a simEngine2D force type "
             "(PointForce, Torque, RSDA1, RSDA2)"};
  QTest::newRow("force from a MATLAB file")
      << model(
             "[]",
             R"~([{"name": "gas", "id": 1, "type": "PointForceFile", "body1": 1, "sP1": [0, 0], "frame": "GRF", "mfile": "pistonForce"}])~")
      << QStringList{
             "forces[0] \"gas\": type PointForceFile calls a MATLAB function file, "
             "which cannot be imported; write the force as a PointForce with funX and "
             "funY"};
  QTest::newRow("point force frame and function")
      << model(
             "[]",
             R"~([{"name": "f", "id": 1, "type": "PointForce", "body1": 1, "sP1": [0, 0], "frame": "BODY", "funX": "1"}])~")
      << QStringList{
             "forces[0] \"f\": frame must be \"GRF\" (global) or \"LRF\" (body), got "
             "\"BODY\"",
             "forces[0] \"f\": funY is missing"};
  QTest::newRow("RSDA2 without a revolute joint")
      << model(
             "[]",
             R"~([{"name": "rsda", "id": 1, "type": "RSDA2", "body1": 1, "body2": 0, "theta0": 0, "k": 1, "c": 0, "fun": "0"}])~")
      << QStringList{
             "forces[0] \"rsda\": no RevoluteJoint connects \"p\" and \"ground\": "
             "Reuleaux attaches a rotational spring-damper to a revolute joint"};
  QTest::newRow("bodies not an array")
      << R"~({"bodies": {"id": 1}})~"
      << QStringList{"m.adm: bodies must be an array, got an object"};
  QTest::newRow("element not an object")
      << R"~({"bodies": [3]})~" << QStringList{"bodies[0]: must be a JSON object, got a number"};
  QTest::newRow("number out of range")
      << R"~({"gravity": [0, -1e400]})~"
      << QStringList{"m.adm: invalid JSON: number overflow parsing '-1e400'"};
  QTest::newRow("not an object") << "[1, 2]"
                                 << QStringList{"m.adm: must be a JSON object, got an array"};
}

void TstSimEngine2D::modelErrors() {
  QFETCH(QString, adm);
  QFETCH(QStringList, expected);
  const LoadResult r = readText(adm.toStdString());
  QVERIFY(!r.spec);
  QCOMPARE(texts(r.diagnostics), expected);
}

void TstSimEngine2D::analysisErrors_data() {
  QTest::addColumn<QString>("acf");
  QTest::addColumn<QStringList>("expected");
  QTest::newRow("unknown simulation")
      << R"~({"simulation": "Equilibrium", "tend": 1, "stepSize": 0.01, "outputSteps": 10})~"
      << QStringList{
             "analysis (.acf): simulation \"Equilibrium\" is not a simEngine2D analysis "
             "(Kinematics, Dynamics)"};
  QTest::newRow("missing and non-positive")
      << R"~({"simulation": "dynamics", "stepSize": -0.01, "outputSteps": 0})~"
      << QStringList{"analysis (.acf): tend is missing",
                     "analysis (.acf): stepSize must be positive, got -0.01",
                     "analysis (.acf): outputSteps must be a positive integer, got 0"};
  QTest::newRow("syntax") << "{\n\"simulation\": Kinematics\n}"
                          << QStringList{
                                 "analysis (.acf): line 2, column 15: invalid JSON: "
                                 "syntax error while parsing value - invalid literal; "
                                 "last read: '\"simulation\": K'"};
}

void TstSimEngine2D::analysisErrors() {
  QFETCH(QString, acf);
  QFETCH(QStringList, expected);
  const std::string adm = R"~({"bodies": []})~";
  const std::string acfText = acf.toStdString();
  const LoadResult r = readSimEngine2D(adm, acfText, "m.adm");
  QVERIFY(!r.spec);
  QCOMPARE(texts(r.diagnostics), expected);
}

void TstSimEngine2D::malformedJsonGivesLineAndColumn() {
  const std::string adm =
      "{\n"
      "  \"name\": \"broken\",\n"
      "  \"bodies\": [\n"
      "    {\"id\": 1, \"mass\": 2,, \"jbar\": 1}\n"
      "  ]\n"
      "}\n";
  const LoadResult r = readSimEngine2D(adm, std::nullopt, "broken.adm");
  QVERIFY(!r.spec);
  QCOMPARE(r.diagnostics.size(), std::size_t(1));
  const Diagnostic& d = r.diagnostics[0];
  QVERIFY(d.severity == Severity::Error);
  QCOMPARE(d.element, std::string("broken.adm"));
  QCOMPARE(QString::fromStdString(d.message),
           QString("line 4, column 25: invalid JSON: syntax error while parsing object key - "
                   "unexpected ','; expected string literal"));
}

QTEST_GUILESS_MAIN(TstSimEngine2D)
#include "tst_simengine2d.moc"
