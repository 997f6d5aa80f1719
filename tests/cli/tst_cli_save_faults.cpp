// The files `reuleaux-cli run` writes (the results, -o, and the summary, --summary) and the plots
// of `reuleaux-cli plot` (QSaveFile, ui/plot/plot_export.cpp) when the disk fills up, the
// permission is gone or the process is killed before the rename: exit status 1, a message that
// names the file and says the previous one is kept, and the previous file byte for byte. The faults are injected by the preloaded library tests/faults/write_faults.c.
#include "injected_fault.h"
#include "test_support.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace rlx;

namespace {

const QByteArray kPrevious = "the previous file\n";

void writeText(const QString& path, const QByteArray& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text.toStdString();
}

QByteArray readText(const QString& path) {
  return QByteArray::fromStdString(test::readFile(path.toStdString()));
}

// `run` of a short pendulum: its results to `results`, its summary to `summary`.
QStringList runArguments(const QString& results, const QString& summary) {
  return {"run",  QString::fromStdString(test::testDataPath("pendulum_kin.rlx")),
          "-o",   results,
          "--summary", summary,
          "--end", "0.1",
          "--quiet"};
}

}  // namespace

class TestCliSaveFaults : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void failedWriteKeepsPreviousFile_data();
  void failedWriteKeepsPreviousFile();
  void killedBeforeRename();
  void failedPlotExportKeepsPreviousFile_data();
  void failedPlotExportKeepsPreviousFile();
};

void TestCliSaveFaults::initTestCase() {
  QVERIFY2(test::faultInjectionWorks(), "tests/faults/write_faults.c is not preloaded");
}

void TestCliSaveFaults::failedWriteKeepsPreviousFile_data() {
  QTest::addColumn<QString>("failing");  // "results" or "summary": the file in the faulty folder
  QTest::addColumn<QString>("fault");
  QTest::addColumn<QString>("reason");
  QTest::newRow("results, disk full") << "results" << "write:ENOSPC:1000"
                                      << "No space left on device";
  QTest::newRow("results, permission lost") << "results" << "open:EACCES" << "Permission denied";
  QTest::newRow("results, sync fails") << "results" << "fsync:EIO" << "Input/output error";
  QTest::newRow("summary, disk full") << "summary" << "write:ENOSPC:100"
                                      << "No space left on device";
  QTest::newRow("summary, rename refused") << "summary" << "rename:EROFS"
                                           << "Read-only file system";
}

// The failing file keeps its previous bytes, the other one is written, the exit status is 1.
void TestCliSaveFaults::failedWriteKeepsPreviousFile() {
  QFETCH(QString, failing);
  QFETCH(QString, fault);
  QFETCH(QString, reason);
  QTemporaryDir faulty, healthy;
  QVERIFY(faulty.isValid() && healthy.isValid());
  const bool resultsFail = failing == "results";
  const QString results = (resultsFail ? faulty : healthy).filePath("out.csv");
  const QString summary = (resultsFail ? healthy : faulty).filePath("summary.json");
  const QString victim = resultsFail ? results : summary;
  writeText(results, kPrevious);
  writeText(summary, kPrevious);

  test::CliRun run;
  {
    const test::InjectedFault injected(faulty.path(), fault);
    run = test::runCli(runArguments(results, summary));
  }
  QCOMPARE(run.exitCode, 1);
  QCOMPARE(run.err, "reuleaux-cli: cannot save \"" + victim + "\": " + reason +
                        "; the previous file is kept\n");
  QCOMPARE(readText(victim), kPrevious);
  QCOMPARE(QDir(faulty.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QFileInfo(victim).fileName()});
  const QString written = resultsFail ? summary : results;
  QVERIFY(readText(written).startsWith(resultsFail ? "{" : "t,"));
}

// Killed at the rename of the results: the previous results stay; a run afterwards replaces them.
void TestCliSaveFaults::killedBeforeRename() {
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const QString results = directory.filePath("out.csv");
  const QString summary = directory.filePath("summary.json");
  writeText(results, kPrevious);
  {
    const test::InjectedFault injected(directory.path(), "rename:KILL");
    QProcess cli;
    cli.start(QString::fromStdString(test::cliPath()), runArguments(results, summary));
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitStatus(), QProcess::CrashExit);
  }
  QCOMPARE(readText(results), kPrevious);
  QVERIFY(!QFileInfo::exists(summary));

  const test::CliRun again = test::runCli(runArguments(results, summary));
  QCOMPARE(again.exitCode, 0);
  QVERIFY(readText(results).startsWith("t,"));
}

void TestCliSaveFaults::failedPlotExportKeepsPreviousFile_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("fault");
  QTest::addColumn<QString>("reason");
  QTest::newRow("png, disk full") << "plot.png" << "write:ENOSPC:100" << "No space left on device";
  QTest::newRow("svg, disk full") << "plot.svg" << "write:ENOSPC:100" << "No space left on device";
  QTest::newRow("pdf, sync fails") << "plot.pdf" << "fsync:EIO" << "Input/output error";
  QTest::newRow("csv, rename refused") << "plot.csv" << "rename:EACCES" << "Permission denied";
}

void TestCliSaveFaults::failedPlotExportKeepsPreviousFile() {
  QFETCH(QString, file);
  QFETCH(QString, fault);
  QFETCH(QString, reason);
  QTemporaryDir faulty, healthy;
  QVERIFY(faulty.isValid() && healthy.isValid());
  const QString results = healthy.filePath("out.csv");
  QCOMPARE(test::runCli(runArguments(results, healthy.filePath("summary.json"))).exitCode, 0);
  const QString plot = faulty.filePath(file);
  writeText(plot, kPrevious);

  test::CliRun run;
  {
    const test::InjectedFault injected(faulty.path(), fault);
    run = test::runCli({"plot", results, "--y", "pendulum.x", "-o", plot, "--quiet"});
  }
  QCOMPARE(run.exitCode, 1);
  QCOMPARE(run.err, "reuleaux-cli: cannot save \"" + plot + "\": " + reason +
                        "; the previous file is kept\n");
  QCOMPARE(readText(plot), kPrevious);
  QCOMPARE(QDir(faulty.path()).entryList(QDir::Files | QDir::Hidden), QStringList{file});
}

QTEST_GUILESS_MAIN(TestCliSaveFaults)
#include "tst_cli_save_faults.moc"
