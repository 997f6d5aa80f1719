#include "viewport/spec_numbers.h"

#include "expr/expr.h"

#include <cmath>

namespace rlx::ui {
namespace {

std::optional<double> evaluateText(const std::string& text,
                                   const std::map<std::string, double>& parameters) {
  expr::ParseError parseError;
  const expr::Expr parsed = expr::parse(text, &parseError);
  if (!parsed) return std::nullopt;
  std::string bindError;
  const expr::Expr bound = expr::bind(
      parsed,
      [&](const std::string& name) -> expr::Binding {
        if (auto it = parameters.find(name); it != parameters.end()) return it->second;
        return std::monostate{};
      },
      &bindError);
  if (!bound) return std::nullopt;
  const std::optional<double> v = expr::constantValue(bound);
  if (!v || !std::isfinite(*v)) return std::nullopt;
  return v;
}

}  // namespace

SpecNumbers::SpecNumbers(const Spec& spec) {
  // Parameters in file order; each may use the ones before it.
  for (const Parameter& p : spec.parameters) {
    if (!p.value.isExpression())
      parameters_[p.name] = p.value.value;
    else if (const auto v = evaluateText(p.value.expression, parameters_))
      parameters_[p.name] = *v;
  }
}

double SpecNumbers::value(const Number& n, double fallback) const {
  if (!n.isExpression()) return std::isfinite(n.value) ? n.value : fallback;
  return evaluateText(n.expression, parameters_).value_or(fallback);
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
