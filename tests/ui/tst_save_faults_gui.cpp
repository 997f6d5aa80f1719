// Saving from the desktop application when the write fails half-way (a full disk): Ctrl+S, the
// File menu and closing the window with unsaved edits each show that the model was not saved and
// the previous file is kept; the edits stay open and modified; the file on disk is byte for byte
// the previous one. A failed autosave says so in the status bar and keeps the previous recovery
// file. A window killed between writing the new file and renaming it over the old one leaves the
// old file as it was and its edits in the recovery folder. The faults are injected by the
// preloaded library tests/faults/write_faults.c.
#include "document/commands.h"
#include "injected_fault.h"
#include "io/model_file.h"
#include "main_window.h"
#include "test_support.h"
#include "ui_input.h"
#include "viewport/viewport.h"

#include <QAbstractButton>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>

using namespace rlx;
using namespace rlx::ui;
using Json = nlohmann::ordered_json;

namespace {

// Answers every message box that opens while it lives: "Save" where offered, else "OK"; keeps
// their texts.
class MessageBoxAnswers {
 public:
  MessageBoxAnswers() {
    timer_.setInterval(20);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      texts_ << box->objectName() + ": " + box->text() + " | " + box->informativeText();
      QAbstractButton* save = box->button(QMessageBox::Save);
      (save ? save : box->button(QMessageBox::Ok))->click();
    });
    timer_.start();
  }
  const QStringList& texts() const { return texts_; }

 private:
  QTimer timer_;
  QStringList texts_;
};

// The text of the window's status bar.
QString statusText(MainWindow& window) {
  QStringList texts;
  for (QLabel* label : window.statusBar()->findChildren<QLabel*>()) texts << label->text();
  return texts.join(" | ");
}

// An edit of the model's description, as the properties dock makes it.
void describe(Document* doc, const char* text) {
  pushEdit(doc, setModelField(doc->spec(), "description", Json(text)), "describe");
}

// Clicks File > Save with the mouse.
void clickFileSave(MainWindow& window) {
  QMenuBar* bar = window.menuBar();
  QAction* fileAction = bar->actions().value(0);
  QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(fileAction).center());
  QMenu* file = fileAction->menu();
  QVERIFY(QTest::qWaitForWindowExposed(file));
  QTest::mouseClick(file, Qt::LeftButton, {}, file->actionGeometry(window.action("save")).center());
}

// The child process of killedBetweenWriteAndRename: opens the model, edits it, autosaves as the
// timer would, and presses Ctrl+S; the rename of the written file over the model kills it.
int killedSaveChild(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);
  MainWindow window(qEnvironmentVariable("RLX_KILLED_SAVE_RECOVERY"));
  if (!input::showActive(window)) return 2;
  const QString path = qEnvironmentVariable("RLX_KILLED_SAVE_MODEL");
  if (!window.openPath(path)) return 3;
  describe(window.document(), "edited before the kill");
  window.autosave()->saveNow();
  const test::InjectedFault fault(QFileInfo(path).absolutePath(), "rename:KILL");
  input::typeKey(&window, Qt::Key_S, Qt::ControlModifier);
  std::puts("not killed");
  return 4;
}

}  // namespace

class TestSaveFaultsGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void failedSaveKeepsTheEdits_data();
  void failedSaveKeepsTheEdits();
  void failedAutosaveKeepsTheRecoveryFile();
  void killedBetweenWriteAndRename();
};

void TestSaveFaultsGui::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY2(test::faultInjectionWorks(), "tests/faults/write_faults.c is not preloaded");
}

void TestSaveFaultsGui::failedSaveKeepsTheEdits_data() {
  QTest::addColumn<QString>("how");
  QTest::newRow("Ctrl+S") << "shortcut";
  QTest::newRow("File > Save") << "menu";
  QTest::newRow("closing the window, Save") << "close";
}

