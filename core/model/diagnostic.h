#pragma once
// A problem found in user input: it names the element and the field, never crashes.

#include <string>
#include <vector>

namespace rlx {

enum class Severity { Error, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string element;  // e.g. `joints[3] "crank_pin"`, or the file name for syntax errors
  std::string field;    // e.g. "point2", "bodies[0].mass"; may be empty
  std::string message;  // a sentence: "must have 2 numbers, got 3"

  // `joints[3] "crank_pin": point2 must have 2 numbers, got 3`
  std::string text() const;
};

using Diagnostics = std::vector<Diagnostic>;

bool hasErrors(const Diagnostics& diagnostics);

}  // namespace rlx
