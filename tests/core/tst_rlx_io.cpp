// Tests of the .rlx reader and writer (core/io/rlx_reader.cpp, rlx_writer.cpp, save_file.cpp):
// lossless round trips, the text of every structural diagnostic, syntax error locations,
// robustness against corrupted files, and atomic saving.

#include "io/model_file.h"
#include "test_support.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

using namespace rlx;

namespace {

QString q(const std::string& text) {
  return QString::fromStdString(text);
}

std::string dataFile(const std::string& name) {
  return test::testDataDir() + "/" + name;
}

QString allDiagnostics(const Diagnostics& diagnostics) {
  QStringList lines;
  for (const Diagnostic& d : diagnostics) lines << q(d.text());
  return lines.join('\n');
}

// A planar or spatial model around a fragment of top-level keys.
std::string planar(const std::string& fragment) {
  return R"({"reuleaux": 1, "dimension": 2, )" + fragment + "}";
}
std::string spatial(const std::string& fragment) {
  return R"({"reuleaux": 1, "dimension": 3, )" + fragment + "}";
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Files in `directory` other than `keep`: leftovers of a save.
QStringList otherFiles(const QString& directory, const QString& keep) {
  QStringList names = QDir(directory).entryList(QDir::Files | QDir::Hidden | QDir::System);
  names.removeAll(keep);
  return names;
}

}  // namespace

class TestRlxIo : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip_data();
  void roundTrip();
  void readsEveryPlanarKey();
  void readsEverySpatialKey();
  void writesStableReadableText();
  void writeReadKeepsExpressionsAndView();
  void numbersRoundTripExactly();
  void structuralErrors_data();
  void structuralErrors();
  void collectsDiagnosticsAcrossElements();
  void syntaxErrorLocation_data();
  void syntaxErrorLocation();
  void corruptedFilesNeverCrash();
  void saveReplacesAtomically();
  void saveFailsCleanly();
};

void TestRlxIo::roundTrip_data() {
  QTest::addColumn<QString>("path");
  QTest::newRow("rich_planar") << q(dataFile("rich_planar.rlx"));
  QTest::newRow("rich_spatial") << q(dataFile("rich_spatial.rlx"));
  const QDir examples(q(test::examplesDir()));
  for (const QString& name : examples.entryList({"*.rlx"}, QDir::Files))
    QTest::newRow(qPrintable("examples/" + name)) << examples.filePath(name);
}

// read -> write -> read gives the same spec, and writing is idempotent.
void TestRlxIo::roundTrip() {
  QFETCH(QString, path);
  const LoadResult first = readRlx(test::readFile(path.toStdString()), "model.rlx");
  QVERIFY2(first.spec, qPrintable(allDiagnostics(first.diagnostics)));
  QVERIFY2(first.diagnostics.empty(), qPrintable(allDiagnostics(first.diagnostics)));

  const std::string written = writeRlx(*first.spec);
  const LoadResult second = readRlx(written, "written.rlx");
  QVERIFY2(second.spec, qPrintable(allDiagnostics(second.diagnostics) + "\n" + q(written)));
  QCOMPARE(q(writeRlx(*second.spec)), q(written));
  QVERIFY(*second.spec == *first.spec);
}

