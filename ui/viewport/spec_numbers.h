#pragma once
// Values of a spec's numbers for drawing: literal numbers, or expressions of the parameters
// evaluated as compile() does (model/number_value.h). A number that does not evaluate gives the fallback.

#include "model/spec.h"

#include <map>
#include <optional>
#include <string>

namespace rlx::ui {

class SpecNumbers {
 public:
  explicit SpecNumbers(const Spec& spec);

  double value(const Number& n, double fallback) const;
  double value(const std::optional<Number>& n, double fallback) const;
  // Component i of a vector (missing components: fallback).
  double component(const std::optional<Vector>& v, std::size_t i, double fallback) const;

 private:
  std::map<std::string, double> parameters_;
};

}  // namespace rlx::ui
