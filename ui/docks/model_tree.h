#pragma once
// The model tree dock: the model's elements by kind, in file order. Selecting items selects the
// elements; F2 renames (with every reference), Delete removes (with dependents, after asking).

#include "document/document.h"
#include "document/selection.h"

#include <QTreeWidget>

namespace rlx::ui {

class ModelTree : public QTreeWidget {
  Q_OBJECT
 public:
  ModelTree(Document* document, Selection* selection, QWidget* parent = nullptr);

  // The item of an element, or null.
  QTreeWidgetItem* itemOf(const ElementId& id) const;

 signals:
  void deleteRequested();
  void analysisRequested();  // the Analysis item was activated

 private:
  void rebuild();
  void showSelection();
  void takeSelection();
  void renamed(QTreeWidgetItem* item);
  void rename(const ElementId& id, const std::string& newName);

  Document* document_;
  Selection* selection_;
  bool syncing_ = false;
};

}  // namespace rlx::ui
