// The main window's file handling: new, open, save, recent files, examples, crash recovery.

#include "main_window.h"

#include "document/commands.h"
#include "io/atomic_write.h"
#include "io/model_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

namespace rlx::ui {
namespace {

constexpr int kMaxRecent = 10;

QString diagnosticsText(const Diagnostics& diagnostics) {
  QStringList lines;
  for (const Diagnostic& d : diagnostics) lines << QString::fromStdString(d.text());
  return lines.join("\n");
}

}  // namespace

QString MainWindow::examplesFolder() {
  const QString fromEnvironment = qEnvironmentVariable("REULEAUX_EXAMPLES");
  if (!fromEnvironment.isEmpty()) return fromEnvironment;
  const QString installed = QCoreApplication::applicationDirPath() + "/../share/reuleaux/examples";
  if (QDir(installed).exists()) return QDir(installed).absolutePath();
  return REULEAUX_SOURCE_EXAMPLES;
}

bool MainWindow::maybeSave() {
  if (!document_.isModified()) return true;
  const auto answer = QMessageBox::warning(
      this, tr("Unsaved Changes"),
      tr("The model \"%1\" has unsaved changes. Save them?").arg(document_.displayName()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::newModel(int dimension) {
  if (!maybeSave()) return;
  simulation_.cancel();
  document_.newModel(dimension);
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Model"), QSettings().value("files/lastFolder", examplesFolder()).toString(),
      tr("Models (*.rlx *.adm);;Reuleaux models (*.rlx);;Adams datasets and simEngine2D models "
         "(*.adm);;All files (*)"));
  if (!path.isEmpty()) openPath(path);
}

// An Adams dataset refused only for what Reuleaux does not import (it reads when that is
// skipped): the user sees the list and may import the rest. Nothing when the file is not such a
// dataset; else whether it was imported.
std::optional<bool> MainWindow::offerToImportTheRest(const QString& path,
                                                     const Diagnostics& refused) {
  if (!loadModelFile(path.toStdString(), {}, AdamsImport::SkipUnsupported).spec)
    return std::nullopt;
  const auto items = [](std::size_t n) {
    return n == 1 ? tr("1 statement or argument") : tr("%1 statements or arguments").arg(n);
  };
  QStringList lines;
  for (const Diagnostic& d : refused)
    if (d.severity == Severity::Error) lines << QString::fromStdString(d.text());
  const QString what = items(static_cast<std::size_t>(lines.size()));
  QMessageBox box(
      QMessageBox::Question, tr("Open Model"),
      tr("\"%1\" holds %2 that Reuleaux does not import.").arg(QFileInfo(path).fileName(), what),
      QMessageBox::Cancel, this);
  box.setInformativeText(
      lines.join("\n") + "\n\n" +
      tr("Imported without them, the model may move differently than in Adams."));
  box.addButton(tr("Import the Rest"), QMessageBox::AcceptRole)->setObjectName("importTheRest");
  box.setObjectName("unsupportedBox");
  box.exec();
  if (box.buttonRole(box.clickedButton()) != QMessageBox::AcceptRole) return false;
  Diagnostics skipped;
  if (!document_.open(path, skipped, AdamsImport::SkipUnsupported)) return false;
  status_->setText(tr("Opened %1 without the %2 it holds that Reuleaux does not import")
                       .arg(QFileInfo(path).fileName(), what));
  return true;
}

bool MainWindow::openPath(const QString& path) {
  Diagnostics diagnostics;
  if (!document_.open(path, diagnostics)) {
    if (const std::optional<bool> imported = offerToImportTheRest(path, diagnostics)) {
      if (!*imported) return false;
      QSettings().setValue("files/lastFolder", QFileInfo(path).absolutePath());
      addRecent(QFileInfo(path).absoluteFilePath());
      return true;
    }
    QMessageBox box(QMessageBox::Critical, tr("Open Model"),
                    tr("\"%1\" could not be opened.").arg(QFileInfo(path).fileName()),
                    QMessageBox::Ok, this);
    box.setDetailedText(diagnosticsText(diagnostics));
    box.setInformativeText(diagnostics.empty() ? QString()
                                               : QString::fromStdString(diagnostics.front().text()));
    box.setObjectName("openErrorBox");
    box.exec();
    return false;
  }
  QSettings().setValue("files/lastFolder", QFileInfo(path).absolutePath());
  addRecent(QFileInfo(path).absoluteFilePath());
  status_->setText(tr("Opened %1").arg(QFileInfo(path).fileName()));
  return true;
}

// File > Export > Adams Dataset…: the model as an Adams/Solver dataset (io/adams_writer.cpp),
// written atomically. A model with an element Adams has no statement for is not written: the box
// names each, before any file is asked for. The document stays as it was.
void MainWindow::exportAdams() {
  const AdamsWriteResult dataset = writeAdams(document_.spec());
  if (!dataset.text) {
    QStringList lines;
    for (const Diagnostic& d : dataset.diagnostics)
      if (d.severity == Severity::Error) lines << QString::fromStdString(d.text());
    QMessageBox box(
        QMessageBox::Warning, tr("Export Adams Dataset"),
        tr("\"%1\" cannot be written as an Adams dataset.").arg(document_.displayName()),
        QMessageBox::Ok, this);
    box.setInformativeText(lines.join("\n"));
    box.setObjectName("exportAdamsErrorBox");
    box.exec();
    return;
  }
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export Adams Dataset"),
      QSettings().value("files/lastFolder", QDir::homePath()).toString() + "/" +
          QFileInfo(document_.displayName()).completeBaseName() + ".adm",
      tr("Adams/Solver datasets (*.adm)"));
  if (path.isEmpty()) return;
  if (!path.endsWith(".adm")) path += ".adm";
  std::string error;
  if (!writeFileAtomically(path.toStdString(), *dataset.text, &error)) {
    status_->setText(tr("%1 was not exported").arg(QFileInfo(path).fileName()));
    QMessageBox box(QMessageBox::Critical, tr("Export Adams Dataset"),
                    tr("\"%1\" was not written.").arg(QFileInfo(path).fileName()), QMessageBox::Ok,
                    this);
    box.setInformativeText(QString::fromStdString(error));
    box.setObjectName("exportAdamsErrorBox");
    box.exec();
    return;
  }
  QString done = tr("Exported %1 as the Adams dataset %2")
                     .arg(document_.displayName(), QFileInfo(path).fileName());
  for (const Diagnostic& d : dataset.diagnostics)  // the writer's notes (Adams' angle range)
    if (d.severity == Severity::Warning) {
      done += " (" + QString::fromStdString(d.text()) + ")";
      break;
    }
  status_->setText(done);
}

bool MainWindow::save() {
  if (document_.filePath().isEmpty()) return saveAsDialog();
  return savePath(document_.filePath());
}

bool MainWindow::saveAsDialog() {
  QString path = QFileDialog::getSaveFileName(
      this, tr("Save Model As"),
      QSettings().value("files/lastFolder", QDir::homePath()).toString() + "/" +
          QFileInfo(document_.displayName()).completeBaseName() + ".rlx",
      tr("Reuleaux models (*.rlx)"));
  if (path.isEmpty()) return false;
  if (!path.endsWith(".rlx")) path += ".rlx";
  return savePath(path);
}

bool MainWindow::savePath(const QString& path) {
  QString error;
  if (!document_.saveAs(path, &error)) {
    // The edits stay open and unsaved; the message says whether the previous file is kept.
    const QString name = QFileInfo(path).fileName();
    status_->setText(tr("%1 was not saved").arg(name));
    QMessageBox box(QMessageBox::Critical, tr("Save Model"),
                    tr("\"%1\" was not saved. Your edits are still open.").arg(name),
                    QMessageBox::Ok, this);
    box.setInformativeText(error);
    box.setObjectName("saveErrorBox");
    box.exec();
    return false;
  }
  addRecent(document_.filePath());
  status_->setText(tr("Saved %1").arg(QFileInfo(path).fileName()));
  return true;
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("files/recent").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue("files/recent", recent);
}

void MainWindow::fillRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value("files/recent").toStringList();
  for (const QString& path : recent) {
    QAction* a = recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] {
      if (maybeSave()) openPath(path);
    });
    a->setToolTip(path);
    a->setEnabled(QFileInfo::exists(path));
  }
  if (recent.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
}

