// The applied pseudoinverse (solve/linalg/pseudoinverse.h) against the pseudoinverse formed from a
// full SVD: well conditioned (QR), switched-off rows, the leading rows, a redundant row and a
// nearly singular matrix (SVD fallback), more rows than columns. The QR path's lengths unrolled at
// compile time (3 ... 18 columns) and run-time ones against Eigen's complete orthogonal
// decomposition on full-rank, rank-deficient and nearly singular matrices, with C (C^T)^+ too.
#include "solve/linalg/pseudoinverse.h"

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

// Largest difference of C^+ b, C_k^+ b_k, (C^T)^+ z and (C C^T)^+ b from those of the complete
// orthogonal decomposition, relative to the norm of the pseudoinverse (of its square for the last).
double differenceFromCod(PseudoInverse& pinv, const Eigen::MatrixXd& C, Eigen::Index leading) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(C.rows(), -1.0, 2.0);
  const Eigen::VectorXd z = Eigen::VectorXd::LinSpaced(C.cols(), 0.5, -1.5);
  Eigen::VectorXd x, xk, y, g;
  pinv.apply(b, x, &g);
  pinv.applyLeading(b.head(leading), xk);
  pinv.applyTranspose(z, y);
  const Eigen::MatrixXd P =
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(C).pseudoInverse();
  const Eigen::MatrixXd Pk =
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(C.topRows(leading)).pseudoInverse();
  const double p = P.norm();
  return std::max({(x - P * b).lpNorm<Eigen::Infinity>() / p,
                   (xk - Pk * b.head(leading)).lpNorm<Eigen::Infinity>() / Pk.norm(),
                   (y - P.transpose() * z).lpNorm<Eigen::Infinity>() / p,
                   (g - P.transpose() * (P * b)).lpNorm<Eigen::Infinity>() / (p * p)});
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

  void sizesAgainstCompleteOrthogonalDecomposition() {
    // Unrolled lengths (3 ... 18) and run-time ones (4, 20); m from one row to n.
    unsigned seed = 10;
    for (const Eigen::Index n : {3, 4, 6, 9, 12, 15, 18, 20}) {
      for (const Eigen::Index m : {Eigen::Index{1}, n / 2, n - 1, n}) {
        if (m < 1) continue;
        const Eigen::MatrixXd C = randomMatrix(m, n, ++seed);
        PseudoInverse pinv(m, n);
        pinv.compute(C, {}, (m + 1) / 2);
        QVERIFY(pinv.factoredByQR());
        const double full = differenceFromCod(pinv, C, (m + 1) / 2);
        QVERIFY2(full < 1e-12,
                 qPrintable(QString("full rank %1 x %2: %3").arg(m).arg(n).arg(full)));
        if (m < 3) continue;
        // Rank deficient: the last row is the sum of the first two (SVD path, same rank as COD).
        Eigen::MatrixXd D = C;
        D.row(m - 1) = D.row(0) + D.row(1);
        pinv.compute(D, {}, m);
        QVERIFY(!pinv.factoredByQR());
        const double deficient = differenceFromCod(pinv, D, m);
        QVERIFY2(deficient < 1e-12,
                 qPrintable(QString("rank deficient %1 x %2: %3").arg(m).arg(n).arg(deficient)));
        // Nearly singular: the last row 1e-10 away from that sum (kappa about 1e10, full rank).
        Eigen::MatrixXd S = D;
        S(m - 1, 0) += 1e-10;
        pinv.compute(S, {}, m);
        QVERIFY(!pinv.factoredByQR());
        const double singular = differenceFromCod(pinv, S, m);
        QVERIFY2(singular < 1e-3,
                 qPrintable(QString("nearly singular %1 x %2: %3").arg(m).arg(n).arg(singular)));
      }
    }
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
