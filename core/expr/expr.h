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
// Functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs min max sign
// pow step step5. Constants: pi, e, deg (= pi/180). Comparisons and logic give 1 or 0.
// step(x, x0, h0, x1, h1): h0 for x <= x0, h1 for x >= x1, a cubic in between (ADAMS STEP);
// step5 the same with a quintic (ADAMS STEP5). Their x0, h0, x1, h1 must not depend on slots.

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
  std::string message;  // e.g. "expected ')' after the arguments of 'sin'"
  int column = 0;       // 1-based position in the text
};

// Parses text; names stay unresolved (see bind). On failure returns nullptr and fills error.
Expr parse(std::string_view text, ParseError* error);

// Every distinct name the tree refers to, in order of first appearance (constants excluded).
std::vector<std::string> names(const Expr& e);

// A name resolves to a slot index (a variable) or to a constant value.
using Binding = std::variant<std::monostate, int, double>;  // monostate: unknown name
using Resolver = std::function<Binding(const std::string& name)>;

// Replaces names by slots or constants and folds constants. Unknown names are an error:
// returns nullptr and sets *error = "unknown variable 'foo'".
Expr bind(const Expr& e, const Resolver& resolve, std::string* error);

// Value at the given slot values (slot i is slots[i]). A bound tree only.
double evaluate(const Expr& e, std::span<const double> slots);

// Exact derivative with respect to a slot, simplified (0 and 1 folded, x*0 -> 0, ...).
Expr differentiate(const Expr& e, int slot);

bool isConstant(const Expr& e);            // no slot anywhere in the tree
bool dependsOn(const Expr& e, int slot);
std::optional<double> constantValue(const Expr& e);  // the value when isConstant
std::string toString(const Expr& e);        // re-parsable text (slots print as $0, $1, ...)

Expr constant(double value);

}  // namespace rlx::expr