void TestRlxIo::readsEveryPlanarKey() {
  const LoadResult result = readRlx(test::readFile(dataFile("rich_planar.rlx")), "planar.rlx");
  QVERIFY2(result.spec, qPrintable(allDiagnostics(result.diagnostics)));
  const Spec& spec = *result.spec;

  // Top level and parameters, in file order, expressions kept as text.
  QCOMPARE(spec.formatVersion, 1);
  QCOMPARE(q(spec.name), QString("Rich planar model"));
  QVERIFY(q(spec.description).startsWith("Every key"));
  QCOMPARE(spec.dimension, 2);
  QCOMPARE(spec.parameters.size(), std::size_t{6});
  QCOMPARE(q(spec.parameters[0].name), QString("l"));
  QCOMPARE(spec.parameters[0].value.value, 0.5);
  QCOMPARE(q(spec.parameters[1].name), QString("m"));
  QCOMPARE(q(spec.parameters[1].value.expression), QString("2*1.5"));
  QCOMPARE(q(spec.parameters[2].value.expression), QString("l/10"));
  QCOMPARE(spec.parameters[3].value.value, 1000.0);
  QVERIFY(std::signbit(spec.parameters[4].value.value));
  QCOMPARE(spec.parameters[5].value.value, 1.2345678901234567e-300);
  QVERIFY(spec.gravity);
  QCOMPARE((*spec.gravity)[0], Number(0.0));
  QCOMPARE(q((*spec.gravity)[1].expression), QString("-9.81"));

  // Bodies: every field, and every shape type.
  QCOMPARE(spec.bodies.size(), std::size_t{8});
  const BodySpec& crank = spec.bodies[0];
  QCOMPARE(q(crank.mass.expression), QString("m"));
  QCOMPARE(crank.inertia, std::vector<Number>{Number::expr("m*l^2/12")});
  QCOMPARE(crank.position[0].value, 0.17677669529663687);
  QCOMPARE(q(crank.angle.expression), QString("45*deg"));
  QCOMPARE(crank.velocity.size(), std::size_t{2});
  QCOMPARE(crank.angularVelocity, std::vector<Number>{Number(6.283185307179586)});
  QCOMPARE(crank.hold.size(), std::size_t{6});
  QCOMPARE(q(crank.hold[5]), QString("angular_velocity"));
  QCOMPARE(q(crank.shape.type), QString("bar"));
  QCOMPARE(q(crank.shape.width->expression), QString("w"));
  QCOMPARE(spec.bodies[1].shape.points.size(), std::size_t{4});
  QCOMPARE(q(spec.bodies[1].shape.points[3][0].expression), QString("-l"));
  QCOMPARE(spec.bodies[2].shape.size->at(1).value, 0.1);
  QCOMPARE(spec.bodies[3].shape.radius->value, 0.1);
  QCOMPARE(q(spec.bodies[4].shape.type), QString("cylinder"));
  QCOMPARE(spec.bodies[4].mass.value, 1.0);
  QCOMPARE(spec.bodies[5].shape.radius->value, 0.05);
  QCOMPARE(q(spec.bodies[6].shape.file), QString("meshes/frame.stl"));
  QVERIFY(spec.bodies[7].position.empty() && spec.bodies[7].inertia.empty());
  QVERIFY(spec.bodies[7].shape.type.empty());

  // Joints, motions (a JSON number in a function field is kept as its text), forces.
  QCOMPARE(spec.joints.size(), std::size_t{7});
  QCOMPARE(spec.joints[3].type, JointType::Translational);
  QCOMPARE(spec.joints[3].axis->at(0).value, 1.0);
  QCOMPARE(q(spec.joints[4].length->expression), QString("0.9"));
  QCOMPARE(spec.joints[5].type, JointType::PointOnLine);
  QVERIFY(spec.joints[5].axis1 && spec.joints[5].axis2 && spec.joints[5].point2);
  QCOMPARE(spec.joints[6].type, JointType::Fixed);
  QCOMPARE(q(spec.motions[0].joint), QString("crank_pin"));
  QCOMPARE(q(spec.motions[1].coordinate), QString("y"));
  QCOMPARE(q(spec.motions[2].function), QString("0"));
  QCOMPARE(spec.motions[2].point->at(0).value, 0.5);
  QCOMPARE(q(spec.motions[3].function), QString("1.5"));
  QCOMPARE(spec.motions[3].at->at(0).value, 3.0);
  QCOMPARE(spec.forces.size(), std::size_t{7});
  QCOMPARE(spec.forces[0].type, ForceType::SpringDamper);
  QCOMPARE(q(spec.forces[0].stiffness->expression), QString("k"));
  QCOMPARE(spec.forces[0].preload->value, -2.0);
  QCOMPARE(q(spec.forces[1].function), QString("-100*(length - 1) - 2*rate"));
  QVERIFY(spec.forces[1].at1 && spec.forces[1].at2 && !spec.forces[1].point1);
  QCOMPARE(q(spec.forces[2].freeAngle->expression), QString("30*deg"));
  QCOMPARE(q(spec.forces[3].frame), QString("body"));
  QCOMPARE(spec.forces[3].vector, (std::vector<std::string>{"10*sin(t)", "0"}));
  QCOMPARE(q(spec.forces[4].frame), QString("global"));
  QCOMPARE(spec.forces[5].type, ForceType::Torque);
  QCOMPARE(q(spec.forces[5].value), QString("step(t, 0, 0, 1, 5)"));
  QCOMPARE(q(spec.forces[6].joint), QString("rail"));

  // Constraints, analysis and view.
  QVERIFY(spec.constraints[0].type == ConstraintType::Holonomic);
  QVERIFY(spec.constraints[1].type == ConstraintType::Nonholonomic);
  QCOMPARE(spec.constraints[1].equations.size(), std::size_t{2});
  QVERIFY(spec.analysis);
  QCOMPARE(spec.analysis->type, AnalysisType::Dynamics);
  QCOMPARE(q(spec.analysis->endTime.expression), QString("2*l"));
  QCOMPARE(spec.analysis->outputStep->value, 0.01);
  QCOMPARE(q(spec.analysis->integrator), QString("corrected-rk45"));
  QCOMPARE(spec.analysis->tolerance.value, 1e-8);
  QCOMPARE(spec.analysis->hhtAlpha.value, -0.2);
  QCOMPARE(spec.view["camera"]["zoom"].get<double>(), 1.25);
  QVERIFY(spec.view["notes"].is_null());
  QCOMPARE(spec.view["layers"][2][0].get<double>(), 3.5);
}

void TestRlxIo::readsEverySpatialKey() {
  const LoadResult result = readRlx(test::readFile(dataFile("rich_spatial.rlx")), "spatial.rlx");
  QVERIFY2(result.spec, qPrintable(allDiagnostics(result.diagnostics)));
  const Spec& spec = *result.spec;
  QCOMPARE(spec.dimension, 3);
  QCOMPARE(spec.gravity->size(), std::size_t{3});
  const BodySpec& disk = spec.bodies[0];
  QCOMPARE(disk.inertia.size(), std::size_t{3});
  QCOMPARE(q(disk.orientation->at(1).expression), QString("pi/2 - tilt"));
  QVERIFY(!disk.quaternion);
  QCOMPARE(disk.angularVelocity.size(), std::size_t{3});
  QCOMPARE(disk.angularVelocity[2].value, 3.3333333333333335);
  QCOMPARE(spec.bodies[1].inertia.size(), std::size_t{6});
  QCOMPARE(spec.bodies[1].inertia[5].value, 0.0003);
  QCOMPARE(spec.bodies[1].quaternion->size(), std::size_t{4});
  QVERIFY(!spec.bodies[1].orientation);
  QCOMPARE(spec.joints[0].type, JointType::RollingDisk);
  QCOMPARE(q(spec.joints[0].radius->expression), QString("r"));
  QCOMPARE(spec.joints[7].type, JointType::Perpendicular);
  QVERIFY(!spec.joints[9].length);
  QCOMPARE(spec.forces[0].vector, (std::vector<std::string>{"1", "0", "-t"}));
  QCOMPARE(q(spec.forces[0].frame), QString("global"));
  QCOMPARE(spec.forces[1].vector.size(), std::size_t{3});
  QVERIFY(spec.forces[1].value.empty());
  QCOMPARE(q(spec.forces[4].value), QString("9.81"));
  QCOMPARE(spec.analysis->type, AnalysisType::Kinematics);
  QCOMPARE(spec.analysis->step.value, 1e-3);
  QVERIFY(!spec.analysis->outputStep);
  QVERIFY(spec.view == nlohmann::json({1, 2, 3}));
}

