// The classic linkages of the Examples menu, run by the kinematic solver and checked against
// closed forms computed here: Jansen's leg (its joints and flat foot path), the Watt II six-bar
// (Freudenstein's equation loop by loop), the Whitworth quick-return (its time ratio), the
// Peaucellier-Lipkin inverter (its exact straight line), and the Chebyshev lambda and Hoeckens
// linkages (their near-straight coupler segments and Hoeckens' steady speed along it).
#include "solve/assembly/assembly.h"
#include "solve/kinematics/kinematics.h"
#include "test_support.h"

#include <QtTest>

#include <complex>

using namespace rlx;

namespace {

// Closed forms in complex arithmetic: a real crank angle gives positions, the complex step
// theta + i h (h = 1e-30) gives their derivatives as Im / h, exact to rounding.
using Cx = std::complex<double>;
constexpr double kStep = 1e-30;

struct Pt {
  Cx x, y;
  Eigen::Vector2d value() const { return {x.real(), y.real()}; }
  Eigen::Vector2d rate() const { return {x.imag() / kStep, y.imag() / kStep}; }
};

// The point at distance rp from p and rq from q, on the left of p -> q (side +1) or the right.
Pt dyad(const Pt& p, const Pt& q, double rp, double rq, int side) {
  const Cx dx = q.x - p.x, dy = q.y - p.y, d2 = dx * dx + dy * dy, d = std::sqrt(d2);
  const Cx along = (rp * rp - rq * rq + d2) / (2.0 * d),
           across = std::sqrt(rp * rp - along * along);
  const double s = side;
  return {p.x + (along * dx - s * across * dy) / d, p.y + (along * dy + s * across * dx) / d};
}

Pt onCircle(const Pt& centre, double radius, Cx angle) {
  return {centre.x + radius * std::cos(angle), centre.y + radius * std::sin(angle)};
}

struct Run {
  Model model;
  AssemblyReport assembly;
  State start;
  Results results;
};

// Assembles the example and runs its kinematic analysis (frames every outputStep when given).
Run runExample(const std::string& file, double outputStep = 0) {
  Run run{test::compileOrFail(test::loadSpec(test::examplePath(file))), {}, {}, {}};
  Workspace ws(run.model);
  run.start = State{0.0, run.model.q0, run.model.v0};
  run.assembly = assemble(run.model, run.start, ws);
  if (!run.assembly.ok()) throw std::runtime_error(run.assembly.message);
  KinematicsOptions options;
  options.endTime = run.model.endTime;
  options.step = run.model.step;
  options.outputStep = outputStep > 0 ? outputStep : run.model.outputStep;
  options.tolerance = 1e-12;
  runKinematics(run.model, run.start, ws, options, run.results);
  return run;
}

const Joint& joint(const Model& model, const std::string& name) {
  for (const Joint& j : model.joints)
    if (j.name == name) return j;
  throw std::runtime_error("no joint " + name);
}

int bodyIndex(const Model& model, const std::string& name) {
  return static_cast<int>(&test::body(model, name) - model.bodies.data());
}

// A body point (body coordinates) in global coordinates, and its velocity.
Eigen::Vector2d pointAt(const Model& model, const State& s, int body,
                        const Eigen::Vector3d& local) {
  if (body == kGround) return local.head<2>();
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  return s.q.segment<2>(b.q) + Eigen::Rotation2Dd(s.q(b.q + 2)) * local.head<2>();
}

Eigen::Vector2d velocityAt(const Model& model, const State& s, int body,
                           const Eigen::Vector3d& local) {
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  const Eigen::Vector2d r = Eigen::Rotation2Dd(s.q(b.q + 2)) * local.head<2>();
  return s.v.segment<2>(b.v) + s.v(b.v + 2) * Eigen::Vector2d(-r.y(), r.x());
}

// Where a joint is, as its second body carries it.
Eigen::Vector2d jointAt(const Model& model, const State& s, const std::string& name) {
  const Joint& j = joint(model, name);
  return pointAt(model, s, j.body2, j.s2);
}

// The largest gap between the two bodies' points of any revolute joint.
double worstPinGap(const Model& model, const State& s) {
  double worst = 0;
  for (const Joint& j : model.joints)
    if (j.type == JointType::Revolute)
      worst = std::max(
          worst, (pointAt(model, s, j.body1, j.s1) - pointAt(model, s, j.body2, j.s2)).norm());
  return worst;
}

// A point fixed in a body that no joint names (a foot, a coupler's tip): its body coordinates
// from where the closed form puts it in the file's configuration.
Eigen::Vector3d localPoint(const Model& model, const State& start, int body,
                           const Eigen::Vector2d& global) {
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  const Eigen::Vector2d local =
      Eigen::Rotation2Dd(-start.q(b.q + 2)) * (global - start.q.segment<2>(b.q));
  return {local.x(), local.y(), 0.0};
}

// The time in [0, h] where a rate with the values v0, v1 and slopes a0, a1 at 0 and h crosses
// zero: Newton on its cubic Hermite interpolant (error O(h^4)).
double hermiteRoot(double h, double v0, double a0, double v1, double a1) {
  double tau = h * v0 / (v0 - v1);
  for (int k = 0; k < 20; ++k) {
    const double s = tau / h, s2 = s * s, s3 = s2 * s;
    const double v = (2 * s3 - 3 * s2 + 1) * v0 + (s3 - 2 * s2 + s) * h * a0 +
                     (-2 * s3 + 3 * s2) * v1 + (s3 - s2) * h * a1;
    const double dv = ((6 * s2 - 6 * s) * v0 + (-6 * s2 + 6 * s) * v1) / h +
                      (3 * s2 - 4 * s + 1) * a0 + (3 * s2 - 2 * s) * a1;
    tau -= v / dv;
  }
  return tau;
}

// The crank angle of a frame, in degrees in [0, 360).
double crankDegrees(double radians) {
  const double d = std::fmod(radians * 180 / M_PI, 360.0);
  return d < 0 ? d + 360 : d;
}

// ---- Jansen's leg: Theo Jansen's holy numbers (cm), 1 unit = 1 cm.
struct JansenLeg {
  Pt Z, Y, X, W, V, U, T, S;
};
constexpr double ja = 0.38, jb = 0.415, jc = 0.393, jd = 0.401, je = 0.558, jf = 0.394, jg = 0.367,
                 jh = 0.657, ji = 0.49, jj = 0.50, jk = 0.619, jl = 0.078, jm = 0.15;

JansenLeg jansen(Cx theta) {
  JansenLeg p;
  p.Z = {0.0, 0.0};
  p.Y = {-ja, -jl};
  p.X = onCircle(p.Z, jm, theta);
  p.W = dyad(p.X, p.Y, jj, jb, -1);  // above
  p.V = dyad(p.W, p.Y, je, jd, -1);  // left
  p.U = dyad(p.X, p.Y, jk, jc, +1);  // below
  p.T = dyad(p.V, p.U, jf, jg, -1);  // left, the knee
  p.S = dyad(p.T, p.U, jh, ji, -1);  // below, the foot
  return p;
}

// ---- Watt II: Freudenstein's equation for each loop. A four-bar with ground pivots O and Op,
// input point A; the output link (length c, about Op) meets the coupler (length b) where
// Kx cos t4 + Ky sin t4 = (|K|^2 + c^2 - b^2) / (2c), K = A - Op; branch +1 or -1.
double freudenstein(const Eigen::Vector2d& A, const Eigen::Vector2d& Op, double b, double c,
                    int branch) {
  const Eigen::Vector2d K = A - Op;
  const double r = (K.squaredNorm() + c * c - b * b) / (2 * c * K.norm());
  return std::atan2(K.y(), K.x()) + branch * std::acos(r);
}

double wattOutputAngle(double theta) {
  const Eigen::Vector2d O4(0.4, 0), O6(0.65, -0.15);
  const double rocker =
      freudenstein(0.1 * Eigen::Vector2d(std::cos(theta), std::sin(theta)), O4, 0.35, 0.3, -1);
  const double arm = rocker - 100 * M_PI / 180;
  return freudenstein(O4 + 0.15 * Eigen::Vector2d(std::cos(arm), std::sin(arm)), O6, 0.3, 0.2, -1);
}

// ---- Chebyshev lambda and Hoeckens: crank 1 about the origin, rocker 2.5 about (2, 0), coupler
// point P on the coupler's extension with the rocker pin C at the midpoint of BP (unit 0.1 m);
// mirror = -1 assembles the rocker pin below the ground line.
Pt lambdaPoint(Cx theta, int mirror) {
  const double u = 0.1;
  const Pt B = onCircle({0.0, 0.0}, u, theta);
  const Pt C = dyad(B, {2 * u, 0.0}, 2.5 * u, 2.5 * u, mirror);
  return {2.0 * C.x - B.x, 2.0 * C.y - B.y};
}

// The band [lowest, highest] of P's y over crank angles a0..a1 degrees, sampled every 0.01 deg.
std::pair<double, double> lambdaBand(int mirror, double a0, double a1) {
  double lo = 1e9, hi = -1e9;
  for (double a = a0; a <= a1 + 1e-9; a += 0.01) {
    const double y = lambdaPoint(a * M_PI / 180, mirror).y.real();
    lo = std::min(lo, y);
    hi = std::max(hi, y);
  }
  return {lo, hi};
}

struct StraightPart {
  double worstPosition = 0, worstVelocity = 0;  // solver against closed form (m, m/s)
  double lowest = 1e9, highest = -1e9;          // P's y over the frames within the crank range
  double slowest = 1e9, fastest = -1e9;         // P's vx over the frames within the steady range
};

// Runs a lambda-type example and compares its coupler tip with the closed form.
StraightPart runLambda(const std::string& file, int mirror, double a0, double a1, double s0,
                       double s1) {
  const Run run = runExample(file);
  if (!run.results.report.ok()) throw std::runtime_error(run.results.report.message);
  const int coupler = bodyIndex(run.model, "coupler");
  const Eigen::Vector3d tip =
      localPoint(run.model, run.start, coupler, lambdaPoint(0.0, mirror).value());
  StraightPart part;
  for (const Frame& f : run.results.frames) {
    const double theta = 2 * M_PI * f.state.t, deg = crankDegrees(theta);
    const Pt P = lambdaPoint(Cx(theta, kStep), mirror);
    const Eigen::Vector2d p = pointAt(run.model, f.state, coupler, tip);
    const Eigen::Vector2d v = velocityAt(run.model, f.state, coupler, tip);
    part.worstPosition = std::max(part.worstPosition, (p - P.value()).norm());
    part.worstVelocity = std::max(part.worstVelocity, (v - 2 * M_PI * P.rate()).norm());
    if (deg >= a0 && deg <= a1) {
      part.lowest = std::min(part.lowest, p.y());
      part.highest = std::max(part.highest, p.y());
    }
    if (deg >= s0 && deg <= s1) {
      part.slowest = std::min(part.slowest, v.x());
      part.fastest = std::max(part.fastest, v.x());
    }
  }
  return part;
}

}  // namespace

