// Saves that fail half-way (core/io/atomic_write.cpp through saveRlxFile): a full disk, a lost
// permission, a failing device or the process killed between write and rename leave the previous
// model byte for byte and say so. The faults are injected by the preloaded library
// tests/faults/write_faults.c.
#include "injected_fault.h"
#include "io/model_file.h"
#include "test_support.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

using namespace rlx;

namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

// Two different models: the one on disk and the one whose save fails.
Spec savedModel() { return test::loadSpec(test::testDataPath("rich_planar.rlx")); }
Spec editedModel() {
  Spec spec = savedModel();
  spec.name = "edited";
  return spec;
}

// Unmounts a file system (lazily) when it goes out of scope.
struct Unmount {
  QByteArray point;
  ~Unmount() { ::umount2(point.constData(), MNT_DETACH); }
};

// The names in `directory`, hidden files too.
QStringList entries(const QString& directory) {
  return QDir(directory).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestSaveFaults : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void failedSaveKeepsPreviousFile_data();
  void failedSaveKeepsPreviousFile();
  void failedFirstSaveLeavesNothing();
  void readOnlyDirectory();
  void tinyFileSystem();
  void killedBetweenWriteAndRename();
};

void TestSaveFaults::initTestCase() {
  QVERIFY2(test::faultInjectionWorks(), "tests/faults/write_faults.c is not preloaded");
}

void TestSaveFaults::failedSaveKeepsPreviousFile_data() {
  QTest::addColumn<QString>("fault");
  QTest::addColumn<QString>("reason");
  QTest::newRow("disk full at the first byte") << "write:ENOSPC:0" << "No space left on device";
  QTest::newRow("disk full half-way") << "write:ENOSPC:700" << "No space left on device";
  QTest::newRow("quota exceeded") << "write:EDQUOT:1" << "Disk quota exceeded";
  QTest::newRow("sync fails") << "fsync:EIO" << "Input/output error";
  QTest::newRow("permission lost") << "open:EACCES" << "Permission denied";
  QTest::newRow("rename refused") << "rename:EACCES" << "Permission denied";
  QTest::newRow("file system read-only") << "rename:EROFS" << "Read-only file system";
}

// The save fails with the OS reason, the previous model stays byte for byte, no temporary file
// is left, and the next save (the fault gone) succeeds.
void TestSaveFaults::failedSaveKeepsPreviousFile() {
  QFETCH(QString, fault);
  QFETCH(QString, reason);
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const std::string path = directory.filePath("model.rlx").toStdString();
  QVERIFY(saveRlxFile(savedModel(), path, nullptr));
  const std::string before = test::readFile(path);
  QVERIFY(before.size() > 700);

  std::string error;
  {
    const test::InjectedFault injected(directory.path(), fault);
    QVERIFY(!saveRlxFile(editedModel(), path, &error));
  }
  QCOMPARE(q(error), "cannot save \"" + q(path) + "\": " + reason + "; the previous file is kept");
  QVERIFY(test::readFile(path) == before);
  QCOMPARE(entries(directory.path()), QStringList{"model.rlx"});

  QVERIFY(saveRlxFile(editedModel(), path, &error));
  QVERIFY(loadModelFile(path).spec == editedModel());
}

// A new file that cannot be written is not left behind, half-written or empty.
void TestSaveFaults::failedFirstSaveLeavesNothing() {
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const std::string path = directory.filePath("new.rlx").toStdString();
  std::string error;
  {
    const test::InjectedFault injected(directory.path(), "write:ENOSPC:100");
    QVERIFY(!saveRlxFile(editedModel(), path, &error));
  }
  QCOMPARE(q(error), "cannot save \"" + q(path) + "\": No space left on device");
  QCOMPARE(entries(directory.path()), QStringList{});
}

