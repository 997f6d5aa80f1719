// Fuzz target "expression": the expression parser, the printer's round trip, binding, exact
// derivatives and evaluation, with the names t, x, y and crank.x bound to slots and l to a value.
#include "fuzz_targets.h"

#include "expr/expr.h"

#include <array>
#include <string>

namespace rlx::fuzz {

namespace {

expr::Binding bindFuzzName(const std::string& name) {
  if (name == "t") return 0;
  if (name == "x") return 1;
  if (name == "y") return 2;
  if (name == "crank.x") return 3;
  if (name == "l") return 2.5;
  return std::monostate{};
}

}  // namespace

void expressionInput(std::string_view input) {
  expr::ParseError error;
  const expr::Expr parsed = expr::parse(input, &error);
  if (!parsed) {
    require(!error.message.empty(), "a parse error has a message");
    require(error.column >= 1 && error.column <= static_cast<int>(input.size()) + 1,
            "a parse error's column lies in the text or just after it");
    return;
  }
  expr::names(parsed);

  // The printed tree parses back and prints the same.
  const std::string printed = expr::toString(parsed);
  const expr::Expr reparsed = expr::parse(printed, &error);
  require(reparsed != nullptr, "parse reads what toString printed");
  require(expr::toString(reparsed) == printed, "toString(parse(toString(e))) == toString(e)");

  std::string bindError;
  const expr::Expr bound = expr::bind(parsed, bindFuzzName, &bindError);
  if (!bound) {
    require(!bindError.empty(), "a bind error has a message");
    return;
  }

  // Values, first derivatives by every slot and the second by t, as compile and the solvers use.
  const std::array<double, 4> slots{0.3, -1.25, 2.0, 0.7};
  expr::evaluate(bound, slots);
  for (int slot = 0; slot < static_cast<int>(slots.size()); ++slot) {
    const expr::Expr derivative = expr::differentiate(bound, slot);
    expr::evaluate(derivative, slots);
    if (slot == 0) expr::evaluate(expr::differentiate(derivative, 0), slots);
  }
}

}  // namespace rlx::fuzz
