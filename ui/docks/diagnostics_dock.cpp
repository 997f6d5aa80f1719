#include "docks/diagnostics_dock.h"

#include "run/simulation.h"

#include <QStyle>

namespace rlx::ui {
namespace {

constexpr int kElementsRole = Qt::UserRole;

}  // namespace

QString elementNameOf(const std::string& element) {
  const auto open = element.find('"');
  const auto close = element.rfind('"');
  if (open == std::string::npos || close <= open) return {};
  return QString::fromStdString(element.substr(open + 1, close - open - 1));
}

DiagnosticsDock::DiagnosticsDock(Document* document, Selection* selection, QWidget* parent)
    : QListWidget(parent), document_(document), selection_(selection) {
  setWordWrap(true);
  setAlternatingRowColors(true);
  connect(document_, &Document::specChanged, this, [this] {
    runLines_.clear();
    runElements_.clear();
    rebuild();
  });
  connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
    std::vector<ElementId> ids;
    for (const QString& name : item->data(kElementsRole).toStringList())
      for (const ElementId& id : elements(document_->spec()))
        if (id.name == name.toStdString()) ids.push_back(id);
    if (!ids.empty()) selection_->set(ids);
  });
  rebuild();
}

int DiagnosticsDock::errorCount() const {
  int n = 0;
  for (const Diagnostic& d : document_->diagnostics()) n += d.severity == Severity::Error;
  for (const auto& line : runLines_) n += line.second;
  return n;
}

void DiagnosticsDock::showRun(const Run& run) {
  runLines_.clear();
  runElements_.clear();
  const Results& results = run.results;
  auto names = [](const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& s : list) out << QString::fromStdString(s);
    return out;
  };
  if (!results.report.ok()) {
    runLines_.append({QString::fromStdString(results.report.message), results.report.status != SolveStatus::Cancelled});
    runElements_.append(names(results.report.elements));
  }
  for (const std::string& note : equilibriumNotes(results)) {
    runLines_.append({QString::fromStdString(note), false});
    runElements_.append(QStringList());
  }
  for (const RedundantEquation& r : results.redundancy.redundant) {
    runLines_.append({tr("redundant constraint equation %1: dropped; the reactions of %2 are not unique")
                          .arg(QString::fromStdString(r.equation), QString::fromStdString(r.element)),
                      false});
    runElements_.append({QString::fromStdString(r.element)});
  }
  rebuild();
}

void DiagnosticsDock::add(const QString& text, bool error, const QStringList& elements) {
  auto* item = new QListWidgetItem(
      style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning), text, this);
  item->setData(kElementsRole, elements);
  item->setToolTip(text);
}

void DiagnosticsDock::rebuild() {
  clear();
  for (const Diagnostic& d : document_->diagnostics()) {
    const QString name = elementNameOf(d.element);
    add(QString::fromStdString(d.text()), d.severity == Severity::Error,
        name.isEmpty() ? QStringList() : QStringList{name});
  }
  for (int i = 0; i < runLines_.size(); ++i) add(runLines_[i].first, runLines_[i].second, runElements_[i]);
}

}  // namespace rlx::ui
