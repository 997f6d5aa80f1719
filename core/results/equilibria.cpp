#include "results/results.h"

namespace rlx {

const char* stabilityName(Stability kind) {
  switch (kind) {
    case Stability::Stable:
      return "stable";
    case Stability::Neutral:
      return "neutral";
    case Stability::Unstable:
      return "unstable";
  }
  return "";
}

std::vector<std::string> equilibriumNotes(const Results& results) {
  std::vector<std::string> notes;
  const std::size_t total = std::min(results.equilibria.size(), results.frames.size());
  for (const Stability kind : {Stability::Unstable, Stability::Neutral}) {
    std::size_t count = 0, first = 0;
    for (std::size_t i = 0; i < total; ++i)
      if (results.equilibria[i].kind == kind && count++ == 0) first = i;
    if (count == 0) continue;
    const int directions = results.equilibria[first].softDirections;
    const std::string where = "t = " + numberText(results.frames[first].state.t) + " s";
    std::string note =
        total == 1 ? "the equilibrium at " + where + " is "
                   : std::to_string(count) + " of " + std::to_string(total) + " equilibria are ";
    note += stabilityName(kind);
    if (total > 1) note += ", the first at " + where;
    const std::string motions =
        std::to_string(directions) + (directions == 1 ? " free motion" : " free motions");
    note += kind == Stability::Unstable
                ? ": its stiffness is negative along " + motions + " (a disturbance grows)"
                : ": its stiffness is zero along " + motions + " (it holds anywhere along it)";
    notes.push_back(note);
  }
  return notes;
}

}  // namespace rlx
