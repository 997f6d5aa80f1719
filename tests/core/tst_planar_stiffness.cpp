// The closed-form stiffness and damping of planar models (solve/planar_stiffness.h) against
// central differences of Phi_q^T lambda and Q, on a model with every planar joint family, body
// and joint motions, and every force element (off its constraints, moving).
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/equations/stop_law.h"
#include "solve/planar_stiffness.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>

using namespace rlx;

namespace {

// The blocks written into a dense nv x nv matrix.
class DenseSink : public StiffnessSink {
 public:
  DenseSink(const Model& model) : model_(model), K(Eigen::MatrixXd::Zero(model.nv, model.nv)) {}
  void add(int rowBody, int colBody, const Eigen::Matrix3d& block) override {
    K.block<3, 3>(model_.bodies[static_cast<std::size_t>(rowBody)].v,
                  model_.bodies[static_cast<std::size_t>(colBody)].v) += block;
  }
  const Model& model_;
  Eigen::MatrixXd K;
};

// The (row body, column body) of every block added.
class BlockRecorder : public StiffnessSink {
 public:
  void add(int rowBody, int colBody, const Eigen::Matrix3d&) override {
    blocks.emplace_back(rowBody, colBody);
  }
  std::vector<std::pair<int, int>> blocks;
};

// rich_planar.rlx without what has no closed form (user constraints, a spring's `function`
// law, a joint force of a joint's rate), with a joint force of time and a damped linear spring on
// the translational joint.
Model richPlanarClosedForm() {
  Spec spec = test::loadSpec(test::testDataPath("rich_planar.rlx"));
  spec.constraints.clear();
  std::erase_if(spec.forces, [](const ForceSpec& f) { return f.name == "strut" || f.name == "brake"; });
  ForceSpec rate = ForceSpec{};
  rate.name = "feed";
  rate.type = ForceType::JointForce;
  rate.joint = "rail";
  rate.value = "3*sin(2*t) + 1";
  spec.forces.push_back(rate);
  ForceSpec along;
  along.name = "along";
  along.type = ForceType::TorsionSpring;
  along.joint = "rail";
  along.stiffness = Number{40.0};
  along.damping = Number{3.0};
  along.freeAngle = Number{0.1};
  spec.forces.push_back(along);
  return test::compileOrFail(spec);
}

// A state off the constraints, every body moving.
State scrambled(const Model& model) {
  State state{0.7, model.q0, model.v0};
  for (Eigen::Index i = 0; i < state.q.size(); ++i) {
    state.q(i) += 0.05 * std::sin(3.0 * static_cast<double>(i) + 1.0);
    state.v(i) = std::cos(1.7 * static_cast<double>(i));
  }
  return state;
}

// The closed-form constraint stiffness scale * sum_k lambda_k d2(Phi_k)/dq2 at a scrambled state
// against the differences of scale * Phi_q^T lambda: its norm and the relative error.
std::pair<double, double> constraintStiffnessError(const Model& model, double scale) {
  const State state = scrambled(model);
  Eigen::VectorXd lambda(model.nh + model.nn);
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    lambda(i) = 1.0 + 0.5 * std::sin(2.3 * static_cast<double>(i));
  DenseSink sink(model);
  addConstraintStiffness(model, state, lambda, scale, sink);
  const auto generalized = [&](const Eigen::VectorXd& q) {
    Workspace ws(model);
    evaluateConstraintDerivatives(model, State{state.t, q, state.v}, ws);
    return Eigen::VectorXd(scale * (ws.Phi_q.transpose() * lambda));
  };
  const double error = test::relativeError(sink.K, test::numericJacobian(generalized, state.q));
  qInfo("constraint stiffness: |K| %.3f, relative error %.1e", sink.K.norm(), error);
  return {sink.K.norm(), error};
}

// The closed-form force stiffness K and damping C at a state against the differences of -Q:
// the norms of the differences' K and C and the two relative errors.
struct ForceDerivativeCheck {
  double normK, normC, errorK, errorC;
};
ForceDerivativeCheck forceDerivativeCheck(const Model& model, const State& state, const char* what) {
  DenseSink stiffness(model), damping(model);
  addForceStiffness(model, state, 1.0, 0.0, stiffness);
  addForceStiffness(model, state, 0.0, 1.0, damping);
  const auto forceAt = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    Workspace ws(model);
    evaluateAppliedForces(model, State{state.t, q, v}, ws);
    return Eigen::VectorXd(-ws.Q);
  };
  const Eigen::MatrixXd K = test::numericJacobian([&](const Eigen::VectorXd& q) { return forceAt(q, state.v); }, state.q);
  const Eigen::MatrixXd C = test::numericJacobian([&](const Eigen::VectorXd& v) { return forceAt(state.q, v); }, state.v);
  const ForceDerivativeCheck check{K.norm(), C.norm(), test::relativeError(stiffness.K, K),
                                   test::relativeError(damping.K, C)};
  qInfo("%s: |K| %.1f, relative error %.1e; |C| %.2f, relative error %.1e", what, check.normK,
        check.errorK, check.normC, check.errorC);
  return check;
}

}  // namespace

