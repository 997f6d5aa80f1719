// Every spatial joint type and motion kind: Phi_q, nu and gamma against finite differences at
// random configurations (and near-singular ones: 3-1-3 theta close to 0), velocities and times.
// Positions move along velocity directions with integratePositions (the tangent space of the
// rotation group), so Phi_q is checked with respect to v, as the solvers use it.
#include "constraint_check.h"
#include "joints/joints.h"
#include "joints/rotation.h"
#include "model/compile.h"
#include "solve/assembly/drag.h"
#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace rlx;

namespace {

Spec twoBodies() {
  Spec spec;
  spec.dimension = 3;
  BodySpec a, b;
  a.name = "a";
  a.position = {0.3, 0.2, -0.1};
  a.orientation = Vector{0.4, 0.3, -0.2};
  a.inertia = {0.1, 0.2, 0.3};
  b.name = "b";
  b.position = {1.1, -0.3, 0.4};
  b.orientation = Vector{-0.7, 1.1, 0.5};
  b.inertia = {0.2, 0.1, 0.25};
  spec.bodies = {a, b};
  return spec;
}

JointSpec joint(JointType type, const std::string& body1) {
  JointSpec j;
  j.name = "j";
  j.type = type;
  j.body1 = body1;
  j.body2 = "b";
  j.point1 = Vector{0.25, -0.1, 0.3};
  j.point2 = Vector{-0.3, 0.15, 0.05};
  j.axis1 = Vector{0.6, 0.0, 0.8};
  if (type == JointType::Universal || type == JointType::Perpendicular ||
      type == JointType::Revolute || type == JointType::ConstantVelocity)
    j.axis2 = Vector{0.0, 1.0, 0.0};
  if (type == JointType::Spherical || type == JointType::Distance || type == JointType::Orientation)
    j.axis1.reset();
  if (type == JointType::Orientation) j.point1.reset(), j.point2.reset();
  // The helix row is taken modulo the pitch: a long one keeps the second differences of random
  // states away from its jump at half a pitch.
  if (type == JointType::Screw) j.numbers["pitch"] = 7.0;
  return j;
}

// The distance of body2's point from body1's line (point1 along axis1) in the file's
// configuration: the pitch radius that lets a rack and pinion be built there.
double distanceFromLine(Spec spec, JointSpec line) {
  line.type = JointType::Cylindrical;
  spec.joints = {line};
  const Model model = test::compileOrFail(spec);
  const Joint& c = model.joints[0];
  const Eigen::Vector3d p1 = bodyPointPosition(model, model.q0, c.body1, c.s1);
  const Eigen::Vector3d u = bodyPointPosition(model, model.q0, c.body1, c.s1 + c.a1) - p1;
  const Eigen::Vector3d d = bodyPointPosition(model, model.q0, c.body2, c.s2) - p1;
  return (d - u.dot(d) * u).norm();
}

// A random unit quaternion, or one whose 3-1-3 theta is tiny (near the Euler singularity).
Eigen::Quaterniond randomOrientation(std::mt19937& rng, bool nearSingular) {
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  const double theta = nearSingular ? 1e-7 * angle(rng) : angle(rng);
  return rotation::fromMatrix(rotation::fromEuler313({angle(rng), theta, angle(rng)}));
}

}  // namespace

class TestSpatialJoints : public QObject {
  Q_OBJECT

 private slots:
  void derivatives_data();
  void derivatives();
  void rollingDiskEquations_data();
  void rollingDiskEquations();
};

