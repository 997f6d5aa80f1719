// The sparse paths of large models: the sparse L D L^T and the KKT solve through the Schur
// complement (blocks of 3 and 6) against dense solves; hht and bdf with a sparse iteration matrix
// converge to the steps of the dense one on a damped chain (KLU), a plain one and a chain of
// four-bar loops (Schur complement), bdf also on a spatial chain; analyses flush subnormals; the
// Workspace's fixed patterns hold every entry, and the assembly, the redundancy analysis and the
// accelerations of planar and spatial chains past kSparseFromVelocities (SuiteSparseQR, sparse
// KKT) satisfy their equations, a duplicated joint found redundant with its reactions shared,
// and the workspace keeps its KKT solver while the active rows stay; the sparse sigma_min / sigma_1
// matches the SVD near a singular configuration; whipping chains run through
// on their constraints (hht), so do chains of 1 m links whose coordinates reach 5000 m or start
// 100 km out (hht), and bdf runs the 1000-link chain.
#include "bench_common.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/integrators/dynamics.h"
#include "solve/linalg/kkt_matrix.h"
#include "solve/linalg/kkt_schur.h"
#include "solve/linalg/kkt_solver.h"
#include "solve/linalg/sparse_ldlt.h"
#include "solve/linalg/sparse_qr.h"
#include "solve/linalg/subnormals.h"
#include "test_support.h"

#include <Eigen/SVD>
#include <QtTest>

using namespace rlx;

namespace {

// A chain of `links` rods of length 1/links hanging from ground, horizontal, each pin with a
// damped torsion spring, and a spring-damper from the tip to a ground point.
Spec dampedChain(int links) {
  Spec spec = bench::pendulumChain(links);
  spec.name = "damped chain";
  const double l = 1.0 / links;
  for (const JointSpec& j : spec.joints) {
    ForceSpec spring;
    spring.name = "spring_" + j.name;
    spring.type = ForceType::TorsionSpring;
    spring.joint = j.name;
    spring.stiffness = 0.05;
    spring.damping = 0.01;
    spec.forces.push_back(spring);
  }
  ForceSpec tip;
  tip.name = "tip";
  tip.type = ForceType::SpringDamper;
  tip.body1 = "ground";
  tip.body2 = "link" + std::to_string(links - 1);
  tip.at1 = Vector{1.0, -0.5};
  tip.point2 = Vector{l / 2, 0.0};
  tip.stiffness = 20.0;
  tip.damping = 0.5;
  spec.forces.push_back(tip);
  return spec;
}

struct Run {
  State state;
  Results results;
};

Run runImplicit(const Model& model, const std::string& integrator, double tolerance,
                int sparseFrom, double endTime) {
  Workspace ws(model);
  Run run{State{0.0, model.q0, model.v0}, {}};
  if (const AssemblyReport a = assemble(model, run.state, ws); !a.ok())
    throw std::runtime_error(a.message);
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.endTime = endTime;
  options.step = 1e-3;
  options.outputStep = endTime;
  options.sparseFrom = sparseFrom;
  options.tolerance = tolerance;
  runDynamics(model, run.state, ws, options, run.results);
  if (!run.results.report.ok()) throw std::runtime_error(run.results.report.message);
  run.state = run.results.frames.back().state;
  return run;
}

// A run of `integrator` at `step` from the assembled start, frames every 0.01 s.
Results runChain(const Model& model, const std::string& integrator, double step, double endTime) {
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  assemble(model, state, ws);
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.endTime = endTime;
  options.step = step;
  options.outputStep = 0.01;
  Results results;
  runDynamics(model, state, ws, options, results);
  return results;
}

// The largest distance between the bodies' centres in the frames of two runs (the angles of
// spinning links may differ by turns).
double centresApart(const Model& model, const Results& a, const Results& b) {
  double apart = 0;
  for (std::size_t k = 0; k < a.frames.size() && k < b.frames.size(); ++k)
    for (const Body& body : model.bodies)
      apart = std::max(apart, (a.frames[k].state.q.segment<2>(body.q) -
                               b.frames[k].state.q.segment<2>(body.q))
                                  .lpNorm<Eigen::Infinity>());
  return apart;
}

}  // namespace

class TestSparse : public QObject {
  Q_OBJECT

