// A user exports models as Adams datasets through File > Export > Adams Dataset…, clicked in the
// menus: the planetary set is refused before any file is asked for, the box naming the mesh
// Adams' GEAR cannot express (the sun's and the planet's bearings share no carrier); the
// slider-crank, with a body selected, is written where the file dialog says (".adm" added) and
// reads back as the same mechanism, while the document, its selection and the viewport stay as
// they were.

#include "docks/model_tree.h"
#include "io/model_file.h"
#include "test_support.h"
#include "ui_gestures.h"
#include "viewport/viewport.h"

#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace rlx;
using namespace rlx::ui;
using namespace rlx::ui::gestures;

namespace {

// Clicks File, then Export, then the item of `name`, as a person does.
void chooseExport(MainWindow& window, const char* name) {
  QMenuBar* bar = window.menuBar();
  auto* file = window.findChild<QMenu*>("fileMenu");
  auto* exports = window.findChild<QMenu*>("exportMenu");
  QVERIFY(file && exports);
  QTest::mouseClick(bar, Qt::LeftButton, {},
                    bar->actionGeometry(file->menuAction()).center() + QPoint(2, 1));
  QTRY_VERIFY(file->isVisible());
  const QPoint exportItem = file->actionGeometry(exports->menuAction()).center() + QPoint(-3, 2);
  QTest::mouseMove(file, exportItem);
  QTest::mouseClick(file, Qt::LeftButton, {}, exportItem);
  QTRY_VERIFY(exports->isVisible());
  const QRect item = exports->actionGeometry(window.action(name));
  QVERIFY(!item.isEmpty());
  QTest::mouseMove(exports, item.center() + QPoint(4, -1));
  // REULEAUX_SCREENSHOTS=DIR keeps a picture of the screen with the menus open.
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty())
    window.screen()->grabWindow(0).save(shots + "/export_menu.png");
  QTest::mouseClick(exports, Qt::LeftButton, {}, item.center() + QPoint(4, -1));
}

QString statusText(MainWindow& window) {
  return window.statusBar()->findChild<QLabel*>()->text();
}

}  // namespace

class TestExportAdams : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void planetaryMeshIsRefusedByName();
  void sliderCrankIsWritten();
};

void TestExportAdams::planetaryMeshIsRefusedByName() {
  QTemporaryDir dir;
  MainWindow window(dir.path() + "/recovery");
  QVERIFY(input::showActive(window));
  QVERIFY(window.openPath(QString::fromStdString(test::examplePath("planetary_gears.rlx"))));
  QString shown;
  bool fileDialog = false;
  onNextModal<QDialog>([&](QWidget* dialog) {
    auto* box = qobject_cast<QMessageBox*>(dialog);
    fileDialog = !box;
    if (!box) {
      dialog->close();
      return;
    }
    shown = box->objectName() + ": " + box->text() + "\n" + box->informativeText();
    if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty())
      box->grab().save(shots + "/export_refused.png");
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton, {}, QPoint(5, 5));
  });
  chooseExport(window, "exportAdams");
  QTRY_VERIFY(!shown.isEmpty() || fileDialog);
  QVERIFY(!fileDialog);
  QVERIFY2(shown.startsWith("exportAdamsErrorBox: \"planetary_gears.rlx\" cannot be written as "
                            "an Adams dataset."),
           qPrintable(shown));
  QVERIFY2(shown.contains("joint sun_planet: Adams' GEAR relates two joints"), qPrintable(shown));
  QVERIFY2(!shown.contains("ring_planet"), qPrintable(shown));
  QVERIFY(QDir(dir.path()).entryList({"*.adm"}).isEmpty());
}

void TestExportAdams::sliderCrankIsWritten() {
  QTemporaryDir dir;
  MainWindow window(dir.path() + "/recovery");
  QVERIFY(input::showActive(window));
  const QString example = QString::fromStdString(test::examplePath("slider_crank.rlx"));
  QVERIFY(window.openPath(example));
  Viewport* viewport = window.viewport();
  // Select the slider by clicking its block beside the wrist pin, a little off.
  const Spec& spec = window.document()->spec();
  clickAction(window, "toolSelect");
  const QPointF slider = viewport->widgetPosOf(QVector3D(0.665f, 0.04f, 0));
  QTest::mouseClick(viewport, Qt::LeftButton, {}, slider.toPoint() + QPoint(3, -2));
  QVERIFY(window.selection()->single() && window.selection()->single()->name == "slider");
  const Spec before = spec;
  QCOMPARE(window.document()->undoStack()->count(), 0);  // a click selects, it drags nothing
  const QImage picture = viewport->grabFrame();

  const QString typed = dir.filePath("crank_export");  // the dialog's user forgets the extension
  onNextModal<QFileDialog>([typed](QWidget* dialog) {
    auto* d = qobject_cast<QFileDialog*>(dialog);
    QVERIFY(d);
    auto* retry = new QTimer(d);  // the dialog fills its default name in once its folder loads
    QObject::connect(retry, &QTimer::timeout, [d, typed] {
      auto* name = d->findChild<QLineEdit*>("fileNameEdit");
      type(name, typed);
      QTest::keyClick(name, Qt::Key_Return);
    });
    retry->start(300);
  });
  chooseExport(window, "exportAdams");
  const QString written = typed + ".adm";
  QTRY_VERIFY(QFileInfo::exists(written));
  QCOMPARE(statusText(window),
           QString("Exported slider_crank.rlx as the Adams dataset crank_export.adm"));

  // What was written reads back as the same mechanism, names and all.
  const LoadResult back = loadModelFile(written.toStdString());
  QVERIFY(back.spec);
  QCOMPARE(back.spec->bodies.size(), std::size_t(3));
  QCOMPARE(back.spec->bodies[2].name, std::string("slider"));
  QCOMPARE(back.spec->joints.size(), std::size_t(4));
  QCOMPARE(back.spec->motions.front().name, std::string("crank_drive"));
  QVERIFY(std::abs(back.spec->bodies[2].position[0].value - 0.6292784194536203) < 1e-15);

  // The document is the example as it was: same model, file, clean, selection and picture.
  QVERIFY(window.document()->spec() == before);
  QCOMPARE(window.document()->filePath(), QFileInfo(example).absoluteFilePath());
  QVERIFY(!window.document()->isModified());
  QVERIFY(window.selection()->single() && window.selection()->single()->name == "slider");
  QVERIFY(window.modelTree()->itemOf({ElementKind::Body, "slider"})->isSelected());
  QVERIFY(viewport->grabFrame() == picture);
}

QTEST_MAIN(TestExportAdams)
#include "tst_export_adams.moc"
