// Undo and redo of every kind of edit: random sequences of 200 edits; undoing all of them returns
// the exact original spec, redoing all of them the exact final one. Also the edit functions'
// rules (dependents, renaming references, refusals named in place), and undo in the main window
// with a selection, the docks and the viewport: the selection never names an element the spec
// does not have, and a renamed element stays selected.

#include "document/commands.h"
#include "document/document.h"
#include "document/edits.h"
#include "docks/model_tree.h"
#include "docks/properties_dock.h"
#include "main_window.h"
#include "test_support.h"
#include "ui_input.h"
#include "viewport/viewport.h"

#include <QDockWidget>
#include <QLabel>
#include <QRandomGenerator>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoView>
#include <QtTest>

using namespace rlx;
using namespace rlx::ui;
using Json = nlohmann::ordered_json;

class TestUndo : public QObject {
  Q_OBJECT

 private:
  // One random edit of a random kind; returns its name for failure messages.
  static QString randomEdit(Document& doc, QRandomGenerator& random, int step) {
    const Spec& spec = doc.spec();
    std::vector<ElementId> all = elements(spec);
    std::vector<ElementId> bodies, joints;
    for (const ElementId& id : all) {
      if (id.kind == ElementKind::Body) bodies.push_back(id);
      if (id.kind == ElementKind::Joint) joints.push_back(id);
    }
    const auto any = [&](const std::vector<ElementId>& list) {
      return list[static_cast<std::size_t>(random.bounded(static_cast<int>(list.size())))];
    };
    const double x = random.bounded(2.0) - 1.0;
    switch (random.bounded(10)) {
      case 0: {  // add a body
        const Json body{{"name", freeName(spec, "b")}, {"mass", 1 + random.bounded(3)},
                        {"inertia", 0.1}, {"position", {x, 0.5}},
                        {"shape", {{"type", "bar"}, {"length", 1.0}, {"width", 0.05}}}};
        pushEdit(&doc, addElement(spec, ElementKind::Body, body), "add body");
        return "add body";
      }
      case 1: {  // add a joint between two bodies (or ground)
        if (bodies.empty()) return "skip";
        const Json joint{{"name", freeName(spec, "j")}, {"type", "revolute"},
                         {"body1", "ground"}, {"body2", any(bodies).name}, {"at", {x, 0.0}}};
        pushEdit(&doc, addElement(spec, ElementKind::Joint, joint), "add joint");
        return "add joint";
      }
      case 2: {  // add a motion on a joint
        if (joints.empty()) return "skip";
        const Json motion{{"name", freeName(spec, "m")}, {"joint", any(joints).name},
                          {"function", "2*pi*t"}};
        pushEdit(&doc, addElement(spec, ElementKind::Motion, motion), "add motion");
        return "add motion";
      }
      case 3: {  // add a force element
        if (bodies.empty()) return "skip";
        const Json spring{{"name", freeName(spec, "s")}, {"type", "spring_damper"},
                          {"body1", "ground"}, {"body2", any(bodies).name},
                          {"point1", {0, 1}}, {"point2", {0, 0}}, {"stiffness", 10}};
        pushEdit(&doc, addElement(spec, ElementKind::Force, spring), "add spring");
        return "add spring";
      }
      case 4: {  // add a parameter
        pushEdit(&doc, addElement(spec, ElementKind::Parameter, Json{{"name", freeName(spec, "p")}, {"value", x}}),
                 "add parameter");
        return "add parameter";
      }
      case 5: {  // set a field (merging repeated changes of one field)
        if (bodies.empty()) return "skip";
        const ElementId id = any(bodies);
        pushEdit(&doc, setElementField(spec, id, "mass", Json(1.0 + random.bounded(5.0))), "set mass",
                 random.bounded(2) ? QString::fromStdString("mass:" + id.name) : QString());
        return "set mass";
      }
      case 6: {  // rename
        if (all.empty()) return "skip";
        const ElementId id = any(all);
        pushEdit(&doc, renameElement(spec, id, "r" + std::to_string(step)), "rename");
        return "rename";
      }
      case 7: {  // delete with dependents
        if (all.empty() || random.bounded(3)) return "skip";
        pushEdit(&doc, removeElements(spec, {any(all)}), "delete");
        return "delete";
      }
      case 8: {  // drag: move bodies, merging a run of moves
        if (bodies.empty()) return "skip";
        Spec moved = spec;
        for (BodySpec& b : moved.bodies) b.position = {Number(x), Number(random.bounded(1.0))};
        pushEdit(&doc, moved, "drag", "drag");
        return "drag";
      }
      default: {  // analysis settings and model fields
        AnalysisSpec analysis = spec.analysis.value_or(AnalysisSpec{});
        analysis.endTime = 1.0 + random.bounded(5.0);
        analysis.integrator = random.bounded(2) ? "hht" : "corrected-rk";
        pushEdit(&doc, withAnalysis(spec, analysis), "analysis");
        pushEdit(&doc, setModelField(doc.spec(), "description", Json("edit " + std::to_string(step))), "describe");
        return "analysis";
      }
    }
  }