// Key order, indentation, whole numbers without a fraction, trailing newline.
void TestRlxIo::writesStableReadableText() {
  Spec spec;
  spec.name = "m";
  spec.description = "d";
  spec.parameters = {{"a", 2.0}};
  spec.gravity = Vector{0.0, -9.81};
  BodySpec body;
  body.name = "b";
  body.mass = 3.0;
  spec.bodies.push_back(body);
  JointSpec pin;
  pin.name = "pin";
  pin.body2 = "b";
  pin.at = Vector{0.0, 0.0};
  pin.length = Number(4.0);
  spec.joints.push_back(pin);
  MotionSpec drive;
  drive.name = "drive";
  drive.joint = "pin";
  drive.function = "t";
  spec.motions.push_back(drive);
  ForceSpec push;
  push.name = "push";
  push.body = "b";
  push.vector = {"1", "0"};
  push.stiffness = Number(7.0);
  spec.forces.push_back(push);
  spec.constraints.push_back({"c", ConstraintType::Holonomic, {"b.x"}, {}, {}});
  spec.analysis = AnalysisSpec{};
  spec.view = {{"zoom", 2}};
  const std::string text = writeRlx(spec);

  // Top-level keys in the documented order.
  std::size_t previous = 0;
  for (const char* key :
       {"reuleaux", "name", "description", "dimension", "parameters", "gravity", "bodies", "joints",
        "motions", "forces", "constraints", "analysis", "view"}) {
    const std::size_t at = text.find("\n  \"" + std::string(key) + "\":");
    QVERIFY2(at != std::string::npos && at >= previous, key);
    previous = at;
  }
  QVERIFY(text.starts_with("{\n  \"reuleaux\": 1,\n"));
  QVERIFY(text.ends_with("}\n"));
  QVERIFY(text.find("\"mass\": 3,") != std::string::npos);
  QVERIFY(text.find("\n  \"gravity\": [0, -9.81],\n") != std::string::npos);
  QVERIFY(text.find("\n      \"at\": [0, 0]\n") != std::string::npos);

  // Fields of another type (a revolute's length, a force's stiffness) are not written.
  QVERIFY(text.find("length") == std::string::npos);
  QVERIFY(text.find("stiffness") == std::string::npos);
  QVERIFY(text.find("\"frame\": \"global\"") != std::string::npos);
  QVERIFY(readRlx(text, "out.rlx").spec);

  // Absent optionals and empty lists are omitted.
  const std::string minimal = writeRlx(Spec{});
  QCOMPARE(q(minimal), QString("{\n  \"reuleaux\": 1,\n  \"dimension\": 2\n}\n"));
}

void TestRlxIo::writeReadKeepsExpressionsAndView() {
  Spec spec;
  spec.dimension = 3;
  spec.parameters = {{"zeta", Number::expr("sqrt(2)/4")}, {"alpha", 1.0}, {"beta", -0.0}};
  BodySpec body;
  body.name = "b";
  body.mass = Number::expr("2*zeta");
  body.inertia = {1.0, Number::expr("alpha"), 3.0, 0.1, 0.2, 0.3};
  body.position = {0.0, Number::expr("alpha/3"), 1e-17};
  body.quaternion = std::vector<Number>{1.0, 0.0, 0.0, 0.0};
  body.angularVelocity = {0.0, 0.0, Number::expr("2*pi")};
  body.hold = {"orientation", "vz"};
  body.shape.type = "sphere";
  body.shape.radius = Number::expr("zeta");
  spec.bodies.push_back(body);
  // A cylinder along its own x (the `axis` extension).
  body.name = "rod";
  body.shape = ShapeSpec{};
  body.shape.type = "cylinder";
  body.shape.radius = 0.01;
  body.shape.axis = Vector{1.0, Number::expr("alpha"), 0.0};
  spec.bodies.push_back(body);
  ForceSpec torque;
  torque.name = "tq";
  torque.type = ForceType::Torque;
  torque.body = "b";
  torque.vector = {"0", "0", "sin(t)*zeta"};
  spec.forces.push_back(torque);
  spec.constraints.push_back({"k", ConstraintType::Nonholonomic, {"b.vx"}, {}, {}});
  AnalysisSpec& analysis = spec.analysis.emplace();
  analysis.type = AnalysisType::Statics;
  analysis.endTime = Number::expr("3*alpha");
  analysis.outputStep = Number(0.5);
  analysis.integrator = "bdf";
  spec.view = nlohmann::json::parse(R"({"b": [1, {"c": null}], "a": "x", "big": 1e300})");

  const LoadResult read = readRlx(writeRlx(spec), "written.rlx");
  QVERIFY2(read.spec, qPrintable(allDiagnostics(read.diagnostics)));
  QCOMPARE(q(writeRlx(*read.spec)), q(writeRlx(spec)));
  QVERIFY(*read.spec == spec);
  QCOMPARE(q(read.spec->parameters[0].name), QString("zeta"));
  QVERIFY(std::signbit(read.spec->parameters[2].value.value));
}

