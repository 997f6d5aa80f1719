#pragma once
// The selected elements, shared by the viewport, the model tree, the properties and the
// diagnostics. Holds names only; an element that disappears from the spec leaves the selection.

#include "document/edits.h"

#include <QObject>

#include <vector>

namespace rlx::ui {

class Selection : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

  const std::vector<ElementId>& ids() const { return ids_; }
  bool isEmpty() const { return ids_.empty(); }
  bool contains(const ElementId& id) const;
  // The one selected element, if exactly one is selected.
  const ElementId* single() const { return ids_.size() == 1 ? &ids_.front() : nullptr; }

  void set(std::vector<ElementId> ids);
  void toggle(const ElementId& id);  // additive click
  void clear() { set({}); }
  // Drops the elements the spec no longer has.
  void prune(const Spec& spec);

 signals:
  void changed();

 private:
  std::vector<ElementId> ids_;
};

}  // namespace rlx::ui
