// A user builds a four-bar from an empty document with the mouse and keyboard on the real
// widgets — three bars drawn in the viewport, four pins clicked, a motion added and the analysis
// set through their dialogs — runs it, scrubs the timeline, plots a channel, exports the plot in
// every format and saves. The saved file must equal the expected model, and the exports must be
// valid, non-trivial files.

#include "docks/element_dialog.h"
#include "io/model_file.h"
#include "main_window.h"
#include "plot/channel_tree.h"
#include "plot/plot_export_dialog.h"
#include "plot/plot_panel.h"
#include "run/analysis_dialog.h"
#include "test_support.h"
#include "timeline/timeline.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QXmlStreamReader>
#include <QFileDialog>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include <functional>

using namespace rlx;
using namespace rlx::ui;

namespace {

// Runs `answer` on the next modal dialog of type T as soon as it is shown (polling the event
// loop).
template <typename T>
void onNextModal(std::function<void(QWidget*)> answer) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, [timer, answer] {
    auto* modal = qobject_cast<T*>(QApplication::activeModalWidget());
    if (!modal || !modal->isVisible()) return;
    timer->stop();
    timer->deleteLater();
    answer(modal);
  });
  timer->start();
}

// Replaces a line edit's text by typing, as a user does.
void type(QLineEdit* edit, const QString& text) {
  QVERIFY(edit);
  edit->setFocus();
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
}

void clickOk(QWidget* dialog) {
  auto* box = dialog->findChild<QDialogButtonBox*>();
  QVERIFY(box);
  QTest::mouseClick(box->button(QDialogButtonBox::Ok), Qt::LeftButton);
}

// Clicks the toolbar button of an action.
void clickAction(MainWindow& window, const char* name) {
  QAction* action = window.action(name);
  QVERIFY2(action, name);
  for (QToolBar* bar : window.findChildren<QToolBar*>())
    if (QWidget* button = bar->widgetForAction(action)) {
      QTest::mouseClick(button, Qt::LeftButton);
      return;
    }
  QFAIL(qPrintable(QString("no toolbar button for ") + name));
}

QPoint at(Viewport* viewport, double x, double y) {
  return viewport->widgetPosOf(QVector3D(float(x), float(y), 0)).toPoint();
}

void drag(Viewport* viewport, QPointF from, QPointF to) {
  const QPoint a = at(viewport, from.x(), from.y()), b = at(viewport, to.x(), to.y());
  QTest::mousePress(viewport, Qt::LeftButton, {}, a);
  for (int k = 1; k <= 5; ++k) {
    QMouseEvent move(QEvent::MouseMove, a + (b - a) * k / 5, viewport->mapToGlobal(a + (b - a) * k / 5),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &move);
  }
  QTest::mouseRelease(viewport, Qt::LeftButton, {}, b);
}

}  // namespace

class TestBuildFourBar : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void buildRunScrubExportSave() {
    QTemporaryDir dir;
    MainWindow window(dir.path() + "/recovery");
    window.viewport()->setMultiSamples(0);
    window.resize(1500, 950);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    clickAction(window, "new");
    Viewport* viewport = window.viewport();
    QTest::qWait(200);

    // Three bars: crank A-B, coupler B-C, rocker D-C, with A = (0, 0), B = (0, 0.2),
    // C = (0.4, 0.5), D = (0.4, 0): a Grashof crank-rocker.
    const QPointF A(0, 0), B(0, 0.2), C(0.4, 0.5), D(0.4, 0);
    clickAction(window, "toolBar");
    drag(viewport, A, B);
    drag(viewport, B, C);
    drag(viewport, D, C);
    QCOMPARE(window.document()->spec().bodies.size(), std::size_t(3));

    // Four pins, clicked at the joint points.
    clickAction(window, "toolRevolute");
    for (QPointF p : {A, B, C, D}) QTest::mouseClick(viewport, Qt::LeftButton, {}, at(viewport, p.x(), p.y()));
    QCOMPARE(window.document()->spec().joints.size(), std::size_t(4));
    clickAction(window, "toolSelect");

    // A motion on the crank's ground pin, through its dialog.
    window.selection()->set({{ElementKind::Joint, "pin1"}});
    onNextModal<ElementDialog>([](QWidget* dialog) {
      auto* d = qobject_cast<ElementDialog*>(dialog);
      QVERIFY(d);
      QCOMPARE(d->field("joint")->text(), QString("pin1"));
      type(d->field("function"), "2*pi*t");
      clickOk(d);
    });
    window.action("addMotion")->trigger();
    QCOMPARE(window.document()->spec().motions.size(), std::size_t(1));

    // The analysis: kinematics over 1 s, frames every 0.01 s.
    onNextModal<AnalysisDialog>([](QWidget* dialog) {
      auto* d = qobject_cast<AnalysisDialog*>(dialog);
      QVERIFY(d);
      d->typeBox()->setCurrentText("kinematics");
      type(d->endTimeEdit(), "1");
      type(d->stepEdit(), "0.01");
      clickOk(d);
    });
    clickAction(window, "analysis");
    QVERIFY(window.document()->model().has_value());