// Doubles are written with enough digits to read back bit for bit.
void TestRlxIo::numbersRoundTripExactly() {
  std::vector<double> values = {0.1,
                                1.0 / 3.0,
                                5e-324,
                                2.2250738585072014e-308,
                                std::numeric_limits<double>::max(),
                                -std::numeric_limits<double>::max(),
                                9007199254740992.0,
                                9007199254740994.0,
                                1e22,
                                -123456789.0,
                                0.30000000000000004};
  std::mt19937_64 random(20240607);
  while (values.size() < 2000) {
    const double value = std::bit_cast<double>(random());
    if (std::isfinite(value)) values.push_back(value);
  }
  Spec spec;
  for (std::size_t i = 0; i < values.size(); ++i)
    spec.parameters.push_back({"p" + std::to_string(i), values[i]});
  const LoadResult read = readRlx(writeRlx(spec), "numbers.rlx");
  QVERIFY2(read.spec, qPrintable(allDiagnostics(read.diagnostics)));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double back = read.spec->parameters[i].value.value;
    QVERIFY2(std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(values[i]),
             qPrintable(QString::number(values[i], 'g', 17)));
  }
}

void TestRlxIo::structuralErrors_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("expected");  // one diagnostic's text contains this
  QTest::addColumn<int>("count");         // number of diagnostics

  const auto row = [](const char* name, const std::string& text, const char* expected,
                      int count = 1) {
    QTest::newRow(name) << q(text) << QString(expected) << count;
  };
  const std::string rod = R"("bodies": [{"name": "crank"}, {"name": "rod", )";
  const std::string pin = R"("joints": [{"name": "pin", "type": "revolute", "body1": "ground", )";

  // Top level.
  row("top level array", "[1, 2]",
      "model.rlx: is not a Reuleaux model: the top level must be a JSON object, got an array");
  row("no reuleaux key", R"({"dimension": 2})", "has no \"reuleaux\" key");
  row("version not integer", R"({"reuleaux": "1"})",
      "model.rlx: reuleaux must be an integer format version, got a string");
  row("version fraction", R"({"reuleaux": 1.5})", "reuleaux must be an integer format version");
  row("version newer", R"({"reuleaux": 2, "dimension": 7, "new_key": 1})",
      "model.rlx: written by a newer Reuleaux (format version 2); this program reads version 1");
  row("version zero", R"({"reuleaux": 0})", "reuleaux must be a format version from 1, got 0");
  row("dimension 4", R"({"reuleaux": 1, "dimension": 4})",
      "model.rlx: dimension must be 2 or 3, got 4");
  row("dimension string", R"({"reuleaux": 1, "dimension": "2"})",
      "dimension must be 2 or 3, got a string");
  row("unknown top key", planar(R"("bodys": [])"),
      "model.rlx: unknown key \"bodys\" (did you mean \"bodies\"?)");
  row("name not string", planar(R"("name": 3)"), "model.rlx: name must be a string, got a number");
  row("description not string", planar(R"("description": ["a"])"),
      "model.rlx: description must be a string, got an array");
  row("gravity length", planar(R"("gravity": [0, -9.81, 0])"),
      "model.rlx: gravity must have 2 numbers, got 3");
  row("gravity element", planar(R"("gravity": [0, true])"),
      "model.rlx: gravity[1] must be a number or an expression, got true");
  row("duplicate key", planar(R"("bodies": [{"name": "a", "mass": 1, "mass": 2}])"),
      "model.rlx: bodies[0] has the key \"mass\" twice");
  row("non-finite number", planar(R"("gravity": [0, 1e999])"),
      "model.rlx:1:48: number 1e999 is out of range (not a finite double)");
  row("too deep", planar(R"("view": )" + std::string(200, '[') + std::string(200, ']')),
      "model.rlx: JSON nested deeper than 100 levels");

  // Parameters.
  row("parameters not object", planar(R"("parameters": [1])"),
      "model.rlx: parameters must be an object, got an array");
  row("parameter name", planar(R"("parameters": {"2x": 1})"),
      "parameters: \"2x\" is not an identifier");
  row("parameter value", planar(R"("parameters": {"l": true})"),
      "parameters: l must be a number or an expression, got true");

  // Bodies.
  row("bodies not array", planar(R"("bodies": {})"),
      "model.rlx: bodies must be an array, got an object");
  row("body not object", planar(R"("bodies": [3])"),
      "model.rlx: bodies[0] must be an object, got a number");
  row("unknown body key", planar(rod + R"("mas": 1}])"),
      "bodies[1] \"rod\": unknown key \"mas\" (did you mean \"mass\"?)");
  row("name missing", planar(R"("bodies": [{"mass": 1}])"), "bodies[0]: name is missing");
  row("name not identifier", planar(R"("bodies": [{"name": "2rod"}])"),
      "bodies[0] \"2rod\": name is not an identifier");
  row("name with space", planar(R"("bodies": [{"name": "crank arm"}])"),
      "bodies[0] \"crank arm\": name is not an identifier");
  row("name not string", planar(R"("bodies": [{"name": 7}])"),
      "bodies[0]: name must be a string, got a number");
  row("mass array", planar(rod + R"("mass": [1]}])"),
      "bodies[1] \"rod\": mass must be a number or an expression, got an array");
  row("mass empty expression", planar(rod + R"("mass": " "}])"),
      "bodies[1] \"rod\": mass must be a number or an expression, got an empty string");
  row("position length", planar(rod + R"("position": [1, 2, 3]}])"),
      "bodies[1] \"rod\": position must have 2 numbers, got 3");
  row("velocity not array", planar(rod + R"("velocity": 0}])"),
      "bodies[1] \"rod\": velocity must be an array of 2 numbers, got a number");
  row("planar inertia array", planar(rod + R"("inertia": [1]}])"),
      "bodies[1] \"rod\": inertia must be a number or an expression, got an array");
  row("planar omega array", planar(rod + R"("angular_velocity": [0, 0, 1]}])"),
      "bodies[1] \"rod\": angular_velocity must be a number or an expression, got an array");
  row("orientation in 2-D", planar(rod + R"("orientation": [0, 0, 0]}])"),
      "bodies[1] \"rod\": orientation is not used in a 2-D model; give angle");
  row("hold not array", planar(rod + R"("hold": "x"}])"),
      "bodies[1] \"rod\": hold must be an array of names, got a string");
  row("hold entry", planar(rod + R"("hold": ["x", "q"]}])"),
      "bodies[1] \"rod\": hold[1] must be one of x, y, z, angle, orientation, vx, vy, vz or "
      "angular_velocity, got \"q\"");
  row("shape not object", planar(rod + R"("shape": "bar"}])"),
      "bodies[1] \"rod\": shape must be an object, got a string");
  row("shape type missing", planar(rod + R"("shape": {"length": 1}}])"),
      "bodies[1] \"rod\": shape.type is missing");
  row("shape type unknown", planar(rod + R"("shape": {"type": "cone"}}])"),
      "bodies[1] \"rod\": shape.type must be one of bar, box, cylinder, disk, sphere, polygon or "
      "mesh, got \"cone\"");
  row("shape key of another type", planar(rod + R"("shape": {"type": "bar", "radius": 1}}])"),
      "bodies[1] \"rod\": unknown key \"shape.radius\"");
  row("shape axis length", planar(rod + R"("shape": {"type": "bar", "axis": [1, 0, 0]}}])"),
      "bodies[1] \"rod\": shape.axis must have 2 numbers, got 3");
  row("shape axis on a box", planar(rod + R"("shape": {"type": "box", "axis": [1, 0]}}])"),
      "bodies[1] \"rod\": unknown key \"shape.axis\"");
  row("polygon point", planar(rod + R"("shape": {"type": "polygon", "points": [[0, 0], [1]]}}])"),
      "bodies[1] \"rod\": shape.points[1] must have 2 numbers, got 1");
  row("spatial inertia length", spatial(R"("bodies": [{"name": "b", "inertia": [1, 2, 3, 4]}])"),
      "bodies[0] \"b\": inertia must have 3 or 6 numbers, got 4");
  row("spatial inertia number", spatial(R"("bodies": [{"name": "b", "inertia": 1}])"),
      "bodies[0] \"b\": inertia must be an array of 3 or 6 numbers, got a number");
  row("spatial omega number", spatial(R"("bodies": [{"name": "b", "angular_velocity": 1}])"),
      "bodies[0] \"b\": angular_velocity must be an array of 3 numbers, got a number");
  row("quaternion length", spatial(R"("bodies": [{"name": "b", "quaternion": [1, 0, 0]}])"),
      "bodies[0] \"b\": quaternion must have 4 numbers, got 3");
  row("orientation and quaternion",
      spatial(R"("bodies": [{"name": "b", "orientation": [0, 0, 0], "quaternion": [1, 0, 0, 0]}])"),
      "bodies[0] \"b\": orientation and quaternion are alternatives; give one of them");
  row("angle in 3-D", spatial(R"("bodies": [{"name": "b", "angle": 0}])"),
      "bodies[0] \"b\": angle is not used in a 3-D model; give orientation or quaternion");
  row("spatial position length", spatial(R"("bodies": [{"name": "b", "position": [0, 0]}])"),
      "bodies[0] \"b\": position must have 3 numbers, got 2");

  // Joints.
  row("joint type missing", planar(R"("joints": [{"name": "pin", "body1": "a", "body2": "b"}])"),
      "joints[0] \"pin\": type is missing");
  row("joint body2 missing", planar(pin + R"("at": [0, 0]}])"),
      "joints[0] \"pin\": body2 is missing");
  row("joint body1 missing",
      planar(R"("joints": [{"name": "pin", "type": "fixed", "body2": "b"}])"),
      "joints[0] \"pin\": body1 is missing");
  row("joint type unknown",
      planar(R"("joints": [{"name": "pin", "type": "hinge", "body1": "a", "body2": "b"}])"),
      "joints[0] \"pin\": type must be one of revolute, translational, fixed, distance, "
      "point_on_line, spherical, cylindrical, universal, planar, point_on_plane, parallel_axes, "
      "perpendicular, rolling_disk, gear, internal_gear, rack_pinion, screw, point_on_curve, "
      "curve_on_curve, orientation or constant_velocity, got \"hinge\"");
  row("joint point length", planar(pin + R"("body2": "b", "point2": [0, 0, 1]}])"),
      "joints[0] \"pin\": point2 must have 2 numbers, got 3");
  row("joint point element", planar(pin + R"("body2": "b", "point1": [0, null]}])"),
      "joints[0] \"pin\": point1[1] must be a number or an expression, got null");
  row("joint body not string", planar(pin + R"("body2": 2}])"),
      "joints[0] \"pin\": body2 must be a string, got a number");
  row("length on revolute", planar(pin + R"("body2": "b", "length": 1}])"),
      "joints[0] \"pin\": unknown key \"length\"");
  row("radius on distance",
      planar(R"("joints": [{"name": "d", "type": "distance", "body1": "a", "body2": "b",)"
             R"( "radius": 1}])"),
      "joints[0] \"d\": unknown key \"radius\"");
  row("spatial axis length",
      spatial(R"("joints": [{"name": "s", "type": "cylindrical", "body1": "a", "body2": "b",)"
              R"( "axis": [0, 1]}])"),
      "joints[0] \"s\": axis must have 3 numbers, got 2");

  // Motions.
  row("motion joint and body",
      planar(R"("motions": [{"name": "m", "joint": "j", "body": "b", "function": "t"}])"),
      "motions[0] \"m\": body does not go with joint");
  row("motion neither", planar(R"("motions": [{"name": "m", "function": "t"}])"),
      "motions[0] \"m\": needs joint, or body and coordinate");
  row("motion no coordinate", planar(R"("motions": [{"name": "m", "body": "b", "function": "t"}])"),
      "motions[0] \"m\": coordinate is missing");
  row("motion coordinate",
      planar(R"("motions": [{"name": "m", "body": "b", "coordinate": "w",)"
             R"( "function": "t"}])"),
      "motions[0] \"m\": coordinate must be one of x, y, z or angle, got \"w\"");
  row("motion point and at",
      planar(R"("motions": [{"name": "m", "body": "b", "coordinate": "x", "point": [0, 0],)"
             R"( "at": [0, 0], "function": "t"}])"),
      "motions[0] \"m\": point and at are alternatives; give one of them");
  row("motion function missing", planar(R"("motions": [{"name": "m", "joint": "j"}])"),
      "motions[0] \"m\": function is missing");
  row("motion function empty",
      planar(R"("motions": [{"name": "m", "joint": "j", "function": ""}])"),
      "motions[0] \"m\": function must be an expression, got an empty string");
  row("motion function object",
      planar(R"("motions": [{"name": "m", "joint": "j", "function": {}}])"),
      "motions[0] \"m\": function must be an expression, got an object");

  // Forces.
  row("force type missing", planar(R"("forces": [{"name": "f", "body": "b"}])"),
      "forces[0] \"f\": type is missing");
  row("force type unknown", planar(R"("forces": [{"name": "f", "type": "gravity"}])"),
      "forces[0] \"f\": type must be one of spring_damper, torsion_spring, force, torque, "
      "joint_force or limit, got \"gravity\"");
  row("force key of another type",
      planar(R"("forces": [{"name": "ts", "type": "torsion_spring", "joint": "j", "body": "b"}])"),
      "forces[0] \"ts\": unknown key \"body\"");
  row("force frame",
      planar(R"("forces": [{"name": "f", "type": "force", "body": "b",)"
             R"( "vector": [1, 0], "frame": "local"}])"),
      "forces[0] \"f\": frame must be one of global or body, got \"local\"");
  row("force vector length",
      planar(R"("forces": [{"name": "f", "type": "force", "body": "b",)"
             R"( "vector": [1, 0, 0]}])"),
      "forces[0] \"f\": vector must have 2 expressions, got 3");
  row("force vector entry",
      planar(R"("forces": [{"name": "f", "type": "force", "body": "b",)"
             R"( "vector": [1, [0]]}])"),
      "forces[0] \"f\": vector[1] must be an expression, got an array");
  row("force vector missing", planar(R"("forces": [{"name": "f", "type": "force", "body": "b"}])"),
      "forces[0] \"f\": vector is missing");
  row("force point and at",
      planar(R"("forces": [{"name": "f", "type": "force", "body": "b",)"
             R"( "vector": [1, 0], "point": [0, 0], "at": [1, 1]}])"),
      "forces[0] \"f\": point and at are alternatives; give one of them");
  row("spring point1 and at1",
      planar(R"("forces": [{"name": "s", "type": "spring_damper", "body1": "a", "body2": "b",)"
             R"( "point1": [0, 0], "at1": [0, 0]}])"),
      "forces[0] \"s\": point1 and at1 are alternatives; give one of them");
  row("spring body2 missing",
      planar(R"("forces": [{"name": "s", "type": "spring_damper", "body1": "a"}])"),
      "forces[0] \"s\": body2 is missing");
  row("spring stiffness",
      planar(R"("forces": [{"name": "s", "type": "spring_damper", "body1": "a",)"
             R"( "body2": "b", "stiffness": {}}])"),
      "forces[0] \"s\": stiffness must be a number or an expression, got an object");
  row("planar torque vector",
      planar(R"("forces": [{"name": "t", "type": "torque", "body": "b", "value": "1",)"
             R"( "vector": [0, 0, 1]}])"),
      "forces[0] \"t\": vector is not used in a 2-D model; a planar torque has value");
  row("planar torque value missing",
      planar(R"("forces": [{"name": "t", "type": "torque", "body": "b"}])"),
      "forces[0] \"t\": value is missing");
  row("spatial torque value",
      spatial(R"("forces": [{"name": "t", "type": "torque", "body": "b", "value": "1",)"
              R"( "vector": [0, 0, 1]}])"),
      "forces[0] \"t\": value is not used in a 3-D model; a spatial torque has vector");
  row("joint force value",
      planar(R"("forces": [{"name": "jf", "type": "joint_force", "joint": "j",)"
             R"( "value": null}])"),
      "forces[0] \"jf\": value must be an expression, got null");

  // Constraints and analysis.
  row("constraint type",
      planar(R"("constraints": [{"name": "c", "type": "soft",)"
             R"( "equations": ["x"]}])"),
      "constraints[0] \"c\": type must be one of holonomic, nonholonomic or coupler, got \"soft\"");
  row("coupler ratios count",
      planar(R"("constraints": [{"name": "c", "type": "coupler", "joints": ["a", "b"],)"
             R"( "ratios": [1, 2, 3]}])"),
      "constraints[0] \"c\": ratios must have 2 numbers, got 3");
  row("coupler ratios missing",
      planar(R"("constraints": [{"name": "c", "type": "coupler", "joints": ["a", "b"]}])"),
      "constraints[0] \"c\": ratios is missing (one number per joint)");
  row("coupler joints",
      planar(R"("constraints": [{"name": "c", "type": "coupler", "joints": "a", "ratios": [1, 2]}])"),
      "constraints[0] \"c\": joints must be an array of two or three joint names, got a string");
  row("coupler equations",
      planar(R"("constraints": [{"name": "c", "type": "coupler", "joints": ["a", "b"],)"
             R"( "ratios": [1, 2], "equations": ["x"]}])"),
      "constraints[0] \"c\": unknown key \"equations\"");
  row("constraint type missing", planar(R"("constraints": [{"name": "c", "equations": ["x"]}])"),
      "constraints[0] \"c\": type is missing");
  row("constraint equations",
      planar(R"("constraints": [{"name": "c", "type": "holonomic",)"
             R"( "equations": "x"}])"),
      "constraints[0] \"c\": equations must be an array of expressions, got a string");
  row("analysis not object", planar(R"("analysis": "dynamics")"),
      "model.rlx: analysis must be an object, got a string");
  row("analysis unknown key", planar(R"("analysis": {"dt": 0.1})"), "analysis: unknown key \"dt\"");
  row("analysis type", planar(R"("analysis": {"type": "transient"})"),
      "analysis: type must be one of assembly, kinematics, statics or dynamics, got \"transient\"");
  row("analysis integrator", planar(R"("analysis": {"integrator": 4})"),
      "analysis: integrator must be a string, got a number");
  row("analysis step", planar(R"("analysis": {"step": "  "})"),
      "analysis: step must be a number or an expression, got an empty string");
}

