// Adams' measures of markers translated into expressions of the bodies' measures
// (core/io/adams_measures.cpp), evaluated on random states: displacements against the markers'
// frames computed here, velocities against central differences of the displacements along the
// motion, angles against markers turned by a known angle, units against SI; and Adams' IF, SIGN,
// IMPACT and BISTOP (core/io/adams_expression.cpp) against their definitions on both sides of
// every switch.
#include "expr/expr.h"
#include "io/adams_expression.h"
#include "io/adams_text.h"

#include <QtTest>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

#include <map>
#include <random>
#include <stdexcept>

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using rlx::adams::ExpressionContext;
using rlx::adams::MarkerFrame;

struct BodyState {
  Vector3d x, v, w;  // position, velocity, angular velocity (ground axes)
  Matrix3d R;
  BodyState moved(double h) const {  // along its motion for a time h
    BodyState out = *this;
    out.x += h * v;
    out.R = Eigen::AngleAxisd(h * w.norm(), w.normalized()).toRotationMatrix() * R;
    return out;
  }
};

Matrix3d randomRotation(std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Eigen::Quaterniond(u(random), u(random), u(random), u(random))
      .normalized()
      .toRotationMatrix();
}

Vector3d randomVector(std::mt19937& random) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return {u(random), u(random), u(random)};
}

class Scene {
 public:
  std::map<std::string, BodyState> bodies;
  std::map<long long, MarkerFrame> markers;  // id 0 is never a marker

  ExpressionContext context() const {
    ExpressionContext c;
    c.marker = [this](long long id) { return markers.at(id); };
    c.variable = [](long long, bool&) -> std::string { throw rlx::adams::DatasetError{1, "none"}; };
    return c;
  }

  // The translated expression's value with the bodies' measures bound to `states`.
  double value(const std::string& adams, const std::map<std::string, BodyState>& states,
               ExpressionContext c) const {
    const std::string text = rlx::adams::translateExpression(adams, 1, c);
    rlx::expr::ParseError error;
    const rlx::expr::Expr tree = rlx::expr::parse(text, &error);
    const auto resolve = [&](const std::string& name) -> rlx::expr::Binding {
      const auto dot = name.find('.');
      const BodyState& b = states.at(name.substr(0, dot));
      const std::string m = name.substr(dot + 1);
      if (m.size() == 3 && m[0] == 'R') return b.R(m[1] - '1', m[2] - '1');
      const int k = m.back() - 'x';
      if (m.size() == 1) return b.x(k);
      return m[0] == 'v' ? b.v(k) : b.w(k);
    };
    std::string bindError;
    const rlx::expr::Expr bound = rlx::expr::bind(tree, resolve, &bindError);
    const std::optional<double> v = rlx::expr::constantValue(bound);
    if (!v) throw std::runtime_error(adams + ": " + error.message + bindError);
    return *v;
  }
  double value(const std::string& adams) const { return value(adams, bodies, context()); }

  // A marker's origin and axes in ground for the bodies in `states`.
  Vector3d origin(long long id, const std::map<std::string, BodyState>& states) const {
    const MarkerFrame& m = markers.at(id);
    if (m.body.empty()) return m.origin;
    const BodyState& b = states.at(m.body);
    return b.x + b.R * m.origin;
  }
  Matrix3d axes(long long id) const {
    const MarkerFrame& m = markers.at(id);
    return m.body.empty() ? m.axes : bodies.at(m.body).R * m.axes;
  }
  Vector3d angularVelocity(long long id) const {
    const MarkerFrame& m = markers.at(id);
    return m.body.empty() ? Vector3d::Zero() : bodies.at(m.body).w;
  }
};

Scene randomScene(std::mt19937& random) {
  Scene s;
  for (const char* name : {"a", "b"})
    s.bodies[name] = {randomVector(random), randomVector(random), randomVector(random),
                      randomRotation(random)};
  // Markers 1, 2 on a; 3, 4 on b; 5 on ground.
  const char* owners[] = {"a", "a", "b", "b", ""};
  for (long long id = 1; id <= 5; ++id)
    s.markers[id] = {owners[id - 1], randomVector(random), randomRotation(random)};
  return s;
}

}  // namespace

class TestAdamsMeasures : public QObject {
  Q_OBJECT

 private slots:
  void displacements();
  void velocitiesAgainstDifferences();
  void angles();
  void units();
  void switchingFunctions();
};

