// The corrected equation of motion on the sparse path (normal equations on S = A M^-1 A^T,
// solve/linalg/mass_pseudoinverse.h) against the dense pseudoinverse: the same rates and
// multipliers at states off the constraints (planar and spatial chains, loops, nonholonomic rows,
// redundant rows, gravity, springs, gyroscopic terms, motions), near a singular configuration
// (refined normal equations, the sparse QR) and with dependent rows kept (the sparse QR, planar and
// spatial); corrected-rk and corrected-rk45 runs that take the same steps
// either way; Braun and Goldfarb's models through their singular configurations.
#include "bench_common.h"
#include "model/compile.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/integrators/braun_goldfarb.h"
#include "solve/integrators/dynamics.h"
#include "test_support.h"

#include <QtTest>

#include <climits>
#include <stdexcept>

using namespace rlx;

namespace {

// "fourbar:N", "chain:N" (bench/bench_common.h), "free:N" (the chain without joints),
// "example:file" or "data:file".
Spec specNamed(const std::string& name) {
  const std::size_t colon = name.find(':');
  const std::string kind = name.substr(0, colon), rest = name.substr(colon + 1);
  if (kind == "fourbar") return bench::fourBarChain(std::stoi(rest));
  if (kind == "chain") return bench::pendulumChain(std::stoi(rest));
  if (kind == "free") {  // the chain's links without their pins
    Spec spec = bench::pendulumChain(std::stoi(rest));
    spec.joints.clear();
    return spec;
  }
  return test::loadSpec(kind == "example" ? test::examplePath(rest) : test::testDataPath(rest));
}

double relativeDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

// The corrected equation's rates at `point` by the dense pseudoinverse and by the sparse path,
// both set up from `start` with the energy correction requested and the rows `active`.
struct BothPaths {
  RkRate dense, sparse;
  bool energy = false;       // the energy term is on (in both)
  int rankRevealing = 0;     // evaluations of the sparse path that took the sparse QR
};

BothPaths evaluateBoth(const Model& model, const State& start, const std::vector<bool>& active,
                       const RkPoint& point) {
  CorrectedEquation dense(model, false), sparse(model, true);
  std::string body;
  if (!dense.factorMassMatrix(body) || !sparse.factorMassMatrix(body))
    throw std::runtime_error("singular mass of " + body);
  BothPaths both;
  both.energy = dense.setStart(start, true);
  if (sparse.setStart(start, true) != both.energy)
    throw std::runtime_error("the paths disagree on the energy term");
  dense.setActiveRows(active);
  sparse.setActiveRows(active);
  dense.evaluate(point, both.dense);
  sparse.evaluate(point, both.sparse);
  both.rankRevealing = sparse.rankRevealingEvaluations();
  return both;
}

}  // namespace

class TestCorrectedSparse : public QObject {
  Q_OBJECT