// Each structural error gives one diagnostic naming the element and the field, and no spec.
void TestRlxIo::structuralErrors() {
  QFETCH(QString, text);
  QFETCH(QString, expected);
  QFETCH(int, count);
  const LoadResult result = readRlx(text.toStdString(), "model.rlx");
  const QString all = allDiagnostics(result.diagnostics);
  QVERIFY2(!result.spec, qPrintable(all));
  QVERIFY2(all.contains(expected), qPrintable("expected: " + expected + "\ngot: " + all));
  QVERIFY2(int(result.diagnostics.size()) == count, qPrintable(all));
  for (const Diagnostic& d : result.diagnostics) QCOMPARE(d.severity, Severity::Error);
}

void TestRlxIo::collectsDiagnosticsAcrossElements() {
  const std::string text = planar(R"(
    "bodies": [{"name": "a", "mas": 1, "position": [0]}, {"name": "b"}],
    "joints": [{"name": "j", "type": "revolute", "body1": "a"}],
    "forces": [{"name": "f", "type": "force", "body": "b", "vector": [1, 2], "frame": "x"}],
    "analysis": {"tolerance": []})");
  const LoadResult result = readRlx(text, "model.rlx");
  QVERIFY(!result.spec);
  QStringList texts;
  for (const Diagnostic& d : result.diagnostics) texts << q(d.text());
  QCOMPARE(texts, (QStringList{
                      "bodies[0] \"a\": position must have 2 numbers, got 1",
                      "bodies[0] \"a\": unknown key \"mas\" (did you mean \"mass\"?)",
                      "joints[0] \"j\": body2 is missing",
                      "forces[0] \"f\": frame must be one of global or body, got \"x\"",
                      "analysis: tolerance must be a number or an expression, got an array",
                  }));
  QCOMPARE(q(result.diagnostics[2].element), QString("joints[0] \"j\""));
  QCOMPARE(q(result.diagnostics[2].field), QString("body2"));
}

