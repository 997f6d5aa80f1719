#pragma once
// Expressions of the model language: parse text into a tree, bind names to slots, evaluate, and
// differentiate exactly (symbolically). Trees are immutable and shared.
//
// Grammar (precedence low -> high):
//   cond    := or ( '?' cond ':' cond )?
//   or      := and ( '||' and )*          and := cmp ( '&&' cmp )*
//   cmp     := sum ( ('<' | '<=' | '>' | '>=' | '==' | '!=') sum )?
//   sum     := prod ( ('+' | '-') prod )*  prod := unary ( ('*' | '/') unary )*
//   unary   := ('-' | '+' | '!') unary | power
//   power   := atom ( '^' unary )?        (right associative: 2^3^2 = 2^9; -2^2 = -4)
//   atom    := number | name | name '(' args ')' | '(' cond ')'
//   name    := identifier ( '.' identifier )?     e.g. t, l, crank.x, pin.qd
//   number  := 1  1.5  .5  1.  1e-3  2E+4
// Functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs min max sign
// pow step step5 (pow(a, b) is a^b). Constants: pi, e, deg (= pi/180), folded at parse time; a
// function name without '(' is an error. Comparisons and logic give 1 or 0; any non-zero value
// (NaN included) is true; && and || and ?: evaluate only what they need.
// step(x, x0, h0, x1, h1): h0 for x <= x0, h1 for x >= x1, in between (ADAMS STEP)
//   h0 + (h1 - h0) s^2 (3 - 2 s),                s = (x - x0) / (x1 - x0);
// step5 the same with a quintic (ADAMS STEP5)
//   h0 + (h1 - h0) s^3 (10 - 15 s + 6 s^2).
// x0, h0, x1, h1 must not depend on variables and x0 < x1 (checked by bind), so derivatives of
// every order are exact: they use the internal functions stepd(n, x, x0, h0, x1, h1) and
// step5d(...), the n-th derivative with respect to x (printed by toString, not parsable).
// Limits that keep every walk of a tree and of its derivatives bounded: nesting (parentheses,
// unary operators, '^', '?:') at most 200 deep, and at most 400 operations (operators and calls).

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rlx::expr {

struct Node;
using Expr = std::shared_ptr<const Node>;

struct ParseError {
  std::string message;  // a sentence with the position: "unexpected ')' at column 7"
  int column = 0;       // 1-based position (in bytes) in the text; 1 for "empty expression"
};

// Parses text; names stay unresolved (see bind). On failure returns nullptr and fills error.
Expr parse(std::string_view text, ParseError* error);

// Every distinct name the tree refers to, in order of first appearance (constants excluded).
std::vector<std::string> names(const Expr& e);

// A name resolves to a slot index (a variable) or to a constant value.
using Binding = std::variant<std::monostate, int, double>;  // monostate: unknown name
using Resolver = std::function<Binding(const std::string& name)>;

// Replaces names by slots or constants and folds constants (every part without a slot becomes
// one constant). Errors return nullptr and set *error: "unknown variable 'foo'",
// "step: x0, h0, x1 and h1 must not depend on variables", "step: x0 must be less than x1, ...".
Expr bind(const Expr& e, const Resolver& resolve, std::string* error);

// Value at the given slot values (slot i is slots[i]). A bound tree only: a name, or a slot
// beyond slots, evaluates to NaN. No allocation.
double evaluate(const Expr& e, std::span<const double> slots);

// Exact derivative with respect to a slot of a bound tree, simplified (0 and 1 folded,
// x*0 -> 0, ...): d/dt of 2*pi*t is the constant 2*pi.
//   u^w: w*u^(w-1)*u' when w does not depend on the slot, else u^w*(w'*log(u) + w*u'/u);
//   atan2(y, x): (x*y' - y*x')/(x^2 + y^2);  abs(u): sign(u)*u';  sign, comparisons, logic: 0;
//   min(a, b): a <= b ? a' : b';  max(a, b): a >= b ? a' : b';  c ? a : b: c ? a' : b'.
Expr differentiate(const Expr& e, int slot);

bool isConstant(const Expr& e);  // no slot and no unbound name anywhere in the tree
bool dependsOn(const Expr& e, int slot);
std::optional<double> constantValue(const Expr& e);  // the value when isConstant
// Re-parsable text of a tree without slots; slots print as $0, $1, ... and inf as (1/0).
std::string toString(const Expr& e);

Expr constant(double value);

}  // namespace rlx::expr