 private slots:
  void sparseLdltSolvesPositiveDefiniteSystems() {
    // A random sparse symmetric positive definite matrix (a random pattern, diagonally dominant):
    // the factors solve it to rounding, and factor() again with other values reuses the pattern.
    const Eigen::Index n = 60;
    std::srand(7);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
    for (int e = 0; e < 150; ++e) {
      const Eigen::Index i = std::rand() % n, j = std::rand() % n;
      A(i, j) = A(j, i) = Eigen::VectorXd::Random(1)(0);
    }
    A.diagonal() += A.cwiseAbs().rowwise().sum() + Eigen::VectorXd::Constant(n, 0.1);
    const auto upper = [&](const Eigen::MatrixXd& dense) {
      Eigen::SparseMatrix<double> U = dense.triangularView<Eigen::Upper>().toDenseMatrix().sparseView();
      U.makeCompressed();
      return U;
    };
    SparseLdlt ldlt(upper(A));
    for (const double shift : {0.0, 5.0}) {
      const Eigen::MatrixXd shifted = A + shift * Eigen::MatrixXd::Identity(n, n);
      QVERIFY(ldlt.factor(upper(shifted)));
      const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
      Eigen::VectorXd x = b;
      ldlt.solveInPlace(x);
      QVERIFY((shifted * x - b).norm() < 1e-12 * b.norm());
      // Hager's estimate of |A^-1|_1: a lower bound, here within a factor of 3.
      const double exact = shifted.inverse().cwiseAbs().colwise().sum().maxCoeff();
      const double estimate = ldlt.inverseNormEstimate();
      qInfo("shift %g: |A^-1|_1 %.6g, estimated %.6g", shift, exact, estimate);
      QVERIFY(estimate <= exact * (1 + 1e-12) && estimate >= exact / 3);
    }
    // Not positive definite: refused, and a definite matrix factors again afterwards.
    Eigen::MatrixXd indefinite = A;
    indefinite(n / 2, n / 2) = -indefinite(n / 2, n / 2);
    QVERIFY(!ldlt.factor(upper(indefinite)));
    QVERIFY(ldlt.factor(upper(A)));
  }

  void kktSchurMatchesDenseSolve() {
    // J = [A G^T; G 0] of a 40-link chain at a bent state, A = M / d + a symmetric part per body:
    // the Schur complement's solution satisfies the dense system.
    const Model model = test::compileOrFail(bench::pendulumChain(40));
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    for (const Body& b : model.bodies) state.q(b.q + 2) -= 0.4 * b.q / model.nq;
    QVERIFY(assemble(model, state, ws).ok());
    evaluateConstraintDerivatives(model, state, ws);
    std::vector<std::vector<Eigen::Index>> bodyBlocks(static_cast<std::size_t>(model.nv));
    for (const Body& b : model.bodies)
      for (int k = 0; k < 3; ++k)
        for (int r = 0; r < 3; ++r) bodyBlocks[static_cast<std::size_t>(b.v + k)].push_back(b.v + r);
    KktMatrix kkt(ws, activeRows(ws), bodyBlocks);
    kkt.fill(ws, 1.1);
    for (const Body& b : model.bodies)  // a symmetric part, off the diagonal too
      for (int k = 0; k < 3; ++k)
        for (int r = 0; r < 3; ++r)
          kkt.matrix().coeffRef(b.v + r, b.v + k) += 1e-5 * (1 + r + k) * b.mass;
    KktSchur schur(kkt.matrix(), model.nv, 3);
    QVERIFY(schur.applies());
    QVERIFY(schur.factor(kkt.matrix()));
    const Eigen::MatrixXd dense(kkt.matrix());
    const Eigen::VectorXd b = Eigen::VectorXd::Random(dense.rows());
    Eigen::VectorXd x = b;
    schur.solveInPlace(x);
    const Eigen::VectorXd exact = dense.partialPivLu().solve(b);
    qInfo("40 links: |x - x_dense| / |x_dense| %.2e", (x - exact).norm() / exact.norm());
    QVERIFY((x - exact).norm() < 1e-9 * exact.norm());
    // A block not symmetric positive definite: factor() refuses, the caller turns to KLU.
    kkt.matrix().coeffRef(5, 5) = -1.0;
    QVERIFY(!schur.factor(kkt.matrix()));
    kkt.matrix().coeffRef(5, 5) = 1.0;
    kkt.matrix().coeffRef(3, 4) += 1.0;  // not symmetric
    QVERIFY(!schur.factor(kkt.matrix()));
    // Two bodies coupled in A (a spring between them): the solver does not apply.
    bodyBlocks[0].push_back(3);
    KktMatrix coupled(ws, activeRows(ws), bodyBlocks);
    QVERIFY(!KktSchur(coupled.matrix(), model.nv, 3).applies());
  }

