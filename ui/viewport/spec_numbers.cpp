#include "viewport/spec_numbers.h"

#include "model/number_value.h"

namespace rlx::ui {

SpecNumbers::SpecNumbers(const Spec& spec) {
  // Parameters in file order; each may use the ones before it.
  for (const Parameter& p : spec.parameters)
    if (const auto v = evaluateNumber(p.value, parameters_).value) parameters_[p.name] = *v;
}

double SpecNumbers::value(const Number& n, double fallback) const {
  return evaluateNumber(n, parameters_).value.value_or(fallback);
}

double SpecNumbers::value(const std::optional<Number>& n, double fallback) const {
  return n ? value(*n, fallback) : fallback;
}

double SpecNumbers::component(const std::optional<Vector>& v, std::size_t i,
                              double fallback) const {
  if (!v || i >= v->size()) return fallback;
  return value((*v)[i], fallback);
}

}  // namespace rlx::ui
