// The monkey: thousands of random real input events on the main window — clicks and drags in the
// viewport with every tool, tool keys, toolbar and menu actions, undo/redo storms, Delete,
// Escape, runs and cancels, play, timeline scrubbing, clicks and renames in the model tree,
// channel picks in the plots, property edits with valid and invalid text — on every example and
// on empty planar and spatial models, for fixed seeds. Modal dialogs are answered at random.
// After each event: the spec writes and reads back equal and every selected element exists;
// every kRoundTripEvery events, undoing everything returns the opened spec and redoing returns
// the current one. A crash names its model, seed and event (stderr, "monkey:" lines).
//
// REULEAUX_MONKEY_EVENTS sets the events per model and seed (default 150),
// REULEAUX_MONKEY_SEEDS the number of seeds (default 3), REULEAUX_MONKEY_SEED one seed alone,
// REULEAUX_MONKEY_LOG=1 logs every event.

#include "docks/model_tree.h"
#include "docks/properties_dock.h"
#include "io/model_file.h"
#include "main_window.h"
#include "plot/channel_tree.h"
#include "plot/plot_panel.h"
#include "test_support.h"
#include "timeline/timeline.h"
#include "ui_input.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSlider>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <deque>

using namespace rlx;
using namespace rlx::ui;

namespace {

constexpr int kRoundTripEvery = 50;

int environmentNumber(const char* name, int fallback) {
  bool ok = false;
  const int value = qEnvironmentVariableIntValue(name, &ok);
  return ok && value > 0 ? value : fallback;
}

// Text typed into a property cell: values a field takes, and values it must refuse.
const QStringList kCellTexts{"1",     "0.25",      "-0.3",   "[0.1, 0.2]", "[0, 0, 1]", "2*pi*t", "30*deg",
                             "",      "abc(",      "[1,2,3", "{",          "nan",       "1e400",  "-1",
                             "\"x\"", "bar1",      "ground", "r7",         "[]",        "0",      "hold",
                             "true",  "sin(t)*2", "  12  ",  "pin1",       "[1e9, 2]"};

// Answers every modal dialog while the monkey runs: message boxes get a random button, element,
// analysis and input dialogs are accepted or cancelled at random, everything else (file dialogs,
// exports) is cancelled so that nothing is written outside the test's folder. A dialog that
// stays open (a refused entry) is cancelled on the next look.
class ModalAnswerer : public QObject {
 public:
  explicit ModalAnswerer(quint32 seed) : random_(seed) {
    timer_.setInterval(15);
    // The answer runs after the timer's slot has returned: a dialog that the answer opens (Save
    // in "Unsaved Changes" opens a file dialog) would otherwise wait for a timer that cannot
    // fire again inside its own slot, and hang the test.
    connect(&timer_, &QTimer::timeout, this, [this] { QMetaObject::invokeMethod(this, &ModalAnswerer::look, Qt::QueuedConnection); });
    timer_.start();
  }
  int answered() const { return answered_; }

 private:
  void look() {
    if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
    auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
    if (!dialog || !dialog->isVisible()) return;
    ++answered_;
    if (dialog == last_) {  // still open: cancel it
      dialog->done(QDialog::Rejected);
      return;
    }
    last_ = dialog;
    if (auto* box = qobject_cast<QMessageBox*>(dialog)) {
      const QList<QAbstractButton*> buttons = box->buttons();
      if (!buttons.isEmpty()) {
        QTest::mouseClick(buttons[random_.bounded(static_cast<int>(buttons.size()))], Qt::LeftButton);
        return;
      }
    }
    const bool acceptable = !qobject_cast<QFileDialog*>(dialog) &&
                            (dialog->inherits("rlx::ui::ElementDialog") ||
                             dialog->inherits("rlx::ui::AnalysisDialog") || dialog->inherits("QInputDialog"));
    auto* buttons = dialog->findChild<QDialogButtonBox*>();
    QAbstractButton* ok = buttons ? buttons->button(QDialogButtonBox::Ok) : nullptr;
    if (acceptable && ok && random_.bounded(2))
      QTest::mouseClick(ok, Qt::LeftButton);
    else
      dialog->done(QDialog::Rejected);
  }

