#include "document/commands.h"

namespace rlx::ui {
namespace {

constexpr int kMergingCommand = 1;

}  // namespace

SpecCommand::SpecCommand(Document* document, Spec after, const QString& text, QString mergeKey,
                         Renames renamed)
    : QUndoCommand(text),
      document_(document),
      before_(document->spec()),
      after_(std::move(after)),
      mergeKey_(std::move(mergeKey)),
      renamed_(std::move(renamed)) {}

void SpecCommand::undo() {
  Renames back;
  for (const auto& [from, to] : renamed_) back.emplace_back(to, from);
  document_->setSpec(before_, back);
}

void SpecCommand::redo() { document_->setSpec(after_, renamed_); }

int SpecCommand::id() const { return mergeKey_.isEmpty() ? -1 : kMergingCommand; }

bool SpecCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const SpecCommand*>(other);
  if (next->mergeKey_ != mergeKey_) return false;
  after_ = next->after_;
  setObsolete(after_ == before_);  // a drag back to the start is no edit
  return true;
}

void pushEdit(Document* document, const Spec& after, const QString& text, const QString& mergeKey) {
  if (after == document->spec()) return;
  document->undoStack()->push(new SpecCommand(document, after, text, mergeKey));
}

Diagnostics pushRename(Document* document, const ElementId& id, const std::string& newName) {
  const EditResult result = renameElement(document->spec(), id, newName);
  if (!result.spec) return result.diagnostics;
  if (*result.spec == document->spec()) return {};
  document->undoStack()->push(new SpecCommand(
      document, *result.spec,
      QObject::tr("Rename %1 to %2").arg(QString::fromStdString(id.name), QString::fromStdString(newName)),
      {}, {{id, {id.kind, newName}}}));
  return {};
}

Diagnostics pushEdit(Document* document, const EditResult& result, const QString& text,
                     const QString& mergeKey) {
  if (!result.spec) return result.diagnostics;
  pushEdit(document, *result.spec, text, mergeKey);
  return {};
}

}  // namespace rlx::ui
