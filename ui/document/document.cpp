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
  spec_ = spec;
  undo_.clear();
  path_.clear();
  recompile();
  emit filePathChanged(path_);
  emit documentReset();
  emit specChanged();
}

bool Document::open(const QString& path, Diagnostics& diagnostics) {
  LoadResult loaded = loadModelFile(path.toStdString());
  diagnostics = loaded.diagnostics;
  if (!loaded.spec) return false;
  spec_ = std::move(*loaded.spec);
  undo_.clear();
  path_ = QFileInfo(path).suffix() == "rlx" ? QFileInfo(path).absoluteFilePath() : QString();
  recompile();
  emit filePathChanged(path_);
  emit documentReset();
  emit specChanged();
  return true;
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

void Document::setSpec(const Spec& spec) {
  spec_ = spec;
  recompile();
  emit specChanged();
}

void Document::recompile() { compiled_ = compile(spec_); }

}  // namespace rlx::ui
