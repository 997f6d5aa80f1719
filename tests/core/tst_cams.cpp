// Cams (core/joints/cam.cpp, curve_contact.cpp, curve.cpp) against closed forms: a cycloidal rise
// followed by a knife edge on the pitch curve and by a roller on the offset profile, the roller's
// contact force against the follower's Newton-Euler balance, a flat face on an eccentric circle
// (R + e sin theta), a free cam's energy with every integrator, the derivatives (Phi_q, gamma,
// the stiffness) against differences, splines, and the messages for curves that cannot work.
#include "constraint_check.h"
#include "joints/curve.h"
#include "joints/family.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/planar_stiffness.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double r0 = 0.05, rr = 0.01, h = 0.02, b = 2 * kPi / 3, w = 2 * kPi;

// The example's lift law and its first two derivatives in the cam angle: cycloidal rise over b,
// dwell to pi, cycloidal return over b, dwell.
struct Lift {
  double s, ds, dds;
};
Lift lift(double u) {
  u = std::fmod(u, 2 * kPi);
  if (u < 0) u += 2 * kPi;
  const auto cycloid = [](double x) {
    return Lift{h * (x - std::sin(2 * kPi * x) / (2 * kPi)), h / b * (1 - std::cos(2 * kPi * x)),
                2 * kPi * h / (b * b) * std::sin(2 * kPi * x)};
  };
  if (u < b) return cycloid(u / b);
  if (u < kPi) return {h, 0, 0};
  if (u < kPi + b) {
    const Lift up = cycloid((u - kPi) / b);
    return {h - up.s, -up.ds, -up.dds};
  }
  return {0, 0, 0};
}

Results runOrFail(const Model& model) {
  AnalysisOutcome outcome = runAnalysis(model, {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

double coordinate(const Model& model, const Frame& f, const char* body, int k) {
  return f.state.q(test::body(model, body).q + k);
}

int jointIndex(const Model& model, const std::string& name) {
  for (std::size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].name == name) return static_cast<int>(j);
  qFatal("no joint %s", name.c_str());
  return -1;
}

JointSpec& jointNamed(Spec& spec, const std::string& name) {
  for (JointSpec& j : spec.joints)
    if (j.name == name) return j;
  qFatal("no joint %s", name.c_str());
  return spec.joints.front();
}

// The roller example with a knife edge at the roller's centre on the pitch curve instead.
Spec knifeEdge() {
  Spec spec = test::loadSpec(test::examplePath("disk_cam_roller.rlx"));
  JointSpec& contact = jointNamed(spec, "roller_contact");
  contact.type = JointType::PointOnCurve;
  contact.curve1.reset();
  contact.curve2->offset.reset();
  contact.point1 = Vector{0.0, 0.0};
  return spec;
}

std::string firstError(const Spec& spec) {
  const CompileResult compiled = compile(spec);
  return compiled.diagnostics.empty() ? std::string() : compiled.diagnostics.front().text();
}

// The largest |follower.y - (r0 + s(cam angle))| over a run.
double liftError(const Model& model, const Results& results) {
  double worst = 0;
  for (const Frame& f : results.frames)
    worst = std::max(worst, std::abs(coordinate(model, f, "follower", 1) -
                                     (r0 + lift(coordinate(model, f, "cam", 2)).s)));
  return worst;
}

}  // namespace

class TestCams : public QObject {
  Q_OBJECT
 private slots:
  void knifeEdgeFollowsTheLiftLaw();
  void rollerFollowsTheLiftLaw();
  void rollerForceBalancesTheFollower();
  void flatFaceOnAnEccentricCircle();
  void freeCamKeepsItsEnergy_data();
  void freeCamKeepsItsEnergy();
  void derivativesMatchDifferences_data();
  void derivativesMatchDifferences();
  void splineThroughPoints();
  void messages();
};

void TestCams::knifeEdgeFollowsTheLiftLaw() {
  const Model model = test::compileOrFail(knifeEdge());
  const Results results = runOrFail(model);
  QCOMPARE(results.frames.size(), std::size_t(201));
  const double error = liftError(model, results);
  qInfo("knife edge on the pitch curve: largest |y - (r0 + s)| %.1e m", error);
  QVERIFY2(error < 1e-9, QByteArray::number(error));
}

void TestCams::rollerFollowsTheLiftLaw() {
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("disk_cam_roller.rlx")));
  const Results results = runOrFail(model);
  const double error = liftError(model, results);
  qInfo("roller on the offset profile: largest |y - (r0 + s)| %.1e m", error);
  QVERIFY2(error < 1e-9, QByteArray::number(error));
  // The velocity and acceleration too: s' w and s'' w^2.
  double rate = 0, acceleration = 0;
  const int v = test::body(model, "follower").v + 1;
  for (const Frame& f : results.frames) {
    const Lift l = lift(coordinate(model, f, "cam", 2));
    rate = std::max(rate, std::abs(f.state.v(v) - l.ds * w));
    acceleration = std::max(acceleration, std::abs(f.vdot(v) - l.dds * w * w) / (h * w * w));
  }
  qInfo("follower rate error %.1e m/s, relative acceleration error %.1e", rate, acceleration);
  QVERIFY2(rate < 1e-9, QByteArray::number(rate));
  QVERIFY2(acceleration < 1e-8, QByteArray::number(acceleration));
}

