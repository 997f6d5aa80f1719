// reuleaux: the desktop application. `reuleaux [MODEL]` opens a model file (.rlx or simEngine2D);
// without one it starts with an empty model and offers back unsaved work left by a crash.

#include "main_window.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char* argv[]) {
  // VTK renders with OpenGL 3.2 core inside the Qt widgets: the format must be set first.
  rlx::ui::Viewport::setDefaultSurfaceFormat();

  QApplication app(argc, argv);
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
  window.show();
  window.offerRecovery();
  if (!parser.positionalArguments().isEmpty()) window.openPath(parser.positionalArguments().front());
  return app.exec();
}
