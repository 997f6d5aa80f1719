#include "results/results.h"

namespace rlx {

std::string floorNote(const RunStats& stats) {
  if (stats.floorSteps == 0) return {};
  const std::string steps =
      stats.floorSteps == 1 ? "1 step" : std::to_string(stats.floorSteps) + " steps";
  return steps + " across a singular configuration met the tolerance only to " +
         numberText(stats.floorError, 3) +
         " times it: rounding sets that error floor there, and shorter steps do not lower it";
}

}  // namespace rlx
