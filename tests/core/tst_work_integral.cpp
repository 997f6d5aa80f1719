// The nonconservative work's quadrature (solve/recording/work_integral.h): exact for a cubic power
// on uneven steps once four samples are in (the first steps integrated again), fourth order on a
// smooth power (the trapezoidal rule: second), no amplification of the power's noise by samples
// bunched before a long step, a repeated time.
#include "solve/recording/work_integral.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

using namespace rlx;

namespace {

double cubic(double t) { return 2 - 3 * t + 5 * t * t - 7 * t * t * t; }
double cubicIntegral(double t) { return 2 * t - 1.5 * t * t + 5.0 / 3 * t * t * t - 1.75 * t * t * t * t; }

}  // namespace

class TestWorkIntegral : public QObject {
  Q_OBJECT

 private slots:
  void exactForACubic() {
    // Steps of 1, 1.5, 0.75, 2, 0.6 ... times 0.05 (within a factor four of each other). The
    // first two steps have the trapezoidal rule's and the quadratic's error until the fourth
    // sample comes in.
    WorkIntegral work;
    double t = 0.3, first = 0, worst = 0;
    work.add(t, cubic(t));
    const double steps[] = {1, 1.5, 0.75, 2, 0.6, 1.2, 2.1, 0.9, 1, 1};
    for (int k = 0; k < 10; ++k) {
      t += 0.05 * steps[k];
      work.add(t, cubic(t));
      const double error = std::abs(work.value() - (cubicIntegral(t) - cubicIntegral(0.3)));
      if (k < 2)
        first = std::max(first, error);
      else
        worst = std::max(worst, error);
    }
    qInfo("cubic power over 10 uneven steps: error %.1e after the first two, then at most %.1e",
          first, worst);
    QVERIFY2(first > 1e-6, QByteArray::number(first));
    QVERIFY2(worst < 1e-15, QByteArray::number(worst));
  }

  void fourthOrder() {
    // The integral of sin(omega t) over 2 s at h = 0.04 ... 0.005: error ~ h^4.
    const double omega = 3;
    std::vector<double> steps, errors;
    for (const double h : {0.04, 0.02, 0.01, 0.005}) {
      WorkIntegral work;
      const int n = static_cast<int>(std::lround(2 / h));
      for (int k = 0; k <= n; ++k) work.add(k * h, std::sin(omega * k * h));
      steps.push_back(h);
      errors.push_back(std::abs(work.value() - (1 - std::cos(omega * 2)) / omega));
    }
    const double slope = test::logLogSlope(steps, errors);
    qInfo("sin(3 t) over 2 s: errors %.2e %.2e %.2e %.2e, slope %.2f", errors[0], errors[1],
          errors[2], errors[3], slope);
    QVERIFY2(std::abs(slope - 4) < 0.3, QByteArray::number(slope));
    QVERIFY2(errors[1] < 1e-7, QByteArray::number(errors[1]));
  }

  void bunchedSamplesDoNotAmplifyNoise() {
    // A constant power of 1 with relative noise 1e-6 (a Newton tolerance), sampled at steps of
    // 1e-3 with, every tenth step, three steps of 1e-9 (a variable-step method landing on output
    // times): the integral stays within the noise, as the trapezoidal rule's would.
    std::mt19937 random(5);
    std::uniform_real_distribution<double> noise(-1e-6, 1e-6);
    WorkIntegral work;
    double t = 0;
    work.add(t, 1 + noise(random));
    for (int k = 1; k <= 1000; ++k) {
      const int bunch = k % 10 == 0 ? 3 : 0;
      for (int b = 0; b < bunch; ++b) work.add(t += 1e-9, 1 + noise(random));
      work.add(t += 1e-3, 1 + noise(random));
    }
    const double error = std::abs(work.value() - t);
    qInfo("noisy constant power over %.6f s with bunched samples: error %.1e", t, error);
    QVERIFY2(error < 1e-6 * t, QByteArray::number(error));
  }

  void repeatedTimeReplacesTheSample() {
    // A zero-length step adds nothing; the sample given last at that time is the one the next
    // step starts from (power 1 up to t = 1, then 3, constant).
    WorkIntegral work;
    for (int k = 0; k <= 10; ++k) work.add(0.1 * k, 1.0);
    work.add(1.0, 3.0);
    QCOMPARE(work.value(), 1.0);
    for (int k = 11; k <= 20; ++k) work.add(0.1 * k, 3.0);
    const double after = work.value() - 1.0;
    qInfo("after the jump: %.17g (3 at the step's ends, older samples of 1 in the cubic)", after);
    QVERIFY(std::isfinite(after));
    QVERIFY2(std::abs(after - 3.0) < 0.05, QByteArray::number(after));
  }
};

QTEST_GUILESS_MAIN(TestWorkIntegral)
#include "tst_work_integral.moc"
