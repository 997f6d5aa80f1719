#pragma once
// The properties dock: every field of the selected element (or of the model when nothing is
// selected) with its unit. Values are typed as in the .rlx file: a number, an expression
// ("l/2", "30*deg"), a list ("[0.5, 0]"); an empty value restores the default. Each change is one
// undoable edit; a refused or invalid value is explained under the table, in place.

#include "document/document.h"
#include "document/selection.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace rlx::ui {

class PropertiesDock : public QWidget {
  Q_OBJECT
 public:
  PropertiesDock(Document* document, Selection* selection, QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QString message() const;  // the explanation shown under the table ("" when all is well)

  // Edits one field of what the dock shows, as a user typing `text` in its value cell.
  void editField(const QString& field, const QString& text);

 private:
  void rebuild();
  void cellEdited(int row, int column);
  void showMessage(const QString& text, bool error);

  Document* document_;
  Selection* selection_;
  QLabel* title_;
  QTableWidget* table_;
  QLabel* message_;
  bool syncing_ = false;
};

// The unit of a field of an element kind in a planar or spatial model ("m", "N·m/rad", "").
QString fieldUnit(const QString& kind, const QString& type, const QString& field);

}  // namespace rlx::ui