void TestAdamsMeasures::displacements() {
  std::mt19937 random(3);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Scene s = randomScene(random);
    for (long long i = 1; i <= 5; ++i)
      for (long long j = 0; j <= 5; ++j)
        for (long long k = 0; k <= 5; ++k) {
          const Vector3d d = s.origin(i, s.bodies) - (j ? s.origin(j, s.bodies) : Vector3d::Zero());
          const Matrix3d axes = k ? s.axes(k) : Matrix3d::Identity();
          const std::string args =
              "(" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(k) + ")";
          for (int c = 0; c < 3; ++c)
            worst = std::max(
                worst, std::abs(s.value(std::string("D") + "XYZ"[c] + args) - d.dot(axes.col(c))));
          if (k == 0)
            worst = std::max(
                worst, std::abs(s.value("DM(" + std::to_string(i) + "," + std::to_string(j) + ")") -
                                d.norm()));
        }
  }
  qInfo("DX DY DZ DM: largest error %.1e", worst);
  QVERIFY(worst < 1e-12);
}

void TestAdamsMeasures::velocitiesAgainstDifferences() {
  // d/dt of the displacement from j to i, seen from l: central differences of the positions
  // along the bodies' motion, less w_l x d; WX..WZ against R(t + h) R(t - h)^T.
  std::mt19937 random(4);
  const double h = 1e-5;
  double worst = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const Scene s = randomScene(random);
    std::map<std::string, BodyState> ahead, behind;
    for (const auto& [name, b] : s.bodies) ahead[name] = b.moved(h), behind[name] = b.moved(-h);
    for (long long i = 1; i <= 5; ++i)
      for (long long j = 0; j <= 5; ++j) {
        const auto d = [&](const std::map<std::string, BodyState>& at) {
          return Vector3d(s.origin(i, at) - (j ? s.origin(j, at) : Vector3d::Zero()));
        };
        const Vector3d rate = (d(ahead) - d(behind)) / (2 * h), now = d(s.bodies);
        for (long long k = 0; k <= 5; ++k)
          for (long long l = 0; l <= 5; ++l) {
            const Vector3d seen = rate - (l ? s.angularVelocity(l) : Vector3d::Zero()).cross(now);
            const Matrix3d axes = k ? s.axes(k) : Matrix3d::Identity();
            const std::string args = "(" + std::to_string(i) + "," + std::to_string(j) + "," +
                                     std::to_string(k) + "," + std::to_string(l) + ")";
            for (int c = 0; c < 3; ++c)
              worst = std::max(worst, std::abs(s.value(std::string("V") + "XYZ"[c] + args) -
                                               seen.dot(axes.col(c))));
            // VR and VM seen from a moving part's frame are longer than an expression may be
            // (400 operations): the compiler refuses them by name. From ground they fit.
            if (k == 0 && (l == 0 || l == 5)) {
              const std::string three =
                  "(" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(l) + ")";
              if (now.norm() > 1e-6)
                worst =
                    std::max(worst, std::abs(s.value("VR" + three) - seen.dot(now.normalized())));
              worst = std::max(worst, std::abs(s.value("VM" + three) - seen.norm()));
            }
          }
        // Angular velocities: of i's body less j's, from the rotations' differences.
        const auto spin = [&](long long m) -> Vector3d {
          if (!m || s.markers.at(m).body.empty()) return Vector3d::Zero();
          const std::string& body = s.markers.at(m).body;
          const Matrix3d turn = ahead.at(body).R * behind.at(body).R.transpose();
          return Vector3d(turn(2, 1) - turn(1, 2), turn(0, 2) - turn(2, 0),
                          turn(1, 0) - turn(0, 1)) /
                 (4 * h);
        };
        const Vector3d w = spin(i) - spin(j);
        for (long long k = 0; k <= 5; ++k) {
          const Matrix3d axes = k ? s.axes(k) : Matrix3d::Identity();
          const std::string args =
              "(" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(k) + ")";
          for (int c = 0; c < 3; ++c)
            worst = std::max(
                worst, std::abs(s.value(std::string("W") + "XYZ"[c] + args) - w.dot(axes.col(c))));
        }
        worst = std::max(
            worst, std::abs(s.value("WM(" + std::to_string(i) + "," + std::to_string(j) + ")") -
                            w.norm()));
      }
  }
  qInfo("VX VY VZ VR VM WX WY WZ WM against differences: largest error %.1e", worst);
  QVERIFY(worst < 1e-8);
}

void TestAdamsMeasures::angles() {
  // Marker 2 (on a) is marker 3 (on b) turned by theta about 3's x, y or z axis: AX, AY or AZ
  // of (2, 3) is theta, over the whole turn.
  std::mt19937 random(5);
  double worst = 0;
  for (int trial = 0; trial < 20; ++trial) {
    Scene s = randomScene(random);
    const double theta = -3.0 + 6.0 * trial / 19.0;
    for (int c = 0; c < 3; ++c) {
      const Matrix3d turn = Eigen::AngleAxisd(theta, Vector3d::Unit(c)).toRotationMatrix();
      s.markers[2].axes = s.bodies["a"].R.transpose() * s.axes(3) * turn;
      const double got = s.value(std::string("A") + "XYZ"[c] + "(2, 3)");
      worst = std::max(worst, std::abs(got - theta));
    }
    // j left out: ground's axes.
    s.markers[2].axes = s.bodies["a"].R.transpose() *
                        Eigen::AngleAxisd(theta, Vector3d::UnitZ()).toRotationMatrix();
    worst = std::max(worst, std::abs(s.value("AZ(2)") - theta));
  }
  qInfo("AX AY AZ: largest error %.1e rad", worst);
  QVERIFY(worst < 1e-12);
}

