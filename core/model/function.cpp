#include "model/function.h"

#include <array>

namespace rlx {

double evaluate(const Function& f, std::span<const double> slots) {
  return expr::evaluate(f.value, slots);
}

TimeValue evaluateInTime(const Function& f, double t) {
  const std::array<double, 1> slots{t};
  TimeValue out;
  out.value = expr::evaluate(f.value, slots);
  // A function of time has slots == {0} (or none when constant).
  if (!f.variables.empty()) {
    out.rate = expr::evaluate(f.d[0], slots);
    out.acceleration = expr::evaluate(f.dd[0][0], slots);
  }
  return out;
}

}  // namespace rlx
