#include "solve/force_check.h"

#include "model/function.h"

#include <cmath>

namespace rlx {

int nonFiniteForce(const Model& model, const Workspace& ws) {
  const std::span<const double> slots(ws.slotValues.data(),
                                      static_cast<std::size_t>(ws.slotValues.size()));
  for (std::size_t i = 0; i < model.forces.size(); ++i)
    for (const Function& f : model.forces[i].functions)
      if (!std::isfinite(evaluate(f, slots))) return static_cast<int>(i);
  return -1;
}

}  // namespace rlx
