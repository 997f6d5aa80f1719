#pragma once
// The expression tree: one immutable node type shared between trees. Internal to core/expr and
// to code that needs to look inside a tree (the public API is expr.h).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "expr/expr.h"

namespace rlx::expr {

enum class Kind { Constant, Slot, Name, Unary, Binary, Call, Conditional };

enum class UnaryOp { Negate, Not };

enum class BinaryOp {
  Add,
  Subtract,
  Multiply,
  Divide,
  Power,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  And,
  Or
};

// Functions of the language. StepDerivative and Step5Derivative are internal (not parsable):
// stepd(n, x, x0, h0, x1, h1) is the n-th derivative of step(x, x0, h0, x1, h1) with respect to x.
enum class Function {
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Exp,
  Log,
  Log10,
  Sqrt,
  Abs,
  Min,
  Max,
  Sign,
  Step,
  Step5,
  StepDerivative,
  Step5Derivative
};

struct FunctionInfo {
  Function function;
  const char* name;
  int arity;
  bool internal;  // produced by differentiate only; the parser does not accept it
};

const FunctionInfo& functionInfo(Function function);
std::optional<Function> functionByName(std::string_view name);  // parsable functions only
bool isStep(Function function);  // any of the step functions (x is the argument before the last 4)

struct Node {
  Kind kind = Kind::Constant;
  double value = 0.0;  // Constant
  int slot = -1;       // Slot
  std::string name;    // Name
  UnaryOp unaryOp = UnaryOp::Negate;
  BinaryOp binaryOp = BinaryOp::Add;
  Function function = Function::Sin;
  std::vector<Expr> args;  // operands; Conditional: condition, then, else
};

// Nodes exactly as given: the parser keeps the structure the user wrote.
Expr makeSlot(int slot);
Expr makeName(std::string name);
Expr makeUnary(UnaryOp op, Expr a);
Expr makeBinary(BinaryOp op, Expr a, Expr b);
Expr makeCall(Function function, std::vector<Expr> args);
Expr makeConditional(Expr condition, Expr then, Expr otherwise);

// Nodes simplified on the way (simplify.cpp): constants folded, 0*x -> 0, 1*x -> x, x+0 -> x,
// x-0 -> x, x/1 -> x, x^1 -> x, x^0 -> 1, -(-x) -> x, c ? a : b with constant c -> a or b.
Expr simplifiedUnary(UnaryOp op, Expr a);
Expr simplifiedBinary(BinaryOp op, Expr a, Expr b);
Expr simplifiedCall(Function function, std::vector<Expr> args);
Expr simplifiedConditional(Expr condition, Expr then, Expr otherwise);

// Shortest text that parses back to the same double: "0.1", "1e-07"; "(1/0)", "(-1/0)", "(0/0)"
// for the non-finite values (to_string.cpp).
std::string numberText(double value);

// Value of the n-th derivative of the cubic (quintic: false/true) step at x (evaluate.cpp).
double stepDerivative(bool quintic, int n, double x, double x0, double h0, double x1, double h1);

}  // namespace rlx::expr