  // Every selected element is in the spec, and the properties dock shows one of them or the model.
  static void verifySelectionExists(MainWindow& window) {
    for (const ElementId& id : window.selection()->ids())
      QVERIFY2(contains(window.document()->spec(), id), id.name.c_str());
    const QString title = window.properties()->findChild<QLabel*>()->text();
    if (const ElementId* id = window.selection()->single())
      QVERIFY2(title.contains(QString::fromStdString(id->name)), qPrintable(title));
    else if (window.selection()->isEmpty())
      QCOMPARE(title, QString("Model"));
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void randomSequencesUndoAndRedoExactly_data() {
    QTest::addColumn<QString>("start");
    QTest::addColumn<quint32>("seed");
    for (quint32 seed : {1u, 2u, 3u}) {
      QTest::addRow("empty/%u", seed) << QString() << seed;
      QTest::addRow("four_bar/%u", seed) << QString("four_bar.rlx") << seed;
      QTest::addRow("slider_crank/%u", seed) << QString("slider_crank.rlx") << seed;
    }
  }

  void randomSequencesUndoAndRedoExactly() {
    QFETCH(QString, start);
    QFETCH(quint32, seed);
    Document doc;
    Diagnostics diagnostics;
    if (!start.isEmpty()) QVERIFY(doc.open(QString::fromStdString(test::examplePath(start.toStdString())), diagnostics));
    const Spec original = doc.spec();
    QRandomGenerator random(seed);
    int applied = 0;
    for (int step = 0; step < 200; ++step) applied += randomEdit(doc, random, step) != "skip";
    const Spec final = doc.spec();
    QVERIFY(applied > 100);
    QVERIFY(doc.undoStack()->count() > 50);
    QVERIFY(!(final == original));

    while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
    QVERIFY(doc.spec() == original);
    QVERIFY(!doc.isModified());
    while (doc.undoStack()->canRedo()) doc.undoStack()->redo();
    QVERIFY(doc.spec() == final);
  }

  void dragsMergeIntoOneStep() {
    Document doc;
    Diagnostics diagnostics;
    QVERIFY(doc.open(QString::fromStdString(test::examplePath("four_bar.rlx")), diagnostics));
    const Spec original = doc.spec();
    for (int i = 1; i <= 20; ++i) {
      Spec moved = doc.spec();
      moved.bodies.front().position = {Number(0.01 * i), Number(0.0)};
      pushEdit(&doc, moved, "Drag", "drag");
    }
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    QVERIFY(doc.spec() == original);
  }

  void deleteTakesDependents() {
    const Spec spec = test::loadSpec(test::examplePath("slider_crank.rlx"));
    // Removing the crank removes its joints and what drives them.
    const std::vector<ElementId> removed = withDependents(spec, {{ElementKind::Body, "crank"}});
    QVERIFY(removed.size() > 2);
    const Spec after = removeElements(spec, {{ElementKind::Body, "crank"}});
    for (const JointSpec& j : after.joints) QVERIFY(j.body1 != "crank" && j.body2 != "crank");
    for (const MotionSpec& m : after.motions)
      for (const JointSpec& j : spec.joints)
        if (j.name == m.joint) QVERIFY(j.body1 != "crank" && j.body2 != "crank");
    QVERIFY(compile(after).model.has_value());
  }

  void renameUpdatesEveryReference() {
    Spec spec = test::loadSpec(test::examplePath("slider_crank.rlx"));
    spec.motions.push_back(MotionSpec{});
    spec.motions.back().name = "follow";
    spec.motions.back().body = "slider";
    spec.motions.back().coordinate = "y";
    spec.motions.back().function = "0*crank.x + 0*crankx.y";
    const EditResult result = renameElement(spec, {ElementKind::Body, "crank"}, "arm");
    QVERIFY(result.spec);
    QCOMPARE(result.spec->motions.back().function, std::string("0*arm.x + 0*crankx.y"));
    for (const JointSpec& j : result.spec->joints) QVERIFY(j.body1 != "crank" && j.body2 != "crank");
    const EditResult clash = renameElement(spec, {ElementKind::Body, "crank"}, "slider");
    QVERIFY(!clash.spec);
    QVERIFY(QString::fromStdString(clash.diagnostics.front().text()).contains("already used"));
  }

  void refusedFieldsAreNamed() {
    const Spec spec = test::loadSpec(test::examplePath("four_bar.rlx"));
    const ElementId body{ElementKind::Body, spec.bodies.front().name};
    const EditResult bad = setElementField(spec, body, "position", Json::array({1, 2, 3}));
    QVERIFY(!bad.spec);
    const QString text = QString::fromStdString(bad.diagnostics.front().text());
    QVERIFY2(text.contains(QString::fromStdString(body.name)) && text.contains("position"), qPrintable(text));
  }

  // The reported crash (issue 17): four_bar.rlx, File > New, three bars drawn, four pins
  // clicked at their ends, then Undo four times with the last pin selected and the docks shown.
  // The Undo that removed the selected pin aborted in PropertiesDock::rebuild.
  void undoRemovesTheSelectedPinWithDocksShown() {
    QTemporaryDir dir;
    MainWindow window(dir.path() + "/recovery");
    QVERIFY(input::showActive(window));
    QVERIFY(window.openPath(QString::fromStdString(test::examplePath("four_bar.rlx"))));
    QVERIFY(input::clickToolButton(window, "new"));
    QTest::qWait(100);

    // The points of the report, in window pixels, as a person clicked them.
    Viewport* viewport = window.viewport();
    const QPoint A(518, 576), B(518, 461), C(806, 403), D(898, 576);
    const auto local = [&](QPoint p) { return viewport->mapFrom(&window, p); };
    for (QPoint p : {A, B, C, D}) QVERIFY(viewport->rect().contains(local(p)));
    QVERIFY(input::clickToolButton(window, "toolBar"));
    input::dragPixels(viewport, local(A), local(B));
    input::dragPixels(viewport, local(B), local(C));
    input::dragPixels(viewport, local(C), local(D));
    QCOMPARE(window.document()->spec().bodies.size(), std::size_t(3));
    QVERIFY(input::clickToolButton(window, "toolRevolute"));
    for (QPoint p : {A, B, C, D}) QTest::mouseClick(viewport, Qt::LeftButton, {}, local(p) + QPoint(2, -1));
    const ElementId* pin = window.selection()->single();
    QVERIFY(pin && pin->kind == ElementKind::Joint);
    QVERIFY(window.findChild<QDockWidget*>("propertiesDock")->isVisible());
    QVERIFY(window.modelTree()->isVisible());

    // Four Undos by the keyboard, each checked.
    QVERIFY(window.document()->undoStack()->index() >= 4);
    std::vector<Spec> seen;
    for (int k = 0; k < 4; ++k) {
      seen.push_back(window.document()->spec());
      input::typeKey(viewport, Qt::Key_Z, Qt::ControlModifier);
      QVERIFY(!(window.document()->spec() == seen.back()));
      verifySelectionExists(window);
    }
    // Redo all four, and the four undone states come back in order.
    for (int k = 3; k >= 0; --k) {
      input::typeKey(viewport, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
      QVERIFY(window.document()->spec() == seen[static_cast<std::size_t>(k)]);
      verifySelectionExists(window);
    }
  }

  // Renaming in the properties dock keeps the element selected; Undo and Redo take the
  // selection along to the old and new name.
  void renameKeepsTheSelection() {
    QTemporaryDir dir;
    MainWindow window(dir.path() + "/recovery");
    QVERIFY(input::showActive(window));
    QVERIFY(window.openPath(QString::fromStdString(test::examplePath("four_bar.rlx"))));
    const std::string old = window.document()->spec().bodies.front().name;
    window.selection()->set({{ElementKind::Body, old}});

    // Click the name's value, F2, type the new name, Return.
    QTableWidget* table = window.properties()->table();
    QCOMPARE(table->item(0, 0)->text(), QString("name"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(0, 1)).center());
    QTest::keyClick(table, Qt::Key_F2);
    QWidget* editor = QApplication::focusWidget();
    QVERIFY(editor && editor != table->viewport());
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, "arm");
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_VERIFY(window.selection()->single() && window.selection()->single()->name == "arm");
    verifySelectionExists(window);

    window.document()->undoStack()->undo();
    QVERIFY(window.selection()->single() && window.selection()->single()->name == old);
    verifySelectionExists(window);
    window.document()->undoStack()->redo();
    QVERIFY(window.selection()->single() && window.selection()->single()->name == "arm");
    verifySelectionExists(window);
  }

  // The selection holds only elements of the spec: names it does not have are never selected,
  // and a new or opened model starts with none.
  void selectionHoldsOnlyElementsOfTheSpec() {
    Document doc;
    Diagnostics diagnostics;
    QVERIFY(doc.open(QString::fromStdString(test::examplePath("four_bar.rlx")), diagnostics));
    const std::string body = doc.spec().bodies.front().name;
    doc.selection()->set({{ElementKind::Body, body}, {ElementKind::Joint, "no such"}, {ElementKind::Body, body}});
    QCOMPARE(doc.selection()->ids().size(), std::size_t(1));
    // Deleting it (an undoable edit) drops it before specChanged is heard.
    bool emptyWhenHeard = false;
    connect(&doc, &Document::specChanged, this, [&] { emptyWhenHeard = doc.selection()->isEmpty(); });
    pushEdit(&doc, removeElements(doc.spec(), {{ElementKind::Body, body}}), "delete");
    QVERIFY(emptyWhenHeard);
    doc.undoStack()->undo();
    doc.selection()->set({{ElementKind::Body, body}});
    doc.newModel();
    QVERIFY(doc.selection()->isEmpty());
  }
};

QTEST_MAIN(TestUndo)
#include "tst_undo.moc"