  void kktSchurSolvesSpatialBlocks() {
    // Blocks of 6 (spatial bodies): 12 random symmetric positive definite blocks, 40 random rows
    // each touching one or two bodies, G^T force included; against a dense solve.
    const Eigen::Index bodies = 12, n = 6 * bodies, m = 40;
    std::srand(11);
    std::vector<Eigen::Triplet<double>> entries;
    for (Eigen::Index b = 0; b < bodies; ++b) {
      const Eigen::MatrixXd R = Eigen::MatrixXd::Random(6, 6);
      const Eigen::MatrixXd block = R * R.transpose() + Eigen::MatrixXd::Identity(6, 6);
      for (int c = 0; c < 6; ++c)
        for (int r = 0; r < 6; ++r)
          entries.emplace_back(static_cast<int>(6 * b + r), static_cast<int>(6 * b + c), block(r, c));
    }
    for (Eigen::Index k = 0; k < m; ++k) {
      const Eigen::Index first = k % bodies, second = (k * 7 + 3) % bodies;
      for (const Eigen::Index b : {first, second})
        for (int c = 0; c < 6; ++c)
          if ((k + c) % 3 != 0) {  // some entries structurally absent
            const double g = Eigen::VectorXd::Random(1)(0);
            entries.emplace_back(static_cast<int>(n + k), static_cast<int>(6 * b + c), g);
            entries.emplace_back(static_cast<int>(6 * b + c), static_cast<int>(n + k), g);
          }
    }
    Eigen::SparseMatrix<double> J(n + m, n + m);
    J.setFromTriplets(entries.begin(), entries.end());
    J.makeCompressed();
    KktSchur schur(J, n, 6);
    QVERIFY(schur.applies());
    QVERIFY(!KktSchur(J, n, 3).applies());  // blocks of 3 would cut the bodies' blocks
    QVERIFY(schur.factor(J));
    const Eigen::MatrixXd dense(J);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(n + m);
    Eigen::VectorXd x = b, force;
    schur.solveInPlace(x, &force);
    const Eigen::VectorXd exact = dense.partialPivLu().solve(b);
    QVERIFY((x - exact).norm() < 1e-10 * exact.norm());
    const Eigen::VectorXd expectedForce = dense.topRightCorner(n, m) * exact.tail(m);
    QVERIFY((force - expectedForce).norm() < 1e-10 * expectedForce.norm());
  }

  void sparseMatchesDense_data() {
    // hht: a tight Newton tolerance (the paths iterate differently, see hht_step.h: same limit);
    // bdf: the local error tolerance (the Newton stops at 1e-3 of it).
    // The damped chain's springs couple the bodies in J (KLU); the plain chain's J has a block
    // per body (the Schur complement, solve/linalg/kkt_schur.h), and so do the 15 four-bar loops,
    // whose Schur complement fills in (a parallelogram chain falling from 60 degrees).
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("integrator");
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<double>("positionBound");
    QTest::addColumn<double>("velocityBound");
    for (const char* model : {"damped", "plain", "loops"}) {
      QTest::addRow("%s hht", model) << model << "hht" << 1e-10 << 1e-10 << 1e-8;
      QTest::addRow("%s bdf", model) << model << "bdf" << 1e-6 << 1e-10 << 1e-8;
    }
  }

  void sparseMatchesDense() {
    QFETCH(QString, model);
    QFETCH(QString, integrator);
    QFETCH(double, tolerance);
    QFETCH(double, positionBound);
    QFETCH(double, velocityBound);
    const Spec spec = model == "damped"  ? dampedChain(30)
                      : model == "plain" ? bench::pendulumChain(30)
                                         : bench::fourBarChain(15);
    const Model compiled = test::compileOrFail(spec);
    QCOMPARE(compiled.nv, 90 + 3 * (model == "loops"));
    const std::string name = integrator.toStdString();
    const Run dense = runImplicit(compiled, name, tolerance, compiled.nv + 1, 0.2);
    const Run sparse = runImplicit(compiled, name, tolerance, 1, 0.2);
    const double dq = (dense.state.q - sparse.state.q).lpNorm<Eigen::Infinity>();
    const double dv = (dense.state.v - sparse.state.v).lpNorm<Eigen::Infinity>();
    qInfo("%s, %s, %d steps: max |q_dense - q_sparse| %.2e, |v_dense - v_sparse| %.2e "
          "(moved %.3f); Newton iterations %d and %d, evaluations %d and %d, iteration matrices "
          "%d and %d",
          qPrintable(model), name.c_str(), dense.results.stats.steps, dq, dv,
          (dense.state.q - compiled.q0).lpNorm<Eigen::Infinity>(),
          dense.results.stats.newtonIterations, sparse.results.stats.newtonIterations,
          dense.results.stats.rhsEvaluations, sparse.results.stats.rhsEvaluations,
          dense.results.stats.iterationMatrices, sparse.results.stats.iterationMatrices);
    QCOMPARE(sparse.results.stats.steps, dense.results.stats.steps);
    QCOMPARE(sparse.results.stats.rejectedSteps, dense.results.stats.rejectedSteps);
    // A wrong sparse J would need many more iterations, or fail.
    QVERIFY(sparse.results.stats.newtonIterations <= 6 * sparse.results.stats.steps);
    QVERIFY(sparse.results.stats.iterationMatrices >= 1);
    QVERIFY(sparse.results.stats.iterationMatrices <= sparse.results.stats.newtonIterations);
    QVERIFY((dense.state.q - compiled.q0).norm() > 0.1);  // it moved
    QVERIFY2(dq < positionBound, qPrintable(QString::number(dq)));
    QVERIFY2(dv < velocityBound, qPrintable(QString::number(dv)));
  }