 private slots:
  void sparseMatchesDense_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("four-bar chain of 15 loops") << "fourbar:15";
    QTest::newRow("pendulum chain of 30") << "chain:30";
    QTest::newRow("10 free bodies (no constraint)") << "free:10";
    QTest::newRow("spatial chain") << "data:spatial_chain.rlx";
    QTest::newRow("heavy top (gyroscopic)") << "example:heavy_top.rlx";
    QTest::newRow("rolling disk on a plate (nonholonomic rows)") << "data:rolling_disk_on_plate.rlx";
    QTest::newRow("user rolling disk") << "data:rolling_disk_user.rlx";
    QTest::newRow("duplicated pin (redundant rows)") << "data:four_bar_duplicate_pin.rlx";
    QTest::newRow("double four-bar") << "example:double_four_bar.rlx";
    QTest::newRow("slider-crank (a motion)") << "example:slider_crank.rlx";
    QTest::newRow("stiff spring-damper") << "data:stiff_spring_slider.rlx";
  }

  void sparseMatchesDense() {
    // At the assembled state moved off the constraints (positions and velocities), with the
    // energy correction on: the sparse path's qdot, vdot, lambda and Wdot are the dense ones.
    QFETCH(QString, name);
    const Model model = test::compileOrFail(specNamed(name.toStdString()));
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    const AssemblyReport assembly = assemble(model, state, ws);
    QVERIFY2(assembly.ok(), assembly.message.c_str());
    std::srand(3);
    const Eigen::VectorXd offset = 1e-3 * Eigen::VectorXd::Random(model.nv);
    integratePositions(model, state.q, offset, 1.0);
    state.v += 0.1 * Eigen::VectorXd::Random(model.nv);
    const BothPaths both = evaluateBoth(model, state, ws.active, {state.t, state.q, state.v, 0.01});
    const RkRate &d = both.dense, &s = both.sparse;
    const bool energy = both.energy;
    const double qdot = relativeDifference(s.qdot, d.qdot), vdot = relativeDifference(s.vdot, d.vdot),
                 lambda = relativeDifference(s.lambda, d.lambda);
    qInfo("nv = %d, m = %d, energy term %s: qdot %.1e, vdot %.1e, lambda %.1e apart (|vdot| %.3g)",
          int(model.nv), int(model.nh + model.nn), energy ? "on" : "off", qdot, vdot, lambda,
          d.vdot.norm());
    QCOMPARE(both.rankRevealing, 0);
    QCOMPARE(s.lambda.size(), d.lambda.size());
    QVERIFY2(qdot < 1e-10, QByteArray::number(qdot));
    QVERIFY2(vdot < 1e-10, QByteArray::number(vdot));
    QVERIFY2(lambda < 1e-10, QByteArray::number(lambda));
    QCOMPARE(s.Wdot, d.Wdot);
  }

  void everyRowActiveUntilTold() {
    // Without setActiveRows the normal equations take every row, as with all of them active.
    const Model model = test::compileOrFail(bench::fourBarChain(15));
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    QVERIFY(assemble(model, state, ws).ok());
    CorrectedEquation unset(model, true), set(model, true);
    std::string body;
    QVERIFY(unset.factorMassMatrix(body) && set.factorMassMatrix(body));
    unset.setStart(state, true);
    set.setStart(state, true);
    set.setActiveRows(std::vector<bool>(static_cast<std::size_t>(model.nh), true));
    const RkPoint point{state.t, state.q, state.v, 0.0};
    RkRate a, b;
    unset.evaluate(point, a);
    set.evaluate(point, b);
    QCOMPARE(unset.rankRevealingEvaluations(), 0);
    QCOMPARE(a.vdot, b.vdot);
    QCOMPARE(a.lambda, b.lambda);
  }

  void nearSingularConfigurations_data() {
    // A chain of 4 four-bar loops with the rods at `angle` from the horizontal, where the
    // parallelograms are singular: S's condition grows like 1 / angle^2.
    QTest::addColumn<double>("angle");
    QTest::addColumn<bool>("normal");  // whether the normal equations take it
    QTest::newRow("1e-2 rad") << 1e-2 << true;
    QTest::newRow("1e-3 rad (refined)") << 1e-3 << true;
    QTest::newRow("1e-4 rad (refined)") << 1e-4 << true;
    QTest::newRow("1e-5 rad (refined)") << 1e-5 << true;
    QTest::newRow("1e-6 rad (sparse QR)") << 1e-6 << false;
    QTest::newRow("1e-8 rad (sparse QR)") << 1e-8 << false;
    QTest::newRow("singular (sparse QR)") << 0.0 << false;
  }

  void nearSingularConfigurations() {
    // Against the dense pseudoinverse (QR, or the SVD that drops the vanishing singular values):
    // the normal equations, refined where S is poorly conditioned, and the sparse QR where they
    // decline give the same rates and multipliers (at the singular configuration the
    // minimum-norm multipliers).
    QFETCH(double, angle);
    QFETCH(bool, normal);
    const Model model = test::compileOrFail(bench::fourBarChain(4));
    State state{0.0, model.q0, model.v0};
    const double omega = 2.0, c = std::cos(angle), s = std::sin(angle);
    for (const Body& b : model.bodies) {
      const bool crank = b.name == "crank", rocker = b.name.rfind("rocker", 0) == 0;
      const int k = crank ? -1 : std::stoi(b.name.substr(rocker ? 6 : 7));
      const double r = crank || rocker ? 0.5 : 1.0;  // the centre's distance from its pivot
      const double pivot = crank ? 0.0 : rocker ? k + 1.0 : k + 0.5;
      state.q.segment<3>(b.q) << pivot + r * c, r * s, crank || rocker ? angle : 0.0;
      state.v.segment<3>(b.v) << -r * s * omega, r * c * omega, crank || rocker ? omega : 0.0;
    }
    Workspace ws(model);
    evaluateConstraintDerivatives(model, state, ws);
    QVERIFY(ws.Phi.norm() < 1e-14);
    QVERIFY((ws.Phi_q * state.v - ws.nu).norm() < 1e-14);
    const BothPaths both =
        evaluateBoth(model, state, std::vector<bool>(static_cast<std::size_t>(model.nh), true),
                     {state.t, state.q, state.v, 0.0});
    const RkRate &d = both.dense, &n = both.sparse;
    const double vdot = relativeDifference(n.vdot, d.vdot), lambda = relativeDifference(n.lambda, d.lambda);
    qInfo("angle %g: %s, vdot %.1e and lambda %.1e apart (|vdot| %.3g, |lambda| %.3g)", angle,
          both.rankRevealing ? "sparse QR" : "normal equations", vdot, lambda, d.vdot.norm(),
          d.lambda.norm());
    QCOMPARE(both.rankRevealing, normal ? 0 : 1);
    QVERIFY(n.vdot.allFinite() && n.lambda.allFinite());
    // Rounding errors grow with the condition of C (about 1 / angle here) and the multipliers'
    // with that of S (1 / angle^2) in either path.
    QVERIFY2(vdot < std::max(1e-10, 1e-15 / angle), QByteArray::number(vdot));
    QVERIFY2(lambda < std::max(1e-9, 1e-14 / (angle * angle)), QByteArray::number(lambda));
  }

  void dependentRowsTakeTheSparseQR_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("joint");  // the one declared twice
    QTest::newRow("planar chain, a pin twice") << "chain:12" << 2;
    QTest::newRow("spatial chain, a ball joint twice") << "data:spatial_chain.rlx" << 2;
    QTest::newRow("rolling disk twice (nonholonomic rows)") << "data:rolling_disk_on_plate.rlx" << 0;
  }

  void dependentRowsTakeTheSparseQR() {
    // A joint declared twice with every row kept (no redundancy analysis): S is singular, the
    // normal equations decline and the sparse QR drops the dependent rows; rates and the
    // minimum-norm multipliers are the dense SVD's, on planar bodies (C = A R^-1 by columns) and
    // spatial ones (per body T L^-T).
    QFETCH(QString, name);
    QFETCH(int, joint);
    Spec spec = specNamed(name.toStdString());
    JointSpec twin = spec.joints[static_cast<std::size_t>(joint)];
    twin.name = "twin";
    spec.joints.push_back(twin);
    const Model model = test::compileOrFail(spec);
    State state{0.0, model.q0, model.v0};
    std::srand(5);
    state.v = 0.3 * Eigen::VectorXd::Random(model.nv);  // off the velocity constraints too
    const BothPaths both = evaluateBoth(
        model, state, std::vector<bool>(static_cast<std::size_t>(model.nh + model.nn), true),
        {state.t, state.q, state.v, 0.0});
    const RkRate &d = both.dense, &n = both.sparse;
    const double qdot = relativeDifference(n.qdot, d.qdot), vdot = relativeDifference(n.vdot, d.vdot),
                 lambda = relativeDifference(n.lambda, d.lambda);
    qInfo("nv = %d, m = %d (%d nonholonomic): qdot %.1e, vdot %.1e, lambda %.1e apart",
          int(model.nv), int(model.nh + model.nn), int(model.nn), qdot, vdot, lambda);
    QCOMPARE(both.rankRevealing, 1);
    QVERIFY2(qdot < 1e-12, QByteArray::number(qdot));
    QVERIFY2(vdot < 1e-12, QByteArray::number(vdot));
    QVERIFY2(lambda < 1e-12, QByteArray::number(lambda));
  }

  void runsTakeTheSameSteps_data() {
    QTest::addColumn<QString>("integrator");
    QTest::newRow("corrected-rk") << "corrected-rk";
    QTest::newRow("corrected-rk45") << "corrected-rk45";
  }

  void runsTakeTheSameSteps() {
    // A chain of 15 four-bar loops (nv = 93, past sparseFrom) for 0.3 s from 60 degrees: the
    // sparse and the dense path give the same frames and, adaptive, the same steps.
    QFETCH(QString, integrator);
    const Model model = test::compileOrFail(bench::fourBarChain(15));
    DynamicsOptions options;
    options.integrator = *integratorFromName(integrator.toStdString());
    options.endTime = 0.3;
    options.step = 1e-3;
    options.outputStep = 0.05;
    options.tolerance = 1e-8;
    QVERIFY(model.nv >= options.sparseFrom);
    const Results sparse = bench::simulate(model, options);
    options.sparseFrom = INT_MAX;
    const Results dense = bench::simulate(model, options);
    QVERIFY2(sparse.report.ok(), sparse.report.message.c_str());
    QVERIFY2(dense.report.ok(), dense.report.message.c_str());
    QCOMPARE(sparse.stats.steps, dense.stats.steps);
    QCOMPARE(sparse.frames.size(), dense.frames.size());
    double apart = 0;
    for (std::size_t k = 0; k < dense.frames.size(); ++k)
      apart = std::max({apart, relativeDifference(sparse.frames[k].state.q, dense.frames[k].state.q),
                        relativeDifference(sparse.frames[k].state.v, dense.frames[k].state.v)});
    qInfo("%s: %d steps, frames within %.1e", integrator.toUtf8().constData(), dense.stats.steps,
          apart);
    QVERIFY2(apart < 1e-10, QByteArray::number(apart));
  }

  void braunGoldfarbModelsOnTheSparsePath_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("endTime");
    QTest::newRow("slider-crank, 100 s (56 singular passes)") << "braun_goldfarb_slider_crank.rlx" << 100.0;
    QTest::newRow("double four-bar, 1000 s (1030 horizontal passes)") << "double_four_bar.rlx" << 1000.0;
  }

  void braunGoldfarbModelsOnTheSparsePath() {
    // The paper's models with every evaluation on the sparse path (sparseFrom = 1), corrected-rk
    // at h = 0.01: through their singular configurations (no stage comes close enough for the
    // sparse QR) the constraint and energy errors stay where the dense path keeps them
    // (tst_corrected_rk: 7.4e-8 and 1.6e-5 J; 1.4e-7 and 9.6e-5 J, no growth).
    QFETCH(QString, file);
    QFETCH(double, endTime);
    const Model model = test::compileOrFail(test::loadSpec(test::examplePath(file.toStdString())));
    DynamicsOptions options;
    options.integrator = Integrator::CorrectedRK;
    options.endTime = endTime;
    options.step = 0.01;
    options.outputStep = 0.01;
    options.sparseFrom = 1;
    const Results run = bench::simulate(model, options);
    QVERIFY2(run.report.ok(), run.report.message.c_str());
    const double E0 = run.frames.front().kinetic + run.frames.front().potential;
    double constraint = 0, first = 0, last = 0;
    for (const Frame& f : run.frames) {
      const double energy = std::abs(f.kinetic + f.potential - E0);
      constraint = std::max(constraint, f.constraintError);
      if (f.state.t <= 0.1 * endTime) first = std::max(first, energy);
      if (f.state.t >= 0.9 * endTime) last = std::max(last, energy);
    }
    qInfo("%s: constraint error %.2g, energy error %.2g J (first tenth) and %.2g J (last)",
          file.toUtf8().constData(), constraint, first, last);
    QVERIFY2(constraint < 1e-6, QByteArray::number(constraint));
    QVERIFY2(std::max(first, last) < 1e-4, QByteArray::number(std::max(first, last)));
    QVERIFY2(last <= 2 * first, QByteArray::number(last / first));
  }
};

QTEST_GUILESS_MAIN(TestCorrectedSparse)
#include "tst_corrected_sparse.moc"
