// Values that are not numbers, given to reuleaux-cli or met during a run: a force that becomes
// NaN at t = 3 s ends the run (exit 2) naming the force, with the frames before it written; an
// infinite or NaN parameter given with --set is refused naming the parameter; a user constraint
// that divides by zero at the start ends the run naming the constraint.
#include "test_support.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using rlx::test::CliRun;
using rlx::test::runCli;

namespace {

QString testData(const char* name) { return QString::fromStdString(rlx::test::testDataPath(name)); }

// The rows of a results file as numbers (the header left out); a field that is not a finite
// number makes the row empty.
std::vector<std::vector<double>> finiteRows(const QString& path) {
  const QStringList lines = QString::fromStdString(rlx::test::readFile(path.toStdString()))
                                .split('\n', Qt::SkipEmptyParts);
  std::vector<std::vector<double>> rows;
  for (qsizetype i = 1; i < lines.size(); ++i) {
    std::vector<double> row;
    for (const QString& field : lines[i].split(',')) {
      bool ok = false;
      const double value = field.toDouble(&ok);
      if (!ok || !std::isfinite(value)) {
        row.clear();
        break;
      }
      row.push_back(value);
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

class TestCliNonFinite : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }
  void forceNanAt3sKeepsTheFrames_data();
  void forceNanAt3sKeepsTheFrames();
  void nonFiniteParameter_data();
  void nonFiniteParameter();
  void userConstraintDividesByZero();

 private:
  QTemporaryDir dir_;
};

void TestCliNonFinite::forceNanAt3sKeepsTheFrames_data() {
  QTest::addColumn<QStringList>("options");
  QTest::addColumn<int>("frames");  // written before the failure
  for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"})
    QTest::newRow(integrator) << QStringList{"--integrator", integrator} << 301;  // 0 .. 3 s
  QTest::newRow("statics") << QStringList{"--analysis", "statics", "--output-step", "0.5"} << 7;
}

void TestCliNonFinite::forceNanAt3sKeepsTheFrames() {
  QFETCH(QStringList, options);
  QFETCH(int, frames);
  const QString csvPath = dir_.filePath("nan_force.csv");
  const QString jsonPath = dir_.filePath("nan_force.json");
  const CliRun run = runCli(QStringList{"run", testData("pendulum_force_nan_at_3s.rlx"), "-o",
                                        csvPath, "--summary", jsonPath, "--quiet"} + options);
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(R"(the force "push" is not finite)") && run.err.contains("at t = 3"),
           qPrintable(run.err));
  const auto rows = finiteRows(csvPath);
  QCOMPARE(static_cast<int>(rows.size()), frames);
  for (const auto& row : rows) QVERIFY(!row.empty());
  QCOMPARE(rows.back().front(), 3.0);
  const QJsonObject summary = QJsonDocument::fromJson(
      QByteArray::fromStdString(rlx::test::readFile(jsonPath.toStdString()))).object();
  QCOMPARE(summary["status"].toString(), QString("failed"));
  QCOMPARE(summary["frames"].toInt(), frames);
}

void TestCliNonFinite::nonFiniteParameter_data() {
  QTest::addColumn<QString>("setting");
  QTest::addColumn<int>("exitCode");
  QTest::addColumn<QString>("message");
  const auto usage = [](const char* setting, const char* value) {
    QTest::newRow(setting) << QString(setting) << 64
                           << QString(R"(--set %1: the parameter "%2" must be a finite number, got "%3")")
                                  .arg(setting, QString(setting).section('=', 0, 0), value);
  };
  usage("k=inf", "inf");
  usage("k=-Infinity", "-Infinity");
  usage("k=nan", "nan");
  usage("t_fail=1e999", "1e999");
  // An expression is the model's to check: compile names the parameter.
  QTest::newRow("k=1/0") << "k=1/0" << 1 << R"(parameters[0] "k": value "1/0" is not a finite number)";
}

void TestCliNonFinite::nonFiniteParameter() {
  QFETCH(QString, setting);
  QFETCH(int, exitCode);
  QFETCH(QString, message);
  const CliRun run = runCli({"run", testData("pendulum_force_nan_at_3s.rlx"), "-o",
                             dir_.filePath("set.csv"), "--set", setting, "--quiet"});
  QCOMPARE(run.exitCode, exitCode);
  QVERIFY2(run.err.contains(message), qPrintable(run.err));
}

void TestCliNonFinite::userConstraintDividesByZero() {
  const QString csvPath = dir_.filePath("divides.csv");
  const CliRun run =
      runCli({"run", testData("user_constraint_divides_by_zero.rlx"), "-o", csvPath, "--quiet"});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains(
               R"(at t = 0 s: assembly failed: the constraint "pin" is not finite: equation pin.1 is NaN)"),
           qPrintable(run.err));
  QVERIFY(finiteRows(csvPath).empty());
  QVERIFY(rlx::test::readFile(csvPath.toStdString()).starts_with("t,"));
}

QTEST_GUILESS_MAIN(TestCliNonFinite)
#include "tst_cli_non_finite.moc"