void MainWindow::fillExamplesMenu() {
  examplesMenu_->clear();
  examplesMenu_->setToolTipsVisible(true);
  const QFileInfoList files = QDir(examplesFolder()).entryInfoList({"*.rlx"}, QDir::Files, QDir::Name);
  for (const QFileInfo& info : files) {
    const QString path = info.absoluteFilePath();
    const LoadResult loaded = loadModelFile(path.toStdString());
    const QString title = loaded.spec && !loaded.spec->name.empty()
                              ? QString::fromStdString(loaded.spec->name)
                              : info.completeBaseName();
    QAction* a = examplesMenu_->addAction(title, this, [this, path] {
      if (maybeSave()) openPath(path);
    });
    // The model's description as tooltip (rich text, so that it wraps) and status tip.
    const QString description =
        loaded.spec ? QString::fromStdString(loaded.spec->description) : QString();
    if (description.isEmpty()) {
      a->setToolTip(path);
      continue;
    }
    a->setStatusTip(description);
    a->setToolTip(QString("<p>%1</p><p><i>%2</i></p>")
                      .arg(description.toHtmlEscaped(), path.toHtmlEscaped()));
  }
  if (files.isEmpty()) examplesMenu_->addAction(tr("(no examples found)"))->setEnabled(false);
}

void MainWindow::offerRecovery(bool ask) {
  const std::vector<Recovery> left = Autosave::leftBehind(QFileInfo(autosave_->recoveryPath()).absolutePath());
  for (const Recovery& recovery : left) {
    const QString what = recovery.originalPath.isEmpty() ? tr("an unsaved model")
                                                         : QFileInfo(recovery.originalPath).fileName();
    if (ask) {
      const auto answer = QMessageBox::question(
          this, tr("Recover Unsaved Work"),
          tr("Reuleaux did not close normally. Unsaved changes to %1 from %2 were kept. Recover them?")
              .arg(what, QLocale().toString(recovery.time, QLocale::ShortFormat)),
          QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
      if (answer != QMessageBox::Yes) {
        Autosave::discard(recovery);
        continue;
      }
    }
    const LoadResult recovered = loadModelFile(recovery.modelPath.toStdString());
    if (!recovered.spec) continue;
    // Open the original (or start empty), then apply the recovered edits as one undoable step,
    // so that the document is modified and Save writes them where they belong.
    Diagnostics diagnostics;
    if (recovery.originalPath.isEmpty() || !document_.open(recovery.originalPath, diagnostics))
      document_.newModel(recovered.spec->dimension);
    pushEdit(&document_, *recovered.spec, tr("Recovered changes"));
    Autosave::discard(recovery);
    status_->setText(tr("Recovered unsaved changes to %1").arg(what));
    return;  // one document per window: the newest recovery
  }
}

}  // namespace rlx::ui