void TestCams::rollerForceBalancesTheFollower() {
  // The follower (m) moves along y only: the contact's force on it, its y part, balances
  // m y'' + m g + the spring's push k (L0 - L); its line passes through the roller's centre (the
  // normal of the profile there) at the pressure angle tan(alpha) = s' / (r0 + s).
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("disk_cam_roller.rlx")));
  const Results results = runOrFail(model);
  const int contact = jointIndex(model, "roller_contact");
  const Joint& joint = model.joints[static_cast<std::size_t>(contact)];
  const double m = 0.5, g = 9.81, k = 500, L0 = 0.08;
  Workspace ws(model);
  double balance = 0, direction = 0, pressure = 0;
  for (const Frame& f : results.frames) {
    evaluateConstraintDerivatives(model, f.state, ws);
    ws.lambda = f.lambda;
    const Reaction r = jointReaction(model, f.state, ws, contact);  // on the cam, from the follower
    const Eigen::Vector2d onFollower = -r.force.head<2>();
    const double y = coordinate(model, f, "follower", 1);
    const Lift l = lift(coordinate(model, f, "cam", 2));
    const double spring = k * (L0 - (0.2 - (y + 0.1)));
    const double expected = m * l.dds * w * w + m * g + spring;
    balance = std::max(balance, std::abs(onFollower.y() - expected) / (m * g + spring));
    // Through the roller's centre: the contact point is rr from it, against the force.
    const Eigen::Vector2d centre(coordinate(model, f, "follower", 0), y);
    const Eigen::Vector2d point = jointFamily(JointType::CurveOnCurve)
                                      .planar->reactionPoint(joint, planarBody(model, f.state, joint.body1),
                                                             planarBody(model, f.state, joint.body2));
    direction = std::max({direction, std::abs((centre - point).normalized().dot(onFollower.normalized()) - 1),
                          std::abs((centre - point).norm() - rr)});
    pressure = std::max(pressure, std::abs(std::abs(onFollower.x() / onFollower.y()) -
                                           std::abs(l.ds) / (r0 + l.s)));
  }
  qInfo("contact force: balance %.1e (relative), through the roller's centre %.1e, pressure angle %.1e",
        balance, direction, pressure);
  QVERIFY2(balance < 1e-9, QByteArray::number(balance));
  QVERIFY2(direction < 1e-9, QByteArray::number(direction));
  QVERIFY2(pressure < 1e-9, QByteArray::number(pressure));
}

void TestCams::flatFaceOnAnEccentricCircle() {
  Spec spec = test::loadSpec(test::examplePath("flat_face_cam.rlx"));
  spec.analysis->type = AnalysisType::Kinematics;
  spec.analysis->tolerance = Number{1e-13};
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const double R = 0.04, e = 0.015;
  double worst = 0;
  for (const Frame& f : results.frames)
    worst = std::max(worst, std::abs(coordinate(model, f, "follower", 1) -
                                     (R + e * std::sin(coordinate(model, f, "cam", 2)))));
  qInfo("flat face: largest |y - (R + e sin theta)| %.1e m over %zu frames", worst, results.frames.size());
  QVERIFY2(worst < 1e-12, QByteArray::number(worst));
  // The example's own dynamics (the cam driven) follow the same law.
  const Model dynamics = test::compileOrFail(test::loadSpec(test::examplePath("flat_face_cam.rlx")));
  const Results run = runOrFail(dynamics);
  double drift = 0;
  for (const Frame& f : run.frames)
    drift = std::max(drift, std::abs(coordinate(dynamics, f, "follower", 1) -
                                     (R + e * std::sin(coordinate(dynamics, f, "cam", 2)))));
  qInfo("flat face, hht: largest |y - (R + e sin theta)| %.1e m", drift);
  QVERIFY2(drift < 1e-8, QByteArray::number(drift));
}