void TestAdamsMeasures::units() {
  // In inches and minutes a displacement is metres / 0.0254, a velocity (m/s) * 60 / 0.0254, an
  // angular velocity (rad/s) * 60; an angle is an angle.
  std::mt19937 random(6);
  Scene s = randomScene(random);
  const double dm = s.value("DM(1, 3)"), vx = s.value("VX(1, 3)"), wz = s.value("WZ(1, 3)"),
               az = s.value("AZ(1, 3)");
  ExpressionContext c = s.context();
  c.length = 0.0254;
  c.time = 60;
  const auto in = [&](const std::string& adams) { return s.value(adams, s.bodies, c); };
  QVERIFY(std::abs(in("DM(1, 3)") - dm / 0.0254) < 1e-12 * std::abs(dm / 0.0254));
  QVERIFY(std::abs(in("VX(1, 3)") - vx * 60 / 0.0254) < 1e-12 * std::abs(vx * 60 / 0.0254));
  QVERIFY(std::abs(in("WZ(1, 3)") - wz * 60) < 1e-12 * std::abs(wz * 60));
  QCOMPARE(in("AZ(1, 3)"), az);
}

void TestAdamsMeasures::switchingFunctions() {
  const Scene s;
  QCOMPARE(s.value("IF(-0.5: 2, 3, 4)"), 2.0);
  QCOMPARE(s.value("IF(0: 2, 3, 4)"), 3.0);
  QCOMPARE(s.value("IF(1E-300: 2, 3, 4)"), 4.0);
  QCOMPARE(s.value("IF(2 - 3: -1, IF(1: 5, 6, 7), 9) * 2"), -2.0);
  QCOMPARE(s.value("SIGN(-3, 0)"), 3.0);  // Fortran's: + for a zero second argument
  QCOMPARE(s.value("SIGN(3, -2)"), -3.0);
  // A cubic step from (x0, h0) to (x1, h1).
  const auto step = [](double x, double x0, double h0, double x1, double h1) {
    if (x <= x0) return h0;
    if (x >= x1) return h1;
    const double u = (x - x0) / (x1 - x0);
    return h0 + (h1 - h0) * u * u * (3 - 2 * u);
  };
  // IMPACT(x, x', x1, k, e, cmax, d), BISTOP(x, x', x1, x2, k, e, cmax, d) as Adams defines them.
  const double k = 1000, e = 1.5, cmax = 20, d = 0.1, x1 = 0.5, x2 = 0.9;
  const auto impact = [&](double x, double v) {
    return x < x1 ? std::max(0.0, k * std::pow(x1 - x, e) - step(x, x1 - d, cmax, x1, 0) * v) : 0.0;
  };
  const auto bistop = [&](double x, double v) {
    if (x < x1) return impact(x, v);
    if (x > x2) return std::min(0.0, -k * std::pow(x - x2, e) - step(x, x2, 0, x2 + d, cmax) * v);
    return 0.0;
  };
  double worst = 0;
  for (const double x : {0.2, 0.45, 0.5, 0.7, 0.9, 0.95, 1.3})
    for (const double v : {-3.0, -0.1, 0.0, 2.0, 500.0}) {
      const std::string xs = std::to_string(x), vs = std::to_string(v);
      const double a = s.value("IMPACT(" + xs + ", " + vs + ", 0.5, 1000, 1.5, 20, 0.1)");
      const double b = s.value("BISTOP(" + xs + ", " + vs + ", 0.5, 0.9, 1000, 1.5, 20, 0.1)");
      worst = std::max({worst, std::abs(a - impact(x, v)) / (1 + std::abs(a)),
                        std::abs(b - bistop(x, v)) / (1 + std::abs(b))});
    }
  qInfo("IMPACT and BISTOP against their definitions: %.1e", worst);
  QVERIFY(worst < 1e-14);
  QVERIFY_THROWS_EXCEPTION(rlx::adams::DatasetError, s.value("IMPACT(1, 2)"));
  QVERIFY_THROWS_EXCEPTION(rlx::adams::DatasetError, s.value("IF(1, 2, 3, 4)"));
}

QTEST_GUILESS_MAIN(TestAdamsMeasures)
#include "tst_adams_measures.moc"
