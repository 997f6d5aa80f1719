// The small dense LU of the hht iteration matrix: solves and transposed solves against Eigen's
// LU on a matrix that needs row exchanges, and singular matrices refused.
#include "solve/linalg/dense_lu.h"

#include <QtTest>

using namespace rlx;

class TestDenseLu : public QObject {
  Q_OBJECT

 private slots:
  void solvesLikeEigen() {
    // A saddle-point matrix like J: a zero block on the diagonal forces row exchanges.
    std::srand(7);
    Eigen::MatrixXd A = Eigen::MatrixXd::Random(11, 11);
    A.bottomRightCorner(5, 5).setZero();
    const Eigen::VectorXd b = Eigen::VectorXd::Random(11);
    DenseLu lu;
    lu.resize(11);
    QVERIFY(lu.factor(A));
    Eigen::VectorXd x = b, y = b;
    lu.solveInPlace(x);
    lu.solveTransposedInPlace(y);
    const Eigen::VectorXd xEigen = Eigen::PartialPivLU<Eigen::MatrixXd>(A).solve(b);
    const Eigen::MatrixXd At = A.transpose();
    const Eigen::VectorXd yEigen = Eigen::PartialPivLU<Eigen::MatrixXd>(At).solve(b);
    const double errorX = (x - xEigen).lpNorm<Eigen::Infinity>();
    const double errorY = (y - yEigen).lpNorm<Eigen::Infinity>();
    qInfo("11 x 11: |x - x_Eigen| %.1e, |y - y_Eigen| %.1e, residuals %.1e %.1e", errorX, errorY,
          (A * x - b).lpNorm<Eigen::Infinity>(), (A.transpose() * y - b).lpNorm<Eigen::Infinity>());
    QVERIFY(errorX < 1e-12 && errorY < 1e-12);
    QVERIFY((A * x - b).lpNorm<Eigen::Infinity>() < 1e-13);
    QVERIFY(lu.pivotRatio() > 1e-3 && lu.pivotRatio() <= 1.0);
  }

  void refusesSingular() {
    Eigen::MatrixXd A = Eigen::MatrixXd::Identity(4, 4);
    A.row(2) = A.row(1);
    DenseLu lu;
    lu.resize(4);
    QVERIFY(!lu.factor(A));
    Eigen::MatrixXd B = Eigen::MatrixXd::Identity(4, 4);
    B(3, 3) = std::nan("");
    QVERIFY(!lu.factor(B));
    B(3, 3) = 1e-20;
    QVERIFY(lu.factor(B));
    QCOMPARE(lu.pivotRatio(), 1e-20);
  }
};

QTEST_GUILESS_MAIN(TestDenseLu)
#include "tst_dense_lu.moc"