class TestPlanarStiffness : public QObject {
  Q_OBJECT

 private slots:
  void availability() {
    const Model rich = test::compileOrFail(test::loadSpec(test::testDataPath("rich_planar.rlx")));
    QVERIFY(!closedFormConstraintStiffness(rich));  // user constraints
    QVERIFY(!closedFormForceStiffness(rich));       // a spring law, a joint force of rail.qd
    const Model model = richPlanarClosedForm();
    QVERIFY(closedFormConstraintStiffness(model));
    QVERIFY(closedFormForceStiffness(model));
    const Model spatial = test::compileOrFail(test::loadSpec(test::testDataPath("simple_pendulum_3d.rlx")));
    QVERIFY(!closedFormConstraintStiffness(spatial));
    QVERIFY(!closedFormForceStiffness(spatial));
  }

  void constraintStiffnessMatchesDifferences() {
    const Model model = richPlanarClosedForm();
    QCOMPARE(model.motions.size(), std::size_t(4));
    const auto [norm, error] = constraintStiffnessError(model, 2.0);
    QVERIFY(norm > 1.0);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
  }

  void gearingStiffnessMatchesDifferences_data() {
    QTest::addColumn<QString>("file");
    for (const char* file : {"gear_train.rlx", "planetary_gears.rlx", "rack_pinion_steering.rlx",
                             "disk_cam_roller.rlx", "flat_face_cam.rlx"})
      QTest::newRow(file) << file;
  }

  void gearingStiffnessMatchesDifferences() {
    // The gear rows' Hessian (-(R1 + sigma R2) beta_qq), the rack's (the projection's) and the
    // cams' (the contact's, through the curve parameters' implicit function).
    QFETCH(QString, file);
    const Model model = test::compileOrFail(test::loadSpec(test::examplePath(file.toStdString())));
    QVERIFY(closedFormConstraintStiffness(model));
    const auto [norm, error] = constraintStiffnessError(model, 1.0);
    QVERIFY(norm > 0.1);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
  }

  void forceStiffnessAndDampingMatchDifferences() {
    const Model model = richPlanarClosedForm();
    const ForceDerivativeCheck check = forceDerivativeCheck(model, scrambled(model), "forces");
    QVERIFY(check.normK > 100.0);
    QVERIFY(check.normC > 1.0);
    QVERIFY2(check.errorK < 1e-6, qPrintable(QString::number(check.errorK)));
    QVERIFY2(check.errorC < 1e-6, qPrintable(QString::number(check.errorC)));
  }

