#pragma once
// Real input for the GUI tests: mouse drags in pixels, toolbar clicks, shortcuts typed where the
// keyboard focus is.

#include "main_window.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QMouseEvent>
#include <QToolBar>
#include <QtTest>

namespace rlx::ui::input {

// Shows the window at 1600x1000 (the size of the reports) and makes it the active one, so that
// its shortcuts take keys; false when it does not show.
inline bool showActive(MainWindow& window) {
  window.viewport()->setMultiSamples(0);
  window.resize(1600, 1000);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window)) return false;
  window.activateWindow();
  return QTest::qWaitForWindowActive(&window);
}

// A left-button drag from `a` to `b` (widget pixels) in a few moves, as a hand makes it.
inline void dragPixels(QWidget* widget, QPoint a, QPoint b, int moves = 5) {
  QTest::mousePress(widget, Qt::LeftButton, {}, a);
  for (int k = 1; k <= moves; ++k) {
    const QPoint p = a + (b - a) * k / moves;
    QMouseEvent move(QEvent::MouseMove, p, widget->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
  }
  QTest::mouseRelease(widget, Qt::LeftButton, {}, b);
}

// Clicks the toolbar button of an action; false when it has none.
inline bool clickToolButton(MainWindow& window, const QString& name) {
  QAction* action = window.action(name);
  if (!action) return false;
  for (QToolBar* bar : window.findChildren<QToolBar*>())
    if (QWidget* button = bar->widgetForAction(action); button && button->isVisible()) {
      QTest::mouseClick(button, Qt::LeftButton);
      return true;
    }
  return false;
}

// Types a key (with modifiers) into the widget that has the keyboard focus, or `fallback`.
inline void typeKey(QWidget* fallback, Qt::Key key, Qt::KeyboardModifiers modifiers = {}) {
  QWidget* focus = QApplication::focusWidget();
  QTest::keyClick(focus ? focus : fallback, key, modifiers);
}

}  // namespace rlx::ui::input
