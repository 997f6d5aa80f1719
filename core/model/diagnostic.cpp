#include "model/diagnostic.h"

#include <algorithm>

namespace rlx {

std::string Diagnostic::text() const {
  std::string out = severity == Severity::Warning ? "warning: " : "";
  out += element;
  if (!element.empty()) out += ": ";
  if (!field.empty()) out += field + " ";
  out += message;
  return out;
}

bool hasErrors(const Diagnostics& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

}  // namespace rlx