class TestClassicLinkages : public QObject {
  Q_OBJECT

 private slots:
  void consistentAndDriven_data();
  void consistentAndDriven();
  void jansenLeg();
  void wattSixBar();
  void whitworthTimeRatio();
  void peaucellierStraightLine();
  void chebyshevLambda();
  void hoeckens();
};

void TestClassicLinkages::consistentAndDriven_data() {
  QTest::addColumn<QString>("file");
  for (const char* file : {"jansen_leg.rlx", "watt_six_bar.rlx", "whitworth_quick_return.rlx",
                           "peaucellier_lipkin.rlx", "chebyshev_lambda.rlx", "hoeckens.rlx"})
    QTest::newRow(file) << QString(file);
}

void TestClassicLinkages::consistentAndDriven() {
  // The file's state is already assembled (positions and velocities), the drive leaves no
  // freedom and no equation is redundant, and the solver runs the whole 2 s.
  QFETCH(QString, file);
  const Run run = runExample(file.toStdString());
  QCOMPARE(run.assembly.redundancy.dof, 0);
  QCOMPARE(run.assembly.redundancy.dofGrubler, 0);
  QVERIFY(run.assembly.redundancy.redundant.empty());
  const double dq = (run.start.q - run.model.q0).lpNorm<Eigen::Infinity>();
  const double dv = (run.start.v - run.model.v0).lpNorm<Eigen::Infinity>();
  QVERIFY2(dq < 1e-12 && dv < 1e-12, qPrintable(QString("moved by %1, %2").arg(dq).arg(dv)));
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  QCOMPARE(run.results.frames.size(), std::size_t(401));
  QVERIFY(std::abs(run.results.frames.back().state.t - 2.0) < 1e-12);
}

