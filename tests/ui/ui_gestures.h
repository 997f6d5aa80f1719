#pragma once
// What a user does in the main window, as real input events, for the building tests: clicks on
// toolbar buttons, drags and clicks in the viewport, typing into the modal dialogs (the motion,
// the analysis, the file dialog), choosing a channel to plot.

#include "docks/element_dialog.h"
#include "docks/properties_dock.h"
#include "io/model_file.h"
#include "main_window.h"
#include "plot/channel_tree.h"
#include "plot/plot_panel.h"
#include "run/analysis_dialog.h"
#include "ui_input.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <functional>

namespace rlx::ui::gestures {

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
inline void type(QLineEdit* edit, const QString& text) {
  QVERIFY(edit);
  edit->setFocus();
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
}

inline void clickOk(QWidget* dialog) {
  auto* box = dialog->findChild<QDialogButtonBox*>();
  QVERIFY(box);
  QTest::mouseClick(box->button(QDialogButtonBox::Ok), Qt::LeftButton);
}

// Whether a form shows a visible message containing `text` (why it was not accepted).
inline bool formExplains(QWidget* dialog, const QString& text) {
  for (QLabel* label : dialog->findChildren<QLabel*>())
    if (label->isVisible() && label->text().contains(text)) return true;
  return false;
}

// Whether the properties dock shows a field of that name.
inline bool propertiesShow(MainWindow& window, const QString& field) {
  QTableWidget* table = window.properties()->table();
  for (int row = 0; row < table->rowCount(); ++row)
    if (table->item(row, 0) && table->item(row, 0)->text() == field) return true;
  return false;
}

// Opens the Model menu by clicking its title and clicks the action's item.
inline void chooseFromModelMenu(MainWindow& window, const char* name) {
  QMenuBar* bar = window.menuBar();
  auto* menu = window.findChild<QMenu*>("modelMenu");
  QVERIFY(menu);
  QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(menu->menuAction()).center());
  QTRY_VERIFY(menu->isVisible());
  QAction* action = window.action(name);
  QVERIFY(action && action->isEnabled());
  const QRect item = menu->actionGeometry(action);
  QVERIFY(!item.isEmpty());
  QTest::mouseMove(menu, item.center());
  QTest::mouseClick(menu, Qt::LeftButton, {}, item.center());
}

// Clicks the toolbar button of an action.
inline void clickAction(MainWindow& window, const char* name) {
  QVERIFY2(input::clickToolButton(window, name), qPrintable(QString("no toolbar button for ") + name));
}

// A motion on a joint through the Add Motion dialog.
inline void addMotion(MainWindow& window, const QString& joint, const QString& function) {
  onNextModal<ElementDialog>([joint, function](QWidget* dialog) {
    auto* d = qobject_cast<ElementDialog*>(dialog);
    QVERIFY(d);
    type(d->field("joint"), joint);
    type(d->field("function"), function);
    clickOk(d);
  });
  window.action("addMotion")->trigger();
}

// Kinematics over `endTime` in steps of `step`, through the analysis dialog.
inline void setKinematics(MainWindow& window, const QString& endTime, const QString& step) {
  onNextModal<AnalysisDialog>([endTime, step](QWidget* dialog) {
    auto* d = qobject_cast<AnalysisDialog*>(dialog);
    QVERIFY(d);
    d->typeBox()->setCurrentText("kinematics");
    type(d->endTimeEdit(), endTime);
    type(d->stepEdit(), step);
    clickOk(d);
  });
  clickAction(window, "analysis");
}

// Picks a body's channel in the channel tree and presses Enter: it is plotted.
inline void plotChannel(MainWindow& window, const QString& body, const QString& channel) {
  ChannelTree* tree = window.plots()->channelTree();
  QTreeWidgetItem* item = nullptr;
  for (QTreeWidgetItem* found : tree->findItems(channel, Qt::MatchExactly | Qt::MatchRecursive))
    if (found->parent() && found->parent()->text(0) == body) item = found;
  QVERIFY2(item, qPrintable(body + "." + channel));
  tree->setFocus();
  tree->setCurrentItem(item);
  QTest::keyClick(tree, Qt::Key_Return);
}

// Saves through the file dialog of File > Save.
inline void saveThroughDialog(MainWindow& window, const QString& path) {
  onNextModal<QFileDialog>([path](QWidget* dialog) {
    auto* d = qobject_cast<QFileDialog*>(dialog);
    QVERIFY(d);
    // The dialog fills in its default name once its folder has loaded, which may be after
    // the user typed: type the name again until the dialog takes it.
    auto* retry = new QTimer(d);
    QObject::connect(retry, &QTimer::timeout, [d, path] {
      auto* name = d->findChild<QLineEdit*>("fileNameEdit");
      type(name, path);
      QTest::keyClick(name, Qt::Key_Return);
    });
    retry->start(300);
  });
  window.action("save")->trigger();
}

// Whether a saved model equals a reference file, read the same way; prints it when not.
inline bool sameModel(const QString& saved, const std::string& reference) {
  const LoadResult built = loadModelFile(saved.toStdString());
  const LoadResult expected = loadModelFile(reference);
  if (!built.spec) return false;
  const bool same = expected.spec && *built.spec == *expected.spec;
  if (!same) qWarning("the saved model:\n%s", writeRlx(*built.spec).c_str());
  return same;
}

}  // namespace rlx::ui::gestures
