// Node builders that simplify as they build, so that derivative trees stay small and a bound
// tree of constants is a single constant. The identities used are exact for finite values.

#include <algorithm>
#include <utility>

#include "expr/node.h"

namespace rlx::expr {

namespace {

bool isConstantNode(const Expr& e) {
  return e->kind == Kind::Constant;
}

bool isValue(const Expr& e, double v) {
  return isConstantNode(e) && e->value == v;
}

// The node's value when all of its operands are constants, as a constant; else the node.
Expr folded(Expr e) {
  const bool allConstant = std::all_of(e->args.begin(), e->args.end(), isConstantNode);
  return allConstant ? constant(evaluate(e, {})) : e;
}

// c1 * (c2 * x) -> (c1 c2) * x, so that products of constants with one variable fold.
Expr multiplied(const Expr& a, const Expr& b) {
  if (isConstantNode(a) && b->kind == Kind::Binary && b->binaryOp == BinaryOp::Multiply &&
      isConstantNode(b->args[0])) {
    return simplifiedBinary(BinaryOp::Multiply, constant(a->value * b->args[0]->value), b->args[1]);
  }
  return makeBinary(BinaryOp::Multiply, a, b);
}

}  // namespace

Expr simplifiedUnary(UnaryOp op, Expr a) {
  // -(-x) -> x
  if (op == UnaryOp::Negate && a->kind == Kind::Unary && a->unaryOp == UnaryOp::Negate) {
    return a->args[0];
  }
  return folded(makeUnary(op, std::move(a)));
}

Expr simplifiedBinary(BinaryOp op, Expr a, Expr b) {
  if (isConstantNode(a) && isConstantNode(b)) return folded(makeBinary(op, a, b));
  switch (op) {
    case BinaryOp::Add:
      if (isValue(a, 0.0)) return b;
      if (isValue(b, 0.0)) return a;
      break;
    case BinaryOp::Subtract:
      if (isValue(b, 0.0)) return a;
      if (isValue(a, 0.0)) return simplifiedUnary(UnaryOp::Negate, b);
      break;
    case BinaryOp::Multiply:
      if (isValue(a, 0.0) || isValue(b, 0.0)) return constant(0.0);
      if (isValue(a, 1.0)) return b;
      if (isValue(b, 1.0)) return a;
      if (isValue(a, -1.0)) return simplifiedUnary(UnaryOp::Negate, b);
      if (isValue(b, -1.0)) return simplifiedUnary(UnaryOp::Negate, a);
      return isConstantNode(b) ? multiplied(b, a) : multiplied(a, b);
    case BinaryOp::Divide:
      if (isValue(a, 0.0)) return constant(0.0);
      if (isValue(b, 1.0)) return a;
      break;
    case BinaryOp::Power:
      if (isValue(b, 0.0)) return constant(1.0);
      if (isValue(b, 1.0)) return a;
      break;
    case BinaryOp::Less:
    case BinaryOp::LessEqual:
    case BinaryOp::Greater:
    case BinaryOp::GreaterEqual:
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
    case BinaryOp::And:
    case BinaryOp::Or:
      break;
  }
  return makeBinary(op, std::move(a), std::move(b));
}

Expr simplifiedCall(Function function, std::vector<Expr> args) {
  return folded(makeCall(function, std::move(args)));
}

Expr simplifiedConditional(Expr condition, Expr then, Expr otherwise) {
  if (isConstantNode(condition)) return condition->value != 0.0 ? then : otherwise;
  if (then == otherwise || (isConstantNode(then) && isValue(otherwise, then->value))) return then;
  return makeConditional(std::move(condition), std::move(then), std::move(otherwise));
}

}  // namespace rlx::expr