void TestCams::freeCamKeepsItsEnergy_data() {
  QTest::addColumn<QString>("integrator");
  for (const char* name : {"hht", "bdf", "corrected-rk", "corrected-rk45"}) QTest::newRow(name) << name;
}

void TestCams::freeCamKeepsItsEnergy() {
  // The roller cam turning freely from 40 rad/s, the spring and gravity on the follower, nothing
  // dissipating: it slows on each rise and speeds up on each return, keeping its energy.
  QFETCH(QString, integrator);
  Spec spec = test::loadSpec(test::examplePath("disk_cam_roller.rlx"));
  spec.motions.clear();
  for (BodySpec& body : spec.bodies)
    if (body.name == "cam") body.angularVelocity = {Number{40.0}};
  spec.analysis->type = AnalysisType::Dynamics;
  spec.analysis->endTime = Number{2.0};
  spec.analysis->step = Number{1e-3};
  spec.analysis->outputStep = Number{0.01};
  spec.analysis->integrator = integrator.toStdString();
  spec.analysis->tolerance = Number{1e-8};
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const double e0 = results.frames.front().kinetic + results.frames.front().potential;
  double drift = 0, constraint = 0, turns = 0;
  for (const Frame& f : results.frames) {
    drift = std::max(drift, std::abs(f.kinetic + f.potential - e0));
    constraint = std::max(constraint, f.constraintError);
    turns = coordinate(model, f, "cam", 2) / (2 * kPi);
  }
  qInfo("%s: %.2f turns in 2 s, energy %.4f J, largest drift %.1e J, largest |Phi| %.1e",
        qPrintable(integrator), turns, e0, drift, constraint);
  QVERIFY(turns > 5.0);
  // hht's alpha = -0.1 damps the follower's fast accelerations a little, by design.
  QVERIFY2(drift < (integrator == "hht" ? 1e-3 : 1e-5) * e0, QByteArray::number(drift));
  QVERIFY2(constraint < 1e-7, QByteArray::number(constraint));
}

void TestCams::derivativesMatchDifferences_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("variant");  // "", "knife", "spline"
  QTest::newRow("roller") << "disk_cam_roller.rlx" << "";
  QTest::newRow("knife edge") << "disk_cam_roller.rlx" << "knife";
  QTest::newRow("spline with offset") << "disk_cam_roller.rlx" << "spline";
  QTest::newRow("flat face") << "flat_face_cam.rlx" << "";
}

void TestCams::derivativesMatchDifferences() {
  QFETCH(QString, file);
  QFETCH(QString, variant);
  Spec spec = variant == "knife" ? knifeEdge() : test::loadSpec(test::examplePath(file.toStdString()));
  if (variant == "spline") {
    // An egg of 9 points; the roller on its offset.
    CurveSpec& curve = *jointNamed(spec, "roller_contact").curve2;
    curve = CurveSpec{};
    for (int i = 0; i < 9; ++i) {
      const double a = 2 * kPi * i / 9;
      const double rho = 0.045 + 0.01 * std::cos(a) + 0.004 * std::sin(2 * a);
      curve.points.push_back(Vector{rho * std::sin(a), rho * std::cos(a)});
    }
    curve.offset = Number{-rr};
  }
  const Model model = test::compileOrFail(spec);
  Workspace ws(model);
  // States near the contact (the curves apart or overlapping by a little), every body moving.
  for (int trial = 0; trial < 12; ++trial) {
    State state{0.3 + 0.05 * trial, model.q0, model.v0};
    for (Eigen::Index i = 0; i < state.q.size(); ++i) {
      state.q(i) += 0.004 * std::sin(3.0 * static_cast<double>(i) + trial);
      state.v(i) = std::cos(1.7 * static_cast<double>(i) + trial);
    }
    state.q(test::body(model, "cam").q + 2) += 0.5 * trial;  // around the cam
    Eigen::VectorXd a(model.nv);
    for (Eigen::Index i = 0; i < a.size(); ++i) a(i) = std::sin(0.7 * static_cast<double>(i) + trial);
    const test::ConstraintDerivativeErrors errors = test::constraintDerivativeErrors(model, state, a, ws);
    QVERIFY2(errors.Phi_q < 1e-6, QByteArray::number(errors.Phi_q));
    QVERIFY2(errors.gamma < 1e-5, QByteArray::number(errors.gamma));
  }
}

