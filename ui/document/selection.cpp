#include "document/selection.h"

#include <algorithm>

namespace rlx::ui {

bool Selection::contains(const ElementId& id) const {
  return std::find(ids_.begin(), ids_.end(), id) != ids_.end();
}

void Selection::set(std::vector<ElementId> ids) {
  if (ids == ids_) return;
  ids_ = std::move(ids);
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

void Selection::prune(const Spec& spec) {
  std::vector<ElementId> kept;
  for (const ElementId& id : ids_)
    if (rlx::ui::contains(spec, id)) kept.push_back(id);
  set(std::move(kept));
}

}  // namespace rlx::ui
