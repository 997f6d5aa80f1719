#pragma once
// Undoable edits. Every change of the spec goes through one SpecCommand on the document's undo
// stack, holding the spec before and after; the edit functions of edits.h compute the "after".
// Continuous edits (a drag, repeated changes of one field) merge into one entry when they carry
// the same merge key.

#include "document/document.h"
#include "document/edits.h"

#include <QUndoCommand>

namespace rlx::ui {

class SpecCommand : public QUndoCommand {
 public:
  // mergeKey empty: never merges. `renamed`: the elements the edit renames (they stay
  // selected under their new names, and under their old ones again on undo).
  SpecCommand(Document* document, Spec after, const QString& text, QString mergeKey = {},
              Renames renamed = {});

  void undo() override;
  void redo() override;
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  Document* document_;
  Spec before_, after_;
  QString mergeKey_;
  Renames renamed_;
};

// Pushes an edit onto the document's undo stack (nothing when it changes nothing).
void pushEdit(Document* document, const Spec& after, const QString& text,
              const QString& mergeKey = {});

// Renames an element (with every reference to it) as one undoable edit; it stays selected if it
// was. Returns why the rename is refused, or nothing.
Diagnostics pushRename(Document* document, const ElementId& id, const std::string& newName);

// Pushes the spec of an EditResult, or returns its diagnostics when the edit is refused.
Diagnostics pushEdit(Document* document, const EditResult& result, const QString& text,
                     const QString& mergeKey = {});

}  // namespace rlx::ui
