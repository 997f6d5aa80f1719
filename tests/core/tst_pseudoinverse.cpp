// The applied pseudoinverse (solve/pseudoinverse.h) against the pseudoinverse formed from a full
// SVD: well conditioned (QR), switched-off rows, the leading rows, a redundant row and a nearly
// singular matrix (SVD fallback), more rows than columns.
#include "solve/pseudoinverse.h"

#include <QtTest>

#include <vector>

using namespace rlx;

namespace {

// The pseudoinverse of C formed from its SVD, singular values <= relative * sigma_1 dropped.
Eigen::MatrixXd formedPinv(const Eigen::MatrixXd& C, double relative = 1e-12) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd& s = svd.singularValues();
  Eigen::VectorXd inv = Eigen::VectorXd::Zero(s.size());
  for (Eigen::Index i = 0; i < s.size(); ++i)
    if (s(i) > relative * s(0)) inv(i) = 1.0 / s(i);
  return svd.matrixV() * inv.asDiagonal() * svd.matrixU().transpose();
}

Eigen::MatrixXd randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::srand(seed);
  return Eigen::MatrixXd::Random(rows, cols);
}

// Largest difference of C^+ b, C_k^+ b_k and (C^T)^+ z from the formed pseudoinverses.
double worstDifference(PseudoInverse& pinv, const Eigen::MatrixXd& Cref, Eigen::Index leading) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(Cref.rows(), -1.0, 2.0);
  const Eigen::VectorXd z = Eigen::VectorXd::LinSpaced(Cref.cols(), 0.5, -1.5);
  Eigen::VectorXd x, xk, y;
  pinv.apply(b, x);
  pinv.applyLeading(b.head(leading), xk);
  pinv.applyTranspose(z, y);
  const Eigen::MatrixXd P = formedPinv(Cref), Pk = formedPinv(Cref.topRows(leading));
  return std::max({(x - P * b).lpNorm<Eigen::Infinity>(),
                   (xk - Pk * b.head(leading)).lpNorm<Eigen::Infinity>(),
                   (y - P.transpose() * z).lpNorm<Eigen::Infinity>()});
}

}  // namespace

class TestPseudoinverse : public QObject {
  Q_OBJECT
 private slots:
  void wellConditionedUsesQR() {
    const Eigen::MatrixXd C = randomMatrix(5, 6, 1);
    PseudoInverse pinv(5, 6);
    pinv.compute(C, {}, 3);
    QVERIFY(pinv.factoredByQR());
    QVERIFY2(worstDifference(pinv, C, 3) < 1e-12, "QR and SVD pseudoinverses differ");
  }

  void switchedOffRowsCountAsZero() {
    const Eigen::MatrixXd C = randomMatrix(5, 6, 2);
    Eigen::MatrixXd zeroed = C;
    zeroed.row(1).setZero();
    zeroed.row(4).setZero();
    PseudoInverse pinv(5, 6);
    pinv.compute(C, {true, false, true, true, false}, 4);
    QVERIFY(pinv.factoredByQR());
    QVERIFY2(worstDifference(pinv, zeroed, 4) < 1e-12, "switched-off rows are not zero rows");
    Eigen::VectorXd y;
    pinv.applyTranspose(Eigen::VectorXd::Ones(6), y);
    QCOMPARE(y(1), 0.0);
    QCOMPARE(y(4), 0.0);
  }

  void redundantRowFallsBackToSvd() {
    // Row 3 = row 0 + row 1: rank 4, the minimum-norm solution.
    Eigen::MatrixXd C = randomMatrix(5, 6, 3);
    C.row(3) = C.row(0) + C.row(1);
    PseudoInverse pinv(5, 6);
    pinv.compute(C, {}, 5);
    QVERIFY(!pinv.factoredByQR());
    QVERIFY2(worstDifference(pinv, C, 5) < 1e-12, "rank-deficient pseudoinverse is wrong");
  }

  void nearlySingularFallsBackToSvd() {
    // Singular values 1 ... 1e-10: kappa beyond the QR path's limit.
    const Eigen::MatrixXd U = randomMatrix(4, 4, 4).householderQr().householderQ();
    const Eigen::MatrixXd V = randomMatrix(6, 6, 5).householderQr().householderQ();
    const Eigen::Vector4d s(1.0, 0.5, 1e-3, 1e-10);
    const Eigen::MatrixXd C = U * s.asDiagonal() * V.leftCols(4).transpose();
    PseudoInverse pinv(4, 6);
    pinv.compute(C, {}, 2);
    QVERIFY(!pinv.factoredByQR());
    Eigen::VectorXd x;
    const Eigen::Vector4d b(1.0, -2.0, 0.5, 3.0);
    pinv.apply(b, x);
    QVERIFY((x - formedPinv(C, 1e-14) * b).norm() < 1e-4 * (formedPinv(C, 1e-14) * b).norm());
  }

  void moreRowsThanColumns() {
    const Eigen::MatrixXd C = randomMatrix(7, 4, 6);
    PseudoInverse pinv(7, 4);
    pinv.compute(C, {}, 7);
    QVERIFY(!pinv.factoredByQR());
    QVERIFY2(worstDifference(pinv, C, 7) < 1e-12, "least-squares pseudoinverse is wrong");
  }
};

QTEST_GUILESS_MAIN(TestPseudoinverse)
#include "tst_pseudoinverse.moc"