  QRandomGenerator random_;
  QTimer timer_;
  QPointer<QDialog> last_;
  int answered_ = 0;
};

class Monkey {
 public:
  Monkey(MainWindow& window, quint32 seed) : window_(window), random_(seed) {
    QObject::connect(window_.document(), &Document::documentReset, &window_,
                     [this] { opened_ = window_.document()->spec(); });
    opened_ = window_.document()->spec();
  }

  // One random event; returns what it did.
  QString event() {
    const int roll = random_.bounded(100);
    if (roll < 18) return clickViewport();
    if (roll < 36) return dragViewport();
    if (roll < 46) return toolKey();
    if (roll < 54) return undoStorm();
    if (roll < 57) return key(Qt::Key_Delete, "Delete");
    if (roll < 60) return key(Qt::Key_Escape, "Escape");
    if (roll < 62) return run();
    if (roll < 64) return key(Qt::Key_Space, "Space");
    if (roll < 66) return key(Qt::Key_Return, "Return");
    if (roll < 71) return scrub();
    if (roll < 78) return clickTree();
    if (roll < 86) return editProperty();
    if (roll < 91) return toolbarButton();
    if (roll < 96) return menuAction();
    if (roll < 98) return pickChannel();
    return wheel();
  }

  // The invariants after an event; an empty string when they hold.
  QString check() {
    Document* document = window_.document();
    const Spec& spec = document->spec();
    const LoadResult reread = readRlx(writeRlx(spec), "monkey");
    if (!reread.spec) return "the spec does not read back: " + QString::fromStdString(reread.diagnostics.front().text());
    if (!(*reread.spec == spec)) return "the spec reads back different";
    for (const ElementId& id : window_.selection()->ids())
      if (!contains(spec, id)) return "the selection names a missing element " + QString::fromStdString(id.name);
    return {};
  }

  // Undo everything (the opened spec must come back), redo everything, return to where it was.
  QString checkRoundTrip() {
    Document* document = window_.document();
    QUndoStack* stack = document->undoStack();
    const Spec now = document->spec();
    const int index = stack->index();
    stack->setIndex(0);
    if (!(document->spec() == opened_)) return "undo-all does not return the opened spec";
    stack->setIndex(stack->count());
    stack->setIndex(index);
    if (!(document->spec() == now)) return "undo-all, redo-all does not return the spec";
    return {};
  }

  // Ends a run still going (none should be: each run event waits for its end).
  void settle() {
    if (!window_.simulation()->isRunning()) return;
    window_.simulation()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!window_.simulation()->isRunning(), 30000);
  }

 private:
  QPoint somewhere(QWidget* widget) {
    return {random_.bounded(std::max(1, widget->width())), random_.bounded(std::max(1, widget->height()))};
  }
  // Near the middle, where models are drawn, more often than at the edges.
  QPoint inViewport() {
    Viewport* v = window_.viewport();
    if (random_.bounded(3) == 0) return somewhere(v);
    const QPoint centre = v->rect().center();
    return centre + QPoint(random_.bounded(-v->width() / 4, v->width() / 4 + 1),
                           random_.bounded(-v->height() / 4, v->height() / 4 + 1));
  }
  // The cell editor an item view opened, if any.
  static QLineEdit* openEditor(QWidget* viewport) {
    for (QLineEdit* edit : viewport->findChildren<QLineEdit*>())
      if (edit->isVisible()) return edit;
    return nullptr;
  }
  Qt::KeyboardModifiers someModifier() {
    const int r = random_.bounded(8);
    return r == 0 ? Qt::ControlModifier : r == 1 ? Qt::ShiftModifier : Qt::NoModifier;
  }