// A directory made read-only after the model was opened (root writes anyway: there the injected
// EACCES of "permission lost" above stands for it).
void TestSaveFaults::readOnlyDirectory() {
  if (::geteuid() == 0)
    QSKIP("root writes into read-only directories; the row \"permission lost\" injects EACCES");
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const std::string path = directory.filePath("model.rlx").toStdString();
  QVERIFY(saveRlxFile(savedModel(), path, nullptr));
  const std::string before = test::readFile(path);
  const QByteArray folder = directory.path().toUtf8();
  QVERIFY(::chmod(folder.constData(), 0555) == 0);
  std::string error;
  const bool saved = saveRlxFile(editedModel(), path, &error);
  QVERIFY(::chmod(folder.constData(), 0755) == 0);
  QVERIFY(!saved);
  QCOMPARE(q(error), "cannot save \"" + q(path) + "\": Permission denied; the previous file is kept");
  QVERIFY(test::readFile(path) == before);
}

// A real full disk: a 16 KiB tmpfs holds the model, and a model of 64 KiB does not fit. Mounting
// needs root with CAP_SYS_ADMIN; without it the injected ENOSPC rows above stand for a full disk.
void TestSaveFaults::tinyFileSystem() {
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const QByteArray point = directory.path().toUtf8();
  if (::mount("tmpfs", point.constData(), "tmpfs", 0, "size=16k") != 0)
    QSKIP(qPrintable(QString("cannot mount a tmpfs (%1); the injected ENOSPC rows stand for it")
                         .arg(std::strerror(errno))));
  const Unmount unmount{point};
  const std::string path = point.toStdString() + "/model.rlx";
  QVERIFY(saveRlxFile(savedModel(), path, nullptr));
  const std::string before = test::readFile(path);

  Spec large = editedModel();
  large.description = std::string(64 * 1024, 'x');
  std::string error;
  QVERIFY(!saveRlxFile(large, path, &error));
  QCOMPARE(q(error),
           "cannot save \"" + q(path) + "\": No space left on device; the previous file is kept");
  QVERIFY(test::readFile(path) == before);
  QCOMPARE(entries(directory.path()), QStringList{"model.rlx"});
  QVERIFY(saveRlxFile(editedModel(), path, nullptr));
}

// A child process saves and is killed at the rename: the model on disk is the previous one,
// whole and loadable; the stale temporary file holds the new text, does not stop the next save
// nor the next open, and the next save removes it (not the temporary file of a live process).
void TestSaveFaults::killedBetweenWriteAndRename() {
  QTemporaryDir directory;
  QVERIFY(directory.isValid());
  const std::string path = directory.filePath("model.rlx").toStdString();
  QVERIFY(saveRlxFile(savedModel(), path, nullptr));
  const std::string before = test::readFile(path);
  const Spec edited = editedModel();

  const pid_t child = ::fork();
  QVERIFY(child >= 0);
  if (child == 0) {
    const test::InjectedFault injected(directory.path(), "rename:KILL");
    saveRlxFile(edited, path, nullptr);
    ::_exit(0);  // not reached: the rename kills the child
  }
  int status = 0;
  QCOMPARE(::waitpid(child, &status, 0), child);
  QVERIFY(WIFSIGNALED(status));
  QCOMPARE(WTERMSIG(status), SIGKILL);

  QVERIFY(test::readFile(path) == before);
  QVERIFY(loadModelFile(path).spec == savedModel());
  const QStringList left = entries(directory.path());
  QCOMPARE(left.size(), 2);
  const QString stale = left.filter(".tmp").value(0);
  QVERIFY2(stale.startsWith(".model.rlx.") && stale.endsWith(".tmp"), qPrintable(stale));
  QVERIFY(test::readFile(directory.filePath(stale).toStdString()) == writeRlx(edited));

  const QString live = QString(".model.rlx.%1.999.tmp").arg(::getpid());
  QVERIFY(QFile(directory.filePath(live)).open(QIODevice::WriteOnly));
  QVERIFY(saveRlxFile(edited, path, nullptr));
  QVERIFY(loadModelFile(path).spec == edited);
  QCOMPARE(entries(directory.path()), (QStringList{live, "model.rlx"}));
}

QTEST_GUILESS_MAIN(TestSaveFaults)
#include "tst_save_faults.moc"