  void spatialChainBdfMatchesDense() {
    // Spherical joints: K and C by coloured differences with rotations, no (M vdot)_q term.
    const Spec spec = test::loadSpec(test::testDataPath("spatial_chain.rlx"));
    const Model model = test::compileOrFail(spec);
    QCOMPARE(model.nv, 36);
    const Run dense = runImplicit(model, "bdf", 1e-6, model.nv + 1, 0.5);
    const Run sparse = runImplicit(model, "bdf", 1e-6, 1, 0.5);
    double apart = 0.0;
    for (const Body& b : model.bodies)
      apart = std::max(apart, (dense.state.q.segment<3>(b.q) - sparse.state.q.segment<3>(b.q))
                                  .lpNorm<Eigen::Infinity>());
    qInfo("spatial chain of 6, bdf 0.5 s: centres within %.2e m; steps %d and %d, evaluations "
          "%d and %d",
          apart, dense.results.stats.steps, sparse.results.stats.steps,
          dense.results.stats.rhsEvaluations, sparse.results.stats.rhsEvaluations);
    QVERIFY((dense.state.q - model.q0).norm() > 0.1);  // it moved
    QVERIFY2(apart < 1e-6, qPrintable(QString::number(apart)));
    QVERIFY(sparse.results.stats.rhsEvaluations < dense.results.stats.rhsEvaluations);
  }

  void bdfRunsTheThousandLinkChain() {
    // The short links' angle corrections stall at the KKT solve's accuracy (about 1e-13 rad);
    // alpha_0 times that failed the velocity test at every step size until the stall test
    // (bdf_step.h): the run stopped at t = 0.063 s. Reference: hht at h = 1e-4 (1.3e-6 m from
    // h = 1e-5).
    const Model model = test::compileOrFail(bench::pendulumChain(1000));
    const Results bdf = runChain(model, "bdf", 1e-3, 0.1);
    const Results reference = runChain(model, "hht", 1e-4, 0.1);
    QVERIFY2(bdf.report.ok(), bdf.report.message.c_str());
    QVERIFY2(reference.report.ok(), reference.report.message.c_str());
    QCOMPARE(bdf.frames.size(), reference.frames.size());
    const double apart = centresApart(model, bdf, reference);
    qInfo("N = 1000, bdf 0.1 s: %d steps (%d rejected), centres within %.2g m of hht h = 1e-4",
          bdf.stats.steps, bdf.stats.rejectedSteps, apart);
    QVERIFY2(apart < 1e-5, QByteArray::number(apart));
  }

  void runsFlushSubnormals() {
    // The horizontal chain's accelerations decay by 0.27 per link from the pivot: subnormal
    // (slow arithmetic) past about the 545th link. Within an analysis they are flushed to zero
    // (45 subnormal entries in these frames without), and the mode is restored after it.
    volatile double tiny = 1e-300;
    QVERIFY(tiny * 1e-10 > 0);
    {
      const FlushSubnormals flush;
      QCOMPARE(tiny * 1e-10, 0.0);
    }
    QVERIFY(tiny * 1e-10 > 0);
    Spec spec = bench::pendulumChain(700);
    AnalysisSpec analysis;
    analysis.type = AnalysisType::Dynamics;
    analysis.endTime = 0.01;
    analysis.step = 1e-3;
    analysis.outputStep = 0.01;
    spec.analysis = analysis;
    const AnalysisOutcome run = runAnalysis(test::compileOrFail(spec), {});
    QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
    QCOMPARE(run.results.frames.size(), std::size_t(2));
    QVERIFY(tiny * 1e-10 > 0);
    int subnormal = 0;
    for (const Frame& f : run.results.frames)
      for (const Eigen::VectorXd* v : {&f.vdot, &f.lambda})
        for (const double x : *v) subnormal += std::fpclassify(x) == FP_SUBNORMAL;
    qInfo("700 links, 2 frames: %d subnormal entries", subnormal);
    QCOMPARE(subnormal, 0);
  }