  QString clickViewport() {
    const QPoint p = inViewport();
    const Qt::KeyboardModifiers modifiers = someModifier();
    QTest::mouseClick(window_.viewport(), Qt::LeftButton, modifiers, p);
    return QStringLiteral("click viewport %1,%2 mod %3").arg(p.x()).arg(p.y()).arg(modifiers.toInt());
  }

  QString dragViewport() {
    const QPoint a = inViewport();
    const QPoint b = random_.bounded(3) ? a + QPoint(random_.bounded(-150, 151), random_.bounded(-150, 151)) : inViewport();
    const Qt::MouseButton button = random_.bounded(6) == 0 ? Qt::RightButton : Qt::LeftButton;
    if (button == Qt::LeftButton) {
      input::dragPixels(window_.viewport(), a, b, 1 + random_.bounded(6));
    } else {
      QTest::mousePress(window_.viewport(), button, {}, a);
      QMouseEvent move(QEvent::MouseMove, b, window_.viewport()->mapToGlobal(b), Qt::NoButton, button, Qt::NoModifier);
      QApplication::sendEvent(window_.viewport(), &move);
      QTest::mouseRelease(window_.viewport(), button, {}, b);
    }
    return QStringLiteral("drag viewport %1,%2 -> %3,%4 button %5").arg(a.x()).arg(a.y()).arg(b.x()).arg(b.y()).arg(int(button));
  }

  QString toolKey() {
    static const Qt::Key keys[] = {Qt::Key_B, Qt::Key_X, Qt::Key_D, Qt::Key_R, Qt::Key_T, Qt::Key_K, Qt::Key_S, Qt::Key_F};
    const Qt::Key k = keys[random_.bounded(8)];
    window_.viewport()->setFocus();
    QTest::keyClick(window_.viewport(), k);
    return QStringLiteral("tool key %1").arg(QKeySequence(k).toString());
  }

  QString key(Qt::Key k, const QString& name) {
    // Mostly with the viewport focused, sometimes wherever the focus is.
    if (random_.bounded(3)) window_.viewport()->setFocus();
    input::typeKey(&window_, k);
    return "key " + name;
  }

  QString undoStorm() {
    const int n = 1 + random_.bounded(random_.bounded(4) ? 3 : 15);
    QString what;
    for (int i = 0; i < n; ++i) {
      const bool redo = random_.bounded(3) == 0;
      input::typeKey(&window_, Qt::Key_Z, redo ? Qt::ControlModifier | Qt::ShiftModifier : Qt::ControlModifier);
      what += redo ? "R" : "U";
    }
    return "undo/redo " + what;
  }

  // Ctrl+R, then either Shift+Escape at once or the end of the run (cancelled after 3 s).
  QString run() {
    const bool cancel = random_.bounded(2);
    window_.viewport()->setFocus();
    QTest::keyClick(window_.viewport(), Qt::Key_R, Qt::ControlModifier);
    if (cancel) QTest::keyClick(window_.viewport(), Qt::Key_Escape, Qt::ShiftModifier);
    QElapsedTimer clock;
    clock.start();
    while (window_.simulation()->isRunning() && clock.elapsed() < 3000) QTest::qWait(10);
    settle();
    QTest::qWait(1);  // the finished signal is queued
    return cancel ? "run and cancel" : "run";
  }

  QString scrub() {
    auto* slider = window_.timeline()->findChild<QSlider*>();
    if (!slider || !slider->isVisible()) return "scrub (no slider)";
    if (random_.bounded(2)) {
      const QPoint a = somewhere(slider), b = somewhere(slider);
      input::dragPixels(slider, a, b, 3);
      return QStringLiteral("scrub drag %1 -> %2").arg(a.x()).arg(b.x());
    }
    static const Qt::Key keys[] = {Qt::Key_Left, Qt::Key_Right, Qt::Key_Home, Qt::Key_End, Qt::Key_PageUp};
    const Qt::Key k = keys[random_.bounded(5)];
    slider->setFocus();
    QTest::keyClick(slider, k);
    return "scrub key " + QKeySequence(k).toString();
  }

