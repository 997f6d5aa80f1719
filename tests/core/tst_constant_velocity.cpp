// The constant-velocity joint and the orientation joint (joints/constant_velocity.cpp,
// joints/orientation.cpp), which Adams' CONVEL and JPRIM/ORIENTATION read as: two shafts 30
// degrees apart turn at one rate through a constant-velocity joint (through a universal joint
// the output's rate swings, as Hooke's closed form says); a block on an orientation joint keeps
// its axes under a torque and falls freely; both read from a dataset and written back.
#include "io/model_file.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

Spec rlxOrFail(const std::string& text) {
  const LoadResult read = readRlx(text, "test.rlx");
  if (!read.spec) {
    std::string all;
    for (const Diagnostic& d : read.diagnostics) all += d.text() + "\n";
    qFatal("%s", all.c_str());
  }
  return *read.spec;
}

Results runOrFail(const Model& model) {
  AnalysisOutcome outcome = runAnalysis(model, {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

// The rates of `body` about x over the run: the least and the largest.
std::pair<double, double> ratesAboutX(const Model& model, const Results& results,
                                      const std::string& body) {
  const int v = test::body(model, body).v;
  double least = 1e9, most = -1e9;
  for (const Frame& f : results.frames) {
    least = std::min(least, f.state.v(v + 3));
    most = std::max(most, f.state.v(v + 3));
  }
  return {least, most};
}

}  // namespace

class TestConstantVelocity : public QObject {
  Q_OBJECT

 private slots:
  void shaftsTurnAtOneRate();
  void orientationKeepsAxes();
  void adamsDatasets();
};

void TestConstantVelocity::shaftsTurnAtOneRate() {
  // examples/bent_shafts.rlx: inputs at 30 degrees to x driven at 2 rad/s, outputs along x.
  const Model model = test::compileOrFail(test::loadSpec(test::examplePath("bent_shafts.rlx")));
  const Results results = runOrFail(model);
  const auto [least, most] = ratesAboutX(model, results, "cv_output");
  qInfo("constant velocity: the output turns at %.15f to %.15f rad/s", least, most);
  QVERIFY(std::abs(least - 2) < 1e-9 && std::abs(most - 2) < 1e-9);
  // Hooke's joint at 30 degrees: the output's rate swings between 2 cos 30 and 2 / cos 30
  // (sampled every 0.02 s, the peaks to 1e-4).
  const auto [low, high] = ratesAboutX(model, results, "hooke_output");
  qInfo("universal: %.6f to %.6f rad/s", low, high);
  QVERIFY(std::abs(low - 2 * std::cos(kPi / 6)) < 1e-4);
  QVERIFY(std::abs(high - 2 / std::cos(kPi / 6)) < 1e-4);
}

void TestConstantVelocity::orientationKeepsAxes() {
  // A block turned 40 degrees about z holds its orientation to ground while a torque of 3 N m
  // about (1, 1, 1) and gravity act: it falls g t^2 / 2 and never turns; the orientation joint's
  // reaction is the torque's opposite.
  const Spec spec = rlxOrFail(R"({"reuleaux": 1, "name": "Held block", "dimension": 3,
  "gravity": [0, 0, -9.81],
  "bodies": [{"name": "block", "mass": 2, "inertia": [0.1, 0.2, 0.3], "position": [0, 0, 1],
              "orientation": [0, 0, 0.6981317007977318]}],
  "joints": [{"name": "hold", "type": "orientation", "body1": "ground", "body2": "block"}],
  "forces": [{"name": "twist", "type": "torque", "body": "block", "vector": [3, 3, 3]}],
  "analysis": {"type": "dynamics", "integrator": "hht", "end_time": 1, "step": 0.001,
               "output_step": 0.1, "tolerance": 1e-10}
})");
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const int q = test::body(model, "block").q;
  double worstFall = 0, worstTurn = 0;
  for (const Frame& f : results.frames) {
    const double t = f.state.t;
    worstFall = std::max(worstFall, std::abs(f.state.q(q + 2) - (1 - 9.81 * t * t / 2)));
    worstTurn =
        std::max(worstTurn, (f.state.q.segment<4>(q + 3) - model.q0.segment<4>(q + 3)).norm());
  }
  // The joint's reaction on the block: no force, the torque's opposite.
  Workspace ws(model);
  const Frame& last = results.frames.back();
  evaluateConstraintDerivatives(model, last.state, ws);
  ws.lambda = last.lambda;
  const Reaction r = jointReaction(model, last.state, ws, 0);
  const double reactionError =
      std::max(r.force.norm(), (r.torque + Eigen::Vector3d(3, 3, 3)).norm());
  qInfo("orientation: fall against g t^2/2 %.1e m, turn %.1e, reaction %.1e", worstFall, worstTurn,
        reactionError);
  QVERIFY(worstFall < 1e-9);
  QVERIFY(worstTurn < 1e-12);
  QVERIFY(reactionError < 1e-9);
}

void TestConstantVelocity::adamsDatasets() {
  // CONVEL between two shafts 30 degrees apart, the shafts' z axes pointing away from the centre
  // and the markers' x axes along z: a constant_velocity joint; the output turns with the
  // driven input at 2 rad/s. JPRIM/ORIENTATION: an orientation joint, written back as one.
  const std::string convel =
      "Bent\nUNITS/, FORCE = NEWTON, MASS = KILOGRAM, LENGTH = METER, TIME = SECOND\n"
      "PART/1, GROUND\n"
      "MARKER/1, PART = 1, QP = -0.8660254037844387, -0.5, 0, REULER = 120D, 90D, 0\n"
      "MARKER/2, PART = 1, QP = 1, 0, 0, REULER = 90D, 90D, 0\n"
      "PART/2, MASS = 1, CM = 20, IP = 0.002, 0.09, 0.09, QG = -0.4330127018922193, -0.25, 0, "
      "REULER = 30D, 0, 0\n"
      "MARKER/20, PART = 2\nMARKER/21, PART = 2, QP = -0.5, 0, 0, REULER = 90D, 90D, 0\n"
      "MARKER/22, PART = 2, QP = 0.5, 0, 0, REULER = -90D, 90D, 0\n"
      "PART/3, MASS = 1, CM = 30, IP = 0.002, 0.09, 0.09, QG = 0.5, 0, 0\n"
      "MARKER/30, PART = 3\nMARKER/31, PART = 3, QP = 0.5, 0, 0, REULER = 90D, 90D, 0\n"
      "MARKER/32, PART = 3, QP = -0.5, 0, 0, REULER = 90D, 90D, 0\n"
      "JOINT/1, REVOLUTE, I = 21, J = 1\nJOINT/2, REVOLUTE, I = 31, J = 2\n"
      "JOINT/3, CONVEL, I = 32, J = 22\nMOTION/1, JOINT = 1, FUNCTION = 2 * TIME\nEND\n";
  Spec shafts = test::readAdamsOrFail(convel);
  QCOMPARE(shafts.joints[2].type, JointType::ConstantVelocity);
  AnalysisSpec kinematics;
  kinematics.type = AnalysisType::Kinematics;
  kinematics.endTime = 3.2;
  kinematics.step = 0.01;
  kinematics.outputStep = 0.02;
  kinematics.tolerance = 1e-12;
  shafts.analysis = kinematics;
  const Model model = test::compileOrFail(shafts);
  const auto [least, most] = ratesAboutX(model, runOrFail(model), "part_3");
  qInfo("CONVEL read: the output turns at %.15f to %.15f rad/s", least, most);
  QVERIFY(std::abs(std::abs(least) - 2) < 1e-9 && std::abs(most - least) < 1e-9);

  const std::string orientation =
      "Held\nUNITS/, FORCE = NEWTON, MASS = KILOGRAM, LENGTH = METER, TIME = SECOND\n"
      "PART/1, GROUND\nMARKER/1, PART = 1, REULER = 40D, 0, 0\n"
      "PART/2, MASS = 2, CM = 20, IP = 0.1, 0.2, 0.3, QG = 0, 0, 1, REULER = 40D, 0, 0\n"
      "MARKER/20, PART = 2\nMARKER/21, PART = 2, QP = 0.5, 0, 0\n"
      "JPRIM/1, ORIENTATION, I = 21, J = 1\nACCGRAV/, KGRAV = -9.81\nEND\n";
  const Spec held = test::readAdamsOrFail(orientation);
  QCOMPARE(held.joints.size(), std::size_t(1));
  QCOMPARE(held.joints[0].type, JointType::Orientation);
  const AdamsWriteResult again = writeAdams(held);
  QVERIFY(again.text && again.text->find("ORIENTATION") != std::string::npos);
  QCOMPARE(test::readAdamsOrFail(*again.text).joints[0].type, JointType::Orientation);
  // Axes that differ in the file: Adams would turn the part; not read.
  std::string turned = orientation;
  turned.replace(turned.find("MARKER/1, PART = 1, REULER = 40D"), 32,
                 "MARKER/1, PART = 1, REULER = 10D");
  QCOMPARE(test::firstAdamsDiagnostic(turned),
           std::string("test.adm:8: JPRIM/1: ORIENTATION whose I and J axes differ in the file "
                       "is not read yet (Adams would turn the parts)"));
}

QTEST_GUILESS_MAIN(TestConstantVelocity)
#include "tst_constant_velocity.moc"