  void whippingChainRunsThrough() {
    // The undamped 100-link chain whips its tip at about 0.45 s: the index-3 method's velocity
    // error Phi_q v grows to 0.6 m/s there and the Newton iterations fail at every shorter step,
    // until the step restarts from projected velocities (hht.cpp restartFrom).
    const Model model = test::compileOrFail(bench::pendulumChain(100));
    const Results coarse = runChain(model, "hht", 1e-3, 1.0);
    const Results fine = runChain(model, "hht", 1e-4, 1.0);
    QVERIFY2(coarse.report.ok(), coarse.report.message.c_str());
    QVERIFY2(fine.report.ok(), fine.report.message.c_str());
    QCOMPARE(coarse.frames.size(), std::size_t(101));
    QCOMPARE(fine.frames.size(), std::size_t(101));
    const double apart = centresApart(model, coarse, fine);
    qInfo("N = 100, 1 s: h = 1e-3 (%d steps, %d rejected) within %.3g m of h = 1e-4",
          coarse.stats.steps, coarse.stats.rejectedSteps, apart);
    QVERIFY(coarse.stats.rejectedSteps > 0);
    QVERIFY2(apart < 2e-2, QByteArray::number(apart));
  }

  void whippingChainsStayOnTheConstraints_data() {
    QTest::addColumn<int>("links");
    QTest::newRow("50 links") << 50;
    QTest::newRow("150 links") << 150;
  }

  void whippingChainsStayOnTheConstraints() {
    // Undamped chains whipping for 2 s at h = 1e-3: a step whose Newton iterations converge to a
    // spurious root (accelerations of 1e13 and more, a displacement of 1e8 model sizes) fails and
    // is retried shorter (hht_step.h). Accepted, such steps broke the 50-link chain's constraints
    // by 6e-2 m before it stopped at t = 1.48 s; the 150-link chain stopped at t = 0.568 s.
    QFETCH(int, links);
    const Model model = test::compileOrFail(bench::pendulumChain(links));
    const Results run = runChain(model, "hht", 1e-3, 2.0);
    QVERIFY2(run.report.ok(), run.report.message.c_str());
    double worst = 0;
    for (const Frame& f : run.frames) worst = std::max(worst, f.constraintError);
    qInfo("N = %d, 2 s: %d steps, %d rejected; constraint error at most %.2g m", links,
          run.stats.steps, run.stats.rejectedSteps, worst);
    QCOMPARE(run.frames.size(), std::size_t(201));
    QVERIFY2(worst < 1e-9, QByteArray::number(worst));
  }

  void chainsOfLargeCoordinatesRunThrough_data() {
    QTest::addColumn<int>("links");
    QTest::addColumn<double>("x0");       // the ground pin at (x0, 0)
    QTest::addColumn<double>("endTime");
    QTest::newRow("5000 links of 1 m") << 5000 << 0.0 << 0.1;
    QTest::newRow("10 links of 1 m, 100 km out") << 10 << 1e5 << 0.2;
    QTest::newRow("5 links of 1 m, 100 km out (dense J)") << 5 << 1e5 << 0.2;
  }