  QString clickTree() {
    ModelTree* tree = window_.modelTree();
    if (!tree->isVisible()) return "tree (hidden)";
    std::vector<QTreeWidgetItem*> items;
    for (QTreeWidgetItemIterator it(tree); *it; ++it) items.push_back(*it);
    if (items.empty()) return "tree (empty)";
    QTreeWidgetItem* item = items[static_cast<std::size_t>(random_.bounded(static_cast<int>(items.size())))];
    tree->scrollToItem(item);
    const QPoint p = tree->visualItemRect(item).center();
    const int how = random_.bounded(6);
    if (how == 0) {
      QTest::mouseDClick(tree->viewport(), Qt::LeftButton, {}, p);
      return "tree double-click " + item->text(0);
    }
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, someModifier(), p);
    if (how == 1) {  // F2, a new name, Return
      QTest::keyClick(tree->viewport(), Qt::Key_F2);
      if (QLineEdit* editor = openEditor(tree->viewport())) {
        const QString text = kCellTexts[random_.bounded(static_cast<int>(kCellTexts.size()))];
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, text);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::qWait(1);  // the rename is queued
        return "tree rename " + item->text(0) + " to " + text;
      }
    }
    return "tree click " + item->text(0);
  }

  QString editProperty() {
    QTableWidget* table = window_.properties()->table();
    if (!table->isVisible() || table->rowCount() == 0) return "property (none)";
    const int row = random_.bounded(table->rowCount());
    QTableWidgetItem* cell = table->item(row, 1);
    if (!cell) return "property (no cell)";
    table->scrollToItem(cell);
    const QString field = table->item(row, 0) ? table->item(row, 0)->text() : QString();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(cell).center());
    QTest::keyClick(table, Qt::Key_F2);
    QLineEdit* editor = openEditor(table->viewport());
    if (!editor) return "property click " + field + " (no editor)";
    const QString text = kCellTexts[random_.bounded(static_cast<int>(kCellTexts.size()))];
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, random_.bounded(5) ? Qt::Key_Return : Qt::Key_Escape);
    QTest::qWait(1);  // the edit is queued
    return "property " + field + " = " + text;
  }

  QString toolbarButton() {
    static const char* names[] = {"new", "open", "save", "undo", "redo", "analysis", "run", "cancel",
                                  "toolSelect", "toolBar", "toolBox", "toolDisk", "toolRevolute",
                                  "toolTranslational", "toolSpring", "fit", "view3d"};
    const char* name = names[random_.bounded(17)];
    if (!input::clickToolButton(window_, name)) return QStringLiteral("toolbar %1 (no button)").arg(name);
    settle();
    return QStringLiteral("toolbar %1").arg(name);
  }

  // A menu's action, as chosen from the menu (triggered: an open menu would grab the input).
  QString menuAction() {
    std::vector<QAction*> actions;
    for (QMenu* menu : window_.findChildren<QMenu*>())
      for (QAction* a : menu->actions())
        if (!a->isSeparator() && !a->menu() && a->isEnabled() && a->objectName() != "quit") actions.push_back(a);
    if (actions.empty()) return "menu (none)";
    QAction* a = actions[static_cast<std::size_t>(random_.bounded(static_cast<int>(actions.size())))];
    a->trigger();
    settle();
    return "menu " + a->text();
  }

  QString pickChannel() {
    ChannelTree* tree = window_.plots()->channelTree();
    if (!tree || !tree->isVisible()) return "channel (hidden)";
    std::vector<QTreeWidgetItem*> items;
    for (QTreeWidgetItemIterator it(tree); *it; ++it) items.push_back(*it);
    if (items.empty()) return "channel (none)";
    QTreeWidgetItem* item = items[static_cast<std::size_t>(random_.bounded(static_cast<int>(items.size())))];
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    QTest::keyClick(tree, Qt::Key_Return);
    return "channel " + item->text(0);
  }

  QString wheel() {
    const QPoint p = inViewport();
    const int delta = random_.bounded(2) ? 120 : -120;
    QWheelEvent event(p, window_.viewport()->mapToGlobal(p), QPoint(), QPoint(0, delta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(window_.viewport(), &event);
    return QStringLiteral("wheel %1").arg(delta);
  }

  MainWindow& window_;
  QRandomGenerator random_;
  Spec opened_;  // the spec as opened or created: where undo-all must return
};

}  // namespace