void TestRlxIo::syntaxErrorLocation_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("expected");
  QTest::newRow("bad literal") << "{\n  \"reuleaux\": 1,\n  \"name\": x\n}"
                               << "model.rlx:3:11: syntax error: invalid literal; last read: "
                                  "'\"name\": x'";
  QTest::newRow("missing comma") << "{\n  \"reuleaux\": 1\n  \"name\": \"a\"\n}"
                                 << "model.rlx:3:8: syntax error: unexpected string literal; "
                                    "expected '}'";
  QTest::newRow("end of input") << "{\"reuleaux\": 1,"
                                << "model.rlx:1:16: syntax error: unexpected end of input";
  QTest::newRow("empty") << ""
                         << "model.rlx:1:1: syntax error: unexpected end of input";
  QTest::newRow("trailing text") << "{\"reuleaux\": 1}\n}"
                                 << "model.rlx:2:1: syntax error: unexpected '}'; expected end "
                                    "of input";
  QTest::newRow("columns count characters")
      << "{\"reuleaux\": 1,\n \"name\": \"Kurbelgetriebe \u00e4\u00f6\u00fc\", ]}"
      << "model.rlx:2:32: syntax error: unexpected ']'";
  QTest::newRow("number overflow") << "{\"reuleaux\": 1,\n\n\n \"parameters\": {\"l\": -2e400}}"
                                   << "model.rlx:4:22: number -2e400 is out of range";
  QTest::newRow("newline in string") << "{\"reuleaux\": 1,\n \"name\": \"ab\ncd\"}"
                                     << "model.rlx:2:13: syntax error: invalid string: control "
                                        "character U+000A (LF) must be escaped";
}

