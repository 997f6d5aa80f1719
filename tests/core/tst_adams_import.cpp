// Adams datasets as models (io/adams_reader.cpp): a pendulum on a revolute joint against its
// closed form, the same dataset in inches and pounds, the products of inertia's sign, a joint
// motion in degrees from markers whose x axes start apart, and the refusals with their lines.
#include "expr/node.h"
#include "io/model_file.h"
#include "joints/rotation.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "test_support.h"

#include <QDir>
#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace rlx;

namespace {

constexpr double kPi = std::numbers::pi;

// The pendulum dataset with `from` replaced by `to` (each once).
std::string pendulumWith(const std::vector<std::pair<std::string, std::string>>& changes) {
  std::string text = test::readFile(test::testDataPath("adams_pendulum.adm"));
  for (const auto& [from, to] : changes) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos) qFatal("no '%s' in the pendulum", from.c_str());
    text.replace(at, from.size(), to);
  }
  return text;
}

Results runOrFail(const Model& model) {
  AnalysisOutcome outcome = runAnalysis(model, {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

}  // namespace

class TestAdamsImport : public QObject {
  Q_OBJECT

 private slots:
  void pendulum();
  void pendulumInInches();
  void productsOfInertia();
  void jointMotionInDegrees();
  void velocitiesAndHolds();
  void vectorForcesAndSprings();
  void refusals_data();
  void refusals();
  void unsupportedListedOrSkipped();
  void recognisedByContent();
  void names();
  void graphicsAsShapes();
  void generalForceAndSettings();
  void corruptedCopies();
};

void TestAdamsImport::pendulum() {
  // 1 kg, its centre 2 m from a pin along global y, I = 0.1 kg m^2 about its centre, released
  // level: the pin pushes it up with m g (1 - m L^2 / (I + m L^2)) at the start (0.2392 N).
  Spec spec = test::readAdamsOrFail(test::readFile(test::testDataPath("adams_pendulum.adm")));
  QCOMPARE(spec.dimension, 3);
  QCOMPARE(spec.bodies.size(), std::size_t(1));
  QCOMPARE(spec.bodies[0].name, std::string("arm"));
  QCOMPARE(spec.joints[0].name, std::string("pin"));
  QCOMPARE(spec.joints[0].body1, std::string("ground"));
  QCOMPARE(spec.joints[0].body2, std::string("arm"));
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Dynamics;
  analysis.endTime = 0.5;
  analysis.step = 1e-3;
  analysis.outputStep = 0.01;
  spec.analysis = analysis;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const Frame& first = results.frames.front();
  Workspace ws(model);
  evaluateConstraintDerivatives(model, first.state, ws);
  ws.lambda = first.lambda;
  const Reaction r = jointReaction(model, first.state, ws, 0);
  const double g = 9.80665, up = g * (1 - 4.0 / 4.1);
  qInfo("the pin's force at the start (%.12f, %.12f, %.12f) N, expected (0, 0, %.12f)", r.force.x(),
        r.force.y(), r.force.z(), up);
  QVERIFY(std::abs(r.force.z() - up) < 1e-9);
  QVERIFY(r.force.head<2>().norm() < 1e-9);
  // It swings about y: the centre stays on the circle of radius 2 in the x-z plane.
  const int arm = test::body(model, "arm").q;
  for (const Frame& f : results.frames) {
    const Eigen::Vector3d c = f.state.q.segment<3>(arm);
    QVERIFY(std::abs(c.y()) < 1e-9);
    QVERIFY(std::abs(c.norm() - 2.0) < 1e-9);
  }
  QVERIFY(results.frames.back().state.q(arm + 2) < -1.0);  // it fell
}

void TestAdamsImport::pendulumInInches() {
  // The same pendulum written in inches, pound-mass and pound-force reads as the same model.
  const double in = 0.0254, lb = 0.45359237;
  const std::string ip = expr::numberText(0.1 / lb / in / in);
  const std::string text =
      pendulumWith({{"FORCE = NEWTON", "FORCE = POUND_FORCE"},
                    {"MASS = KILOGRAM", "MASS = POUND_MASS"},
                    {"LENGTH = METER", "LENGTH = INCH"},
                    {"MASS = 1\n", "MASS = " + expr::numberText(1 / lb) + "\n"},
                    {"IP = 0.1, 0.1, 0.1", "IP = " + ip + ", " + ip + ", " + ip},
                    {"QP = 2, 0, 0", "QP = " + expr::numberText(2 / in) + ", 0, 0"},
                    {"KGRAV = -9.80665", "KGRAV = " + expr::numberText(-9.80665 / in)}});
  const Spec si = test::readAdamsOrFail(test::readFile(test::testDataPath("adams_pendulum.adm")));
  const Spec imperial = test::readAdamsOrFail(text);
  const auto close = [](const Number& a, const Number& b) {
    return std::abs(a.value - b.value) <= 1e-12 * std::max(1.0, std::abs(a.value));
  };
  QVERIFY(close(imperial.bodies[0].mass, si.bodies[0].mass));
  QVERIFY(close(imperial.bodies[0].inertia[0], si.bodies[0].inertia[0]));
  QVERIFY(close(imperial.bodies[0].position[0], si.bodies[0].position[0]));
  QVERIFY(close((*imperial.gravity)[2], (*si.gravity)[2]));
  QVERIFY2(imperial.description.find("inch, pound_mass, second, pound_force") != std::string::npos,
           imperial.description.c_str());
}

void TestAdamsImport::productsOfInertia() {
  // Adams writes the products as +integral of x y dm; the tensor holds their negatives.
  const Spec spec = test::readAdamsOrFail(
      pendulumWith({{"IP = 0.1, 0.1, 0.1", "IP = 0.3, 0.4, 0.5, 0.01, 0.02, 0.03"}}));
  const std::vector<Number>& I = spec.bodies[0].inertia;
  QCOMPARE(I.size(), std::size_t(6));
  QCOMPARE(I[0].value, 0.3);
  QCOMPARE(I[3].value, -0.01);
  QCOMPARE(I[4].value, -0.02);
  QCOMPARE(I[5].value, -0.03);
}

void TestAdamsImport::velocitiesAndHolds() {
  // VX VY VZ are the CM's velocity in ground's axes (dataset units), WX WY WZ the angular velocity
  // about the CM marker's axes; EXACT holds X Y Z, and the orientation when all three angles are
  // held (some of them: not read).
  const Spec spec = test::readAdamsOrFail(pendulumWith(
      {{"MARKER/20\n, PART = 2\n, QP = 2, 0, 0",
        "MARKER/20\n, PART = 2\n, QP = 2, 0, 0\n, REULER = 90D, 90D, 0D"},
       {"IP = 0.1, 0.1, 0.1",
        "IP = 0.1, 0.1, 0.1\n, VX = 1, VZ = -2\n, WX = 3\n, EXACT = X:PSI:THETA:PHI"}}));
  const BodySpec& arm = spec.bodies[0];
  QCOMPARE(arm.velocity.size(), std::size_t(3));
  QCOMPARE(arm.velocity[0].value, 1.0);
  QCOMPARE(arm.velocity[1].value, 0.0);
  QCOMPARE(arm.velocity[2].value, -2.0);
  // The CM's x axis: Rz(90) Rx(90) x = global y.
  QCOMPARE(arm.angularVelocity.size(), std::size_t(3));
  QVERIFY(std::abs(arm.angularVelocity[0].value) < 1e-15);
  QVERIFY(std::abs(arm.angularVelocity[1].value - 3.0) < 1e-15);
  QVERIFY(std::abs(arm.angularVelocity[2].value) < 1e-15);
  QVERIFY((arm.hold == std::vector<std::string>{"x", "orientation"}));
  QCOMPARE(
      test::firstAdamsDiagnostic(
          pendulumWith({{"IP = 0.1, 0.1, 0.1", "IP = 0.1, 0.1, 0.1\n, EXACT = Y:PSI"}})),
      std::string("test.adm:22: PART/2: EXACT holds some of PSI, THETA and PHI; Reuleaux holds "
                  "the whole orientation or none (not read)"));
}

void TestAdamsImport::vectorForcesAndSprings() {
  // VFORCE's components along RM's axes: RM on ground (its z along global y) gives a force in
  // ground's axes, RM on the part a force in the body's; VTORQUE likewise; the reaction's JFLOAT
  // must be a FLOATING marker and no FLOATING marker holds a joint. SPRINGDAMPER in inches.
  const std::string forces =
      "MARKER/30\n, PART = 1\n, FLOATING\n"
      "MARKER/22\n, PART = 2\n, QP = 1, 0, 0\n, REULER = 0D, 0D, 90D\n"
      "VFORCE/1\n, I = 22\n, JFLOAT = 30\n, RM = 10\n, FX = 1\\FY = 2*TIME\\FZ = 0\n"
      "VFORCE/2\n, I = 22\n, JFLOAT = 30\n, RM = 22\n, FX = 5\n"
      "VTORQUE/1\n, I = 22\n, JFLOAT = 30\n, RM = 10\n, TZ = 4\n"
      "SPRINGDAMPER/1\n, TRANSLATIONAL\n, I = 22\n, J = 10\n, K = 3\n, C = 0.5\n, LENGTH = 1.5\n, "
      "FORCE = 0.2\n"
      "ACCGRAV/";
  const Spec spec = test::readAdamsOrFail(pendulumWith({{"ACCGRAV/", forces}}));
  QCOMPARE(spec.forces.size(), std::size_t(4));
  const Model model = test::compileOrFail(spec);
  const auto vectorOf = [&](std::size_t k, double t) {
    Eigen::Vector3d v;
    const std::vector<double> time{t};
    for (int c = 0; c < 3; ++c)
      v(c) = expr::evaluate(model.forces[k].functions[static_cast<std::size_t>(c)].value, time);
    return v;
  };
  // Marker 10's axes, the pin's on ground (REULER 0, -90D, 0).
  const Eigen::Matrix3d ground = rotation::fromEuler313({0, -kPi / 2, 0});
  QVERIFY((vectorOf(0, 0.5) - ground * Eigen::Vector3d(1, 1, 0)).norm() < 1e-14);
  QVERIFY(!model.forces[0].bodyFrame);
  QVERIFY(model.forces[1].bodyFrame);
  QVERIFY((vectorOf(1, 0) - Eigen::Vector3d(0, 5, 0)).norm() < 1e-14);  // the marker's x: body y
  QCOMPARE(model.forces[2].type, ForceType::Torque);
  QVERIFY((vectorOf(2, 0) - ground * Eigen::Vector3d(0, 0, 4)).norm() < 1e-14);
  const Force& spring = model.forces[3];
  QCOMPARE(spring.type, ForceType::SpringDamper);
  QCOMPARE(spring.stiffness, 3.0);
  QCOMPARE(spring.damping, 0.5);
  QCOMPARE(spring.freeLength, 1.5);
  QCOMPARE(spring.preload, 0.2);
  QVERIFY((spring.s2 - Eigen::Vector3d(-1, 0, 0)).norm() < 1e-15);  // 1 m from the CM at 2 m

  Spec inch = test::readAdamsOrFail(pendulumWith(
      {{"LENGTH = METER", "LENGTH = INCH"},
       {"ACCGRAV/",
        "SPRINGDAMPER/1\n, I = 21\n, J = 10\n, K = 3\n, C = 0.5\n, LENGTH = 2\nACCGRAV/"}}));
  QCOMPARE(inch.forces.front().stiffness->value, 3.0 / 0.0254);
  QCOMPARE(inch.forces.front().damping->value, 0.5 / 0.0254);
  QCOMPARE(inch.forces.front().freeLength->value, 2 * 0.0254);

  QCOMPARE(test::firstAdamsDiagnostic(
               pendulumWith({{"ACCGRAV/",
                              "MARKER/30\n, PART = 1\n, FLOATING\nVFORCE/1\n, I = 21\n, "
                              "JFLOAT = 10\n, RM = 10\n, FX = 1\nACCGRAV/"}})),
           std::string("test.adm:41: VFORCE/1: JFLOAT = 10 must be a FLOATING marker"));
  QCOMPARE(test::firstAdamsDiagnostic(
               pendulumWith({{"MARKER/10\n, PART = 1", "MARKER/10\n, PART = 1\n, FLOATING"}})),
           std::string("test.adm:35: JOINT/1: J = 10 is a FLOATING marker"));
}

void TestAdamsImport::jointMotionInDegrees() {
  // The arm's pin marker is turned 50 degrees about its z from the ground's, and a motion of
  // 30 degrees a second drives the joint: Adams' angle from J's x to I's x about J's z is 30 t
  // degrees, so the arm turns at once to 0 degrees and on from there.
  Spec spec = test::readAdamsOrFail(
      pendulumWith({{"MARKER/21\n, PART = 2\n, REULER = 0D, -90D, 0D",
                     "MARKER/21\n, PART = 2\n, REULER = 0D, -90D, 50D"},
                    {"ACCGRAV/", "MOTION/1\n, JOINT = 1\n, FUNCTION = 30.0d * time\nACCGRAV/"}}));
  QCOMPARE(spec.motions.size(), std::size_t(1));
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Kinematics;
  analysis.endTime = 1.0;
  analysis.step = 0.01;
  analysis.outputStep = 0.1;
  analysis.tolerance = 1e-12;
  spec.analysis = analysis;
  const Model model = test::compileOrFail(spec);
  const Results results = runOrFail(model);
  const int arm = test::body(model, "arm").q;
  // I's axes on the arm: the arm's frame is its CM marker's (axes as the part's), turned.
  const Eigen::Matrix3d iLocal =
      rotation::fromEuler313(Eigen::Vector3d(0, -kPi / 2, 50 * kPi / 180));
  const Eigen::Matrix3d jAxes = rotation::fromEuler313(Eigen::Vector3d(0, -kPi / 2, 0));
  double worst = 0;
  for (const Frame& f : results.frames) {
    const Eigen::Matrix3d R =
        rotation::fromCoordinates(f.state.q.segment<4>(arm + 3)).toRotationMatrix();
    const Eigen::Matrix3d iAxes = R * iLocal;
    const Eigen::Vector3d xi = iAxes.col(0), xj = jAxes.col(0), zj = jAxes.col(2);
    const double angle = std::atan2(xj.cross(xi).dot(zj), xj.dot(xi));
    worst = std::max(worst, std::abs(std::remainder(angle - 30 * kPi / 180 * f.state.t, 2 * kPi)));
  }
  qInfo("largest error of Adams' joint angle against 30 t degrees: %.1e rad", worst);
  QVERIFY(worst < 1e-9);
}

void TestAdamsImport::refusals_data() {
  QTest::addColumn<QString>("from");
  QTest::addColumn<QString>("to");
  QTest::addColumn<QString>("message");
  QTest::newRow("not read yet") << "ACCGRAV/"
                                << "BUSHING/3, I = 21, J = 10, K = 1, 1, 1\nACCGRAV/"
                                << "test.adm:36: BUSHING/3 is not read yet";
  QTest::newRow("unknown statement") << "ACCGRAV/"
                                     << "WIDGET/3, SIZE = 1\nACCGRAV/"
                                     << "test.adm:36: WIDGET/3 is not an Adams/Solver statement";
  QTest::newRow("missing marker") << "I = 21"
                                  << "I = 22"
                                  << "test.adm:33: JOINT/1: I = 22 names no MARKER";
  QTest::newRow("same part") << "J = 10"
                             << "J = 20"
                             << "test.adm:31: JOINT/1: I and J are on the same part (arm)";
  QTest::newRow("user subroutine")
      << "ACCGRAV/"
      << "MOTION/1, JOINT = 1, FUNCTION = USER(1, 2)\nACCGRAV/"
      << "test.adm:36: MOTION/1: FUNCTION = USER(1, 2): calls a user subroutine (USER), "
         "which cannot be imported";
  QTest::newRow("force measure")
      << "ACCGRAV/"
      << "SFORCE/3, ROTATIONAL, I = 21, J = 10, FUNCTION = JOINT(1, 0, 2, 0)\nACCGRAV/"
      << "test.adm:36: SFORCE/3: FUNCTION = JOINT(1, 0, 2, 0): JOINT (a function of the model) is "
         "not read "
         "yet";
  QTest::newRow("measure of no marker")
      << "ACCGRAV/"
      << "SFORCE/3, ROTATIONAL, I = 21, J = 10, FUNCTION = AZ(21, 99)\nACCGRAV/"
      << "test.adm:36: SFORCE/3: marker 99 in its FUNCTION names no MARKER";
  QTest::newRow("measure arguments")
      << "ACCGRAV/"
      << "SFORCE/3, ROTATIONAL, I = 21, J = 10, FUNCTION = AZ(21, 10, 10)\nACCGRAV/"
      << "test.adm:36: FUNCTION = AZ(21, 10, 10): AZ takes a marker and up to 1 more (3 given)";
  QTest::newRow("variables doubling")
      << "ACCGRAV/"
      << "GCON/3, I = 21, FUNCTION = VARVAL(1)\n" +
             [] {
               QString chain;
               for (int k = 1; k < 40; ++k)
                 chain +=
                     QString("VARIABLE/%1, FUNCTION = VARVAL(%2) + VARVAL(%2)\n").arg(k).arg(k + 1);
               return chain + "VARIABLE/40, FUNCTION = DX(21)\nACCGRAV/";
             }()
      << "test.adm:64: FUNCTION = VARVAL(29) + VARVAL(29): is too long with its VARIABLEs written "
         "in (more than 100000 characters)";
  QTest::newRow("variable cycle")
      << "ACCGRAV/"
      << "GCON/3, I = 21, FUNCTION = VARVAL(1)\nVARIABLE/1, FUNCTION = 2*VARVAL(1)\nACCGRAV/"
      << "test.adm:37: VARIABLE/1 uses itself through VARVAL";
  QTest::newRow("no mass")
      << ", MASS = 1\n"
      << ""
      << "test.adm:18: PART/2: MASS is missing (a massless part is not read yet)";
  QTest::newRow("no ground") << ", GROUND\n"
                             << ", MASS = 3\n"
                             << "test.adm:1: the dataset has no PART with GROUND";
  QTest::newRow("joint friction") << "REVOLUTE"
                                  << "REVOLUTE, MU_DYN_ROT = 0.1"
                                  << "test.adm:32: JOINT/1: MU_DYN_ROT is not read yet";
  QTest::newRow("too few numbers") << "QP = 2, 0, 0"
                                   << "QP = 2, 0"
                                   << "test.adm:25: MARKER/20: QP must have 3 numbers, got 2";
  QTest::newRow("one point")
      << "QP = 2, 0, 0"
      << "QP = 2, 0, 0, ZP = 2, 0, 1"
      << "test.adm:25: MARKER/20: give both the z and the x point (one alone is not read "
         "yet), or REULER";
  QTest::newRow("text") << "PART/2\n"
                        << "PART/2\nHELLO\n"
                        << "test.adm:19: expected a statement (NAME/id, ...), got 'HELLO'";
}

void TestAdamsImport::refusals() {
  QFETCH(QString, from);
  QFETCH(QString, to);
  QFETCH(QString, message);
  QCOMPARE(QString::fromStdString(
               test::firstAdamsDiagnostic(pendulumWith({{from.toStdString(), to.toStdString()}}))),
           message);
}

void TestAdamsImport::unsupportedListedOrSkipped() {
  // What is not imported is refused, one line per statement (or argument) with its line and
  // why; with AdamsImport::SkipUnsupported the rest is imported and each gets a warning. A MOTION
  // on a joint that is not imported goes with it.
  const std::string text =
      pendulumWith({{"ACCGRAV/",
                     "BUSHING/3, I = 21, J = 10, K = 1, 1, 1\n"
                     "JOINT/4, REVOLUTE, I = 21, J = 10, ICROT = 0.1\n"
                     "MOTION/2, JOINT = 4, FUNCTION = time\n"
                     "SFORCE/5, ROTATIONAL, I = 21, J = 10, FUNCTION = USER(1, 2)\n"
                     "ACCGRAV/"},
                    {", IP = 0.1, 0.1, 0.1", ", IP = 0.1, 0.1, 0.1\n, MATERIAL = STEEL"}});
  const QStringList expected{
      "test.adm:22: PART/2: MATERIAL is not read yet", "test.adm:37: BUSHING/3 is not read yet",
      "test.adm:38: JOINT/4: ICROT is not read yet",
      "test.adm:40: SFORCE/5: FUNCTION = USER(1, 2): calls a user subroutine (USER), which cannot "
      "be imported",
      "test.adm:39: MOTION/2: its JOINT/4 is not imported"};
  const LoadResult strict = readAdams(text, "test.adm");
  QVERIFY(!strict.spec);
  QStringList errors;
  for (const Diagnostic& d : strict.diagnostics) {
    QCOMPARE(d.severity, Severity::Error);
    errors << QString::fromStdString(d.text());
  }
  QCOMPARE(errors, expected);

  const LoadResult skipped = readAdams(text, "test.adm", AdamsImport::SkipUnsupported);
  QVERIFY(skipped.spec);
  QStringList warnings;
  for (const Diagnostic& d : skipped.diagnostics) {
    QCOMPARE(d.severity, Severity::Warning);
    warnings << QString::fromStdString(d.text());
  }
  QStringList expectedWarnings;
  for (const QString& e : expected) expectedWarnings << "warning: " + e + " (skipped)";
  QCOMPARE(warnings, expectedWarnings);
  QCOMPARE(skipped.spec->joints.size(), std::size_t(1));
  QCOMPARE(skipped.spec->motions.size(), std::size_t(0));
  QCOMPARE(skipped.spec->forces.size(), std::size_t(0));

  // A broken statement is not something to skip: still an error, after what was listed.
  const LoadResult missing =
      readAdams(pendulumWith({{"ACCGRAV/",
                               "JOINT/4, REVOLUTE, I = 21, J = 10, IC\nJOINT/6, REVOLUTE, I = 99, "
                               "J = 10\nACCGRAV/"}}),
                "test.adm", AdamsImport::SkipUnsupported);
  QVERIFY(!missing.spec);
  QCOMPARE(QString::fromStdString(missing.diagnostics.back().text()),
           QString("test.adm:37: JOINT/6: I = 99 names no MARKER"));
}

void TestAdamsImport::recognisedByContent() {
  // loadModelFile reads a dataset by its content, whatever the name; JSON .adm stays simEngine2D.
  const LoadResult dataset = loadModelFile(test::testDataPath("adams_pendulum.adm"));
  QVERIFY(dataset.spec);
  QCOMPARE(dataset.spec->dimension, 3);
  const LoadResult simEngine = loadModelFile(test::testDataPath("slider_crank_kin.adm"));
  QVERIFY(simEngine.spec);
  QCOMPARE(simEngine.spec->dimension, 2);
}

void TestAdamsImport::names() {
  // Adams/View's names become identifiers (its dots and spaces as _), unique in the model, and
  // the ground's name stays the ground's; a statement without a name is kind_id.
  const Spec spec = test::readAdamsOrFail(
      pendulumWith({{"'arm'", "'ground'"},
                    {"'pin'", "'TORSION SPRING.pin'"},
                    {"ACCGRAV/", "JPRIM/4, PERPENDICULAR, I = 21, J = 10\nACCGRAV/"}}));
  QCOMPARE(spec.bodies[0].name, std::string("ground_2"));
  QCOMPARE(spec.joints[0].name, std::string("TORSION_SPRING_pin"));
  QCOMPARE(spec.joints[0].body2, std::string("ground_2"));
  QCOMPARE(spec.joints[1].name, std::string("jprim_4"));
  QVERIFY(test::compileOrFail(spec).joints.size() == 2);
}

void TestAdamsImport::graphicsAsShapes() {
  // Chrono's rack and pinion: the pinion's CYLINDER is centred on its centre of mass (its CM
  // marker 0.2 m behind, LENGTH 0.4 along the shaft): the body's cylinder; the rack's BOX is not
  // centred on its centre of mass: no shape.
  const Spec rack = test::readAdamsOrFail(
      test::readFile(test::testDataPath("adams/chrono/test_RackPinion_Case01.adm")));
  QCOMPARE(rack.bodies[0].shape.type, std::string("cylinder"));
  QCOMPARE(rack.bodies[0].shape.radius->value, 0.1);
  QCOMPARE(rack.bodies[0].shape.length->value, 0.4);
  QCOMPARE(*rack.bodies[0].shape.axis, (Vector{0, 0, 1}));  // the CM marker's z: the shaft
  QCOMPARE(rack.bodies[1].shape.type, std::string(""));
  // On the pendulum's arm (CM at 2 m along x): a sphere, a box whose corner marker's axes are
  // the body's turned (sizes follow the axes), a frustum of equal radii; a GRAPHICS on a
  // missing marker is skipped with a warning and the rest reads.
  const auto shape = [](const std::string& graphics) {
    const std::string text =
        pendulumWith({{"ACCGRAV/",
                       "MARKER/30, PART = 2, QP = 2, 0, 0\n"
                       "MARKER/31, PART = 2, QP = 2.5, -0.1, -0.2, REULER = 90D, 90D, 0\n"
                       "MARKER/32, PART = 2, QP = 1.5, 0, 0, REULER = 90D, 90D, 0\n" +
                           graphics + "\nACCGRAV/"}});
    const LoadResult read = readAdams(text, "test.adm");
    if (!read.spec) qFatal("not read");
    return std::pair{read.spec->bodies[0].shape, read.diagnostics};
  };
  QCOMPARE(
      shape("GRAPHICS/1, ELLIPSOID, CM = 30, XSCALE = 0.3, YSCALE = 0.3, ZSCALE = 0.3").first.type,
      std::string("sphere"));
  QCOMPARE(
      shape("GRAPHICS/1, ELLIPSOID, CM = 30, XSCALE = 0.3, YSCALE = 0.2, ZSCALE = 0.3").first.type,
      std::string(""));
  // Marker 31's x, y, z are the body's y, z, x: X = 0.2, Y = 0.4, Z = -1 from (2.5, -0.1, -0.2).
  const ShapeSpec box = shape("GRAPHICS/1, BOX, CORNER = 31, X = 0.2, Y = 0.4, Z = -1").first;
  QCOMPARE(box.type, std::string("box"));
  QCOMPARE(*box.size, (Vector{1, 0.2, 0.4}));
  const ShapeSpec frustum =
      shape("GRAPHICS/1, FRUSTUM, CM = 32, LENGTH = 1, TOP = 0.05, BOTTOM = 0.05").first;
  QCOMPARE(frustum.type, std::string("cylinder"));
  QCOMPARE(*frustum.axis, (Vector{1, 0, 0}));
  const auto [none, warnings] = shape("GRAPHICS/1, CYLINDER, CM = 99, LENGTH = 1, RADIUS = 0.1");
  QCOMPARE(none.type, std::string(""));
  QCOMPARE(QString::fromStdString(warnings.back().text()),
           QString("warning: test.adm:39: GRAPHICS/1: CM = 99 names no MARKER (drawing only: "
                   "skipped)"));
}

void TestAdamsImport::generalForceAndSettings() {
  // GFORCE: a force and a torque on I's part along RM's axes (RM on the part: the body's); the
  // torque is named after it. INTEGRATOR GSTIFF with ERROR sets bdf and the tolerance, HHT its
  // alpha with error-controlled steps; what has no equivalent is a warning, as is EQUILIBRIUM.
  const Spec spec = test::readAdamsOrFail(
      pendulumWith({{"ACCGRAV/",
                     "MARKER/30, PART = 1, FLOATING\nMARKER/22, PART = 2, QP = 1, 0, 0\n"
                     "GFORCE/7, I = 22, JFLOAT = 30, RM = 22, FX = 2\\TZ = -3*TIME\n"
                     "INTEGRATOR/, GSTIFF, SI2, ERROR = 1E-5\nACCGRAV/"}}));
  QCOMPARE(spec.forces.size(), std::size_t(2));
  QCOMPARE(spec.forces[0].name, std::string("gforce_7"));
  QCOMPARE(spec.forces[0].type, ForceType::Force);
  QCOMPARE(spec.forces[0].frame, std::string("body"));
  QCOMPARE(spec.forces[1].name, std::string("gforce_7_torque"));
  QCOMPARE(spec.forces[1].type, ForceType::Torque);
  const Model model = test::compileOrFail(spec);
  const std::vector<double> time{2.0};
  // The marker's axes are the body's: FX along body x, TZ along body z.
  QCOMPARE(expr::evaluate(model.forces[0].functions[0].value, time), 2.0);
  QCOMPARE(expr::evaluate(model.forces[1].functions[2].value, time), -6.0);
  QCOMPARE(spec.analysis->integrator, std::string("bdf"));
  QCOMPARE(spec.analysis->tolerance.value, 1e-5);
  const LoadResult read =
      readAdams(pendulumWith({{"ACCGRAV/",
                               "INTEGRATOR/, HHT, ALPHA = -0.25, ERROR = 1E-6, KMAX = 4\n"
                               "EQUILIBRIUM/, ERROR = 1E-6\nACCGRAV/"}}),
                "test.adm");
  QVERIFY(read.spec);
  QCOMPARE(read.spec->analysis->integrator, std::string("hht"));
  QCOMPARE(read.spec->analysis->hhtAlpha.value, -0.25);
  QVERIFY(read.spec->analysis->variableStep);
  QStringList warnings;
  for (const Diagnostic& d : read.diagnostics) warnings << QString::fromStdString(d.text());
  QCOMPARE(warnings,
           (QStringList{"warning: test.adm:36: INTEGRATOR/: KMAX has no equivalent in Reuleaux's "
                        "integrators: not used",
                        "warning: test.adm:37: EQUILIBRIUM/ holds the settings of an analysis the "
                        "dataset does not run (Adams' command file does): not used"}));
  QCOMPARE(test::firstAdamsDiagnostic(
               pendulumWith({{"ACCGRAV/", "INTEGRATOR/, HHT, ALPHA = -0.5\nACCGRAV/"}})),
           std::string("test.adm:36: INTEGRATOR/: ALPHA must lie in [-1/3, 0]"));
}

void TestAdamsImport::corruptedCopies() {
  // Copies of every dataset in tests/data (the pendulum, the inch slider-crank, Chrono's) with
  // characters deleted, doubled, replaced (by ones a dataset uses) or swapped: each reads as a
  // model, which saves as .rlx that reads back and compiles or is refused, and written as a
  // dataset reads back too; or as messages; never a crash.
  std::vector<std::string> datasets{test::testDataPath("adams_pendulum.adm")};
  for (const char* folder : {"adams", "adams/chrono"})
    for (const QString& f :
         QDir(QString::fromStdString(test::testDataPath(folder))).entryList({"*.adm"}))
      datasets.push_back(test::testDataPath(std::string(folder) + "/" + f.toStdString()));
  const std::string alphabet = "/,=!\n\\()*:'-+.0123456789DEIJ PARTMKERGOUNDFSV_";
  std::mt19937 random(21);
  int models = 0, refused = 0, compiled = 0, written = 0;
  for (const std::string& path : datasets) {
    const std::string original = test::readFile(path);
    const int copies = path.ends_with("adams_pendulum.adm") ? 4000 : 300;
    for (int copy = 0; copy < copies; ++copy) {
      std::string text = original;
      const int edits = 1 + static_cast<int>(random() % 4);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t at = random() % text.size();
        switch (random() % 4) {
          case 0:
            text.erase(at, 1 + random() % 8);
            break;
          case 1:
            text.insert(at, text.substr(at, 1 + random() % 16));
            break;
          case 2:
            text[at] = alphabet[random() % alphabet.size()];
            break;
          default: {
            const std::size_t other = random() % text.size();
            std::swap(text[at], text[other]);
          }
        }
      }
      const LoadResult read = readAdams(text, "copy.adm");
      if (read.spec) {
        ++models;
        QVERIFY(readRlx(writeRlx(*read.spec), "copy.rlx").spec);  // saved as .rlx, it reads back
        compiled += compile(*read.spec).model.has_value();
        if (const AdamsWriteResult dataset = writeAdams(*read.spec); dataset.text) {
          ++written;
          const LoadResult back = readAdams(*dataset.text, "written.adm");
          QVERIFY2(back.spec,
                   (path + ": " +
                    (back.diagnostics.empty() ? std::string() : back.diagnostics.front().text()))
                       .c_str());
        }
      } else {
        ++refused;
        QVERIFY(!read.diagnostics.empty());
        for (const Diagnostic& d : read.diagnostics) QVERIFY(!d.message.empty());
      }
    }
  }
  qInfo(
      "%d corrupted copies of %zu datasets: %d read as models (%d of them compile, %d written "
      "back as datasets that read), %d refused with a message",
      models + refused, datasets.size(), models, compiled, written, refused);
}

QTEST_GUILESS_MAIN(TestAdamsImport)
#include "tst_adams_import.moc"
