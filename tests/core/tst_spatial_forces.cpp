// Spatial mass matrix, applied forces and energies: the conservative forces are minus the
// gradient of the potential (gravity, spring_damper, torsion_spring on a revolute and a
// translational joint), the gyroscopic term is the orientation gradient of the kinetic energy
// (dT/dtheta = -omega x J_W omega), body-frame forces and torques, and the compile diagnostics
// of spatial bodies and joints.
#include "joints/rotation.h"
#include "model/compile.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace rlx;

namespace {

BodySpec body(const std::string& name, Vector position, Vector orientation) {
  BodySpec b;
  b.name = name;
  b.mass = 1.5;
  b.inertia = {0.1, 0.2, 0.3, 0.01, -0.02, 0.015};
  b.position = std::move(position);
  b.orientation = std::move(orientation);
  return b;
}

// Two bodies with a spring between offset points and torsion springs on a revolute and a
// translational joint (damping only where said).
Spec springs(double damping) {
  Spec spec;
  spec.dimension = 3;
  spec.gravity = Vector{0.3, -1.0, -9.81};
  spec.bodies = {body("a", {0.3, 0.2, -0.1}, {0.4, 0.3, -0.2}),
                 body("b", {1.1, -0.3, 0.4}, {-0.7, 1.1, 0.5})};
  JointSpec hinge;
  hinge.name = "hinge";
  hinge.type = JointType::Revolute;
  hinge.body1 = "ground";
  hinge.body2 = "a";
  hinge.at = Vector{0.1, 0.0, 0.0};
  hinge.axis = Vector{0.0, 0.6, 0.8};
  JointSpec slide = hinge;
  slide.name = "slide";
  slide.type = JointType::Translational;
  slide.body1 = "a";
  slide.body2 = "b";
  slide.axis = Vector{1.0, 0.0, 0.0};
  spec.joints = {hinge, slide};
  ForceSpec spring;
  spring.name = "spring";
  spring.type = ForceType::SpringDamper;
  spring.body1 = "a";
  spring.body2 = "b";
  spring.point1 = Vector{0.2, 0.1, -0.05};
  spring.point2 = Vector{-0.1, 0.3, 0.2};
  spring.stiffness = 40.0;
  spring.damping = damping;
  spring.freeLength = 0.5;
  spring.preload = 2.0;
  ForceSpec twist;
  twist.name = "twist";
  twist.type = ForceType::TorsionSpring;
  twist.joint = "hinge";
  twist.stiffness = 3.0;
  twist.freeAngle = 0.2;
  twist.preload = 0.5;
  ForceSpec push = twist;
  push.name = "push";
  push.joint = "slide";
  push.stiffness = 7.0;
  spec.forces = {spring, twist, push};
  return spec;
}

State randomState(const Model& model, std::mt19937& rng, bool moving) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  State state;
  state.q = Eigen::VectorXd::Zero(model.nq);
  for (const Body& b : model.bodies) {
    state.q.segment<3>(b.q) = Eigen::Vector3d::NullaryExpr([&] { return uniform(rng); });
    const Eigen::Vector3d angles = 3.0 * Eigen::Vector3d::NullaryExpr([&] { return uniform(rng); });
    rotation::toCoordinates(rotation::fromMatrix(rotation::fromEuler313(angles)),
                            state.q.segment<4>(b.q + 3));
  }
  state.v =
      moving ? Eigen::VectorXd(Eigen::VectorXd::NullaryExpr(model.nv, [&] { return uniform(rng); }))
             : Eigen::VectorXd(Eigen::VectorXd::Zero(model.nv));
  return state;
}

std::string firstError(const Spec& spec) {
  const CompileResult r = compile(spec);
  return r.diagnostics.empty() ? std::string() : r.diagnostics.front().text();
}

}  // namespace

class TestSpatialForces : public QObject {
  Q_OBJECT

 private slots:
  void conservativeForcesAreMinusGradient();
  void gyroscopicTermIsKineticEnergyGradient();
  void massMatrixGivesKineticEnergy();
  void bodyFrameForceAndTorque();
  void compileDiagnostics_data();
  void compileDiagnostics();
};

