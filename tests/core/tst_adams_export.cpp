// Models written as Adams datasets (io/adams_writer.cpp) and read back (io/adams_reader.cpp):
// every example either reads back to a model that moves as the original (a planar one as its
// 3-D twin in the x-y plane) or is refused naming each element Adams has no statement for yet;
// the slider-crank's text against a golden file; expressions in Adams' grammar evaluate as the
// originals; what Adams cannot say is refused by name.
#include "io/model_file.h"
#include "joints/rotation.h"
#include "model/compile.h"
#include "solve/analysis/analysis.h"
#include "test_support.h"

#include <QDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using namespace rlx;

namespace {

// The examples Adams has no statement for yet (issue 21: GEAR, RACKPIN, SCREW, CVCV, IMPACT),
// with the elements refused.
const std::map<std::string, std::set<std::string>>& refusedExamples() {
  static const std::map<std::string, std::set<std::string>> refused{
      {"disk_cam_roller", {"joint roller_contact"}},
      {"flat_face_cam", {"joint face_contact"}},
      {"planetary_gears", {"joint sun_planet"}},  // the sun's and planet's bearings: no carrier
      {"rolling_disk", {"joint table"}},
  };
  return refused;
}

std::string errors(const Diagnostics& diagnostics) {
  std::string all;
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) all += d.text() + "\n";
  return all;
}

std::string writtenOrFail(const Spec& spec) {
  const AdamsWriteResult written = writeAdams(spec);
  if (!written.text) qFatal("%s", errors(written.diagnostics).c_str());
  return *written.text;
}

Results runOrFail(const Model& model) {
  AnalysisOutcome outcome = runAnalysis(model, {});
  if (!outcome.results.report.ok()) qFatal("%s", outcome.results.report.message.c_str());
  return std::move(outcome.results);
}

// A body's position and axes in a frame of a planar or spatial model.
std::pair<Eigen::Vector3d, Eigen::Matrix3d> placement(const Model& model, const Frame& frame,
                                                      std::size_t body) {
  const Eigen::VectorXd& q = frame.state.q;
  const int i = model.bodies[body].q;
  if (model.dimension == 2)
    return {Eigen::Vector3d(q(i), q(i + 1), 0),
            Eigen::AngleAxisd(q(i + 2), Eigen::Vector3d::UnitZ()).toRotationMatrix()};
  return {q.segment<3>(i), rotation::fromCoordinates(q.segment<4>(i + 3)).toRotationMatrix()};
}

// The largest difference of the bodies' positions (m) and axes over the two runs' frames.
double largestDifference(const Model& a, const Results& ra, const Model& b, const Results& rb) {
  if (ra.frames.size() != rb.frames.size()) qFatal("the runs have different frame counts");
  double largest = 0;
  for (std::size_t f = 0; f < ra.frames.size(); ++f)
    for (std::size_t k = 0; k < a.bodies.size(); ++k) {
      const auto [pa, Aa] = placement(a, ra.frames[f], k);
      const auto [pb, Ab] = placement(b, rb.frames[f], k);
      largest =
          std::max({largest, (pa - pb).cwiseAbs().maxCoeff(), (Aa - Ab).cwiseAbs().maxCoeff()});
    }
  return largest;
}

// A motion of the model's first joint.
MotionSpec drive(const Spec& spec, const std::string& function) {
  MotionSpec m;
  m.name = "drive";
  m.joint = spec.joints.front().name;
  m.function = function;
  return m;
}

// The value of a one-motion model's function at t, compiled.
double motionAt(const Model& model, double t) {
  const rlx::Function& f = model.motions.front().function;
  const std::vector<double> time{t};
  return expr::evaluate(f.value, time);
}

}  // namespace

class TestAdamsExport : public QObject {
  Q_OBJECT

 private slots:
  void examplesReadBack_data();
  void examplesReadBack();
  void goldenSliderCrank();
  void functionsInAdamsGrammar();
  void unwritableFunctions();
  void forcesAndMeasures();
  void couplerOfASlide();
};

void TestAdamsExport::examplesReadBack_data() {
  QTest::addColumn<QString>("file");
  for (const QString& f : QDir(QString::fromStdString(test::examplesDir())).entryList({"*.rlx"}))
    QTest::newRow(qPrintable(f)) << f;
}

