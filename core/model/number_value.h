#pragma once
// The value of a spec's Number: a literal, or an expression of the model's parameters. compile()
// reports `error` against the element's field; the viewport draws with a fallback instead.

#include "model/spec.h"

#include <map>
#include <optional>
#include <string>

namespace rlx {

struct NumberValue {
  std::optional<double> value;  // finite; empty on error
  std::string error;            // why not: "must be a finite number", "has a syntax error in ..."
};

NumberValue evaluateNumber(const Number& n, const std::map<std::string, double>& parameters);

}  // namespace rlx
