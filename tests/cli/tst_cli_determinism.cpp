// Two processes of reuleaux-cli on the same model and options write byte-identical results files
// and the same summary (but for wall_time_s and the results file's own path): every analysis and
// every dynamics integrator, planar and spatial, with user and with redundant constraints.
#include "test_support.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using rlx::test::CliRun;
using rlx::test::runCli;

namespace {

QString modelPath(const QString& file) {
  const std::string name = file.section('/', 1).toStdString();
  return QString::fromStdString(file.startsWith("examples/") ? rlx::test::examplePath(name)
                                                             : rlx::test::testDataPath(name));
}

QByteArray readBytes(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The summary's entries that describe the computation: without the wall time and the paths.
QJsonObject computedSummary(const QString& path) {
  QJsonObject summary = QJsonDocument::fromJson(readBytes(path)).object();
  for (const char* key : {"wall_time_s", "results_file", "model_file"}) summary.remove(key);
  return summary;
}

}  // namespace

class TestCliDeterminism : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }
  void twoProcesses_data();
  void twoProcesses();

 private:
  QTemporaryDir dir_;
};

void TestCliDeterminism::twoProcesses_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QStringList>("options");
  const auto row = [](const char* file, const QStringList& options) {
    QTest::addRow("%s %s", file, qPrintable(options.join(' '))) << QString(file) << options;
  };
  for (const char* file : {"examples/four_bar.rlx", "examples/spatial_slider_crank.rlx",
                           "data/four_bar_duplicate_pin.rlx"}) {
    row(file, {"--analysis", "assembly"});
    row(file, {"--analysis", "kinematics", "--end", "0.5"});
  }
  row("data/statics_four_bar_spring.rlx", {"--analysis", "statics"});
  row("data/statics_driven_crank_link.rlx", {"--analysis", "statics"});
  for (const char* file : {"examples/four_bar.rlx", "data/rolling_disk_user.rlx",
                           "examples/user_pendulum.rlx", "data/four_bar_duplicate_pin.rlx"}) {
    for (const char* integrator : {"hht", "bdf", "corrected-rk", "corrected-rk45"})
      row(file, {"--analysis", "dynamics", "--integrator", integrator, "--end", "0.5"});
    row(file, {"--analysis", "dynamics", "--integrator", "hht", "--variable-step", "on",
               "--end", "0.5"});
  }
}

void TestCliDeterminism::twoProcesses() {
  QFETCH(QString, file);
  QFETCH(QStringList, options);
  QByteArray csv[2];
  QJsonObject summary[2];
  for (int k = 0; k < 2; ++k) {
    const QString csvPath = dir_.filePath(QString("run%1.csv").arg(k));
    const QString jsonPath = dir_.filePath(QString("run%1.json").arg(k));
    const CliRun run = runCli(QStringList{"run", modelPath(file), "-o", csvPath, "--summary",
                                          jsonPath, "--quiet"} + options);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    csv[k] = readBytes(csvPath);
    summary[k] = computedSummary(jsonPath);
  }
  QVERIFY(csv[0].count('\n') >= 2);
  QVERIFY2(csv[0] == csv[1], "the two processes wrote different results files");
  QCOMPARE(summary[0], summary[1]);
}

QTEST_GUILESS_MAIN(TestCliDeterminism)
#include "tst_cli_determinism.moc"