void TestSpatialJoints::derivatives_data() {
  QTest::addColumn<int>("type");
  QTest::addColumn<QString>("body1");
  QTest::addColumn<QString>("motion");  // "", "joint", "x", "y", "z"
  const JointType types[] = {
      JointType::Revolute,     JointType::Translational, JointType::Fixed,
      JointType::Distance,     JointType::PointOnLine,   JointType::Spherical,
      JointType::Cylindrical,  JointType::Universal,     JointType::Planar,
      JointType::PointOnPlane, JointType::ParallelAxes,  JointType::Perpendicular,
      JointType::Screw,        JointType::RackPinion,    JointType::Gear,
      JointType::InternalGear, JointType::Orientation,   JointType::ConstantVelocity};
  for (const JointType type : types)
    for (const char* body1 : {"a", "ground"}) {
      const std::string name = std::string(jointTypeName(type)) + " " + body1;
      QTest::newRow(name.c_str()) << static_cast<int>(type) << body1 << "";
    }
  for (const JointType type : {JointType::Revolute, JointType::Cylindrical,
                               JointType::Translational, JointType::PointOnLine,
                               JointType::Screw}) {
    const std::string name = std::string(jointTypeName(type)) + " motion";
    QTest::newRow(name.c_str()) << static_cast<int>(type) << "a"
                                << "joint";
  }
  for (const char* axis : {"x", "y", "z"}) {
    const std::string name = std::string("body ") + axis + " motion";
    QTest::newRow(name.c_str()) << static_cast<int>(JointType::Spherical) << "a" << axis;
  }
}

void TestSpatialJoints::derivatives() {
  QFETCH(int, type);
  QFETCH(QString, body1);
  QFETCH(QString, motion);
  Spec spec = twoBodies();
  spec.joints.push_back(joint(static_cast<JointType>(type), body1.toStdString()));
  // Gearing built where it meshes: the pinion's centre on the rack's pitch circle, the gears'
  // pitch circles touching across the axis (radii in the ratio 1 : 3).
  JointSpec& added = spec.joints.back();
  if (added.type == JointType::RackPinion)
    added.numbers["pitch_radius"] = distanceFromLine(spec, added);
  if (added.type == JointType::Gear || added.type == JointType::InternalGear) {
    const double apart = distanceFromLine(spec, added);
    const bool internal = added.type == JointType::InternalGear;
    added.numbers["radius1"] = internal ? apart / 2 : apart / 4;
    added.numbers["radius2"] = internal ? 3 * apart / 2 : 3 * apart / 4;
  }
  if (!motion.isEmpty()) {
    MotionSpec m;
    m.name = "drive";
    m.function = "0.3*sin(2*t) + step(t, 0.1, 0, 0.9, 0.5) + 0.2*t^2";
    if (motion == "joint") {
      m.joint = "j";
    } else {
      m.body = "b";
      m.coordinate = motion.toStdString();
      m.point = Vector{0.2, -0.4, 0.3};
    }
    spec.motions.push_back(m);
  }
  const CompileResult compiled = compile(spec);
  QVERIFY2(compiled.model,
           compiled.diagnostics.empty() ? "" : compiled.diagnostics[0].text().c_str());
  const Model& model = *compiled.model;
  QCOMPARE(model.nq, 14);
  QCOMPARE(model.nv, 12);
  Workspace ws(model);

  std::mt19937 rng(42 + static_cast<unsigned>(type));
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  double worst = 0.0;
  for (int trial = 0; trial < 40; ++trial) {
    State state;
    state.t = 0.5 * (uniform(rng) + 1.5) / 1.5;
    state.q = Eigen::VectorXd::Zero(model.nq);
    for (const Body& b : model.bodies) {
      state.q.segment<3>(b.q) = Eigen::Vector3d::NullaryExpr([&] { return uniform(rng); });
      rotation::toCoordinates(randomOrientation(rng, trial % 2 == 1), state.q.segment<4>(b.q + 3));
    }
    state.v = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return uniform(rng); });
    const Eigen::VectorXd a = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return uniform(rng); });

    const test::ConstraintDerivativeErrors errors =
        test::constraintDerivativeErrors(model, state, a, ws);
    evaluateConstraintDerivatives(model, state, ws);
    const Eigen::MatrixXd Phi_q = ws.Phi_q;
    // The convective form B(v, w) = d/ds [Phi_q(q (+) s w) v] = S(v, w) + 1/2 Phi_q [v, w]:
    // S symmetric (by polarization of gamma), [v, w] = omega_v x omega_w per body.
    const Eigen::VectorXd w = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return uniform(rng); });
    const auto gammaWith = [&](const Eigen::VectorXd& velocity) {
      State moved = state;
      moved.v = velocity;
      evaluateConstraintDerivatives(model, moved, ws);
      return Eigen::VectorXd(ws.gamma);
    };
    const auto rateAlong = [&](double s) {
      State moved = state;
      integratePositions(model, moved.q, w, s);
      evaluateConstraintDerivatives(model, moved, ws);
      return Eigen::VectorXd(ws.Phi_q * state.v);
    };
    Eigen::VectorXd bracket = Eigen::VectorXd::Zero(model.nv);
    for (const Body& b : model.bodies)
      bracket.segment<3>(b.v + 3) = state.v.segment<3>(b.v + 3).cross(w.segment<3>(b.v + 3));
    const Eigen::VectorXd B =
        -(gammaWith(state.v + w) - gammaWith(state.v - w)) / 4 + 0.5 * Phi_q * bracket;
    const Eigen::VectorXd numericB = (rateAlong(1e-6) - rateAlong(-1e-6)) / 2e-6;
    const double errorB = test::relativeError(B, numericB);
    QVERIFY2(errorB < 1e-6, qPrintable(QString("B(v, w), trial %1: %2").arg(trial).arg(errorB)));
    worst = std::max({worst, errors.Phi_q, errors.nu, errors.gamma, errorB});
    QVERIFY2(errors.Phi_q < 1e-6,
             qPrintable(QString("Phi_q, trial %1: %2").arg(trial).arg(errors.Phi_q)));
    QVERIFY2(errors.nu < 1e-6, qPrintable(QString("nu, trial %1: %2").arg(trial).arg(errors.nu)));
    QVERIFY2(errors.gamma < 1e-6,
             qPrintable(QString("gamma, trial %1: %2").arg(trial).arg(errors.gamma)));
  }
  qInfo("largest relative error of Phi_q, nu, gamma over 40 states: %.3g", worst);
}

