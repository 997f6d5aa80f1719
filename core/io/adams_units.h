#pragma once
// An Adams dataset's units (the UNITS statement) as factors to SI, and the keyword matching that
// every statement's reader shares: Adams accepts any unique prefix of a keyword.

#include "io/adams_text.h"

#include <span>
#include <string>

namespace rlx::adams {

// A keyword as written -> the one of `keywords` it abbreviates (the word itself when it is one
// of them exactly, else the only keyword it starts), or empty when none or several match.
std::string matchKeyword(const std::string& word, std::span<const char* const> keywords);

// A value in the dataset's units times its factor is the value in SI (kg, m, s, N).
struct Units {
  double length = 1, mass = 1, time = 1, force = 1;
  std::string description;  // "inch, pound_mass, second, pound_force", "SI (no UNITS statement)"

  double velocity() const { return length / time; }
  double acceleration() const { return length / (time * time); }
  double inertia() const { return mass * length * length; }
  double torque() const { return force * length; }
};

// The units of a UNITS statement (FORCE, MASS, LENGTH and TIME each, or SYSTEM = MKS / CGS / FPS /
// IPS / NONE, or UCF alone: force times UCF is mass times acceleration, the others SI). Throws
// DatasetError naming the argument and its line for an unknown unit or key, a missing one of the
// four, or a UCF beside named units.
Units readUnits(const Statement& statement);

}  // namespace rlx::adams
