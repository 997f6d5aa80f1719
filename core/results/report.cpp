#include "results/report.h"

#include <sstream>

namespace rlx {

const char* statusName(SolveStatus status) {
  switch (status) {
    case SolveStatus::Converged: return "converged";
    case SolveStatus::MaxIterations: return "max_iterations";
    case SolveStatus::Singular: return "singular";
    case SolveStatus::Diverged: return "diverged";
    case SolveStatus::NotFinite: return "not_finite";
    case SolveStatus::Inconsistent: return "inconsistent";
    case SolveStatus::Unsupported: return "unsupported";
    case SolveStatus::Cancelled: return "cancelled";
  }
  return "?";
}

std::string numberText(double x, int precision) {
  std::ostringstream out;
  out.precision(precision);
  out << x;
  return out.str();
}

}  // namespace rlx
