// reuleaux: the desktop application. `reuleaux [MODEL]` opens a model file (.rlx or simEngine2D);
// without one it starts with an empty model and offers back unsaved work left by a crash.

#include "main_window.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QPointer>

#include <exception>

namespace {

// The last resort: an exception that escapes an event handler would abort the program and lose
// the work. It is reported instead, the work is written to the recovery folder, and the program
// goes on. (Every known cause is fixed where it arises; this catches the unknown ones.)
class GuardedApplication : public QApplication {
 public:
  using QApplication::QApplication;

  void setWindow(rlx::ui::MainWindow* window) { window_ = window; }

  bool notify(QObject* receiver, QEvent* event) override {
    try {
      return QApplication::notify(receiver, event);
    } catch (const std::exception& error) {
      report(QString::fromLocal8Bit(error.what()));
    } catch (...) {
      report(QStringLiteral("unknown exception"));
    }
    return false;
  }

 private:
  void report(const QString& what) {
    qCritical("reuleaux: internal error caught in the event loop: %s", qPrintable(what));
    if (!window_) return;
    window_->autosave()->saveNow();
    // Shown once the failed event has unwound, never inside it.
    QMetaObject::invokeMethod(
        window_,
        [window = window_, what] {
          auto* box = new QMessageBox(
              QMessageBox::Critical, QObject::tr("Internal Error"),
              QObject::tr("Reuleaux ran into an internal error and skipped the action that caused it:\n\n"
                          "%1\n\nYour model is kept (and saved for recovery). Please save your work and "
                          "report this error.")
                  .arg(what),
              QMessageBox::Ok, window);
          box->setAttribute(Qt::WA_DeleteOnClose);
          box->show();
        },
        Qt::QueuedConnection);
  }

  QPointer<rlx::ui::MainWindow> window_;
};

}  // namespace

int main(int argc, char* argv[]) {
  // VTK renders with OpenGL 3.2 core inside the Qt widgets: the format must be set first.
  rlx::ui::Viewport::setDefaultSurfaceFormat();

  GuardedApplication app(argc, argv);
  QApplication::setApplicationName("Reuleaux");
  QApplication::setOrganizationName("Reuleaux");
  QApplication::setApplicationVersion(REULEAUX_VERSION);
  QApplication::setWindowIcon(QIcon(":/icons/reuleaux.svg"));

  QCommandLineParser parser;
  parser.setApplicationDescription("Mechanism modeler and simulator");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("model", "A model file to open (.rlx or simEngine2D .adm).");
  parser.process(app);

  rlx::ui::MainWindow window;
  app.setWindow(&window);
  window.show();
  window.offerRecovery();
  if (!parser.positionalArguments().isEmpty()) window.openPath(parser.positionalArguments().front());
  return app.exec();
}
