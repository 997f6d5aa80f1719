// Tests of reuleaux-cli, run as a separate process: help and version, exit statuses and their
// messages, check (DOF and redundancy), run (CSV columns, frame times, numbers against closed
// forms, the JSON summary), assemble, convert, --set; and the result columns of a spatial body.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "output/csv.h"
#include "test_support.h"

using rlx::test::CliRun;
using rlx::test::runCli;

namespace {

QString example(const char* name) {
  return QString::fromStdString(rlx::test::examplesDir()) + "/" + name;
}

QString testData(const char* name) {
  return QString::fromStdString(rlx::test::testDataDir()) + "/" + name;
}

// A CSV results file: the header and the rows as numbers.
struct Csv {
  QStringList header;
  std::vector<std::vector<double>> rows;
  bool numeric = true;  // every field parsed as a number

  int column(const QString& name) const { return static_cast<int>(header.indexOf(name)); }
  double at(std::size_t row, const QString& name) const {
    return rows[row][static_cast<std::size_t>(column(name))];
  }
};

Csv readCsv(const QString& path) {
  Csv csv;
  const QStringList lines = QString::fromStdString(rlx::test::readFile(path.toStdString()))
                                .split('\n', Qt::SkipEmptyParts);
  if (lines.isEmpty()) return csv;
  csv.header = lines.front().split(',');
  for (qsizetype i = 1; i < lines.size(); ++i) {
    std::vector<double> row;
    for (const QString& field : lines[i].split(',')) {
      bool ok = false;
      row.push_back(field.toDouble(&ok));
      csv.numeric = csv.numeric && ok;
    }
    csv.numeric = csv.numeric && row.size() == static_cast<std::size_t>(csv.header.size());
    csv.rows.push_back(row);
  }
  return csv;
}

QJsonObject readJson(const QString& path) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(rlx::test::readFile(path.toStdString())))
      .object();
}

// Writes `text` to a file in `dir` and returns its path.
QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) file.write(QByteArray::fromStdString(text));
  return path;
}

// The example's text with `from` replaced by `to` (once).
std::string edited(const char* exampleName, const std::string& from, const std::string& to) {
  std::string text = rlx::test::readFile(example(exampleName).toStdString());
  const std::size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The x travel of the slider over a run: max - min of slider.x.
double stroke(const Csv& csv) {
  double lo = 1e300, hi = -1e300;
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    lo = std::min(lo, csv.at(i, "slider.x"));
    hi = std::max(hi, csv.at(i, "slider.x"));
  }
  return hi - lo;
}

}  // namespace

class CliTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // --version and --help (also `help` and a command's --help).
  void versionAndHelp() {
    const CliRun version = runCli({"--version"});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out.trimmed(), QString("reuleaux-cli " REULEAUX_VERSION));
    for (const QStringList& args :
         {QStringList{"--help"}, QStringList{"help"}, QStringList{"run", "--help"}}) {
      const CliRun help = runCli(args);
      QCOMPARE(help.exitCode, 0);
      for (const char* word :
           {"check", "assemble", "run", "convert", "--analysis", "--end", "--step", "--output-step",
            "--integrator", "--tolerance", "--set", "--acf", "--summary", "--quiet", "--version"})
        QVERIFY2(help.out.contains(word), word);
      QVERIFY(help.err.isEmpty());
    }
  }

  // Bad usage: exit 64 with a message and a hint on stderr, nothing on stdout.
  void usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString model = example("slider_crank.rlx");
    QTest::newRow("no command") << QStringList{} << "no command given";
    QTest::newRow("unknown command")
        << QStringList{"simulate", model} << "unknown command \"simulate\"";
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "unknown option --frobnicate";
    QTest::newRow("unknown run option")
        << QStringList{"run", model, "-o", "x.csv", "--speed", "2"} << "unknown option --speed";
    QTest::newRow("missing value") << QStringList{"run", model, "-o"} << "-o needs a value";
    QTest::newRow("missing -o") << QStringList{"run", model} << "missing -o OUT.csv";
    QTest::newRow("missing model") << QStringList{"check"} << "missing MODEL";
    QTest::newRow("extra argument")
        << QStringList{"check", model, "more"} << "unexpected argument \"more\"";
    QTest::newRow("convert needs OUT") << QStringList{"convert", model} << "missing OUT";
    QTest::newRow("non-numeric end") << QStringList{"run", model, "-o", "x.csv", "--end", "two"}
                                     << "--end needs a number, got \"two\"";
    QTest::newRow("non-numeric step")
        << QStringList{"run", model, "-o", "x.csv", "--step=1e-3s"} << "--step needs a number";
    QTest::newRow("negative output step")
        << QStringList{"run", model, "-o", "x.csv", "--output-step", "-0.1"}
        << "--output-step must be positive";
    QTest::newRow("hht alpha out of range")
        << QStringList{"run", model, "-o", "x.csv", "--hht-alpha", "0.1"}
        << "--hht-alpha must be in [-1/3, 0], got 0.1";
    QTest::newRow("unknown analysis")
        << QStringList{"run", model, "-o", "x.csv", "--analysis", "sideways"}
        << "--analysis must be";
    QTest::newRow("flag with value")
        << QStringList{"run", model, "-o", "x.csv", "--quiet=yes"} << "--quiet takes no value";
    QTest::newRow("set without value")
        << QStringList{"check", model, "--set", "r"} << "--set needs NAME=VALUE, got \"r\"";
    QTest::newRow("set unknown parameter")
        << QStringList{"run", model, "-o", "x.csv", "--set", "radius=0.2"}
        << "the model has no parameter \"radius\" (its parameters: r, l, offset";
  }

  void usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CliRun run = runCli(args);
    QCOMPARE(run.exitCode, 64);
    QVERIFY2(run.err.contains(message), qPrintable(run.err));
    QVERIFY(run.err.contains("Try 'reuleaux-cli --help'"));
    QVERIFY(run.out.isEmpty());
  }

  // A model file that does not exist: exit 1 naming the file.
  void missingFile() {
    const QString path = dir_.filePath("no_such_model.rlx");
    for (const QString& command : QStringList{"check", "assemble"}) {
      const CliRun run = runCli({command, path});
      QCOMPARE(run.exitCode, 1);
      QVERIFY2(run.err.contains("cannot read \"" + path + "\": no such file"), qPrintable(run.err));
    }
    const CliRun run = runCli({"run", path, "-o", dir_.filePath("missing.csv")});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(!QFile::exists(dir_.filePath("missing.csv")));
  }

  // Invalid models: exit 1 with diagnostics that name the file, the element and the field.
  void invalidModel_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown key") << QString::fromStdString(
                                        edited("slider_crank.rlx", "\"name\": \"rod\",",
                                               "\"name\": \"rod\", \"colour\": \"red\","))
                                 << "bodies[1] \"rod\": unknown key \"colour\"";
    QTest::newRow("negative mass")
        << QString::fromStdString(edited("slider_crank.rlx", "\"mass\": \"m_rod\"", "\"mass\": -2"))
        << "bodies[1] \"rod\": mass must be positive";
    QTest::newRow("hht alpha out of range")
        << QString::fromStdString(
               edited("slider_crank.rlx", "\"tolerance\": 1e-10", "\"hht_alpha\": -0.5"))
        << "analysis: hht_alpha must be in [-1/3, 0], got -0.5";
    QTest::newRow("bad set expression") << QString() << "parameters[0] \"r\"";
  }

  void invalidModel() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    QString path = example("slider_crank.rlx");
    QStringList extra;
    if (text.isEmpty())
      extra = {"--set", "r=2*nonsense"};
    else
      path = writeFile(dir_, "invalid.rlx", text.toStdString());
    for (const QString& command : QStringList{"check", "run"}) {
      QStringList args{command, path};
      if (command == "run") args << "-o" << dir_.filePath("invalid.csv");
      const CliRun run = runCli(args + extra);
      QCOMPARE(run.exitCode, 1);
      QVERIFY2(run.err.contains(path + ": "), qPrintable(run.err));
      QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }
  }

  // check on the examples: the model's name and counts, DOF (true and Gruebler), no redundancy.
  void checkExamples_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("dof");
    QTest::newRow("slider_crank") << "slider_crank.rlx"
                                  << "degrees of freedom: 0 (Gruebler count: 0)";
    QTest::newRow("four_bar") << "four_bar.rlx"
                              << "degrees of freedom: 0 (Gruebler count: 0)";
    QTest::newRow("crank_rocker") << "crank_rocker.rlx"
                                  << "degrees of freedom: 1 (Gruebler count: 1)";
    QTest::newRow("driven_pendulum") << "driven_pendulum.rlx"
                                     << "degrees of freedom: 0 (Gruebler count: 0)";
    QTest::newRow("simple_pendulum") << "simple_pendulum.rlx"
                                     << "degrees of freedom: 1 (Gruebler count: 1)";
    QTest::newRow("double_four_bar") << "double_four_bar.rlx"
                                     << "degrees of freedom: 1 (Gruebler count: 1)";
    QTest::newRow("braun_goldfarb") << "braun_goldfarb_slider_crank.rlx"
                                    << "degrees of freedom: 1 (Gruebler count: 1)";
    QTest::newRow("user_pendulum") << "user_pendulum.rlx"
                                   << "degrees of freedom: 1 (Gruebler count: 1)";
    QTest::newRow("knife_edge_sled") << "knife_edge_sled.rlx"
                                     << "degrees of freedom: 2 (Gruebler count: 2)";
  }

  void checkExamples() {
    QFETCH(QString, file);
    QFETCH(QString, dof);
    const CliRun run = runCli({"check", example(file.toUtf8().constData())});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
    QVERIFY2(run.out.contains("\n" + dof + "\n"), qPrintable(run.out));
    QVERIFY(run.out.startsWith("model: "));
    QVERIFY(!run.out.contains("redundant"));
  }

  void checkSliderCrankCounts() {
    const CliRun run = runCli({"check", example("slider_crank.rlx")});
    QVERIFY(run.out.startsWith(
        "model: Offset slider-crank\nbodies: 3, joints: 4, motions: 1, forces: 0\n"));
  }

  // The duplicated pin: Gruebler -2, true DOF 0, two redundant equations of rocker_pin_copy.
  void checkRedundant() {
    const CliRun run = runCli({"check", testData("four_bar_duplicate_pin.rlx")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("degrees of freedom: 0 (Gruebler count: -2)\n"), qPrintable(run.out));
    QStringList redundant;
    for (const QString& line : run.out.split('\n'))
      if (line.contains("redundant")) redundant << line;
    QCOMPARE(redundant.size(), 2);
    for (const QString& line : redundant)
      QVERIFY2(line.contains("rocker_pin_copy"), qPrintable(line));
    QVERIFY(redundant[0].contains("rocker_pin_copy.x") &&
            redundant[1].contains("rocker_pin_copy.y"));
    QVERIFY(run.out.contains(
        "reactions not unique (minimum-norm share reported): rocker_pin, rocker_pin_copy\n"));
  }

  // Conflicting distance joints: exit 2 naming both; run still writes the (empty) results.
  void conflictingConstraints() {
    const CliRun check = runCli({"check", testData("conflicting_distances.rlx")});
    QCOMPARE(check.exitCode, 2);
    QVERIFY2(check.err.contains("tether_short") && check.err.contains("tether_long"),
             qPrintable(check.err));
    QVERIFY(check.err.contains("t = 0 s"));
    const QString csv = dir_.filePath("conflict.csv"), json = dir_.filePath("conflict.json");
    const CliRun run =
        runCli({"run", testData("conflicting_distances.rlx"), "-o", csv, "--summary", json});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("tether_short") && run.err.contains("tether_long"),
             qPrintable(run.err));
    const Csv results = readCsv(csv);
    QCOMPARE(results.header.join(','), QString("t,bob.x,bob.y,bob.angle,bob.vx,bob.vy,bob.omega,"
                                               "bob.ax,bob.ay,bob.alpha,tether_short.fx,"
                                               "tether_short.fy,tether_short.tz,tether_long.fx,"
                                               "tether_long.fy,tether_long.tz,kinetic,potential,"
                                               "energy,work_nonconservative,constraint_error,"
                                               "velocity_constraint_error"));
    QVERIFY(results.rows.empty());
    const QJsonObject summary = readJson(json);
    QCOMPARE(summary["status"].toString(), QString("failed"));
    QVERIFY(summary["message"].toString().contains("tether_long"));
    QVERIFY(summary["dof"].isNull());
    QCOMPARE(summary["dof_grubler"].toInt(), 1);
  }

  // Kinematics of the slider-crank: columns, frame times, numbers, the summary.
  void runSliderCrank() {
    const QString csvPath = dir_.filePath("slider_crank.csv");
    const QString jsonPath = dir_.filePath("slider_crank.json");
    const CliRun run =
        runCli({"run", example("slider_crank.rlx"), "-o", csvPath, "--summary", jsonPath});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.isEmpty(), qPrintable(run.err));  // no progress when stderr is not a terminal
    QVERIFY(run.out.contains("results: 201 frames written to " + csvPath));
    QVERIFY(run.out.contains("summary written to " + jsonPath));

    // Columns in the documented order.
    const Csv csv = readCsv(csvPath);
    QStringList expected{"t"};
    for (const char* body : {"crank", "rod", "slider"})
      for (const char* s : {"x", "y", "angle", "vx", "vy", "omega", "ax", "ay", "alpha"})
        expected << QString(body) + "." + s;
    for (const char* joint : {"crank_pin", "crank_rod_pin", "wrist_pin", "slider_guide"})
      for (const char* s : {"fx", "fy", "tz"}) expected << QString(joint) + "." + s;
    expected << "crank_drive.effort"
             << "kinetic"
             << "potential"
             << "energy"
             << "work_nonconservative"
             << "constraint_error"
             << "velocity_constraint_error";
    QCOMPARE(csv.header, expected);

    // Frames at t = 0, 0.01, ..., 2, every field a number.
    QVERIFY(csv.numeric);
    QCOMPARE(csv.rows.size(), std::size_t{201});
    for (std::size_t i = 0; i < csv.rows.size(); ++i)
      QVERIFY(std::abs(csv.at(i, "t") - 0.01 * static_cast<double>(i)) < 1e-12);

    // The slider stays on its guide; its stroke; the crank angle is continuous (30 deg + 4 pi).
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
      QVERIFY(std::abs(csv.at(i, "slider.y") - 0.05) < 1e-9);
      QVERIFY(csv.at(i, "constraint_error") < 1e-9);
      QCOMPARE(csv.at(i, "energy"), csv.at(i, "kinetic") + csv.at(i, "potential"));
    }
    QVERIFY(std::abs(stroke(csv) - 0.301664) < 2e-4);
    QVERIFY(std::abs(csv.at(200, "crank.angle") - (std::numbers::pi / 6 + 4 * std::numbers::pi)) <
            1e-9);
    QVERIFY(std::abs(csv.at(0, "rod.omega") - -1.634464) < 1e-6);

    // The summary has every key the spec lists.
    const QJsonObject summary = readJson(jsonPath);
    for (const char* key : {"model", "analysis", "integrator", "status", "message", "end_time",
                            "dof", "dof_grubler", "redundant", "steps", "rejected_steps",
                            "newton_iterations", "rhs_evaluations", "max_constraint_error",
                            "max_velocity_constraint_error", "max_energy_error", "wall_time_s"})
      QVERIFY2(summary.contains(key), key);
    QCOMPARE(summary["model"].toString(), QString("Offset slider-crank"));
    QCOMPARE(summary["analysis"].toString(), QString("kinematics"));
    QCOMPARE(summary["status"].toString(), QString("ok"));
    QCOMPARE(summary["end_time"].toDouble(), 2.0);
    QCOMPARE(summary["dof"].toInt(), 0);
    QCOMPARE(summary["dof_grubler"].toInt(), 0);
    QVERIFY(summary["redundant"].toArray().isEmpty());
    QVERIFY(summary["steps"].toInt() >= 2000);
    QVERIFY(summary["newton_iterations"].toInt() > 0);
    QCOMPARE(summary["iteration_matrices"].toInt(), 0);  // kinematics: no integrator's matrix
    QVERIFY(summary["max_constraint_error"].toDouble() < 1e-9);
    QVERIFY(summary["max_energy_error"].toDouble() >= 0);
    QVERIFY(summary["wall_time_s"].toDouble() > 0);
  }

  // Reactions and efforts against the closed forms of the driven pendulum.
  void runDrivenPendulum() {
    const QString csvPath = dir_.filePath("driven_pendulum.csv");
    const QString jsonPath = dir_.filePath("driven_pendulum.json");
    const CliRun run = runCli(
        {"run", example("driven_pendulum.rlx"), "-o", csvPath, "--summary", jsonPath, "--quiet"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.isEmpty());
    const Csv csv = readCsv(csvPath);
    QCOMPARE(csv.rows.size(), std::size_t{101});
    const double w = 2 * std::numbers::pi, g = 9.81;
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
      const double t = csv.at(i, "t");
      const double phi = -std::numbers::pi / 2 + w * t;
      QVERIFY(std::abs(csv.at(i, "pendulum.angle") - phi) < 1e-9);
      QVERIFY(std::abs(csv.at(i, "pin.fx") - -w * w * 0.5 * std::cos(phi)) < 1e-6);
      QVERIFY(std::abs(csv.at(i, "pin.fy") - (g - w * w * 0.5 * std::sin(phi))) < 1e-6);
      QVERIFY(std::abs(csv.at(i, "pin.tz")) < 1e-9);
      QVERIFY(std::abs(csv.at(i, "driver.effort") - g * 0.5 * std::cos(phi)) < 1e-6);
    }
    QVERIFY(std::abs(csv.at(0, "pin.fy") - 29.549) < 1e-3);
    // The driver's work balances the potential energy it adds.
    QVERIFY(readJson(jsonPath)["max_energy_error"].toDouble() < 1e-3);
  }

  // The assembly analysis: one frame at t0 with the reactions of a pendulum released at rest.
  void runAssemblyAnalysis() {
    const QString csvPath = dir_.filePath("pendulum_t0.csv");
    const CliRun run =
        runCli({"run", example("simple_pendulum.rlx"), "--analysis", "assembly", "-o", csvPath});
    QCOMPARE(run.exitCode, 0);
    const Csv csv = readCsv(csvPath);
    QCOMPARE(csv.rows.size(), std::size_t{1});
    QCOMPARE(csv.at(0, "t"), 0.0);
    // alpha = -3g/(2l); the pin carries a quarter of the weight.
    QVERIFY(std::abs(csv.at(0, "pendulum.alpha") - -1.5 * 9.81) < 1e-9);
    QVERIFY(std::abs(csv.at(0, "pin.fy") - 9.81 / 4) < 1e-9);
    QVERIFY(std::abs(csv.at(0, "pin.fx")) < 1e-9);
    QVERIFY(std::abs(csv.at(0, "pin.tz")) < 1e-9);
  }

  // Analysis settings from the command line override the model's.
  void runOverrides() {
    const QString csvPath = dir_.filePath("overrides.csv");
    const CliRun run = runCli({"run", example("slider_crank.rlx"), "-o", csvPath, "--end", "0.5",
                               "--output-step=0.05", "--step", "0.005", "--tolerance", "1e-12"});
    QCOMPARE(run.exitCode, 0);
    const Csv csv = readCsv(csvPath);
    QCOMPARE(csv.rows.size(), std::size_t{11});
    QVERIFY(std::abs(csv.at(10, "t") - 0.5) < 1e-12);
    QVERIFY(std::abs(csv.at(10, "crank.angle") - (std::numbers::pi / 6 + std::numbers::pi)) <
            1e-10);
  }

  // Redundant joints in a run: the summary lists them and the joints whose reactions are shared.
  void runRedundant() {
    const QString csvPath = dir_.filePath("duplicate.csv"),
                  jsonPath = dir_.filePath("duplicate.json");
    const CliRun run = runCli({"run", testData("four_bar_duplicate_pin.rlx"), "-o", csvPath,
                               "--summary", jsonPath, "--end", "0.2"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = readJson(jsonPath);
    QCOMPARE(summary["dof"].toInt(), 0);
    QCOMPARE(summary["dof_grubler"].toInt(), -2);
    const QJsonArray redundant = summary["redundant"].toArray();
    QCOMPARE(redundant.size(), 2);
    QCOMPARE(redundant[0].toObject()["joint"].toString(), QString("rocker_pin_copy"));
    QCOMPARE(redundant[1].toObject()["equation"].toString(), QString("rocker_pin_copy.y"));
    QCOMPARE(summary["reactions_not_unique"].toArray(),
             QJsonArray({"rocker_pin", "rocker_pin_copy"}));
    // Minimum norm: the two copies share the pivot force equally.
    const Csv csv = readCsv(csvPath);
    for (std::size_t i = 0; i < csv.rows.size(); ++i)
      for (const char* f : {".fx", ".fy"})
        QVERIFY(std::abs(csv.at(i, QString("rocker_pin") + f) -
                         csv.at(i, QString("rocker_pin_copy") + f)) < 1e-9);
  }

  // A failure during the run: the frames before it are written, exit 2 with the time.
  void runFailsMidway() {
    // The four-bar driven at its rocker, which cannot turn all the way round: it locks up.
    const QString model =
        writeFile(dir_, "rocker_driven.rlx",
                  edited("four_bar.rlx", "\"joint\": \"crank_pin\"", "\"joint\": \"rocker_pin\""));
    const QString csvPath = dir_.filePath("rocker_driven.csv");
    const QString jsonPath = dir_.filePath("rocker_driven.json");
    const CliRun run = runCli({"run", model, "-o", csvPath, "--summary", jsonPath});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("kinematic analysis failed at t = 0.1"), qPrintable(run.err));
    const Csv csv = readCsv(csvPath);
    const QJsonObject summary = readJson(jsonPath);
    QCOMPARE(summary["status"].toString(), QString("failed"));
    QVERIFY(csv.numeric);
    QVERIFY(csv.rows.size() > 5);
    QCOMPARE(static_cast<std::size_t>(summary["frames"].toInt()), csv.rows.size());
    QCOMPARE(summary["end_time"].toDouble(), csv.rows.back()[0]);
    QVERIFY(csv.rows.back()[0] < 0.25);
  }

  // A kinematic run of a mechanism with a free degree of freedom: exit 2, header only.
  void kinematicsNeedsDrivers() {
    const QString csvPath = dir_.filePath("crank_rocker.csv");
    const CliRun run =
        runCli({"run", example("crank_rocker.rlx"), "--analysis", "kinematics", "-o", csvPath});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("1 degree of freedom remains"), qPrintable(run.err));
    const Csv csv = readCsv(csvPath);
    QCOMPARE(csv.header.front(), QString("t"));
    QVERIFY(csv.rows.empty());
  }

  // Dynamics with each integrator and statics run from the command line.
  void dynamicsAndStatics() {
    const QString csvPath = dir_.filePath("dynamics.csv"),
                  jsonPath = dir_.filePath("dynamics.json");
    for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"}) {
      const CliRun run = runCli({"run", example("simple_pendulum.rlx"), "-o", csvPath, "--summary",
                                 jsonPath, "--end", "1", "--step", "0.001", "--output-step", "0.1",
                                 "--integrator", integrator, "--quiet"});
      QVERIFY2(run.exitCode == 0, qPrintable(run.err));
      const Csv csv = readCsv(csvPath);
      QCOMPARE(csv.rows.size(), std::size_t(11));
      const QJsonObject summary = readJson(jsonPath);
      QCOMPARE(summary["status"].toString(), QString("ok"));
      QCOMPARE(summary["integrator"].toString(), QString(integrator));
      QVERIFY(summary["steps"].toInt() > 0);
      QVERIFY(summary["max_energy_error"].toDouble() < 1e-3);
      QVERIFY(summary["max_constraint_error"].toDouble() < 1e-6);
    }
    // --hht-alpha reaches the integrator: -0.1 is the default, -0.3 gives another trajectory.
    std::vector<Csv> byAlpha;
    for (const char* alpha : {"", "-0.1", "-0.3"}) {
      QStringList args{"run", example("simple_pendulum.rlx"), "-o", csvPath, "--step", "0.02",
                       "--output-step", "0.1", "--quiet"};
      if (*alpha) args << "--hht-alpha" << alpha;
      const CliRun run = runCli(args);
      QVERIFY2(run.exitCode == 0, qPrintable(run.err));
      byAlpha.push_back(readCsv(csvPath));
    }
    QVERIFY(byAlpha[1].rows == byAlpha[0].rows);
    const std::size_t last = byAlpha[0].rows.size() - 1;
    QVERIFY(std::abs(byAlpha[2].at(last, "pendulum.angle") - byAlpha[0].at(last, "pendulum.angle")) > 1e-4);
    const CliRun off = runCli({"run", example("simple_pendulum.rlx"), "-o", csvPath,
                               "--energy-correction", "maybe"});
    QCOMPARE(off.exitCode, 64);
    const CliRun statics = runCli({"run", testData("statics_pendulum_spring.rlx"), "-o", csvPath,
                                   "--analysis", "statics", "--quiet"});
    QVERIFY2(statics.exitCode == 0, qPrintable(statics.err));
    QCOMPARE(readCsv(csvPath).rows.size(), std::size_t(1));
    // An unstable equilibrium: a note on the terminal, its stability in the summary.
    const CliRun upright =
        runCli({"run", testData("statics_upright_rod.rlx"), "-o", csvPath, "--summary", jsonPath});
    QVERIFY2(upright.exitCode == 0, qPrintable(upright.err));
    QVERIFY2(upright.out.contains("note: the equilibrium at t = 0 s is unstable"),
             qPrintable(upright.out));
    const QJsonArray equilibria = readJson(jsonPath)["equilibria"].toArray();
    QCOMPARE(equilibria.size(), 1);
    QCOMPARE(equilibria[0].toObject()["stability"].toString(), QString("unstable"));
    QCOMPARE(equilibria[0].toObject()["soft_directions"].toInt(), 1);
  }

  // The user-constraint examples run with every integrator; their reaction columns are written.
  void runUserConstraintExamples() {
    const QString csvPath = dir_.filePath("user.csv"), jsonPath = dir_.filePath("user.json");
    for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"}) {
      for (const char* file : {"knife_edge_sled.rlx", "user_pendulum.rlx"}) {
        const CliRun run =
            runCli({"run", example(file), "-o", csvPath, "--summary", jsonPath, "--end", "1",
                    "--output-step", "0.1", "--integrator", integrator, "--quiet"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject summary = readJson(jsonPath);
        QCOMPARE(summary["status"].toString(), QString("ok"));
        // The knife edge is enforced on velocities by every integrator; hht holds the pin's
        // positions only (index 3), its velocity error is of order h^2.
        const bool knife = QString(file).startsWith("knife");
        QVERIFY(summary["max_velocity_constraint_error"].toDouble() < (knife ? 1e-8 : 1e-4));
        QVERIFY(summary["max_energy_error"].toDouble() < 1e-3);
        const Csv csv = readCsv(csvPath);
        QVERIFY(csv.numeric);
        QCOMPARE(csv.rows.size(), std::size_t(11));
        const QString force = knife ? "knife_edge.sled.fy" : "pin.pendulum.fy";
        QVERIFY2(csv.column(force) > 0, qPrintable(csv.header.join(',')));
        // At t = 0: the sled's lateral force m (u0 w + a) = 2.703 N in y; the rod's pin m g / 4.
        const double expected = knife ? 1 + 9.81 * std::sin(M_PI / 18) : 9.81 / 4;
        QVERIFY2(std::abs(csv.at(0, force) - expected) < 1e-9,
                 qPrintable(QString::number(csv.at(0, force))));
      }
    }
  }

  // bdf failures end with exit status 2 and a sentence naming the time and the elements.
  void bdfFailures() {
    const QString csvPath = dir_.filePath("bdf_failure.csv");
    const CliRun lockup = runCli({"run", testData("four_bar_lockup.rlx"), "-o", csvPath});
    QCOMPARE(lockup.exitCode, 2);
    QVERIFY2(lockup.err.contains("dynamic analysis failed at t = 0.063"), qPrintable(lockup.err));
    QVERIFY2(lockup.err.contains("\"coupler_rocker_pin\"") && lockup.err.contains("\"rocker_pin\""),
             qPrintable(lockup.err));
    const CliRun nan = runCli({"run", testData("pendulum_nan_torque.rlx"), "-o", csvPath});
    QCOMPARE(nan.exitCode, 2);
    QVERIFY2(nan.err.contains("dynamic analysis failed at t = 0.50"), qPrintable(nan.err));
    QVERIFY2(nan.err.contains("the force \"bad_torque\" is not finite"), qPrintable(nan.err));
  }

  // assemble -o writes a model that loads, is assembled, and checks with the same DOF.
  void assembleWritesModel() {
    const QString out = dir_.filePath("crank_rocker_assembled.rlx");
    const CliRun run = runCli({"assemble", example("crank_rocker.rlx"), "-o", out});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("constraint error"), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    const QJsonObject model = readJson(out);
    QCOMPARE(model["reuleaux"].toInt(), 1);
    const QJsonArray bodies = model["bodies"].toArray();
    QCOMPARE(bodies[1].toObject()["name"].toString(), QString("coupler"));
    QVERIFY(std::abs(bodies[1].toObject()["angle"].toDouble() - 0.628715128) < 1e-8);
    QVERIFY(std::abs(bodies[2].toObject()["angle"].toDouble() - 1.795774973) < 1e-8);
    QVERIFY(std::abs(bodies[0].toObject()["angle"].toDouble() - std::numbers::pi / 3) < 1e-9);
    const CliRun check = runCli({"check", out});
    QCOMPARE(check.exitCode, 0);
    QVERIFY(check.out.contains("degrees of freedom: 1 (Gruebler count: 1)\n"));
    QVERIFY2(check.out.contains("after 0 iterations"), qPrintable(check.out));

    // Without -o the model goes to stdout; --quiet keeps stderr empty.
    const CliRun toStdout = runCli({"assemble", example("crank_rocker.rlx"), "--quiet"});
    QCOMPARE(toStdout.exitCode, 0);
    QVERIFY(toStdout.err.isEmpty());
    QCOMPARE(QJsonDocument::fromJson(toStdout.out.toUtf8()).object(), model);
  }

  void assembleFails() {
    const CliRun run = runCli({"assemble", testData("four_bar_cannot_close.rlx")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.startsWith("reuleaux-cli: at t = 0 s: assembly failed"), qPrintable(run.err));
    QVERIFY(run.err.contains("rocker_pin"));
  }

  // convert of simEngine2D models writes .rlx files that run.
  void convertSimEngine2D_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("slider_crank_kin") << "slider_crank_kin.adm";
    QTest::newRow("pendulum_kin") << "pendulum_kin.adm";
  }

  void convertSimEngine2D() {
    QFETCH(QString, file);
    const QString in = testData(file.toUtf8().constData());
    if (!QFile::exists(in)) QSKIP("the simEngine2D test model is not in tests/data yet");
    const QString out = dir_.filePath(file + ".rlx");
    const CliRun convert = runCli({"convert", in, out});
    QCOMPARE(convert.exitCode, 0);
    QVERIFY(readJson(out).contains("reuleaux"));
    const QString csvPath = dir_.filePath(file + ".csv");
    const CliRun run = runCli({"run", out, "-o", csvPath, "--analysis", "kinematics"});
    QCOMPARE(run.exitCode, 0);
    const Csv csv = readCsv(csvPath);
    QVERIFY(csv.numeric);
    QVERIFY(csv.rows.size() > 1);
  }

  // --set changes a parameter before compile: a longer crank lengthens the stroke.
  void setParameter() {
    const auto strokeWith = [this](const QString& setting) {
      const QString csvPath = dir_.filePath("set.csv");
      const CliRun run = runCli({"run", example("slider_crank.rlx"), "-o", csvPath, "--end", "1",
                                 "--output-step", "0.001", "--set", setting, "--quiet"});
      return run.exitCode == 0 ? stroke(readCsv(csvPath)) : -1.0;
    };
    // Offset slider-crank: stroke = sqrt((l + r)^2 - e^2) - sqrt((l - r)^2 - e^2).
    const auto exact = [](double r) {
      return std::sqrt((0.5 + r) * (0.5 + r) - 0.0025) - std::sqrt((0.5 - r) * (0.5 - r) - 0.0025);
    };
    QVERIFY(std::abs(strokeWith("r=0.15") - exact(0.15)) < 1e-5);
    QVERIFY(std::abs(strokeWith("r=0.2") - exact(0.2)) < 1e-5);
    QVERIFY(std::abs(strokeWith("r=sqrt(0.04)") - exact(0.2)) < 1e-5);
  }

  // Spatial result columns from a hand-built 3-D model.
  void spatialColumns() {
    rlx::Model model;
    model.dimension = 3;
    model.nq = 7;
    model.nv = 6;
    rlx::Body body;
    body.name = "top";
    model.bodies.push_back(body);
    const QStringList expected{"t",
                               "top.x",
                               "top.y",
                               "top.z",
                               "top.qw",
                               "top.qx",
                               "top.qy",
                               "top.qz",
                               "top.psi",
                               "top.theta",
                               "top.phi",
                               "top.vx",
                               "top.vy",
                               "top.vz",
                               "top.wx",
                               "top.wy",
                               "top.wz",
                               "top.ax",
                               "top.ay",
                               "top.az",
                               "top.alx",
                               "top.aly",
                               "top.alz",
                               "kinetic",
                               "potential",
                               "energy",
                               "work_nonconservative",
                               "constraint_error",
                               "velocity_constraint_error"};
    QStringList names;
    for (const std::string& n : rlx::resultColumns(model)) names << QString::fromStdString(n);
    QCOMPARE(names, expected);
    // Orientation Rz(0.3) Rx(0.4) Rz(0.5) comes back as its 3-1-3 angles.
    const Eigen::Quaterniond q = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()) *
                                 Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitX()) *
                                 Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ());
    rlx::Frame frame;
    frame.state.q.resize(7);
    frame.state.q << 1, 2, 3, q.w(), q.x(), q.y(), q.z();
    frame.state.v = Eigen::VectorXd::LinSpaced(6, 1, 6);
    frame.vdot = Eigen::VectorXd::LinSpaced(6, 7, 12);
    rlx::Workspace ws(model);
    const std::vector<double> values = rlx::frameValues(model, frame, ws);
    QCOMPARE(values.size(), static_cast<std::size_t>(expected.size()));
    QCOMPARE(values[3], 3.0);
    QVERIFY(std::abs(values[8] - 0.3) < 1e-12);
    QVERIFY(std::abs(values[9] - 0.4) < 1e-12);
    QVERIFY(std::abs(values[10] - 0.5) < 1e-12);
    QCOMPARE(values[16], 6.0);
    QCOMPARE(values[22], 12.0);
    QCOMPARE(rlx::formatNumber(0.1), std::string("0.10000000000000001"));
  }
};

QTEST_GUILESS_MAIN(CliTest)
#include "tst_cli.moc"
