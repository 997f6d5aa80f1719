// A user builds a four-bar from an empty document with the mouse and keyboard on the real
// widgets — three bars drawn in the viewport (the second and third pinned where they start and
// end on a bar's end), two ground pins clicked, a motion added and the analysis
// set through their dialogs — runs it, scrubs the timeline, plots a channel, exports the plot in
// every format and saves. The saved file must equal the expected model, and the exports must be
// valid, non-trivial files.

#include "plot/plot_export_dialog.h"
#include "test_support.h"
#include "timeline/timeline.h"
#include "ui_gestures.h"

#include <QImage>
#include <QPushButton>
#include <QSlider>
#include <QTemporaryDir>
#include <QXmlStreamReader>

using namespace rlx;
using namespace rlx::ui;
using namespace rlx::ui::gestures;

namespace {

QPoint at(Viewport* viewport, double x, double y) {
  return viewport->widgetPosOf(QVector3D(float(x), float(y), 0)).toPoint();
}

void drag(Viewport* viewport, QPointF from, QPointF to) {
  input::dragPixels(viewport, at(viewport, from.x(), from.y()), at(viewport, to.x(), to.y()));
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

    // Three bars: crank A-B, coupler B-C, rocker D-C, with A = (-0.2, -0.25), B = (-0.2, -0.05),
    // C = (0.2, 0.25), D = (0.2, -0.25): a Grashof crank-rocker. The coupler is pinned to the
    // crank at B and the rocker to the coupler at C as they are drawn.
    const QPointF A(-0.2, -0.25), B(-0.2, -0.05), C(0.2, 0.25), D(0.2, -0.25);
    clickAction(window, "toolBar");
    drag(viewport, A, B);
    drag(viewport, B, C);
    drag(viewport, D, C);
    QCOMPARE(window.document()->spec().bodies.size(), std::size_t(3));
    QCOMPARE(window.document()->spec().joints.size(), std::size_t(2));

    // The ground pins, clicked at the free ends; a click on a pinned end adds nothing.
    clickAction(window, "toolRevolute");
    for (QPointF p : {A, D, B}) QTest::mouseClick(viewport, Qt::LeftButton, {}, at(viewport, p.x(), p.y()));
    QCOMPARE(window.document()->spec().joints.size(), std::size_t(4));
    clickAction(window, "toolSelect");

    // A motion on the crank's ground pin, through its dialog.
    window.selection()->set({{ElementKind::Joint, "pin3"}});
    onNextModal<ElementDialog>([](QWidget* dialog) {
      auto* d = qobject_cast<ElementDialog*>(dialog);
      QVERIFY(d);
      QCOMPARE(d->field("joint")->text(), QString("pin3"));
      type(d->field("function"), "2*pi*t");
      clickOk(d);
    });
    window.action("addMotion")->trigger();
    QCOMPARE(window.document()->spec().motions.size(), std::size_t(1));

    // The analysis: kinematics over 1 s, frames every 0.01 s.
    setKinematics(window, "1", "0.01");
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
    plotChannel(window, "bar1", "angle");
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
    saveThroughDialog(window, saved);
    QVERIFY(!window.document()->isModified());
    QCOMPARE(window.document()->filePath(), saved);
    QVERIFY(sameModel(saved, test::testDataPath("ui_built_four_bar.rlx")));

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