void TestSpatialJoints::rollingDiskEquations_data() {
  QTest::addColumn<bool>("movingPlane");
  QTest::newRow("on ground") << false;
  QTest::newRow("on a moving body") << true;
}

void TestSpatialJoints::rollingDiskEquations() {
  // The rolling disk's rows: row 0, the contact height, a holonomic equation; rows 1 and 2, the
  // no-slip conditions A(q) v = 0, with d/ds [A(q(s)) v(s)] = A a - gamma along
  // q(s) = q (+) (v s + a s^2 / 2), v(s) = v + a s; and their convective term along any direction
  // w, b(w) = -d/ds [A(q (+) w s) v] (v held).
  QFETCH(bool, movingPlane);
  const int n = movingPlane ? 2 : 1;
  Model model;
  model.dimension = 3;
  model.nq = 7 * n;
  model.nv = 6 * n;
  for (int i = 0; i < n; ++i) {
    Body body;
    body.q = 7 * i;
    body.v = 6 * i;
    model.bodies.push_back(body);
  }
  Joint disk;
  disk.type = JointType::RollingDisk;
  disk.body1 = movingPlane ? 0 : kGround;
  disk.body2 = n - 1;
  disk.rows = 3;
  disk.radius = 0.3;
  disk.s1 = Eigen::Vector3d(0.1, -0.2, 0.05);
  disk.frame1 = spatial::frameAround(Eigen::Vector3d(0.1, 0.2, 1.0));
  disk.a2 = Eigen::Vector3d(0.0, 0.6, 0.8);
  const auto evaluate = [&](const State& state) {
    JointEval eval;
    evaluateSpatialJoint(disk, spatialBody(model, state, disk.body1),
                         spatialBody(model, state, disk.body2), eval);
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3, model.nv);
    J.rightCols(6) = eval.J2.topRows(3);
    if (movingPlane) J.leftCols(6) = eval.J1.topRows(3);
    return std::pair{eval, J};
  };
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  const auto random = [&](int size) {
    return Eigen::VectorXd(Eigen::VectorXd::NullaryExpr(size, [&] { return uniform(rng); }));
  };
  double worst = 0.0;
  for (int trial = 0; trial < 40; ++trial) {
    State state;
    state.q = Eigen::VectorXd::Zero(model.nq);
    for (const Body& b : model.bodies) {
      state.q.segment<3>(b.q) = random(3);
      rotation::toCoordinates(randomOrientation(rng, trial % 2 == 1), state.q.segment<4>(b.q + 3));
    }
    state.v = random(model.nv);
    const Eigen::VectorXd a = random(model.nv), w = random(model.nv);
    const auto [eval, J] = evaluate(state);
    // Row 0: gradient and gamma of Phi.
    const auto height = [&](const Eigen::VectorXd& dv) {
      State moved = state;
      integratePositions(model, moved.q, dv, 1.0);
      return Eigen::VectorXd::Constant(1, evaluate(moved).first.Phi(0));
    };
    const auto heightAt = [&](double s) {
      return height(Eigen::VectorXd(state.v * s + 0.5 * a * s * s))(0);
    };
    const auto second = [&](double h) {
      return (heightAt(h) - 2 * heightAt(0) + heightAt(-h)) / (h * h);
    };
    const double heightDdot = (4 * second(1e-4) - second(2e-4)) / 3;
    // Rows 1, 2: the rate of A v along the path, and along w with v held (no acceleration).
    const auto slipAt = [&](const Eigen::VectorXd& direction, const Eigen::VectorXd& acceleration,
                            double s) {
      State moved = state;
      integratePositions(model, moved.q,
                         Eigen::VectorXd(direction * s + 0.5 * acceleration * s * s), 1.0);
      return Eigen::Vector2d(evaluate(moved).second.middleRows(1, 2) *
                             (state.v + acceleration * s));
    };
    const auto rate = [&](const Eigen::VectorXd& direction, const Eigen::VectorXd& acceleration) {
      const auto first = [&](double h) {
        return Eigen::Vector2d(
            (slipAt(direction, acceleration, h) - slipAt(direction, acceleration, -h)) / (2 * h));
      };
      return Eigen::Vector2d((4 * first(1e-4) - first(2e-4)) / 3);
    };
    const Eigen::Vector2d slipDot = rate(state.v, a);
    Eigen::Matrix<double, 6, 1> w1 = Eigen::Matrix<double, 6, 1>::Zero();
    if (movingPlane) w1 = w.head<6>();
    const Eigen::Vector2d convective =
        rollingDiskSlipConvective(disk, spatialBody(model, state, disk.body1),
                                  spatialBody(model, state, disk.body2), w1, w.tail<6>());
    const double errors[] = {
        test::relativeError(J.row(0),
                            test::numericJacobian(height, Eigen::VectorXd::Zero(model.nv))),
        std::abs(eval.gamma(0) - (J.row(0).dot(a) - heightDdot)) /
            std::max(1.0, std::abs(eval.gamma(0))),
        test::relativeError(eval.gamma.segment<2>(1), J.middleRows(1, 2) * a - slipDot),
        test::relativeError(convective, -rate(w, Eigen::VectorXd::Zero(model.nv)))};
    worst = std::max({worst, errors[0], errors[1], errors[2], errors[3]});
    QVERIFY2(errors[0] < 1e-6 && errors[1] < 1e-6 && errors[2] < 1e-6 && errors[3] < 1e-6,
             qPrintable(QString("trial %1: %2 %3 %4 %5")
                            .arg(trial)
                            .arg(errors[0])
                            .arg(errors[1])
                            .arg(errors[2])
                            .arg(errors[3])));
  }
  qInfo("rolling disk rows over 40 states: largest relative error %.3g", worst);
}

QTEST_GUILESS_MAIN(TestSpatialJoints)
#include "tst_spatial_joints.moc"