  void chainsOfLargeCoordinatesRunThrough() {
    // Chains of 1 m, 1 kg rods at h = 1e-3 whose coordinates reach 5000 m (or start at 1e5 m),
    // where positions are rounded to 9e-13 (1.5e-11) m. HHT's convergence floor, the rounding of
    // positions, was 1e-14 m: the Newton corrections of that rounding never fell below it and the
    // steps failed down to 1.2e-10 s (the 5000-link chain at t = 0.0417 s, the chains 100 km out
    // at 1.7e-4 s). Far out, the chain moves as the same chain at the origin does, within what
    // 200 steps of positions rounded to 1.5e-11 m allow (measured 1.4e-8 m; the chain at the
    // origin at tolerance 1e-6 is 3e-9 m from itself at 1e-10).
    QFETCH(int, links);
    QFETCH(double, x0);
    QFETCH(double, endTime);
    const Model model = test::compileOrFail(bench::pendulumChain(links, 1.0, 1.0, x0));
    const Results run = runChain(model, "hht", 1e-3, endTime);
    QVERIFY2(run.report.ok(), run.report.message.c_str());
    qInfo("%d links from x = %g m, %g s: %d steps, %d rejected, %d Newton iterations", links, x0,
          endTime, run.stats.steps, run.stats.rejectedSteps, run.stats.newtonIterations);
    QCOMPARE(run.stats.rejectedSteps, 0);
    QVERIFY(bench::maxConstraintError(run) < 1e-9);
    if (x0 == 0) return;
    const Model atOrigin = test::compileOrFail(bench::pendulumChain(links, 1.0, 1.0));
    const Results near = runChain(atOrigin, "hht", 1e-3, endTime);
    QCOMPARE(near.frames.size(), run.frames.size());
    double apart = 0;
    for (std::size_t k = 0; k < run.frames.size(); ++k)
      for (const Body& body : model.bodies) {
        const Eigen::Vector2d shift(x0, 0.0);
        apart = std::max(apart, (run.frames[k].state.q.segment<2>(body.q) - shift -
                                 near.frames[k].state.q.segment<2>(body.q))
                                    .lpNorm<Eigen::Infinity>());
      }
    qInfo("  within %.2g m of the chain at the origin", apart);
    QVERIFY2(apart < 5e-8, QByteArray::number(apart));
  }

  void patternsHoldEveryEntry() {
    // The values written in place match a dense evaluation of the same rows (finite differences
    // of Phi), so no entry fell outside the fixed pattern.
    const Model model = test::compileOrFail(dampedChain(5));
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    state.q(2) += 0.3;
    state.q(5) -= 0.2;
    evaluateConstraintDerivatives(model, state, ws);
    const auto phiOf = [&](const Eigen::VectorXd& q) {
      Workspace w(model);
      evaluatePhi(model, State{0.0, q, model.v0}, w);
      return Eigen::VectorXd(w.Phi);
    };
    const Eigen::MatrixXd numeric = test::numericJacobian(phiOf, state.q);
    QCOMPARE(ws.Phi_q.nonZeros(), 2 * 3 + 8 * 6);  // the first pin touches one body
    QVERIFY(test::relativeError(Eigen::MatrixXd(ws.Phi_q), numeric) < 1e-6);
    evaluateMassMatrix(model, state, ws);
    QCOMPARE(ws.M.nonZeros(), 5 * 9);
    QCOMPARE(ws.M.coeff(3, 3), 0.2);
    QCOMPARE(ws.M.coeff(3, 4), 0.0);
  }

  void spatialChainAcceleratesThroughTheSchurComplement() {
    // 20 rods on spherical joints (nv = 120): the workspace's KKT solver goes through the Schur
    // complement with blocks of 6; accelerations and multipliers satisfy their equations.
    Spec spec = test::loadSpec(test::testDataPath("spatial_chain.rlx"));
    const double l = spec.bodies[1].position[0].value - spec.bodies[0].position[0].value;
    while (spec.bodies.size() < 20) {
      BodySpec body = spec.bodies.back();
      JointSpec joint = spec.joints.back();
      joint.body1 = body.name;
      body.name = "link" + std::to_string(spec.bodies.size());
      joint.name = "ball" + std::to_string(spec.joints.size());
      joint.body2 = body.name;
      body.position[0].value += l;
      (*joint.at)[0].value += l;
      spec.bodies.push_back(body);
      spec.joints.push_back(joint);
    }
    const Model model = test::compileOrFail(spec);
    QCOMPARE(model.nv, 120);
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    state.v.setConstant(0.3);  // gyroscopic and centripetal terms
    QVERIFY(assemble(model, state, ws).ok());
    QVERIFY(ws.kkt);
    QVERIFY(solveAccelerations(model, state, ws).ok());
    evaluateConstraintDerivatives(model, state, ws);
    evaluateMassMatrix(model, state, ws);
    evaluateAppliedForces(model, state, ws);
    const double acceleration = (ws.Phi_q * ws.vdot - ws.gamma).lpNorm<Eigen::Infinity>();
    const double balance =
        (ws.M * ws.vdot + ws.Phi_q.transpose() * ws.lambda - ws.Q).lpNorm<Eigen::Infinity>();
    qInfo("spatial chain of 20: |Phi_q a - gamma| %.1e, |M a + Phi_q^T lambda - Q| %.1e",
          acceleration, balance);
    QVERIFY(ws.vdot.norm() > 1.0);
    QVERIFY(acceleration < 1e-8);
    QVERIFY(balance < 1e-8);
    // The path the solver takes: M's blocks of 6 positive definite, S factored.
    KktMatrix kkt(ws, activeRows(ws));
    kkt.fill(ws, 1.0);
    KktSchur schur(kkt.matrix(), model.nv, 6);
    QVERIFY(schur.applies());
    QVERIFY(schur.factor(kkt.matrix()));
  }

