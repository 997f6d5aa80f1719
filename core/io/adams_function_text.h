#pragma once
// A compiled expression as the text of an Adams/Solver FUNCTION (the writer's side of
// io/adams_expression.h): TIME, numbers, arithmetic with **, the intrinsics both languages share,
// STEP and STEP5, and the model's measures as the text the caller gives for each slot.

#include "expr/expr.h"

#include <functional>
#include <string>

namespace rlx::adams {

// Thrown for what Adams cannot say: the message names it ("sign() has no Adams function ...").
struct Unwritable {
  std::string message;
};

// `e` is a bound tree (slot 0 is time, slot k >= 1 the model's measure k - 1); `measure(k)`
// gives slot k's Adams text. Throws Unwritable for comparisons, logic and conditionals, sign()
// and any other construct Adams has no function for.
std::string functionText(const expr::Expr& e, const std::function<std::string(int slot)>& measure);

}  // namespace rlx::adams
