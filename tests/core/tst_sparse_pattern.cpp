// Building blocks of the sparse hht path: value positions in a compressed matrix match coeffRef,
// the KLU wrapper solves block-triangular matrices with and without row scaling (first pivoting
// and refactorization), and Phi with Phi_q^T lambda in one pass matches evaluateConstraints.
#include "solve/equations/constraints.h"
#include "solve/linalg/sparse_lu.h"
#include "solve/linalg/sparse_pattern.h"
#include "test_support.h"

#include <QtTest>

#include <vector>

using namespace rlx;

namespace {

// A 9 x 9 matrix whose strongly connected blocks are {0}, {1, 2, 3}, {4 .. 8} (upper block
// triangular after a permutation), rows of very different sizes; `shift` changes the values.
Eigen::SparseMatrix<double> blockTriangular(double shift) {
  std::vector<Eigen::Triplet<double>> entries;
  const auto add = [&](int i, int j, double v) { entries.emplace_back(i, j, v + shift * (i - j)); };
  add(0, 0, 2.0);
  add(0, 4, 1.0);
  for (int i = 1; i <= 3; ++i)
    for (int j = 1; j <= 3; ++j) add(i, j, i == j ? 1e-6 : 0.5 * i + j);
  add(2, 7, 3.0);
  for (int i = 4; i <= 8; ++i) {
    add(i, i, 1e4 * i);
    add(i, i == 8 ? 4 : i + 1, -2e3);
    add(i == 8 ? 4 : i + 1, i, 1.5e3);
  }
  Eigen::SparseMatrix<double> A(9, 9);
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  return A;
}

}  // namespace

class TestSparsePattern : public QObject {
  Q_OBJECT

 private slots:
  void valuePositionsMatchCoeffRef() {
    Eigen::SparseMatrix<double> A = blockTriangular(0.0);
    int inPattern = 0;
    for (Eigen::Index i = 0; i < A.rows(); ++i)
      for (Eigen::Index j = 0; j < A.cols(); ++j) {
        const Eigen::Index position = valuePosition(A, i, j);
        if (A.coeff(i, j) == 0.0) {
          QCOMPARE(position, Eigen::Index(-1));
          continue;
        }
        ++inPattern;
        QCOMPARE(position, Eigen::Index(&A.coeffRef(i, j) - A.valuePtr()));
      }
    QCOMPARE(inPattern, static_cast<int>(A.nonZeros()));
    QCOMPARE(inPattern, 27);
  }

  void luSolvesBlockTriangularMatrices() {
    for (const bool scaled : {true, false}) {
      SparseLu lu(blockTriangular(0.0), scaled);
      for (const double shift : {0.0, 0.01, 0.02}) {  // first pivoting, then refactorizations
        Eigen::SparseMatrix<double> A = blockTriangular(shift);
        QVERIFY(lu.factor(A));
        const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(9, 1.0, 9.0);
        Eigen::VectorXd x = b;
        lu.solveInPlace(x);
        const Eigen::VectorXd exact = Eigen::MatrixXd(A).fullPivLu().solve(b);
        QVERIFY2((x - exact).norm() <= 1e-9 * exact.norm(),
                 qPrintable(QString::number((x - exact).norm() / exact.norm())));
        QVERIFY(lu.pivotRatio() > 0);
      }
    }
  }

  void phiAndConstraintForceMatchEvaluateConstraints() {
    // Every planar joint family and motion (closed-form path), then with user constraints (the
    // fallback through Phi_q).
    Spec spec = test::loadSpec(test::testDataPath("rich_planar.rlx"));
    const Model withUser = test::compileOrFail(spec);
    spec.constraints.clear();
    const Model planar = test::compileOrFail(spec);
    QVERIFY(!withUser.constraints.empty());
    QVERIFY(!planar.motions.empty());
    for (const Model* model : {&planar, &withUser}) {
      State state{0.7, model->q0, model->v0};
      for (Eigen::Index i = 0; i < state.q.size(); ++i) {
        state.q(i) += 0.05 * std::sin(3.0 * static_cast<double>(i) + 1.0);
        state.v(i) = std::cos(1.7 * static_cast<double>(i));
      }
      Workspace reference(*model), fused(*model);
      const Eigen::VectorXd lambda =
          Eigen::VectorXd::LinSpaced(reference.Phi_q.rows(), -2.0, 3.0).array().sin();
      evaluateConstraints(*model, state, reference);
      const Eigen::VectorXd expected = reference.Phi_q.transpose() * lambda;
      Eigen::VectorXd force(model->nv);
      evaluatePhiAndConstraintForce(*model, state, lambda, fused, force);
      QVERIFY((fused.Phi - reference.Phi).lpNorm<Eigen::Infinity>() <= 1e-15);
      QVERIFY2((force - expected).lpNorm<Eigen::Infinity>() <= 1e-14 * expected.norm(),
               qPrintable(QString::number((force - expected).lpNorm<Eigen::Infinity>())));
      QVERIFY(expected.norm() > 0.1);
    }
  }
};

QTEST_GUILESS_MAIN(TestSparsePattern)
#include "tst_sparse_pattern.moc"