class TestMonkey : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("ReuleauxMonkey");
    // The monkey saves: it works on copies of the examples.
    QVERIFY(dir_.isValid());
    for (const QFileInfo& info : QDir(QString::fromStdString(test::examplesDir())).entryInfoList({"*.rlx"}))
      QVERIFY(QFile::copy(info.absoluteFilePath(), dir_.filePath(info.fileName())));
    qputenv("REULEAUX_EXAMPLES", dir_.path().toLocal8Bit());  // File > Examples opens the copies
    clock_.start();
  }

  void randomEvents_data() {
    QTest::addColumn<QString>("start");
    QTest::addColumn<quint32>("seed");
    // REULEAUX_MONKEY_SEED picks one seed (CTest runs the seeds side by side), else 1..SEEDS.
    const int one = environmentNumber("REULEAUX_MONKEY_SEED", 0);
    const int first = one > 0 ? one : 1, last = one > 0 ? one : environmentNumber("REULEAUX_MONKEY_SEEDS", 3);
    QStringList starts{"empty-planar", "empty-spatial"};
    for (const QFileInfo& info : QDir(dir_.path()).entryInfoList({"*.rlx"}, QDir::Files, QDir::Name))
      starts << info.fileName();
    for (int s = first; s <= last; ++s)
      for (const QString& start : starts) QTest::addRow("%s/%d", qPrintable(start), s) << start << quint32(s);
  }

  void randomEvents() {
    QFETCH(QString, start);
    QFETCH(quint32, seed);
    const int count = environmentNumber("REULEAUX_MONKEY_EVENTS", 150);
    const bool log = qEnvironmentVariableIntValue("REULEAUX_MONKEY_LOG") != 0;
    fprintf(stderr, "monkey: %s seed %u, %d events\n", qPrintable(start), seed, count);

    QTemporaryDir recovery;
    MainWindow window(recovery.path());
    QVERIFY(input::showActive(window));
    if (start == "empty-spatial")
      window.action("new3d")->trigger();
    else if (start != "empty-planar")
      QVERIFY(window.openPath(dir_.filePath(start)));

    ModalAnswerer answerer(seed);
    Monkey monkey(window, seed);
    std::deque<QString> recent;
    for (int i = 1; i <= count; ++i) {
      // After a dialog, the person clicks back into the window.
      if (!window.isActiveWindow()) {
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
      }
      const QString what = monkey.event();
      ++events_;
      if (log) fprintf(stderr, "monkey: %s seed %u event %d: %s\n", qPrintable(start), seed, i, qPrintable(what));
      recent.push_back(what);
      if (recent.size() > 12) recent.pop_front();
      QString broken = monkey.check();
      if (broken.isEmpty() && i % kRoundTripEvery == 0) broken = monkey.checkRoundTrip();
      if (!broken.isEmpty()) {
        QStringList last(recent.begin(), recent.end());
        QFAIL(qPrintable(QStringLiteral("%1 seed %2 event %3: %4\nthe last events:\n  %5")
                             .arg(start).arg(seed).arg(i).arg(broken, last.join("\n  "))));
      }
    }
    monkey.settle();
    QVERIFY(monkey.checkRoundTrip().isEmpty());
    // Closing asks to save the changes: the answerer declines or saves into the copies.
    window.document()->undoStack()->setClean();
  }

  void cleanupTestCase() {
    const double seconds = clock_.elapsed() / 1000.0;
    fprintf(stderr, "monkey: %lld events in %.1f s, %.1f events/s\n", events_, seconds, events_ / seconds);
  }

 private:
  QTemporaryDir dir_;
  QElapsedTimer clock_;
  long long events_ = 0;
};

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
