// The main window's editing: delete with dependents, the element dialogs, the analysis settings.

#include "main_window.h"

#include "document/commands.h"
#include "docks/element_dialog.h"
#include "run/analysis_dialog.h"

#include <QMessageBox>

namespace rlx::ui {

void MainWindow::deleteSelection() {
  if (selection_.isEmpty()) return;
  const Spec& spec = document_.spec();
  const std::vector<ElementId> removed = withDependents(spec, selection_.ids());
  if (removed.size() > selection_.ids().size()) {
    QStringList names;
    for (const ElementId& id : removed)
      names << QStringLiteral("%1 %2").arg(elementKindName(id.kind), QString::fromStdString(id.name));
    const auto answer = QMessageBox::question(
        this, tr("Delete"),
        tr("Deleting the selection also deletes the elements that depend on it:\n\n%1\n\nDelete them all?")
            .arg(names.join("\n")),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) return;
  }
  pushEdit(&document_, removeElements(spec, selection_.ids()),
           removed.size() == 1 ? tr("Delete %1").arg(QString::fromStdString(removed.front().name))
                               : tr("Delete %1 elements").arg(removed.size()));
}

void MainWindow::addElementDialog(ElementKind kind, const nlohmann::ordered_json& object,
                                  const QString& title) {
  ElementDialog dialog(&document_, kind, object, title, this);
  if (dialog.exec() == QDialog::Accepted) selection_.set({{kind, dialog.addedName().toStdString()}});
}

void MainWindow::editAnalysis() {
  const Spec& spec = document_.spec();
  AnalysisDialog dialog(spec.analysis.value_or(AnalysisSpec{}), this);
  if (dialog.exec() != QDialog::Accepted) return;
  pushEdit(&document_, withAnalysis(spec, dialog.analysis()), tr("Change analysis settings"));
}

}  // namespace rlx::ui