  void endStopStiffnessAndDampingMatchDifferences() {
    // Two end stops engaged at the scrambled state, inside the damping's cubic ramp: the elbow
    // past an upper bound, the rail below a lower one. K and C of the stops alone.
    Spec spec = test::loadSpec(test::testDataPath("rich_planar.rlx"));
    spec.constraints.clear();
    spec.forces.clear();
    const Model free = test::compileOrFail(spec);
    const State state = scrambled(free);
    const auto stop = [&](const char* joint, bool upper) {
      int index = 0;
      while (free.joints[static_cast<std::size_t>(index)].name != joint) ++index;
      const double q = jointCoordinateAt(free, state, index).value;
      ForceSpec f;
      f.name = std::string(joint) + "_stop";
      f.type = ForceType::Limit;
      f.joint = joint;
      (upper ? f.upper : f.lower) = Number{upper ? q - 0.02 : q + 0.03};
      f.stiffness = Number{800.0};
      f.exponent = Number{1.7};
      f.damping = Number{15.0};
      f.penetration = Number{0.05};
      spec.forces.push_back(f);
    };
    stop("elbow", true);
    stop("rail", false);
    const Model model = test::compileOrFail(spec);
    QVERIFY(closedFormForceStiffness(model));
    for (const Force& f : model.forces) {
      const CoordinateState c = jointCoordinateAt(model, state, f.joint);
      const StopContact contact = stopContact(f, c.value, c.rate);
      QVERIFY(contact.penetration > 0.019 && contact.penetration < 0.031);
      QVERIFY(contact.effort != 0);  // pushing: the clamp at zero is not what is measured
    }
    const ForceDerivativeCheck check = forceDerivativeCheck(model, state, "end stops");
    QVERIFY(check.normK > 10.0);
    QVERIFY(check.normC > 1.0);
    QVERIFY2(check.errorK < 1e-6, qPrintable(QString::number(check.errorK)));
    QVERIFY2(check.errorC < 1e-6, qPrintable(QString::number(check.errorC)));
  }

  void blocksDependOnTheModelOnly() {
    // The same blocks at two states, one with a spring of zero length (its direction undefined),
    // zero multipliers or not: a recording sink finds the pattern (the sparse hht J's).
    Spec spec = test::loadSpec(test::testDataPath("rich_planar.rlx"));
    spec.constraints.clear();
    std::erase_if(spec.forces,
                  [](const ForceSpec& f) { return f.name == "strut" || f.name == "brake"; });
    const Model first = test::compileOrFail(spec);
    const Body& anchor = first.bodies.back();
    ForceSpec collapsed;
    collapsed.name = "collapsed";
    collapsed.type = ForceType::SpringDamper;
    collapsed.body1 = "ground";
    collapsed.body2 = anchor.name;
    collapsed.at1 = Vector{first.q0(anchor.q), first.q0(anchor.q + 1)};
    collapsed.point2 = Vector{0.0, 0.0};
    collapsed.stiffness = 10.0;
    collapsed.damping = 1.0;
    spec.forces.push_back(collapsed);
    const Model model = test::compileOrFail(spec);
    QVERIFY(closedFormForceStiffness(model));
    const auto blocksAt = [&](const State& state, double multiplier) {
      BlockRecorder recorder;
      addConstraintStiffness(model, state, Eigen::VectorXd::Constant(model.nh + model.nn, multiplier), 1.0,
                             recorder);
      addForceStiffness(model, state, 1.0, 1.0, recorder);
      std::sort(recorder.blocks.begin(), recorder.blocks.end());
      return recorder.blocks;
    };
    const std::vector<std::pair<int, int>> atRest = blocksAt(State{0.0, model.q0, model.v0}, 0.0);
    const std::vector<std::pair<int, int>> moving = blocksAt(scrambled(model), 1.0);
    QCOMPARE(atRest, moving);
    const int body = static_cast<int>(model.bodies.size()) - 1;
    QVERIFY(std::find(atRest.begin(), atRest.end(), std::pair{body, body}) != atRest.end());
    QVERIFY(atRest.size() > model.bodies.size());
  }
};

QTEST_GUILESS_MAIN(TestPlanarStiffness)
#include "tst_planar_stiffness.moc"