  void largeChainAssemblesWithSparseSolvers() {
    // 40 links (nv = 120): a duplicated pin makes two redundant rows.
    Spec spec = dampedChain(40);
    JointSpec twin = spec.joints[7];
    twin.name = "twin";
    spec.joints.push_back(twin);
    const Model model = test::compileOrFail(spec);
    QVERIFY(model.nv >= kSparseFromVelocities);
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    state.q(10) += 0.05;  // off the constraints
    state.v.setConstant(0.1);
    const AssemblyReport report = assemble(model, state, ws);
    QVERIFY2(report.ok(), report.message.c_str());
    QCOMPARE(report.redundancy.redundant.size(), std::size_t(2));
    QCOMPARE(report.redundancy.rank, 80);
    QCOMPARE(report.redundancy.redundant[0].element, std::string("twin"));
    // Positions, velocities, accelerations and multipliers satisfy their equations.
    evaluatePhi(model, state, ws);
    QVERIFY(ws.Phi.lpNorm<Eigen::Infinity>() < 1e-10);
    evaluateConstraintDerivatives(model, state, ws);
    evaluateMassMatrix(model, state, ws);
    evaluateAppliedForces(model, state, ws);
    const double velocity = (ws.Phi_q * state.v - ws.nu).lpNorm<Eigen::Infinity>();
    const double acceleration = (ws.Phi_q * ws.vdot - ws.gamma).lpNorm<Eigen::Infinity>();
    const double balance =
        (ws.M * ws.vdot + ws.Phi_q.transpose() * ws.lambda - ws.Q).lpNorm<Eigen::Infinity>();
    qInfo("N = 40 with a duplicated pin: |Phi_q v - nu| %.1e, |Phi_q a - gamma| %.1e, "
          "|M a + Phi_q^T lambda - Q| %.1e",
          velocity, acceleration, balance);
    QVERIFY(velocity < 1e-10);
    QVERIFY(acceleration < 1e-8);
    QVERIFY(balance < 1e-8);
    // The least-change velocity keeps what the constraints allow: not all of v was discarded.
    QVERIFY(state.v.norm() > 0.1);
    // Minimum-norm multipliers: the pin and its twin share the reaction equally.
    const Eigen::Index pinRow = 2 * 7, twinRow = 2 * 40;
    QCOMPARE(model.rowOwners[static_cast<std::size_t>(twinRow)], std::string("twin"));
    const Eigen::Vector2d pinForce = ws.lambda.segment<2>(pinRow),
                          twinForce = ws.lambda.segment<2>(twinRow);
    qInfo("pin7 multipliers (%.6f, %.6f), twin (%.6f, %.6f)", pinForce.x(), pinForce.y(),
          twinForce.x(), twinForce.y());
    QVERIFY(pinForce.norm() > 1e-4);
    QVERIFY((pinForce - twinForce).norm() < 1e-10 * pinForce.norm());
    // The joints whose reactions are not unique: the pin and its twin, no other.
    const std::vector<std::string> shared = dependentElements(model, ws.Phi_q, 1e-9, 1e-8);
    QCOMPARE(shared, (std::vector<std::string>{"pin7", "twin"}));
  }

  void kktSolverIsKeptWhileTheActiveRowsStay() {
    // The workspace keeps the large models' KKT solver from call to call; its solutions match
    // those of a fresh workspace, and it is made again when the active rows change.
    const Model model = test::compileOrFail(dampedChain(40));
    QVERIFY(model.nv >= kSparseFromVelocities);
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    QVERIFY(assemble(model, state, ws).ok());
    QVERIFY(ws.kkt);
    const KktSolver* kept = ws.kkt.get();
    const auto matchesFresh = [&](const State& at) {
      QVERIFY(solveAccelerations(model, at, ws).ok());
      Workspace fresh(model);
      fresh.active = ws.active;
      QVERIFY(solveAccelerations(model, at, fresh).ok());
      QVERIFY((ws.vdot - fresh.vdot).lpNorm<Eigen::Infinity>() <=
              1e-12 * fresh.vdot.lpNorm<Eigen::Infinity>());
      QVERIFY((ws.lambda - fresh.lambda).lpNorm<Eigen::Infinity>() <=
              1e-12 * fresh.lambda.lpNorm<Eigen::Infinity>());
    };
    // Another state (the chain bent, moving): the same solver.
    State moved = state;
    for (const Body& b : model.bodies) moved.q(b.q + 2) -= 0.3 * b.q / model.nq;
    moved.v.setConstant(0.5);
    matchesFresh(moved);
    QCOMPARE(ws.kkt.get(), kept);
    // A row dropped (the first pin's vertical equation): a new solver on the remaining rows.
    ws.active[1] = false;
    matchesFresh(moved);
    QVERIFY(ws.kkt.get() != kept);
    QCOMPARE(ws.kkt->rows().size(), std::size_t(ws.Phi_q.rows() - 1));
  }

