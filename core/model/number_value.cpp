#include "model/number_value.h"

#include "expr/expr.h"

#include <cmath>

namespace rlx {

NumberValue evaluateNumber(const Number& n, const std::map<std::string, double>& parameters) {
  if (!n.isExpression()) {
    if (!std::isfinite(n.value)) return {std::nullopt, "must be a finite number"};
    return {n.value, {}};
  }
  expr::ParseError parseError;
  const expr::Expr parsed = expr::parse(n.expression, &parseError);
  if (!parsed)
    return {std::nullopt, "has a syntax error in \"" + n.expression + "\" at column " +
                              std::to_string(parseError.column) + ": " + parseError.message};
  std::string bindError;
  const expr::Expr bound = expr::bind(
      parsed,
      [&](const std::string& name) -> expr::Binding {
        if (auto it = parameters.find(name); it != parameters.end()) return it->second;
        return std::monostate{};
      },
      &bindError);
  if (!bound)
    return {std::nullopt,
            "\"" + n.expression + "\": " + bindError + " (numbers may use parameters only)"};
  const double value = *expr::constantValue(bound);
  if (!std::isfinite(value)) return {std::nullopt, "\"" + n.expression + "\" is not a finite number"};
  return {value, {}};
}

}  // namespace rlx
