// Adams' grammar is Fortran's: ** binds tightest, then * and /, then + and -; a sign may only
// start an expression (or a parenthesis), so a negation is written at the level of a sum. Each
// operand is put in parentheses unless it binds at least as tightly as its place needs, as
// expr/to_string.cpp does for Reuleaux's own text; the operands of ** always are, unless atoms.
#include "io/adams_function_text.h"

#include "expr/node.h"

#include <cctype>
#include <cmath>

namespace rlx::adams {
namespace {

using expr::BinaryOp;
using expr::Kind;
using expr::Node;

enum Level { kSum = 1, kProd, kPower, kAtom };

struct Operator {
  const char* text;
  Level level, left, right;
};

Operator binaryOperator(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add:
      return {" + ", kSum, kSum, kProd};
    case BinaryOp::Subtract:
      return {" - ", kSum, kSum, kProd};
    case BinaryOp::Multiply:
      return {"*", kProd, kProd, kPower};
    case BinaryOp::Divide:
      return {"/", kProd, kProd, kPower};
    case BinaryOp::Power:
      return {"**", kPower, kAtom, kAtom};
    default:
      throw Unwritable{"comparisons and logic (<, ==, &&, ...) have no Adams function here"};
  }
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

class Printer {
 public:
  explicit Printer(const std::function<std::string(int)>& measure) : measure_(measure) {}

  void print(const expr::Expr& e, Level lowest) {
    const Node& n = *e;
    if (level(n) < lowest) {
      out += '(';
      print(e, kSum);
      out += ')';
      return;
    }
    switch (n.kind) {
      case Kind::Constant:
        if (!std::isfinite(n.value))
          throw Unwritable{"a value that is not finite (" + expr::numberText(n.value) + ")"};
        out += expr::numberText(n.value);
        break;
      case Kind::Slot:
        out += n.slot == 0 ? "TIME" : measure_(n.slot);
        break;
      case Kind::Name:
        throw Unwritable{"the name " + n.name + " is not bound to a value"};
      case Kind::Unary:
        if (n.unaryOp != expr::UnaryOp::Negate)
          throw Unwritable{"logic (!) has no Adams function here"};
        out += '-';
        print(n.args[0], kProd);
        break;
      case Kind::Binary: {
        const Operator op = binaryOperator(n.binaryOp);
        print(n.args[0], op.left);
        out += op.text;
        print(n.args[1], op.right);
        break;
      }
      case Kind::Call:
        call(n);
        break;
      case Kind::Conditional:
        throw Unwritable{"a conditional (c ? a : b) has no Adams function here"};
    }
  }

  std::string out;

 private:
  static Level level(const Node& n) {
    switch (n.kind) {
      case Kind::Constant:
        return std::signbit(n.value) ? kSum : kAtom;
      case Kind::Unary:
        return kSum;
      case Kind::Binary:
        return n.binaryOp <= BinaryOp::Power ? binaryOperator(n.binaryOp).level : kAtom;
      default:
        return kAtom;
    }
  }

  void call(const Node& n) {
    if (n.function == expr::Function::Sign)
      throw Unwritable{"sign() has no Adams function of one argument (Adams' SIGN takes two)"};
    if (expr::functionInfo(n.function).internal)
      throw Unwritable{std::string(expr::functionInfo(n.function).name) + " is internal"};
    out += upper(expr::functionInfo(n.function).name);
    out += '(';
    for (std::size_t i = 0; i < n.args.size(); ++i) {
      if (i > 0) out += ", ";
      print(n.args[i], kSum);
    }
    out += ')';
  }

  const std::function<std::string(int)>& measure_;
};

}  // namespace

std::string functionText(const expr::Expr& e, const std::function<std::string(int slot)>& measure) {
  Printer printer(measure);
  printer.print(e, kSum);
  return printer.out;
}

}  // namespace rlx::adams
