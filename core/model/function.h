#pragma once
// Evaluation of compiled functions (model.h: Function).

#include "model/model.h"

#include <span>

namespace rlx {

double evaluate(const Function& f, std::span<const double> slots);

// f(t), f'(t), f''(t) of a function of time only (motions).
struct TimeValue {
  double value = 0.0, rate = 0.0, acceleration = 0.0;
};
TimeValue evaluateInTime(const Function& f, double t);

}  // namespace rlx
