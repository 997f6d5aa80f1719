#pragma once
// The diagnostics dock: what the compiler says about the model, and how the last run ended
// (failures, redundant constraints, non-unique reactions), each line naming its elements.
// Clicking a line selects them.

#include "document/document.h"
#include "document/selection.h"
#include "results/report.h"

#include <QListWidget>

namespace rlx::ui {

struct Run;

class DiagnosticsDock : public QListWidget {
  Q_OBJECT
 public:
  DiagnosticsDock(Document* document, Selection* selection, QWidget* parent = nullptr);

  // Shows how a run ended, below the model's diagnostics, until the model changes.
  void showRun(const Run& run);
  int errorCount() const;

 private:
  void rebuild();
  void add(const QString& text, bool error, const QStringList& elements);

  Document* document_;
  Selection* selection_;
  QList<QPair<QString, bool>> runLines_;
  QList<QStringList> runElements_;
};

// The element name in a diagnostic's element text (`joints[3] "crank_pin"` -> crank_pin).
QString elementNameOf(const std::string& element);

}  // namespace rlx::ui