  void sparseLeftNullSpaceSpansTheDependencies() {
    // A 40-link chain with two duplicated pins: four dependent rows, each pin with its twin.
    Spec spec = bench::pendulumChain(40);
    JointSpec twin = spec.joints[12];
    twin.name = "twin";
    spec.joints.push_back(twin);
    JointSpec twin2 = spec.joints[30];
    twin2.name = "twin2";
    spec.joints.push_back(twin2);
    const Model model = test::compileOrFail(spec);
    Workspace ws(model);
    evaluateConstraintDerivatives(model, State{0.0, model.q0, model.v0}, ws);
    const SparseRowQR qr(ws.Phi_q, 1e-9);
    QVERIFY(qr.ok());
    QCOMPARE(qr.rank(), ws.Phi_q.rows() - 4);
    QCOMPARE(qr.dependentRows().size(), std::size_t(4));
    const Eigen::MatrixXd W(qr.leftNullSpace());
    QCOMPARE(W.cols(), Eigen::Index(4));
    const Eigen::MatrixXd product = W.transpose() * Eigen::MatrixXd(ws.Phi_q);
    QVERIFY(product.lpNorm<Eigen::Infinity>() < 1e-12);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(W);
    QCOMPARE(lu.rank(), Eigen::Index(4));
    const std::vector<std::string> names = dependentElements(model, ws.Phi_q, 1e-9, 1e-8);
    QCOMPARE(names, (std::vector<std::string>{"pin12", "pin30", "twin", "twin2"}));
  }

  void sparseSingularValueRatioMatchesTheSvd() {
    // The N-four-bar (N = 50, 303 velocities) with every crank at angle phi from the horizontal:
    // N singular values of the unit rows vanish like phi, a cluster that inverse iteration must
    // resolve.
    const int n = 50;
    for (const double phi : {0.8, 1e-2, 1e-4, 1e-7, 0.0}) {
      Spec spec = bench::nFourBar(n);
      for (int k = 0; k <= n; ++k) {
        BodySpec& crank = spec.bodies[static_cast<std::size_t>(k)];
        crank.position = {k + 0.5 * std::cos(phi), 0.5 * std::sin(phi)};
        crank.angle = phi;
      }
      for (int k = 0; k < n; ++k)
        spec.bodies[static_cast<std::size_t>(n + 1 + k)].position = {k + 0.5 + std::cos(phi),
                                                                     std::sin(phi)};
      const Model model = test::compileOrFail(spec);
      QVERIFY(model.nv >= 300);
      Workspace ws(model);
      evaluateConstraintDerivatives(model, State{0.0, model.q0, model.v0}, ws);
      const SparseMatrix unit = unitRowScales(ws.Phi_q).asDiagonal() * ws.Phi_q;
      const Eigen::JacobiSVD<Eigen::MatrixXd> svd{Eigen::MatrixXd(unit)};
      const Eigen::VectorXd& sigma = svd.singularValues();
      const double expected = sigma(sigma.size() - 1) / sigma(0);
      Eigen::VectorXd left;
      const double ratio = SparseRowQR(ws.Phi_q, 0.0).singularValueRatio(&left);
      qInfo("phi = %g: sigma_min / sigma_1 %.6e (SVD %.6e)", phi, ratio, expected);
      if (phi == 0.0) {
        QVERIFY(ratio < 1e-14);
        continue;
      }
      QVERIFY(std::abs(ratio - expected) < 1e-6 * expected);
      // sigma_min's left singular vector: unit length, |unit^T left| = sigma_min.
      QVERIFY(std::abs(left.norm() - 1.0) < 1e-12);
      QVERIFY(std::abs((unit.transpose() * left).norm() / sigma(0) - expected) < 1e-6 * expected);
    }
  }
};

QTEST_GUILESS_MAIN(TestSparse)
#include "tst_sparse.moc"
