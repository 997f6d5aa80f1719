#pragma once
// The diagnostics dock: what the compiler says about the model, and how the last run ended
// (failures, redundant constraints, non-unique reactions; end stops' impacts as information),
// each line naming its elements.
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
  enum class Level { Error, Warning, Information };
  void add(const QString& text, Level level, const QStringList& elements);

  struct RunLine {
    QString text;
    Level level;
    QStringList elements;
  };
  Document* document_;
  Selection* selection_;
  QList<RunLine> runLines_;
};

// The element name in a diagnostic's element text (`joints[3] "crank_pin"` -> crank_pin).
QString elementNameOf(const std::string& element);

}  // namespace rlx::ui