void TestClassicLinkages::jansenLeg() {
  const Run run = runExample("jansen_leg.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Model& m = run.model;
  const int foot = bodyIndex(m, "foot");
  const Eigen::Vector3d toe = localPoint(m, run.start, foot, jansen(0.0).S.value());
  // The foot's band over the ground-contact range, crank -60 to 50 deg, from the closed form.
  double bandLow = 1e9, bandHigh = -1e9;
  for (double a = -60; a <= 50 + 1e-9; a += 0.01) {
    const double y = jansen(a * M_PI / 180).S.y.real();
    bandLow = std::min(bandLow, y);
    bandHigh = std::max(bandHigh, y);
  }
  double gap = 0, lengths = 0, points = 0, contactHighest = -1e9, swingHighest = -1e9;
  for (const Frame& f : run.results.frames) {
    const double theta = 2 * M_PI * f.state.t;
    const JansenLeg p = jansen(theta);
    const Eigen::Vector2d Z = jointAt(m, f.state, "axle"), X = jointAt(m, f.state, "crank_j"),
                          Y = jointAt(m, f.state, "rocker_pivot"),
                          W = jointAt(m, f.state, "j_rocker"), V = jointAt(m, f.state, "rocker_f"),
                          U = jointAt(m, f.state, "k_c"), T = jointAt(m, f.state, "knee"),
                          S = pointAt(m, f.state, foot, toe);
    gap = std::max(gap, worstPinGap(m, f.state));
    // Every link length of the holy numbers, from where the solver put the joints.
    const std::pair<double, double> links[] = {
        {(X - Z).norm(), jm},         {(W - X).norm(), jj}, {(W - Y).norm(), jb},
        {(V - W).norm(), je},         {(V - Y).norm(), jd}, {(U - X).norm(), jk},
        {(U - Y).norm(), jc},         {(T - V).norm(), jf}, {(T - U).norm(), jg},
        {(S - T).norm(), jh},         {(S - U).norm(), ji}, {std::abs(Y.x() - Z.x()), ja},
        {std::abs(Y.y() - Z.y()), jl}};
    for (const auto& [measured, holy] : links)
      lengths = std::max(lengths, std::abs(measured - holy));
    const std::pair<Eigen::Vector2d, Pt> both[] = {
        {W, p.W}, {V, p.V}, {U, p.U}, {T, p.T}, {S, p.S}};
    for (const auto& [solved, closed] : both)
      points = std::max(points, (solved - closed.value()).norm());
    const double deg = crankDegrees(theta);
    if (deg >= 300 || deg <= 50) contactHighest = std::max(contactHighest, S.y());
    if (deg >= 150 && deg <= 210) swingHighest = std::max(swingHighest, S.y());
  }
  qInfo(
      "pins %.1e m, link lengths %.1e m, joints against closed form %.1e m; foot band %.6f..%.6f m",
      gap, lengths, points, bandLow, bandHigh);
  QVERIFY2(gap < 1e-10, QByteArray::number(gap));
  QVERIFY2(lengths < 1e-10, QByteArray::number(lengths));
  QVERIFY2(points < 1e-9, QByteArray::number(points));
  // Flat ground contact: within 3.9 mm of the lowest height -0.91834 m for 110 deg of crank.
  QVERIFY(std::abs(bandLow - -0.918339) < 1e-6);
  QVERIFY(bandHigh - bandLow < 3.9e-3);
  QVERIFY2(contactHighest <= bandHigh + 1e-9, QByteArray::number(contactHighest));
  // ... and rises more than 0.1 m above it (to -0.6938 m) while the crank is at 150 to 210 deg.
  QVERIFY2(swingHighest > bandLow + 0.1, QByteArray::number(swingHighest));
}

void TestClassicLinkages::wattSixBar() {
  const Run run = runExample("watt_six_bar.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Model& m = run.model;
  const Body& output = test::body(m, "output");
  double gap = 0, angle = 0;
  for (const Frame& f : run.results.frames) {
    gap = std::max(gap, worstPinGap(m, f.state));  // both loops close
    const double expected = wattOutputAngle(2 * M_PI * f.state.t);
    angle = std::max(angle, std::abs(std::remainder(f.state.q(output.q + 2) - expected, 2 * M_PI)));
  }
  QVERIFY2(gap < 1e-10, QByteArray::number(gap));
  QVERIFY2(angle < 1e-9, QByteArray::number(angle));
  // A known pair: crank at 90 deg (t = 0.25 s, frame 50), output at 23.990 deg.
  const Frame& quarter = run.results.frames[50];
  QVERIFY(std::abs(quarter.state.t - 0.25) < 1e-12);
  QVERIFY(std::abs(wattOutputAngle(M_PI / 2) * 180 / M_PI - 23.990) < 5e-4);
  QVERIFY(std::abs(quarter.state.q(output.q + 2) - wattOutputAngle(M_PI / 2)) < 1e-9);
  // Without its drive the six-bar has one degree of freedom, no redundant equation.
  Spec free = test::loadSpec(test::examplePath("watt_six_bar.rlx"));
  free.motions.clear();
  const Model undriven = test::compileOrFail(free);
  Workspace ws(undriven);
  State state{0.0, undriven.q0, undriven.v0};
  const AssemblyReport report = assemble(undriven, state, ws);
  QVERIFY(report.ok());
  QCOMPARE(report.redundancy.dof, 1);
  QCOMPARE(report.redundancy.dofGrubler, 1);
  QVERIFY(report.redundancy.redundant.empty());
}

void TestClassicLinkages::whitworthTimeRatio() {
  // Frames every 1 ms; each stop of the ram (vx changes sign) found on the cubic through the two
  // frames' velocities and accelerations.
  const Run run = runExample("whitworth_quick_return.rlx", 1e-3);
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const Body& ram = test::body(run.model, "ram");
  const double r = 0.1, d = 0.05, lever = 0.12, rod = 0.3;
  std::vector<double> stops, stopX;
  double worst = 0;
  const auto& frames = run.results.frames;
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const State& s = frames[k].state;
    // Closed form: the lever points from O4 = (0, d) away from the crank pin A, its end P at
    // `lever`; the ram is `rod` from P on y = d.
    const double theta = 2 * M_PI * s.t;
    const Eigen::Vector2d A(r * std::cos(theta), r * std::sin(theta)), O4(0, d);
    const Eigen::Vector2d P = O4 - lever * (A - O4).normalized();
    const double x = P.x() + std::sqrt(rod * rod - (P.y() - d) * (P.y() - d));
    worst = std::max(worst, std::abs(s.q(ram.q) - x));
    if (k == 0 || (frames[k - 1].state.v(ram.v) > 0) == (s.v(ram.v) > 0)) continue;
    const Frame& before = frames[k - 1];
    const double dt = hermiteRoot(s.t - before.state.t, before.state.v(ram.v), before.vdot(ram.v),
                                  s.v(ram.v), frames[k].vdot(ram.v));
    stops.push_back(before.state.t + dt);
    // Where it stops: Taylor from the nearer frame, the jerk from the two accelerations.
    const Frame& near = dt < (s.t - before.state.t) / 2 ? before : frames[k];
    const double jerk = (frames[k].vdot(ram.v) - before.vdot(ram.v)) / (s.t - before.state.t);
    const double e = stops.back() - near.state.t;
    stopX.push_back(near.state.q(ram.q) +
                    e * (near.state.v(ram.v) + e * (near.vdot(ram.v) / 2 + e * jerk / 6)));
  }
  QVERIFY2(worst < 1e-9, QByteArray::number(worst));
  // Stops where the crank pin crosses y = d: crank angles asin(d/r) and pi - asin(d/r), the
  // left and the right end, at t = 1/12, 5/12, 13/12 and 17/12 s.
  const double alpha = std::asin(d / r), ratio = (M_PI + 2 * alpha) / (M_PI - 2 * alpha);
  const double expected[] = {alpha, M_PI - alpha, 2 * M_PI + alpha, 3 * M_PI - alpha};
  QCOMPARE(stops.size(), std::size_t(4));
  for (std::size_t k = 0; k < stops.size(); ++k) {
    const double error = 2 * M_PI * stops[k] - expected[k];
    QVERIFY2(std::abs(error) < 1e-9, QByteArray::number(error));
  }
  // The quick return runs from the left end to the right (120 deg of crank), the slow forward
  // stroke back (240 deg).
  const double back = stops[1] - stops[0], forward = stops[2] - stops[1];
  qInfo("stops at %.7f %.7f %.7f s: time ratio %.10f (closed form %.10f), stroke %.9f m", stops[0],
        stops[1], stops[2], forward / back, ratio, stopX[1] - stopX[0]);
  QVERIFY2(std::abs(forward / back - ratio) < 1e-9, QByteArray::number(forward / back - ratio));
  QVERIFY(std::abs(ratio - 2.0) < 1e-12);
  QVERIFY2(std::abs((stopX[1] - stopX[0]) - 2 * lever) < 1e-9,
           QByteArray::number(stopX[1] - stopX[0]));
}

void TestClassicLinkages::peaucellierStraightLine() {
  const Run run = runExample("peaucellier_lipkin.rlx");
  QVERIFY2(run.results.report.ok(), run.results.report.message.c_str());
  const double b = 0.15, l = 0.4, s = 0.15, k = l * l - s * s, line = k / (2 * b),
               swing = 50 * M_PI / 180;
  double offLine = 0, along = 0, highest = 0;
  for (const Frame& f : run.results.frames) {
    const Eigen::Vector2d Q = jointAt(run.model, f.state, "q_pin");
    // Inversion: Q = k P / |P|^2 with P on the crank circle |P - (b, 0)| = b.
    const double phi = swing * std::sin(2 * M_PI * f.state.t);
    const Eigen::Vector2d P(b + b * std::cos(phi), b * std::sin(phi));
    offLine = std::max(offLine, std::abs(Q.x() - line));
    along = std::max(along, std::abs(Q.y() - k * P.y() / P.squaredNorm()));
    highest = std::max(highest, Q.y());
  }
  qInfo("Q off the line x = %.15f m by %.1e m; Q.y against closed form %.1e m; highest %.9f m",
        line, offLine, along, highest);
  QVERIFY2(offLine < 1e-12, QByteArray::number(offLine));
  QVERIFY2(along < 1e-12, QByteArray::number(along));
  QVERIFY(highest > 0.2137);
}

void TestClassicLinkages::chebyshevLambda() {
  // The tip draws y = 0.4 m exactly at crank 90, 180 and 270 deg and bulges above it between:
  // the band over 90..270 deg is 0.975 mm (closed form, sampled every 0.01 deg).
  const auto [lo, hi] = lambdaBand(+1, 90, 270);
  QVERIFY(std::abs(lo - 0.4) < 1e-9);
  QVERIFY2(std::abs((hi - lo) - 0.975373e-3) < 1e-9, QByteArray::number(hi - lo));
  const StraightPart part = runLambda("chebyshev_lambda.rlx", +1, 90, 270, 90, 270);
  qInfo(
      "tip against closed form %.1e m, %.1e m/s; over 90..270 deg y %.9f..%.9f m, vx %.6f..%.6f "
      "m/s",
      part.worstPosition, part.worstVelocity, part.lowest, part.highest, part.slowest,
      part.fastest);
  QVERIFY2(part.worstPosition < 1e-9, QByteArray::number(part.worstPosition));
  QVERIFY2(part.worstVelocity < 1e-8, QByteArray::number(part.worstVelocity));
  QVERIFY(part.lowest >= lo - 1e-9 && part.highest <= hi + 1e-9);
  QVERIFY(part.highest - part.lowest > 0.9e-3);  // the frames see the bulge
}

void TestClassicLinkages::hoeckens() {
  // The mirror image: the tip's flat bottom at y = -0.4 m, and from 120 to 240 deg its speed
  // along x stays within 0.8036..0.8394 m/s (closed form: the complex-step derivative).
  const auto [lo, hi] = lambdaBand(-1, 90, 270);
  QVERIFY(std::abs(hi + 0.4) < 1e-9);
  QVERIFY2(std::abs((hi - lo) - 0.975373e-3) < 1e-9, QByteArray::number(hi - lo));
  double slow = 1e9, fast = -1e9;
  for (double a = 120; a <= 240 + 1e-9; a += 0.01) {
    const double vx = 2 * M_PI * lambdaPoint(Cx(a * M_PI / 180, kStep), -1).rate().x();
    slow = std::min(slow, vx);
    fast = std::max(fast, vx);
  }
  QVERIFY2(std::abs(slow - 0.803642) < 1e-6 && std::abs(fast - 0.839358) < 1e-6,
           qPrintable(QString("%1 %2").arg(slow).arg(fast)));
  const StraightPart part = runLambda("hoeckens.rlx", -1, 90, 270, 120, 240);
  qInfo("tip against closed form %.1e m, %.1e m/s; y %.9f..%.9f m, vx %.6f..%.6f m/s",
        part.worstPosition, part.worstVelocity, part.lowest, part.highest, part.slowest,
        part.fastest);
  QVERIFY2(part.worstPosition < 1e-9, QByteArray::number(part.worstPosition));
  QVERIFY2(part.worstVelocity < 1e-8, QByteArray::number(part.worstVelocity));
  QVERIFY(part.lowest >= lo - 1e-9 && part.highest <= hi + 1e-9);
  QVERIFY(part.slowest >= slow - 1e-9 && part.fastest <= fast + 1e-9);
  QVERIFY(part.fastest - part.slowest > 0.03);  // the frames see the speed's variation
}

QTEST_GUILESS_MAIN(TestClassicLinkages)
#include "tst_classic_linkages.moc"