void TestSpatialForces::conservativeForcesAreMinusGradient() {
  const Model model = test::compileOrFail(springs(0.0));
  Workspace ws(model);
  std::mt19937 rng(5);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const State state = randomState(model, rng, false);
    evaluateAppliedForces(model, state, ws);
    const auto potential = [&](const Eigen::VectorXd& dv) {
      State moved = state;
      integratePositions(model, moved.q, dv, 1.0);
      return Eigen::VectorXd::Constant(1, potentialEnergy(model, moved));
    };
    const Eigen::MatrixXd gradient =
        test::numericJacobian(potential, Eigen::VectorXd::Zero(model.nv));
    worst = std::max(worst, test::relativeError(ws.Q.transpose(), -gradient));
  }
  qInfo("Q against -dV/dv (gravity, spring, torsion springs) over 20 states: %.3g", worst);
  QVERIFY(worst < 1e-7);
}

void TestSpatialForces::gyroscopicTermIsKineticEnergyGradient() {
  // No gravity, no forces: Q is the gyroscopic term alone, dT/dtheta at fixed v.
  Spec spec = springs(0.0);
  spec.forces.clear();
  spec.gravity = Vector{0.0, 0.0, 0.0};
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  std::mt19937 rng(9);
  double worst = 0.0;
  for (int trial = 0; trial < 20; ++trial) {
    const State state = randomState(model, rng, true);
    evaluateAppliedForces(model, state, ws);
    const auto kinetic = [&](const Eigen::VectorXd& dv) {
      State moved = state;
      integratePositions(model, moved.q, dv, 1.0);
      return Eigen::VectorXd::Constant(1, kineticEnergy(model, moved));
    };
    const Eigen::MatrixXd gradient =
        test::numericJacobian(kinetic, Eigen::VectorXd::Zero(model.nv));
    worst = std::max(worst, test::relativeError(ws.Q.transpose(), gradient));
    QVERIFY(std::abs(ws.Q.dot(state.v)) < 1e-14);  // it does no work
  }
  qInfo("gyroscopic term against dT/dtheta over 20 states: %.3g", worst);
  QVERIFY(worst < 1e-7);
}

void TestSpatialForces::massMatrixGivesKineticEnergy() {
  const Model model = test::compileOrFail(springs(0.0));
  Workspace ws(model);
  std::mt19937 rng(13);
  const State state = randomState(model, rng, true);
  evaluateMassMatrix(model, state, ws);
  const double fromM = 0.5 * state.v.dot(ws.M * state.v);
  QVERIFY(std::abs(fromM - kineticEnergy(model, state)) < 1e-14);
  // The rotation block is A J A^T with J from [Ixx, Iyy, Izz, Ixy, Ixz, Iyz].
  Eigen::Matrix3d J;
  J << 0.1, 0.01, -0.02, 0.01, 0.2, 0.015, -0.02, 0.015, 0.3;
  const Eigen::Matrix3d A = rotation::fromCoordinates(state.q.segment<4>(3)).toRotationMatrix();
  const Eigen::Matrix3d rotationBlock = Eigen::MatrixXd(ws.M).block<3, 3>(3, 3);
  QVERIFY((rotationBlock - A * J * A.transpose()).norm() < 1e-15);
  QCOMPARE(ws.M.coeff(0, 0), 1.5);
}