void TestAdamsExport::examplesReadBack() {
  // Both runs at a tight tolerance over the example's first second (its own analysis and steps),
  // so that what differs is the writing, not the solvers' tolerances.
  QFETCH(QString, file);
  const std::string name = QFileInfo(file).completeBaseName().toStdString();
  Spec spec = test::loadSpec(test::examplePath(file.toStdString()));
  const AdamsWriteResult written = writeAdams(spec);
  if (const auto refused = refusedExamples().find(name); refused != refusedExamples().end()) {
    QVERIFY(!written.text);
    std::set<std::string> named;
    for (const Diagnostic& d : written.diagnostics)
      if (d.severity == Severity::Error) {
        QVERIFY2(d.message.ends_with("not written yet") || d.message.ends_with("to a common part"),
                 d.text().c_str());
        named.insert(d.element);
      }
    QVERIFY(named == refused->second);
    return;
  }
  QVERIFY2(written.text, errors(written.diagnostics).c_str());
  Spec back = test::readAdamsOrFail(*written.text);
  QCOMPARE(back.dimension, 3);
  QCOMPARE(back.name, spec.name);
  QCOMPARE(back.bodies.size(), spec.bodies.size());
  for (std::size_t k = 0; k < spec.bodies.size(); ++k)
    QCOMPARE(back.bodies[k].name, spec.bodies[k].name);

  AnalysisSpec analysis = spec.analysis.value_or(AnalysisSpec{});
  analysis.endTime = std::min(analysis.endTime.value, 1.0);
  analysis.tolerance = std::min(analysis.tolerance.value, 1e-11);
  spec.analysis = back.analysis = analysis;
  const Model original = test::compileOrFail(spec);
  const Model twin = test::compileOrFail(back);
  const Results a = runOrFail(original);
  const Results b = runOrFail(twin);
  const double difference = largestDifference(original, a, twin, b);
  qInfo("%s: %zu frames, largest difference %.2g", name.c_str(), a.frames.size(), difference);
  QVERIFY2(difference < 1e-9, qPrintable(QString::number(difference)));
}

void TestAdamsExport::goldenSliderCrank() {
  // The slider-crank's dataset as checked in: a change to the layout shows in its diff.
  const Spec spec = test::loadSpec(test::examplePath("slider_crank.rlx"));
  const std::string text = writtenOrFail(spec);
  const std::string golden = test::readFile(test::testDataPath("adams/slider_crank_written.adm"));
  if (text != golden) {
    if (const QByteArray out = qgetenv("REULEAUX_WRITE_GOLDEN"); !out.isEmpty()) {
      QFile f(QString::fromUtf8(out));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text.data(), static_cast<qint64>(text.size()));
    }
    QFAIL(
        "the written slider-crank differs from tests/data/adams/slider_crank_written.adm "
        "(REULEAUX_WRITE_GOLDEN=path writes the new text)");
  }
  for (const QString& line : QString::fromStdString(text).split('\n'))
    QVERIFY2(line.size() <= 80, qPrintable(line));

  // A name of two lines is a title of one.
  Spec twoLines = spec;
  twoLines.name = "Offset\nslider-crank";
  QCOMPARE(test::readAdamsOrFail(writtenOrFail(twoLines)).name, std::string("Offset slider-crank"));
}

void TestAdamsExport::functionsInAdamsGrammar() {
  // Signs, powers that group to the right, products of sums, STEP and STEP5, nested calls,
  // conditionals, comparisons' values and sign() (as IF, sampled on their boundaries): written in
  // Adams' grammar and read back, each evaluates as its original to rounding.
  const char* functions[] = {
      "-(t - 0.5)^2*3 + step5(t, 0, 0, 1, 2) - -2*sin(t)/(1 + t^2)^-1.5",
      "2^3^0.5*t - (-t)^2 + -(-(t))",
      "step(t, 0.1, -1, 0.9, 1)*max(t, 0.3)/min(2, 1 + t) - atan2(t, 1 - t)",
      "exp(-t)*cosh(t) + log(1 + t) - log10(2 + t)*sqrt(abs(t - 0.4)) + tanh(t)*asin(t/3)",
      "1e-7*t + 1.5e12*t^2/1e12 - 0.1*(0.2 - (0.3 - t))",
      "t > 0.5 ? t : 0",
      "t <= 0.5 ? sin(t) : -cos(t)",
      "sign(t - 0.5)*t + (t < 0.25)*2 - (t >= 0.75)",
      "t == 0.25 ? 1 : (t != 0.75 ? t^2 : -1)",
  };
  for (const char* f : functions) {
    Spec spec = test::loadSpec(test::examplePath("simple_pendulum.rlx"));
    spec.motions = {drive(spec, f)};
    const Model original = test::compileOrFail(spec);
    const Model back = test::compileOrFail(test::readAdamsOrFail(writtenOrFail(spec)));
    for (double t = 0; t <= 1.0; t += 0.125)
      QVERIFY2(std::abs(motionAt(original, t) - motionAt(back, t)) <=
                   1e-14 * (1 + std::abs(motionAt(original, t))),
               qPrintable(QString("%1 at t = %2: %3 against %4")
                              .arg(f)
                              .arg(t)
                              .arg(motionAt(back, t), 0, 'g', 17)
                              .arg(motionAt(original, t), 0, 'g', 17)));
  }
}

