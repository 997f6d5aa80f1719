#pragma once
// Names of imported elements: the model's names are identifiers unique across the model, and
// `ground` is the fixed body's. Shared by the simEngine2D and Adams importers.

#include <set>
#include <string>

namespace rlx {

// "Long Rod" -> "Long_Rod", "1st" -> "_1st", "SPRING.force" -> "SPRING_force": every run of
// other characters becomes one '_'; empty stays empty.
std::string toIdentifier(const std::string& text);

class UniqueNames {
 public:
  // `wanted`, or `wanted_2`, `wanted_3`, ... if it is taken (`ground` always is); then taken.
  std::string claim(const std::string& wanted);

 private:
  std::set<std::string> used_{"ground"};
};

}  // namespace rlx