void TestSpatialForces::bodyFrameForceAndTorque() {
  Spec spec = springs(0.0);
  spec.forces.clear();
  spec.gravity = Vector{0.0, 0.0, 0.0};
  ForceSpec force;
  force.name = "thrust";
  force.type = ForceType::Force;
  force.body = "b";
  force.point = Vector{0.1, -0.2, 0.3};
  force.vector = {"1", "2*t", "-3"};
  force.frame = "body";
  ForceSpec torque;
  torque.name = "turn";
  torque.type = ForceType::Torque;
  torque.body = "b";
  torque.vector = {"0.5", "0", "b.z"};
  torque.frame = "body";
  spec.forces = {force, torque};
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  std::mt19937 rng(17);
  State state = randomState(model, rng, false);
  state.t = 0.75;
  evaluateAppliedForces(model, state, ws);
  const Body& b = test::body(model, "b");
  const Eigen::Matrix3d A =
      rotation::fromCoordinates(state.q.segment<4>(b.q + 3)).toRotationMatrix();
  const Eigen::Vector3d f = A * Eigen::Vector3d(1, 1.5, -3);
  const Eigen::Vector3d n = A * Eigen::Vector3d(0.5, 0, state.q(b.q + 2));
  const Eigen::Vector3d p = A * Eigen::Vector3d(0.1, -0.2, 0.3);
  QVERIFY((ws.Q.segment<3>(b.v) - f).norm() < 1e-14);
  QVERIFY((ws.Q.segment<3>(b.v + 3) - (p.cross(f) + n)).norm() < 1e-14);
  QVERIFY((ws.Qn - ws.Q).norm() < 1e-14);  // applied loads are nonconservative
}

void TestSpatialForces::compileDiagnostics_data() {
  QTest::addColumn<int>("change");
  QTest::addColumn<QString>("message");
  QTest::newRow("inertia count")
      << 0 << R"(bodies[0] "a": inertia must have 3 or 6 numbers in 3-D, got 2)";
  QTest::newRow("negative moment")
      << 1
      << R"(bodies[0] "a": inertia is not a valid inertia tensor (a principal moment is negative: -0.100000))";
  QTest::newRow("zero quaternion") << 2 << R"(bodies[0] "a": quaternion must not be zero)";
  QTest::newRow("angle hold")
      << 3
      << R"(bodies[0] "a": hold "angle" cannot be held in 3-D (x y z orientation vx vy vz angular_velocity))";
  QTest::newRow("missing axis")
      << 4
      << R"(joints[0] "hinge": axis is missing (give axis, global, or axis1 in body1 coordinates))";
  QTest::newRow("universal axes")
      << 5 << R"(joints[0] "hinge": axis1 is missing (the cross axis on body1, body1 coordinates))";
  QTest::newRow("angle motion")
      << 6 << R"(motions[0] "m": coordinate must be x, y or z in 3-D, got "angle")";
  QTest::newRow("rolling disk")
      << 7 << R"(joints[0] "hinge": axis2 is missing (the disk's axis, body2 coordinates))";
  QTest::newRow("rolling disk on a body, negative radius")
      << 8 << R"(joints[1] "slide": radius must be positive, got -0.300000)";
}

void TestSpatialForces::compileDiagnostics() {
  QFETCH(int, change);
  QFETCH(QString, message);
  Spec spec = springs(0.0);
  spec.forces.clear();
  switch (change) {
    case 0:
      spec.bodies[0].inertia = {0.1, 0.2};
      break;
    case 1:
      spec.bodies[0].inertia = {-0.1, 0.2, 0.3};
      break;
    case 2:
      spec.bodies[0].orientation.reset();
      spec.bodies[0].quaternion = std::vector<Number>{0.0, 0.0, 0.0, 0.0};
      break;
    case 3:
      spec.bodies[0].hold = {"angle"};
      break;
    case 4:
      spec.joints[0].axis.reset();
      break;
    case 5:
      spec.joints[0].type = JointType::Universal;
      break;
    case 6: {
      MotionSpec m;
      m.name = "m";
      m.body = "a";
      m.coordinate = "angle";
      spec.motions.push_back(m);
      break;
    }
    case 7:
      spec.joints[0].type = JointType::RollingDisk;
      break;
    case 8:
      spec.joints[1].type = JointType::RollingDisk;
      spec.joints[1].axis2 = Vector{0.0, 0.0, 1.0};
      spec.joints[1].radius = -0.3;
      break;
    default:
      break;
  }
  QCOMPARE(QString::fromStdString(firstError(spec)), message);
}

QTEST_GUILESS_MAIN(TestSpatialForces)
#include "tst_spatial_forces.moc"
