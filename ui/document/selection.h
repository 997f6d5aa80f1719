#pragma once
// The selected elements, shared by the viewport, the model tree, the properties and the
// diagnostics. Holds names only. The document owns it and keeps it true to the spec: an element
// that disappears leaves the selection, a renamed one stays selected under its new name, before
// anyone hears of the change; names the spec does not have are never selected.

#include "document/edits.h"

#include <QObject>

#include <vector>

namespace rlx::ui {

// Elements renamed by one edit: (old id, new id).
using Renames = std::vector<std::pair<ElementId, ElementId>>;

class Selection : public QObject {
  Q_OBJECT
 public:
  // `spec`: the spec whose elements may be selected (it must outlive the selection).
  explicit Selection(const Spec* spec, QObject* parent = nullptr);

  const std::vector<ElementId>& ids() const { return ids_; }
  bool isEmpty() const { return ids_.empty(); }
  bool contains(const ElementId& id) const;
  // The one selected element, if exactly one is selected.
  const ElementId* single() const { return ids_.size() == 1 ? &ids_.front() : nullptr; }

  // Selects the elements of `ids` that the spec has (in their order, without repeats).
  void set(std::vector<ElementId> ids);
  void toggle(const ElementId& id);  // additive click
  void clear() { set({}); }
  // After a change of the spec: an element renamed `from` -> `to` stays selected as `to`, and
  // elements the spec no longer has leave the selection.
  void follow(const Renames& renamed);

 signals:
  void changed();

 private:
  const Spec* spec_;
  std::vector<ElementId> ids_;
};

}  // namespace rlx::ui
