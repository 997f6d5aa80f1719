// Drag assembly: the four-bar follows its grabbed crank tip around a full turn with every joint
// closed, puts the tip exactly on reachable targets and at the nearest place for unreachable ones,
// and keeps its assembly branch.
#include "solve/assembly/drag.h"
#include "solve/equations/constraints.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kCrank = 0.1;  // four_bar.rlx: l_crank

// max |Phi| over the joint rows (the released motion's row excluded).
double jointError(const Model& model, const State& state) {
  Workspace ws(model);
  evaluatePhi(model, state, ws);
  double worst = 0;
  for (Eigen::Index i = 0; i < model.nh; ++i)
    if (model.rowOwners[static_cast<std::size_t>(i)] != "crank_drive")
      worst = std::max(worst, std::abs(ws.Phi(i)));
  return worst;
}

int bodyIndex(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (model.bodies[i].name == name) return static_cast<int>(i);
  return kGround;
}

DragTarget crankTip(const Model& model, double x, double y) {
  return {bodyIndex(model, "crank"), Eigen::Vector3d(kCrank / 2, 0, 0), Eigen::Vector3d(x, y, 0)};
}

Eigen::Vector3d tipPosition(const Model& model, const State& state) {
  return bodyPointPosition(model, state.q, bodyIndex(model, "crank"),
                           Eigen::Vector3d(kCrank / 2, 0, 0));
}

}  // namespace

class TestDrag : public QObject {
  Q_OBJECT

 private slots:
  void crankTipFollowsAFullTurn();
  void unreachableTargetGoesToTheNearestPlace_data();
  void unreachableTargetGoesToTheNearestPlace();
  void keptMotionHoldsTheCrank();
  void freeBodyMovesRigidly();
  void pointConversionsAreInverse();
};

void TestDrag::crankTipFollowsAFullTurn() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("four_bar.rlx")));
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const int coupler = bodyIndex(model, "coupler"), rocker = bodyIndex(model, "rocker");
  // 45 degrees -> 405 degrees in 10-degree steps, as a mouse would move.
  for (int step = 1; step <= 36; ++step) {
    const double angle = (45.0 + 10.0 * step) * std::numbers::pi / 180;
    const DragTarget target = crankTip(model, kCrank * std::cos(angle), kCrank * std::sin(angle));
    const DragReport report = dragAssemble(model, state, ws, target);
    QVERIFY2(report.ok(), report.message.c_str());
    QVERIFY2(jointError(model, state) < 1e-9,
             qPrintable(QString::number(jointError(model, state))));
    QVERIFY((tipPosition(model, state) - target.target).norm() < 1e-9);
    QVERIFY(report.miss < 1e-9);
  }
  // Back at 45 degrees on the same branch: the example's coupler and rocker angles.
  QVERIFY(std::abs(std::remainder(
              state.q(model.bodies[static_cast<std::size_t>(coupler)].q + 2) - 0.691814366178,
              2 * std::numbers::pi)) < 1e-9);
  QVERIFY(std::abs(std::remainder(
              state.q(model.bodies[static_cast<std::size_t>(rocker)].q + 2) - 1.771330606919,
              2 * std::numbers::pi)) < 1e-9);
}

void TestDrag::unreachableTargetGoesToTheNearestPlace_data() {
  QTest::addColumn<double>("x");
  QTest::addColumn<double>("y");
  QTest::newRow("outside, near") << 0.12 << 0.09;
  QTest::newRow("outside, far") << 0.6 << 0.2;
  QTest::newRow("inside") << 0.02 << 0.03;
}

void TestDrag::unreachableTargetGoesToTheNearestPlace() {
  QFETCH(double, x);
  QFETCH(double, y);
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("four_bar.rlx")));
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const DragReport report = dragAssemble(model, state, ws, crankTip(model, x, y));
  QVERIFY2(report.ok(), report.message.c_str());
  QVERIFY(jointError(model, state) < 1e-9);
  // The tip can only be on the circle of radius l_crank about the ground pivot (the origin).
  const Eigen::Vector3d nearest = Eigen::Vector3d(x, y, 0).normalized() * kCrank;
  QVERIFY2((tipPosition(model, state) - nearest).norm() < 1e-9,
           qPrintable(QString::number((tipPosition(model, state) - nearest).norm())));
  QCOMPARE_LT(std::abs(report.miss - (Eigen::Vector3d(x, y, 0) - nearest).norm()), 1e-9);
}

void TestDrag::keptMotionHoldsTheCrank() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("four_bar.rlx")));
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  DragOptions options;
  options.releaseMotions = false;
  const DragReport report = dragAssemble(model, state, ws, crankTip(model, 0.0, 0.1), options);
  QVERIFY2(report.ok(), report.message.c_str());
  // Fully driven: nothing can move, the miss is the distance from the 45-degree tip.
  QVERIFY((state.q - model.q0).lpNorm<Eigen::Infinity>() < 1e-12);
  const double tip = kCrank * std::sqrt(0.5);
  QCOMPARE_LT(std::abs(report.miss - std::hypot(tip, 0.1 - tip)), 1e-12);
}

void TestDrag::freeBodyMovesRigidly() {
  // A free body (no joints): the grabbed point goes to the target; velocities are left alone.
  Spec spec;
  BodySpec body;
  body.name = "plate";
  body.inertia = {0.1};
  body.position = {1.0, 2.0};
  body.angle = 0.3;
  spec.bodies.push_back(body);
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const DragTarget target{0, Eigen::Vector3d(0.5, 0.2, 0), Eigen::Vector3d(-1, 4, 0)};
  const DragReport report = dragAssemble(model, state, ws, target);
  QVERIFY2(report.ok(), report.message.c_str());
  QVERIFY((bodyPointPosition(model, state.q, 0, target.point) - target.target).norm() < 1e-9);
  QVERIFY(state.v == model.v0);
}

void TestDrag::pointConversionsAreInverse() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("slider_crank.rlx")));
  const Eigen::Vector3d global(0.3, -0.2, 0);
  for (int b = 0; b < static_cast<int>(model.bodies.size()); ++b) {
    const Eigen::Vector3d local = bodyPointLocal(model, model.q0, b, global);
    QVERIFY((bodyPointPosition(model, model.q0, b, local) - global).norm() < 1e-14);
  }
}

QTEST_GUILESS_MAIN(TestDrag)
#include "tst_drag.moc"