void TestSaveFaultsGui::failedSaveKeepsTheEdits() {
  QFETCH(QString, how);
  QTemporaryDir folder, recovery;
  QVERIFY(folder.isValid() && recovery.isValid());
  const QString path = folder.filePath("four_bar.rlx");
  QVERIFY(QFile::copy(QString::fromStdString(test::examplePath("four_bar.rlx")), path));
  const std::string before = test::readFile(path.toStdString());

  MainWindow window(recovery.path());
  QVERIFY(input::showActive(window));
  QVERIFY(window.openPath(path));
  Document* doc = window.document();
  describe(doc, "edited before the disk filled up");
  QVERIFY(doc->isModified());

  // The save fails half-way through the file.
  {
    const test::InjectedFault fault(folder.path(), "write:ENOSPC:200");
    const MessageBoxAnswers answers;
    if (how == "shortcut") input::typeKey(&window, Qt::Key_S, Qt::ControlModifier);
    if (how == "menu") clickFileSave(window);
    if (how == "close") QVERIFY(!window.close());
    const QString shown = answers.texts().filter("saveErrorBox").value(0);
    QCOMPARE(shown, "saveErrorBox: \"four_bar.rlx\" was not saved. Your edits are still open. | "
                    "cannot save \"" + path + "\": No space left on device; the previous file is kept");
  }
  QVERIFY(window.isVisible());
  QVERIFY(doc->isModified());
  QCOMPARE(doc->spec().description, std::string("edited before the disk filled up"));
  QCOMPARE(statusText(window), QString("four_bar.rlx was not saved"));
  QVERIFY(test::readFile(path.toStdString()) == before);
  QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"four_bar.rlx"});

  // With room again, Ctrl+S saves the edits.
  input::typeKey(&window, Qt::Key_S, Qt::ControlModifier);
  QVERIFY(!doc->isModified());
  QCOMPARE(loadModelFile(path.toStdString()).spec->description,
           std::string("edited before the disk filled up"));
}

void TestSaveFaultsGui::failedAutosaveKeepsTheRecoveryFile() {
  QTemporaryDir recovery;
  QVERIFY(recovery.isValid());
  MainWindow window(recovery.path());
  QVERIFY(input::showActive(window));
  QVERIFY(window.openPath(QString::fromStdString(test::examplePath("four_bar.rlx"))));
  Document* doc = window.document();
  describe(doc, "autosaved");
  window.autosave()->saveNow();
  const std::string recoveryPath = window.autosave()->recoveryPath().toStdString();
  const std::string autosaved = test::readFile(recoveryPath);

  describe(doc, "not autosaved");
  {
    const test::InjectedFault fault(recovery.path(), "write:ENOSPC:0");
    window.autosave()->saveNow();
  }
  QCOMPARE(statusText(window), "Autosave failed: cannot save \"" + QString::fromStdString(recoveryPath) +
                                   "\": No space left on device; the previous file is kept");
  QVERIFY(test::readFile(recoveryPath) == autosaved);
  QCOMPARE(Autosave::leftBehind(recovery.path()).size(), std::size_t(0));  // this process runs
  QCOMPARE(doc->spec().description, std::string("not autosaved"));
}

void TestSaveFaultsGui::killedBetweenWriteAndRename() {
  QTemporaryDir folder, recovery;
  QVERIFY(folder.isValid() && recovery.isValid());
  const QString path = folder.filePath("four_bar.rlx");
  QVERIFY(QFile::copy(QString::fromStdString(test::examplePath("four_bar.rlx")), path));
  const std::string before = test::readFile(path.toStdString());

  QProcess child;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("RLX_KILLED_SAVE_MODEL", path);
  env.insert("RLX_KILLED_SAVE_RECOVERY", recovery.path());
  child.setProcessEnvironment(env);
  child.start(QCoreApplication::applicationFilePath(), {});
  QVERIFY(child.waitForStarted());
  QVERIFY(child.waitForFinished(120000));
  QVERIFY2(child.exitStatus() == QProcess::CrashExit,
           qPrintable(QString("exit code %1: %2").arg(child.exitCode()).arg(child.readAll())));

  // The model is byte for byte the file before the save; the written file is left beside it.
  QVERIFY(test::readFile(path.toStdString()) == before);
  const QStringList left = QDir(folder.path()).entryList(QDir::Files | QDir::Hidden);
  QCOMPARE(left.size(), 2);
  QVERIFY2(left.filter(QRegularExpression(R"(^\.four_bar\.rlx\.\d+\.\d+\.tmp$)")).size() == 1,
           qPrintable(left.join(", ")));

  // The next start offers the edits back; saving them replaces the model and removes the
  // killed save's file.
  MainWindow window(recovery.path());
  QVERIFY(input::showActive(window));
  window.offerRecovery(false);
  Document* doc = window.document();
  QCOMPARE(doc->spec().description, std::string("edited before the kill"));
  QVERIFY(doc->isModified());
  QCOMPARE(doc->filePath(), QFileInfo(path).absoluteFilePath());
  input::typeKey(&window, Qt::Key_S, Qt::ControlModifier);
  QVERIFY(!doc->isModified());
  QCOMPARE(loadModelFile(path.toStdString()).spec->description,
           std::string("edited before the kill"));
  QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"four_bar.rlx"});
}

int main(int argc, char* argv[]) {
  Viewport::setDefaultSurfaceFormat();
  if (qEnvironmentVariableIsSet("RLX_KILLED_SAVE_MODEL")) return killedSaveChild(argc, argv);
  QApplication app(argc, argv);
  TestSaveFaultsGui test;
  return QTest::qExec(&test, argc, argv);
}
#include "tst_save_faults_gui.moc"
