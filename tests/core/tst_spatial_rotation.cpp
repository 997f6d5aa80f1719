// Rotation utilities of spatial bodies: 3-1-3 Euler angles, quaternions, matrices, the
// exponential map; round trips at random rotations and near theta = 0 and pi.
#include "joints/rotation.h"
#include "model/model.h"
#include "solve/equations/constraints.h"

#include <QtTest>

#include <numbers>
#include <random>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

double matrixError(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  return (a - b).cwiseAbs().maxCoeff();
}

}  // namespace

class TestSpatialRotation : public QObject {
  Q_OBJECT

 private slots:
  void eulerMatchesDefinition();
  void eulerRoundTrip();
  void eulerNearSingular();
  void quaternionRoundTrip();
  void exponentialMap();
  void integratePositionsTurnsAboutGlobalAxes();
};

void TestSpatialRotation::eulerMatchesDefinition() {
  // R = Rz(psi) Rx(theta) Rz(phi): the third column is (s(psi) s(theta), -c(psi) s(theta),
  // c(theta)).
  const Eigen::Matrix3d R = rotation::fromEuler313({0.3, 0.7, -1.1});
  QVERIFY(std::abs(R(0, 2) - std::sin(0.3) * std::sin(0.7)) < 1e-15);
  QVERIFY(std::abs(R(1, 2) + std::cos(0.3) * std::sin(0.7)) < 1e-15);
  QVERIFY(std::abs(R(2, 0) - std::sin(0.7) * std::sin(-1.1)) < 1e-15);
  QVERIFY(std::abs(R(2, 2) - std::cos(0.7)) < 1e-15);
}

void TestSpatialRotation::eulerRoundTrip() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-kPi, kPi), tilt(0.01, kPi - 0.01);
  double worstAngles = 0.0, worstMatrix = 0.0;
  for (int i = 0; i < 1000; ++i) {
    const Eigen::Vector3d e(angle(rng), tilt(rng), angle(rng));
    const Eigen::Matrix3d R = rotation::fromEuler313(e);
    const Eigen::Vector3d back = rotation::toEuler313(R);
    worstAngles = std::max(worstAngles, (back - e).cwiseAbs().maxCoeff());
    worstMatrix = std::max(worstMatrix, matrixError(rotation::fromEuler313(back), R));
  }
  qInfo("Euler round trip over 1000 rotations: angles %.3g rad, matrix %.3g", worstAngles,
        worstMatrix);
  QVERIFY(worstAngles < 1e-12);
  QVERIFY(worstMatrix < 1e-14);
}

void TestSpatialRotation::eulerNearSingular() {
  // Near theta = 0 only psi + phi is defined; the matrix must still round-trip exactly.
  double worst = 0.0;
  for (const double theta : {0.0, 1e-15, 1e-12, 1e-9, 1e-6, kPi - 1e-9, kPi}) {
    const Eigen::Matrix3d R = rotation::fromEuler313({0.4, theta, 1.9});
    const Eigen::Vector3d back = rotation::toEuler313(R);
    const double error = matrixError(rotation::fromEuler313(back), R);
    worst = std::max(worst, error);
    QVERIFY2(std::abs(back(1) - theta) < 1e-12, qPrintable(QString::number(theta)));
    if (theta < 1e-3) QVERIFY(std::abs(std::remainder(back(0) + back(2) - 2.3, 2 * kPi)) < 1e-12);
  }
  qInfo("Euler round trip near theta = 0 and pi: matrix %.3g", worst);
  QVERIFY(worst < 1e-14);
  // Exactly theta = 0: the whole rotation is psi.
  const Eigen::Vector3d flat = rotation::toEuler313(rotation::fromEuler313({0.4, 0.0, 1.9}));
  QVERIFY(std::abs(flat(0) - 2.3) < 1e-14 && flat(1) == 0.0 && flat(2) == 0.0);
}

void TestSpatialRotation::quaternionRoundTrip() {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal;
  double worst = 0.0;
  for (int i = 0; i < 1000; ++i) {
    Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
    q.normalize();
    if (q.w() < 0) q.coeffs() = -q.coeffs();
    const Eigen::Quaterniond back = rotation::fromMatrix(q.toRotationMatrix());
    worst = std::max(worst, (back.coeffs() - q.coeffs()).cwiseAbs().maxCoeff());
    Eigen::VectorXd wxyz(4);
    rotation::toCoordinates(q, wxyz);
    QCOMPARE(wxyz(0), q.w());
    QVERIFY(rotation::fromCoordinates(wxyz).isApprox(q, 0.0));
  }
  qInfo("quaternion -> matrix -> quaternion over 1000 rotations: %.3g", worst);
  QVERIFY(worst < 1e-14);
}

void TestSpatialRotation::exponentialMap() {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal;
  double worst = 0.0;
  for (const double scale : {1e-12, 1e-6, 1e-4, 1e-2, 1.0, 3.0}) {
    for (int i = 0; i < 100; ++i) {
      const Eigen::Vector3d theta = scale * Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
      const Eigen::Quaterniond q = rotation::exponential(theta);
      const Eigen::Quaterniond exact(Eigen::AngleAxisd(theta.norm(), theta.normalized()));
      worst = std::max(worst, matrixError(q.toRotationMatrix(), exact.toRotationMatrix()));
      QVERIFY(std::abs(q.norm() - 1) < 1e-15);
      if (theta.norm() < kPi)
        QVERIFY((rotation::logarithm(q) - theta).norm() <= 1e-14 * std::max(1.0, theta.norm()));
    }
  }
  qInfo("exp map against the axis-angle rotation: %.3g", worst);
  QVERIFY(worst < 1e-15);
}

void TestSpatialRotation::integratePositionsTurnsAboutGlobalAxes() {
  // One body: q = (r, quaternion), v = (r_dot, omega global); A <- exp(h omega) A.
  Model model;
  model.dimension = 3;
  model.nq = 7;
  model.nv = 6;
  model.bodies.push_back(Body{});
  Eigen::VectorXd q(7), v(6);
  const Eigen::Matrix3d A0 = rotation::fromEuler313({0.2, 0.9, -0.4});
  q << 1, 2, 3, 0, 0, 0, 0;
  rotation::toCoordinates(rotation::fromMatrix(A0), q.segment<4>(3));
  v << 0.5, -1, 2, 0.3, -0.2, 0.7;
  integratePositions(model, q, v, 0.1);
  const Eigen::Vector3d w = v.tail<3>();
  const Eigen::Matrix3d expected = Eigen::AngleAxisd(0.1 * w.norm(), w.normalized()) * A0;
  const Eigen::Matrix3d A = rotation::fromCoordinates(q.segment<4>(3)).toRotationMatrix();
  QVERIFY(matrixError(A, expected) < 1e-15);
  QVERIFY((q.head<3>() - Eigen::Vector3d(1.05, 1.9, 3.2)).norm() < 1e-15);
  QVERIFY(std::abs(q.segment<4>(3).norm() - 1) < 1e-15);
}

QTEST_GUILESS_MAIN(TestSpatialRotation)
#include "tst_spatial_rotation.moc"
