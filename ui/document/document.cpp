#include "document/document.h"

#include "io/model_file.h"

#include <QFileInfo>

namespace rlx::ui {

Document::Document(QObject* parent) : QObject(parent) {
  newModel();
}

QString Document::displayName() const {
  if (!path_.isEmpty()) return QFileInfo(path_).fileName();
  if (!spec_.name.empty()) return QString::fromStdString(spec_.name);
  return tr("Untitled");
}

void Document::newModel(int dimension) {
  Spec spec;
  spec.dimension = dimension;
  path_.clear();
  reset(std::move(spec));
}

bool Document::open(const QString& path, Diagnostics& diagnostics, AdamsImport adams) {
  LoadResult loaded = loadModelFile(path.toStdString(), {}, adams);
  diagnostics = loaded.diagnostics;
  if (!loaded.spec) return false;
  path_ = QFileInfo(path).suffix() == "rlx" ? QFileInfo(path).absoluteFilePath() : QString();
  reset(std::move(*loaded.spec));
  return true;
}

void Document::reset(Spec spec) {
  // The undo stack's commands refer to the old spec: they go first, then the selection.
  undo_.clear();
  spec_ = std::move(spec);
  recompile();
  selection_.clear();
  emit filePathChanged(path_);
  emit documentReset();
  emit specChanged();
}

bool Document::saveAs(const QString& path, QString* error) {
  std::string message;
  if (!saveRlxFile(spec_, path.toStdString(), &message)) {
    if (error) *error = QString::fromStdString(message);
    return false;
  }
  path_ = QFileInfo(path).absoluteFilePath();
  undo_.setClean();
  emit filePathChanged(path_);
  return true;
}

void Document::setSpec(const Spec& spec, const Renames& renamed) {
  spec_ = spec;
  recompile();
  selection_.follow(renamed);
  emit specChanged();
}

void Document::recompile() { compiled_ = compile(spec_); }

}  // namespace rlx::ui
