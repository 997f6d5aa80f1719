#include "document/selection.h"

#include <algorithm>

namespace rlx::ui {

Selection::Selection(const Spec* spec, QObject* parent) : QObject(parent), spec_(spec) {}

bool Selection::contains(const ElementId& id) const {
  return std::find(ids_.begin(), ids_.end(), id) != ids_.end();
}

void Selection::set(std::vector<ElementId> ids) {
  std::vector<ElementId> kept;
  for (ElementId& id : ids)
    if (rlx::ui::contains(*spec_, id) && std::find(kept.begin(), kept.end(), id) == kept.end())
      kept.push_back(std::move(id));
  if (kept == ids_) return;
  ids_ = std::move(kept);
  emit changed();
}

void Selection::toggle(const ElementId& id) {
  std::vector<ElementId> ids = ids_;
  const auto it = std::find(ids.begin(), ids.end(), id);
  if (it == ids.end())
    ids.push_back(id);
  else
    ids.erase(it);
  set(std::move(ids));
}

void Selection::follow(const Renames& renamed) {
  std::vector<ElementId> ids = ids_;
  for (ElementId& id : ids)
    for (const auto& [from, to] : renamed)
      if (id == from) id = to;
  set(std::move(ids));
}

}  // namespace rlx::ui
