// A user puts an end stop on the simple pendulum's pin from the Model menu: the pin is clicked a
// few pixels off its centre, Model > Add End Stop… comes prefilled for it, a bad pair of bounds is
// explained in the form, and OK adds one undoable `limit` that the viewport draws as a hatched
// wall where the rod will stop. Running the model lists the impacts in the diagnostics dock;
// clicking one selects the stop.

#include "docks/diagnostics_dock.h"
#include "docks/model_tree.h"
#include "docks/properties_dock.h"
#include "test_support.h"
#include "ui_gestures.h"

#include <QDockWidget>
#include <QLabel>
#include <QTableWidget>
#include <QTemporaryDir>

#include <memory>

using namespace rlx;
using namespace rlx::ui;
using namespace rlx::ui::gestures;

class TestAddEndStop : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void stopOnThePendulumPin();
};

void TestAddEndStop::stopOnThePendulumPin() {
  QTemporaryDir dir;
  MainWindow window(dir.path() + "/recovery");
  QVERIFY(input::showActive(window));
  Viewport* viewport = window.viewport();
  QVERIFY(window.openPath(QString::fromStdString(test::examplePath("simple_pendulum.rlx"))));
  const Spec& spec = window.document()->spec();
  QVERIFY(spec.forces.empty());
  const auto at = [viewport](QPointF world, QPoint off) {
    return viewport->widgetPosOf(QVector3D(float(world.x()), float(world.y()), 0)).toPoint() + off;
  };

  // Click the pin (at the origin), a little off its centre.
  clickAction(window, "toolSelect");
  QTest::mouseClick(viewport, Qt::LeftButton, {}, at({0, 0}, QPoint(2, -3)));
  QVERIFY(window.selection()->single() && window.selection()->single()->name == "pin");
  const int undoSteps = window.document()->undoStack()->count();

  // Model > Add End Stop…: on the pin, a quarter turn either way. Crossed bounds are explained;
  // then the stop where the rod hangs straight down, with no upper bound.
  QString prefilled;
  onNextModal<ElementDialog>([&prefilled](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    for (const char* key : {"type", "joint", "lower", "upper"}) prefilled += d->field(key)->text() + " ";
    type(d->field("lower"), "1");
    type(d->field("upper"), "0.5");
    clickOk(d);
    QVERIFY(d->isVisible());
    QVERIFY(formExplains(d, "upper must be greater than lower"));
    type(d->field("lower"), "-pi/2");
    type(d->field("upper"), "");
    type(d->field("stiffness"), "1e4");
    type(d->field("exponent"), "1");
    type(d->field("damping"), "8");
    clickOk(d);
  });
  chooseFromModelMenu(window, "addLimit");
  QCOMPARE(prefilled, QString("limit pin -0.785 0.785 "));
  QCOMPARE(spec.forces.size(), std::size_t(1));
  const ForceSpec stop = spec.forces.front();
  QCOMPARE(stop.type, ForceType::Limit);
  QCOMPARE(stop.joint, std::string("pin"));
  QVERIFY(stop.lower && stop.lower->expression == "-pi/2");
  QVERIFY(!stop.upper);
  QVERIFY(window.document()->model().has_value());
  QCOMPARE(window.document()->undoStack()->count(), undoSteps + 1);

  // Selected, listed, in the properties, and drawn: the wall below the pin is picked a few
  // pixels beside its middle, 0.3 m down (the outer half of the radius the rod will lie on).
  const QString name = QString::fromStdString(stop.name);
  const QPointF wall(0, -0.3);
  QVERIFY(window.selection()->single() && window.selection()->single()->name == stop.name);
  QVERIFY(window.modelTree()->itemOf({ElementKind::Force, stop.name}));
  QVERIFY(propertiesShow(window, "penetration"));
  QCOMPARE(viewport->elementAt(at(wall, QPoint(3, 2))), name);

  // Undo takes it away everywhere, redo brings it back.
  window.action("undo")->trigger();
  QVERIFY(spec.forces.empty());
  for (const ElementId& id : window.selection()->ids()) QVERIFY(id.name != stop.name);
  QVERIFY(!window.modelTree()->itemOf({ElementKind::Force, stop.name}));
  QVERIFY(!propertiesShow(window, "penetration"));
  QVERIFY(viewport->elementAt(at(wall, QPoint(3, 2))) != name);
  window.action("redo")->trigger();
  QCOMPARE(spec.forces.size(), std::size_t(1));
  QVERIFY(spec.forces.front() == stop);
  QVERIFY(window.modelTree()->itemOf({ElementKind::Force, stop.name}));
  QCOMPARE(viewport->elementAt(at(wall, QPoint(3, 2))), name);

  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    QTest::qWait(300);
    window.grab().save(shots + "/end_stop_added.png");
  }

  // Run: the rod bounces on the stop; the diagnostics dock lists the impacts as information,
  // and clicking one selects the stop.
  window.selection()->clear();
  QSignalSpy completed(&window, &MainWindow::runCompleted);
  clickAction(window, "run");
  QVERIFY(completed.wait(60000));
  const Results& results = window.runs().back()->results;
  QVERIFY2(results.report.ok(), results.report.message.c_str());
  QVERIFY(results.impacts.size() >= 2);
  DiagnosticsDock* dock = window.diagnostics();
  QCOMPARE(dock->errorCount(), 0);
  QListWidgetItem* line = nullptr;
  for (int i = 0; i < dock->count() && !line; ++i)
    if (dock->item(i)->text().startsWith(name + ": lower bound hit at t = ")) line = dock->item(i);
  QVERIFY(line);
  QVERIFY(line->text().contains("J lost"));
  window.findChild<QDockWidget*>("diagnosticsDock")->raise();
  QTest::qWait(50);
  QTest::mouseClick(dock->viewport(), Qt::LeftButton, {}, dock->visualItemRect(line).center() + QPoint(6, 1));
  QVERIFY(window.selection()->single() && window.selection()->single()->name == stop.name);
  if (const QString shots = qEnvironmentVariable("REULEAUX_SCREENSHOTS"); !shots.isEmpty()) {
    QTest::qWait(300);
    window.grab().save(shots + "/end_stop_run.png");
  }
}

int main(int argc, char* argv[]) {
  Viewport::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  TestAddEndStop test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_add_end_stop.moc"
