#include "docks/diagnostics_dock.h"

#include "run/simulation.h"

#include <QStyle>

#include <algorithm>

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
  for (const RunLine& line : runLines_) n += line.level == Level::Error;
  return n;
}

void DiagnosticsDock::showRun(const Run& run) {
  runLines_.clear();
  const Results& results = run.results;
  auto names = [](const std::vector<std::string>& list) {
    QStringList out;
    for (const std::string& s : list) out << QString::fromStdString(s);
    return out;
  };
  if (!results.report.ok())
    runLines_.append({QString::fromStdString(results.report.message),
                      results.report.status != SolveStatus::Cancelled ? Level::Error : Level::Warning,
                      names(results.report.elements)});
  for (const std::string& note : equilibriumNotes(results))
    runLines_.append({QString::fromStdString(note), Level::Warning, {}});
  if (const std::string note = floorNote(results.stats); !note.empty())
    runLines_.append({QString::fromStdString(note), Level::Information, {}});
  for (const RedundantEquation& r : results.redundancy.redundant)
    runLines_.append({tr("redundant constraint equation %1: dropped; the reactions of %2 are not unique")
                          .arg(QString::fromStdString(r.equation), QString::fromStdString(r.element)),
                      Level::Warning, {QString::fromStdString(r.element)}});
  // End stops: the first impacts one by one, then how many more.
  constexpr std::size_t kImpactsListed = 20;
  for (std::size_t i = 0; i < std::min(results.impacts.size(), kImpactsListed); ++i) {
    const Impact& impact = results.impacts[i];
    runLines_.append({QString::fromStdString(impactNote(*run.model, impact)), Level::Information,
                      {QString::fromStdString(run.model->forces[static_cast<std::size_t>(impact.force)].name)}});
  }
  if (results.impacts.size() > kImpactsListed) {
    double lost = 0;
    for (std::size_t i = kImpactsListed; i < results.impacts.size(); ++i) lost += results.impacts[i].energyLost;
    runLines_.append({tr("%1 more impacts of end stops, %2 J lost in them (the summary lists them all)")
                          .arg(results.impacts.size() - kImpactsListed)
                          .arg(lost, 0, 'g', 4),
                      Level::Information, {}});
  }
  rebuild();
}

void DiagnosticsDock::add(const QString& text, Level level, const QStringList& elements) {
  const QStyle::StandardPixmap icon = level == Level::Error     ? QStyle::SP_MessageBoxCritical
                                      : level == Level::Warning ? QStyle::SP_MessageBoxWarning
                                                                : QStyle::SP_MessageBoxInformation;
  auto* item = new QListWidgetItem(style()->standardIcon(icon), text, this);
  item->setData(kElementsRole, elements);
  item->setToolTip(text);
}

void DiagnosticsDock::rebuild() {
  clear();
  for (const Diagnostic& d : document_->diagnostics()) {
    const QString name = elementNameOf(d.element);
    add(QString::fromStdString(d.text()), d.severity == Severity::Error ? Level::Error : Level::Warning,
        name.isEmpty() ? QStringList() : QStringList{name});
  }
  for (const RunLine& line : runLines_) add(line.text, line.level, line.elements);
}

}  // namespace rlx::ui
