#pragma once
// The main window: the viewport in the centre; docks for the model tree, properties,
// diagnostics, plots and undo history; the timeline below; menus and toolbars with the standard
// shortcuts. It wires the document, the selection, the simulation and the views together and
// turns the user's requests into undoable edits.

#include "document/autosave.h"
#include "document/document.h"
#include "document/selection.h"
#include "run/simulation.h"

#include <QMainWindow>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QUndoView;

namespace rlx::ui {

class DiagnosticsDock;
class ModelTree;
class PlotPanel;
class Viewport;
class PropertiesDock;
class Timeline;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // `recoveryFolder`: where autosaves go (empty: Autosave::defaultFolder()).
  explicit MainWindow(const QString& recoveryFolder = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  Document* document() { return &document_; }
  Selection* selection() { return document_.selection(); }
  Simulation* simulation() { return &simulation_; }
  Timeline* timeline() const { return timeline_; }
  PropertiesDock* properties() const { return properties_; }
  DiagnosticsDock* diagnostics() const { return diagnostics_; }
  ModelTree* modelTree() const { return tree_; }
  PlotPanel* plots() const { return plots_; }
  Viewport* viewport() const { return viewport_; }
  Autosave* autosave() const { return autosave_.get(); }
  // The runs kept for comparison, oldest first; the last is the one shown.
  const std::vector<std::shared_ptr<const Run>>& runs() const { return runs_; }
  QAction* action(const QString& objectName) const;

  // Opens a model file; on failure shows the diagnostics and keeps the current model.
  bool openPath(const QString& path);
  bool savePath(const QString& path);
  // Offers back the work of a crashed session, if any (asks first unless `ask` is false).
  void offerRecovery(bool ask = true);

  // Starts the model's analysis; the results arrive in runFinished.
  void runAnalysis();
  void showFrame(int index);

  static QString examplesFolder();

 signals:
  void runCompleted();  // after a run's results are shown

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  std::optional<bool> offerToImportTheRest(const QString& path, const Diagnostics& refused);
  void createActions();
  void createMenus();
  void createDocks();
  void createViewportActions();
  void connectViewport();
  void exportAnimation();
  void exportPlot();
  void exportAdams();
  void updateTitle();
  void updateActions();
  bool maybeSave();
  void newModel(int dimension);
  void openDialog();
  bool save();
  bool saveAsDialog();
  void addRecent(const QString& path);
  void fillRecentMenu();
  void fillExamplesMenu();
  void deleteSelection();
  void editAnalysis();
  void addElementDialog(ElementKind kind, const nlohmann::ordered_json& object, const QString& title);
  void runFinished(std::shared_ptr<const Run> run);
  void about();

  Document document_;
  Selection& selection_ = *document_.selection();  // the document keeps it true to the spec
  Simulation simulation_;
  std::unique_ptr<Autosave> autosave_;
  std::vector<std::shared_ptr<const Run>> runs_;

  Timeline* timeline_ = nullptr;
  ModelTree* tree_ = nullptr;
  PropertiesDock* properties_ = nullptr;
  DiagnosticsDock* diagnostics_ = nullptr;
  PlotPanel* plots_ = nullptr;
  Viewport* viewport_ = nullptr;
  int dragCount_ = 0;  // each drag is its own undo step
  double reactionScale_ = 0.01;  // m/N
  QUndoView* undoView_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* examplesMenu_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QAction *runAction_ = nullptr, *cancelAction_ = nullptr;
};

}  // namespace rlx::ui