void TestRlxIo::syntaxErrorLocation() {
  QFETCH(QString, text);
  QFETCH(QString, expected);
  const LoadResult result = readRlx(text.toStdString(), "model.rlx");
  QVERIFY(!result.spec);
  QCOMPARE(result.diagnostics.size(), std::size_t{1});
  const QString got = q(result.diagnostics.front().text());
  QVERIFY2(got.startsWith(expected), qPrintable("expected: " + expected + "\ngot: " + got));
}

// Random damage never crashes or hangs the reader: it returns a spec (which then round-trips)
// or at least one error.
void TestRlxIo::corruptedFilesNeverCrash() {
  const std::vector<std::string> models = {test::readFile(dataFile("rich_planar.rlx")),
                                           test::readFile(dataFile("rich_spatial.rlx"))};
  const std::vector<std::string> tokens = {
      "{",    "}",     "[",     "]",    ",",          ":",          "\"",           "null",
      "true", "1e999", "-0",    "\\u0", "\"mass\"",   "\"name\"",   "\"function\"", "\"x\"",
      "[]",   "{}",    "\xff",  "\xc3", "\"type\"",   "\"vector\"", "\"at\"",       "2",
      "3",    "\"\"",  "1e308", "\n",   "\"point1\"", "\"hold\""};
  std::mt19937 random(12345);
  const auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  int accepted = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int trial = 0; trial < 1000; ++trial) {
    std::string text = models[pick(models.size())];
    const int edits = 1 + int(pick(3));
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = pick(text.size());
      switch (pick(6)) {
        case 0:  // flip a byte
          text[at] = static_cast<char>(text[at] ^ static_cast<char>(1 + pick(255)));
          break;
        case 1:  // delete a run
          text.erase(at, 1 + pick(20));
          break;
        case 2:  // insert a token
          text.insert(at, tokens[pick(tokens.size())]);
          break;
        case 3:  // truncate
          text.resize(at);
          break;
        case 4: {  // swap two quoted strings (keys or values)
          const std::size_t a = text.find('"', at);
          const std::size_t a2 = a == std::string::npos ? a : text.find('"', a + 1);
          const std::size_t b = a2 == std::string::npos ? a2 : text.find('"', pick(text.size()));
          const std::size_t b2 = b == std::string::npos ? b : text.find('"', b + 1);
          if (b2 == std::string::npos || b <= a2) break;
          const std::string first = text.substr(a, a2 - a + 1);
          const std::string second = text.substr(b, b2 - b + 1);
          text.replace(b, second.size(), first);
          text.replace(a, first.size(), second);
          break;
        }
        default: {  // replace a key with another known key
          const std::size_t quote = text.find("\": ", at);
          const std::size_t open = quote == std::string::npos ? quote : text.rfind('"', quote - 1);
          if (open == std::string::npos) break;
          text.replace(open, quote - open + 1, tokens[12 + pick(4)]);
          break;
        }
      }
    }
    const LoadResult result = readRlx(text, "corrupt.rlx");
    QVERIFY2(result.spec.has_value() != hasErrors(result.diagnostics),
             qPrintable(QString("trial %1").arg(trial)));
    for (const Diagnostic& d : result.diagnostics) QVERIFY(!d.message.empty());
    if (result.spec) {
      ++accepted;
      const LoadResult again = readRlx(writeRlx(*result.spec), "again.rlx");
      QVERIFY2(again.spec && *again.spec == *result.spec, qPrintable(QString::number(trial)));
    }
  }
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  qInfo("%d of 1000 corrupted models still read, in %.2f s", accepted, seconds);
  QVERIFY(seconds < 60);
}

