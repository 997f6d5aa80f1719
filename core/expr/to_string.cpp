// Text of a tree that parses back to the same tree, with parentheses only where the grammar
// needs them.

#include <charconv>
#include <cmath>
#include <string>

#include "expr/node.h"

namespace rlx::expr {

namespace {

// Grammar levels, low to high (expr.h).
enum Level { kCond = 1, kOr, kAnd, kCmp, kSum, kProd, kUnary, kPower, kAtom };

struct BinaryText {
  const char* text;
  Level level, left, right;  // the operator's level, the lowest level of each operand
};

BinaryText binaryText(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
      return {" + ", kSum, kSum, kProd};
    case BinaryOp::Subtract:
      return {" - ", kSum, kSum, kProd};
    case BinaryOp::Multiply:
      return {"*", kProd, kProd, kUnary};
    case BinaryOp::Divide:
      return {"/", kProd, kProd, kUnary};
    case BinaryOp::Power:
      return {"^", kPower, kAtom, kUnary};
    case BinaryOp::Less:
      return {" < ", kCmp, kSum, kSum};
    case BinaryOp::LessEqual:
      return {" <= ", kCmp, kSum, kSum};
    case BinaryOp::Greater:
      return {" > ", kCmp, kSum, kSum};
    case BinaryOp::GreaterEqual:
      return {" >= ", kCmp, kSum, kSum};
    case BinaryOp::Equal:
      return {" == ", kCmp, kSum, kSum};
    case BinaryOp::NotEqual:
      return {" != ", kCmp, kSum, kSum};
    case BinaryOp::And:
      return {" && ", kAnd, kAnd, kCmp};
    case BinaryOp::Or:
      return {" || ", kOr, kOr, kAnd};
  }
  return {"?", kAtom, kAtom, kAtom};
}

Level level(const Node& n) {
  switch (n.kind) {
    case Kind::Constant:
      return std::isfinite(n.value) && std::signbit(n.value) ? kUnary : kAtom;
    case Kind::Slot:
    case Kind::Name:
    case Kind::Call:
      return kAtom;
    case Kind::Unary:
      return kUnary;
    case Kind::Binary:
      return binaryText(n.binaryOp).level;
    case Kind::Conditional:
      return kCond;
  }
  return kAtom;
}

void print(const Expr& e, Level lowest, std::string& out) {
  const Node& n = *e;
  if (level(n) < lowest) {
    out += '(';
    print(e, kCond, out);
    out += ')';
    return;
  }
  switch (n.kind) {
    case Kind::Constant:
      out += numberText(n.value);
      break;
    case Kind::Slot:
      out += '$' + std::to_string(n.slot);
      break;
    case Kind::Name:
      out += n.name;
      break;
    case Kind::Unary:
      out += n.unaryOp == UnaryOp::Negate ? '-' : '!';
      print(n.args[0], kUnary, out);
      break;
    case Kind::Binary: {
      const BinaryText op = binaryText(n.binaryOp);
      print(n.args[0], op.left, out);
      out += op.text;
      print(n.args[1], op.right, out);
      break;
    }
    case Kind::Call:
      out += functionInfo(n.function).name;
      out += '(';
      for (size_t i = 0; i < n.args.size(); ++i) {
        if (i > 0) out += ", ";
        print(n.args[i], kCond, out);
      }
      out += ')';
      break;
    case Kind::Conditional:
      print(n.args[0], kOr, out);
      out += " ? ";
      print(n.args[1], kCond, out);
      out += " : ";
      print(n.args[2], kCond, out);
      break;
  }
}

}  // namespace

std::string numberText(double value) {
  if (std::isnan(value)) return "(0/0)";
  if (std::isinf(value)) return value > 0 ? "(1/0)" : "(-1/0)";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string toString(const Expr& e) {
  std::string out;
  if (e) print(e, kCond, out);
  return out;
}

}  // namespace rlx::expr