void TestAdamsExport::unwritableFunctions() {
  // Adams has no logic: the motion is named.
  for (const char* f : {"t > 0.5 && t < 0.8 ? t : 0", "(t < 0.2 || t > 0.8)*t", "!(t < 1)*t"}) {
    Spec spec = test::loadSpec(test::examplePath("simple_pendulum.rlx"));
    spec.motions = {drive(spec, f)};
    const AdamsWriteResult written = writeAdams(spec);
    QVERIFY(!written.text);
    QVERIFY2(errors(written.diagnostics).starts_with("motion drive: " + std::string(f) + ": "),
             errors(written.diagnostics).c_str());
  }
}

void TestAdamsExport::forcesAndMeasures() {
  // A 3-D model with what the writer turns into SPRINGDAMPER, SFORCE with DM and VR, VFORCE and
  // VTORQUE in ground's and the body's axes, a GCON of DX, the rotation's entries and a slider's
  // travel and rate, and initial velocities: its dynamics read back agree to 1e-9.
  const Spec spec = test::loadSpec(test::testDataPath("adams/export_forces.rlx"));
  const std::string text = writtenOrFail(spec);
  for (const char* statement : {"SPRINGDAMPER/1", "SFORCE/1", "VFORCE/1", "VTORQUE/1", "GCON/1"})
    QVERIFY2(text.find(statement) != std::string::npos, statement);
  Spec back = test::readAdamsOrFail(text);
  back.analysis = spec.analysis;
  const Model original = test::compileOrFail(spec);
  const Model twin = test::compileOrFail(back);
  const Results a = runOrFail(original);
  const Results b = runOrFail(twin);
  const double difference = largestDifference(original, a, twin, b);
  qInfo("largest difference %.2g over %zu frames", difference, a.frames.size());
  QVERIFY2(difference < 1e-9, qPrintable(QString::number(difference)));
}

void TestAdamsExport::couplerOfASlide() {
  // A COUPLER of a revolute joint and a translational one whose points start 0.3 m apart: the
  // guide's J marker is written where its I is, so Adams' travel starts at zero as Reuleaux's
  // coordinate does, and the slide runs s = 0.05 theta after the round trip. A dataset whose
  // joints do not satisfy its coupler in the file is refused, named.
  const Spec spec = test::loadSpec(test::testDataPath("adams/export_coupler.rlx"));
  const std::string text = writtenOrFail(spec);
  QVERIFY(text.find("COUPLER/1\n, JOINTS = 1, 2\n, TYPE = R:T\n, SCALES = 0.05, -1\n") !=
          std::string::npos);
  Spec back = test::readAdamsOrFail(text);
  QCOMPARE(back.constraints.size(), std::size_t(1));
  QCOMPARE(back.constraints.front().type, ConstraintType::Coupler);
  back.analysis = spec.analysis;
  const Model original = test::compileOrFail(spec);
  const Model twin = test::compileOrFail(back);
  const Results a = runOrFail(original);
  const Results b = runOrFail(twin);
  QVERIFY(largestDifference(original, a, twin, b) < 1e-12);
  double closedForm = 0;
  for (const Frame& f : b.frames)
    closedForm = std::max(
        closedForm, std::abs(f.state.q(twin.bodies[1].q) - (0.3 + 0.05 * 2 * M_PI * f.state.t)));
  QVERIFY2(closedForm < 1e-12, qPrintable(QString::number(closedForm)));

  std::string moved = text;
  const std::size_t at = moved.find("QG = 0.3, 0.2, 0");
  QVERIFY(at != std::string::npos);
  moved.replace(at, 16, "QG = 0.35, 0.2, 0");
  const LoadResult refused = readAdams(moved, "moved.adm");
  QVERIFY(!refused.spec);
  QVERIFY2(errors(refused.diagnostics)
                   .find("COUPLER/1: its joints' displacements in the file do not satisfy it") !=
               std::string::npos,
           errors(refused.diagnostics).c_str());
}

QTEST_GUILESS_MAIN(TestAdamsExport)
#include "tst_adams_export.moc"