void TestRlxIo::saveReplacesAtomically() {
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const std::string path = directory.filePath("model.rlx").toStdString();
  writeText(path, "old contents");
  QVERIFY(::chmod(path.c_str(), 0640) == 0);

  // The new model replaces the old file, keeps its permissions and leaves no temporary file.
  const Spec spec = *readRlx(test::readFile(dataFile("rich_planar.rlx")), "planar.rlx").spec;
  std::string error = "untouched";
  QVERIFY(saveRlxFile(spec, path, &error));
  QCOMPARE(q(error), QString("untouched"));
  QCOMPARE(q(test::readFile(path)), q(writeRlx(spec)));
  struct stat info {};
  QVERIFY(::stat(path.c_str(), &info) == 0);
  QCOMPARE(info.st_mode & 07777, 0640u);
  QCOMPARE(otherFiles(directory.path(), "model.rlx"), QStringList{});
  QVERIFY(*readRlx(test::readFile(path), "model.rlx").spec == spec);

  // Saving through a symbolic link replaces the file it points to and keeps the link.
  const std::string link = directory.filePath("link.rlx").toStdString();
  std::filesystem::create_symlink(path, link);
  Spec changed = spec;
  changed.name = "changed";
  QVERIFY(saveRlxFile(changed, link, nullptr));
  QVERIFY(std::filesystem::is_symlink(link));
  QCOMPARE(q(readRlx(test::readFile(path), "model.rlx").spec->name), QString("changed"));
}

void TestRlxIo::saveFailsCleanly() {
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const Spec spec = *readRlx(test::readFile(dataFile("rich_spatial.rlx")), "spatial.rlx").spec;

  // A directory that does not exist.
  const std::string missing = directory.filePath("no/such/dir/model.rlx").toStdString();
  std::string error;
  QVERIFY(!saveRlxFile(spec, missing, &error));
  QCOMPARE(q(error), "cannot save \"" + q(missing) + "\": No such file or directory");
  QVERIFY(!saveRlxFile(spec, missing, nullptr));

  // A parent that is a file.
  const std::string file = directory.filePath("plain").toStdString();
  writeText(file, "x");
  QVERIFY(!saveRlxFile(spec, file + "/model.rlx", &error));
  QCOMPARE(q(error), "cannot save \"" + q(file) + "/model.rlx\": Not a directory");

  // A target that cannot be replaced (a directory): it stays, and no temporary file is left.
  const QString target = directory.filePath("taken.rlx");
  QVERIFY(QDir().mkpath(target + "/inside"));
  QVERIFY(!saveRlxFile(spec, target.toStdString(), &error));
  QVERIFY2(q(error).startsWith("cannot save \"" + target + "\": "), error.c_str());
  QVERIFY(QDir(target + "/inside").exists());
  QCOMPARE(otherFiles(directory.path(), "plain"), QStringList{});

  // A read-only directory (permissions do not bind root): the original stays as it was.
  if (::geteuid() != 0) {
    const QString locked = directory.filePath("locked");
    QVERIFY(QDir().mkpath(locked));
    const std::string path = (locked + "/model.rlx").toStdString();
    writeText(path, "original");
    QVERIFY(::chmod(locked.toUtf8().constData(), 0555) == 0);
    QVERIFY(!saveRlxFile(spec, path, &error));
    QCOMPARE(q(error),
             "cannot save \"" + q(path) + "\": Permission denied; the previous file is kept");
    QCOMPARE(q(test::readFile(path)), QString("original"));
    QVERIFY(::chmod(locked.toUtf8().constData(), 0755) == 0);
  }
}

QTEST_GUILESS_MAIN(TestRlxIo)
#include "tst_rlx_io.moc"
