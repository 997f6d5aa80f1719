// Every planar joint type and motion kind: Phi_q, nu and gamma against finite differences at
// random configurations, velocities and times.
#include "constraint_check.h"
#include "model/compile.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace rlx;

namespace {

Spec twoBodies() {
  Spec spec;
  BodySpec a, b;
  a.name = "a";
  a.position = {0.3, 0.2};
  a.angle = 0.4;
  a.inertia = {0.1};
  b.name = "b";
  b.position = {1.1, -0.3};
  b.angle = -0.7;
  b.inertia = {0.2};
  spec.bodies = {a, b};
  return spec;
}

JointSpec joint(const std::string& name, JointType type, const std::string& body1,
                const std::string& body2) {
  JointSpec j;
  j.name = name;
  j.type = type;
  j.body1 = body1;
  j.body2 = body2;
  j.point1 = Vector{0.25, -0.1};
  j.point2 = Vector{-0.3, 0.15};
  if (type == JointType::Translational || type == JointType::PointOnLine ||
      type == JointType::RackPinion)
    j.axis1 = Vector{0.6, 0.8};
  return j;
}

// A body's origin in the file (ground: the origin).
Eigen::Vector2d originOf(const Spec& spec, const std::string& body) {
  for (const BodySpec& b : spec.bodies)
    if (b.name == body) return {b.position[0].value, b.position[1].value};
  return Eigen::Vector2d::Zero();
}

// Gears between the bodies' origins with touching pitch circles (an internal pair: body1 the
// ring); a rack through body1's point1 and the pinion at body2's origin on its pitch line.
void makeTouch(const Spec& spec, JointSpec& j) {
  const Eigen::Vector2d c1 = originOf(spec, j.body1), c2 = originOf(spec, j.body2);
  if (j.type == JointType::Gear || j.type == JointType::InternalGear) {
    j.point1.reset();
    j.point2.reset();
    const double d = (c2 - c1).norm();
    j.numbers["radius1"] = j.type == JointType::Gear ? 0.4 * d : 1.3 * d;
    j.numbers["radius2"] = j.type == JointType::Gear ? 0.6 * d : 0.3 * d;
  } else if (j.type == JointType::RackPinion) {
    j.point2.reset();
    double angle = 0.0;
    for (const BodySpec& b : spec.bodies)
      if (b.name == j.body1) angle = b.angle.value;
    const Eigen::Vector2d p1 = c1 + Eigen::Rotation2Dd(angle) * Eigen::Vector2d(0.25, -0.1);
    const Eigen::Vector2d u = Eigen::Rotation2Dd(angle) * Eigen::Vector2d(0.6, 0.8);
    j.numbers["pitch_radius"] = std::abs(u.x() * (c2 - p1).y() - u.y() * (c2 - p1).x());
  }
}

}  // namespace

class TestJoints : public QObject {
  Q_OBJECT

 private slots:
  void derivatives_data();
  void derivatives();
};

void TestJoints::derivatives_data() {
  QTest::addColumn<int>("type");
  QTest::addColumn<QString>("body1");
  QTest::addColumn<QString>("motion");  // "", "joint", "x", "y", "angle"
  const JointType types[] = {JointType::Revolute,     JointType::Translational,
                             JointType::Fixed,        JointType::Distance,
                             JointType::PointOnLine,  JointType::Gear,
                             JointType::InternalGear, JointType::RackPinion};
  for (const JointType type : types)
    for (const char* body1 : {"a", "ground"}) {
      const std::string name = std::string(jointTypeName(type)) + " " + body1;
      QTest::newRow(name.c_str()) << static_cast<int>(type) << body1 << "";
    }
  QTest::newRow("revolute motion") << static_cast<int>(JointType::Revolute) << "a" << "joint";
  QTest::newRow("translational motion") << static_cast<int>(JointType::Translational) << "a" << "joint";
  QTest::newRow("point_on_line motion") << static_cast<int>(JointType::PointOnLine) << "ground" << "joint";
  QTest::newRow("body x motion") << static_cast<int>(JointType::Distance) << "a" << "x";
  QTest::newRow("body y motion") << static_cast<int>(JointType::Distance) << "a" << "y";
  QTest::newRow("body angle motion") << static_cast<int>(JointType::Distance) << "a" << "angle";
}

void TestJoints::derivatives() {
  QFETCH(int, type);
  QFETCH(QString, body1);
  QFETCH(QString, motion);
  Spec spec = twoBodies();
  spec.joints.push_back(joint("j", static_cast<JointType>(type), body1.toStdString(), "b"));
  makeTouch(spec, spec.joints.back());
  if (!motion.isEmpty()) {
    MotionSpec m;
    m.name = "drive";
    m.function = "0.3*sin(2*t) + step(t, 0.1, 0, 0.9, 0.5) + 0.2*t^2";
    if (motion == "joint") {
      m.joint = "j";
    } else {
      m.body = "b";
      m.coordinate = motion.toStdString();
      m.point = Vector{0.2, -0.4};
    }
    spec.motions.push_back(m);
  }
  const CompileResult compiled = compile(spec);
  QVERIFY2(compiled.model, compiled.diagnostics.empty() ? "" : compiled.diagnostics[0].text().c_str());
  const Model& model = *compiled.model;
  Workspace ws(model);

  std::mt19937 rng(42 + static_cast<unsigned>(type));
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  for (int trial = 0; trial < 20; ++trial) {
    State state;
    state.t = 0.5 * (uniform(rng) + 1.5) / 1.5;
    state.q = Eigen::VectorXd::NullaryExpr(model.nq, [&] { return uniform(rng); });
    state.v = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return uniform(rng); });
    const Eigen::VectorXd a = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return uniform(rng); });

    const test::ConstraintDerivativeErrors errors =
        test::constraintDerivativeErrors(model, state, a, ws);
    QVERIFY2(errors.Phi_q < 1e-6, QByteArray::number(errors.Phi_q));
    QVERIFY2(errors.nu < 1e-6, QByteArray::number(errors.nu));
    QVERIFY2(errors.gamma < 1e-6, QByteArray::number(errors.gamma));
  }
}

QTEST_GUILESS_MAIN(TestJoints)
#include "tst_joints.moc"