    // Run, and wait for the results.
    QSignalSpy completed(&window, &MainWindow::runCompleted);
    clickAction(window, "run");
    QVERIFY(completed.wait(60000));
    const Results& results = window.runs().back()->results;
    QVERIFY2(results.report.ok(), results.report.message.c_str());
    QCOMPARE(results.frames.size(), std::size_t(101));

    // Scrub: the slider moves the timeline, the viewport and the plot cursor to that frame.
    auto* slider = window.timeline()->findChild<QSlider*>();
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_End);
    QCOMPARE(window.timeline()->frame(), 100);
    for (int k = 0; k < 25; ++k) QTest::keyClick(slider, Qt::Key_Left);
    QCOMPARE(window.timeline()->frame(), 75);
    const Frame& shown = results.frames[75];
    QVERIFY((viewport->state().q - shown.state.q).norm() < 1e-12);

    // Plot the crank angle: pick its channel in the tree and press Enter.
    PlotPanel* plots = window.plots();
    ChannelTree* tree = plots->channelTree();
    const QList<QTreeWidgetItem*> found = tree->findItems("angle", Qt::MatchExactly | Qt::MatchRecursive);
    QTreeWidgetItem* crankAngle = nullptr;
    for (QTreeWidgetItem* item : found)
      if (item->parent() && item->parent()->text(0) == "bar1") crankAngle = item;
    QVERIFY(crankAngle);
    tree->setFocus();
    tree->setCurrentItem(crankAngle);
    QTest::keyClick(tree, Qt::Key_Return);
    // (after the motion's effort, which the run plotted at once)
    const QString effort =
        QString::fromStdString(window.document()->spec().motions[0].name) + ".effort";
    QCOMPARE(plots->channelsOf(plots->currentPlot()), QStringList({effort, "bar1.angle"}));

    // Export the plot in every format through the export dialog.
    for (const char* extension : {"png", "svg", "pdf", "csv"}) {
      const QString path = dir.filePath(QString("crank.") + extension);
      onNextModal<PlotExportDialog>([path](QWidget* dialog) {
        auto* d = qobject_cast<PlotExportDialog*>(dialog);
        QVERIFY(d);
        type(d->findChild<QLineEdit*>(), path);
        clickOk(d);
      });
      window.action("exportPlot")->trigger();
      QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
    }
    const QImage png(dir.filePath("crank.png"));
    QVERIFY(!png.isNull() && png.width() >= 400);
    QSet<QRgb> colours;
    for (int y = 0; y < png.height(); y += 4)
      for (int x = 0; x < png.width(); x += 4) colours.insert(png.pixel(x, y));
    QVERIFY(colours.size() > 10);
    QFile svg(dir.filePath("crank.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svg);
    int lines2d = 0;
    while (!xml.atEnd())
      if (xml.readNext() == QXmlStreamReader::StartElement)
        lines2d += xml.name() == QLatin1String("polyline") || xml.name() == QLatin1String("path");
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(lines2d > 10);
    QFile pdf(dir.filePath("crank.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.readAll().startsWith("%PDF"));
    QFile csv(dir.filePath("crank.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 102);
    QVERIFY(lines.front().contains("bar1.angle"));

    // Save through the file dialog, and compare with the expected model.
    const QString saved = dir.filePath("built.rlx");
    onNextModal<QFileDialog>([saved](QWidget* dialog) {
      auto* d = qobject_cast<QFileDialog*>(dialog);
      QVERIFY(d);
      // The dialog fills in its default name once its folder has loaded, which may be after
      // the user typed: type the name again until the dialog takes it.
      auto* retry = new QTimer(d);
      QObject::connect(retry, &QTimer::timeout, [d, saved] {
        auto* name = d->findChild<QLineEdit*>("fileNameEdit");
        type(name, saved);
        QTest::keyClick(name, Qt::Key_Return);
      });
      retry->start(300);
    });
    window.action("save")->trigger();
    QVERIFY(!window.document()->isModified());
    QCOMPARE(window.document()->filePath(), saved);
    const LoadResult built = loadModelFile(saved.toStdString());
    const LoadResult expected = loadModelFile(test::testDataPath("ui_built_four_bar.rlx"));
    QVERIFY(built.spec);
    const bool same = expected.spec && *built.spec == *expected.spec;
    if (!same) qWarning("the saved model:\n%s", writeRlx(*built.spec).c_str());
    QVERIFY(same);

    // REULEAUX_SCREENSHOTS=DIR keeps a picture of the window at this point.
    if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
      window.action("reactions")->trigger();
      window.selection()->set({{ElementKind::Body, "bar2"}});
      window.action("trace")->trigger();
      plots->addPlot();
      plots->addChannel("pin1.fx");
      plots->addChannel("pin1.fy");
      QTest::qWait(300);
      window.grab().save(shots + "/main_window_four_bar.png");
    }
  }
};

int main(int argc, char* argv[]) {
  Viewport::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestBuildFourBar test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_build_four_bar.moc"
