#pragma once
// The open model: its spec, the undo stack that every edit goes through, the file it came from,
// the compiled model with its diagnostics, and the selection. Docks and the viewport observe it
// and own no data. Every change of the spec brings the selection up to date first (removed
// elements leave it, renamed ones follow), then emits specChanged.

#include "document/selection.h"
#include "io/model_file.h"
#include "model/compile.h"
#include "model/spec.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <optional>

namespace rlx::ui {

class Document : public QObject {
  Q_OBJECT
 public:
  explicit Document(QObject* parent = nullptr);

  const Spec& spec() const { return spec_; }
  QUndoStack* undoStack() { return &undo_; }
  Selection* selection() { return &selection_; }

  // The compiled model of the current spec, or empty with the reasons in diagnostics().
  const std::optional<Model>& model() const { return compiled_.model; }
  const Diagnostics& diagnostics() const { return compiled_.diagnostics; }

  QString filePath() const { return path_; }
  QString displayName() const;  // file name, or the model name, or "Untitled"
  bool isModified() const { return !undo_.isClean(); }

  // Starts a new, empty planar (or spatial) model.
  void newModel(int dimension = 2);

  // Reads a model file (.rlx, simEngine2D or an Adams dataset; `adams` says what to do with what
  // a dataset holds that is not imported). On failure the document is unchanged and
  // `diagnostics` say why.
  bool open(const QString& path, Diagnostics& diagnostics, AdamsImport adams = AdamsImport::Strict);

  // Saves atomically as .rlx; marks the document clean. On failure sets *error.
  bool saveAs(const QString& path, QString* error);

  // Replaces the spec without an undo entry (commands call this; use a command to edit).
  // `renamed`: elements the change renamed, which stay selected under their new names.
  void setSpec(const Spec& spec, const Renames& renamed = {});

 signals:
  void specChanged();      // after every edit, undo and redo; model() is recompiled
  void documentReset();    // a new or opened model replaced everything
  void filePathChanged(const QString& path);

 private:
  void recompile();
  void reset(Spec spec);  // a new or opened model

  Spec spec_;
  Selection selection_{&spec_};
  CompileResult compiled_;
  QUndoStack undo_;
  QString path_;
};

}  // namespace rlx::ui