void TestCams::splineThroughPoints() {
  // The periodic spline passes through its points, is C2 across them, and round a circle's
  // points stays within the interpolation error of the circle.
  std::vector<Curve::Vec2> points;
  for (int i = 0; i < 24; ++i)
    points.emplace_back(std::cos(2 * kPi * i / 24), std::sin(2 * kPi * i / 24));
  const Curve curve = Curve::spline(points);
  QVERIFY(curve.closed());
  double through = 0, kink = 0, off = 0;
  const double chord = (points[1] - points[0]).norm();
  for (int i = 0; i < 24; ++i) {
    const double u = chord * i;
    through = std::max(through, (curve.at(u).c - points[static_cast<std::size_t>(i)]).norm());
    const Curve::Point before = curve.at(u - 1e-9), after = curve.at(u + 1e-9);
    kink = std::max({kink, (before.d1 - after.d1).norm(), (before.d2 - after.d2).norm() * 1e-2});
    off = std::max(off, std::abs(curve.at(u + chord / 2).c.norm() - 1));
  }
  qInfo("spline: through its points %.1e, jumps of c', c'' %.1e, off the circle %.1e", through, kink, off);
  QVERIFY(through < 1e-12);
  QVERIFY(kink < 1e-7);
  QVERIFY(off < 1e-4);
  QVERIFY(curve.defect().empty());
}

void TestCams::messages() {
  Spec spec = test::loadSpec(test::examplePath("disk_cam_roller.rlx"));
  {
    Spec s = spec;
    jointNamed(s, "roller_contact").curve1.reset();
    QCOMPARE(firstError(s), std::string("joints[2] \"roller_contact\": curve1 is missing (the curve on body1)"));
  }
  {
    Spec s = spec;
    CurveSpec& c = *jointNamed(s, "roller_contact").curve1;
    c.x = "u^3";
    c.y = "u^2";
    c.range = {Number{-1.0}, Number{1.0}};
    c.closed = false;
    QCOMPARE(firstError(s), std::string("joints[2] \"roller_contact\": curve1 has a cusp at u = 0 (the tangent x'(u), y'(u) vanishes)"));
  }
  {
    Spec s = spec;
    jointNamed(s, "roller_contact").curve1->range = {Number{1.0}, Number{0.0}};
    QCOMPARE(firstError(s), std::string("joints[2] \"roller_contact\": curve1.range must run from a smaller to a larger finite value, got [1.000000, 0.000000]"));
  }
  {
    Spec s = spec;
    jointNamed(s, "roller_contact").curve1->x = "rr*cos(u) + t";
    QCOMPARE(firstError(s), std::string("joints[2] \"roller_contact\": curve1.x \"rr*cos(u) + t\": unknown variable 't' (a curve is a function of u and the parameters)"));
  }
  {
    // A roller larger than the pitch curve's radius of curvature: the profile would undercut.
    Spec s = spec;
    jointNamed(s, "roller_contact").curve2->offset = Number::expr("-6*rr");
    QVERIFY2(firstError(s).find("curve2 undercuts") != std::string::npos, firstError(s).c_str());
  }
  {
    // Four derivatives of a product of 150 factors would take gigabytes: refused up front.
    Spec s = spec;
    std::string product = "(u + 1)";
    for (int i = 1; i < 150; ++i) product += "*(u + 1)";
    jointNamed(s, "roller_contact").curve1->x = product;
    QCOMPARE(firstError(s), std::string("joints[2] \"roller_contact\": curve1.x is too large to differentiate four times (its derivatives would grow past 200000 operations): write it more simply, or give the curve as points"));
  }
  {
    Spec s = spec;
    jointNamed(s, "roller_contact").curve2->points = {Vector{0.0, 0.0}, Vector{1.0, 0.0}, Vector{1.0, 0.0}};
    QCOMPARE(firstError(s), std::string("joints[2] \"roller_contact\": curve2.points repeats point 1 (consecutive points, and the last and the first, must differ)"));
  }
}

QTEST_APPLESS_MAIN(TestCams)
#include "tst_cams.moc"
