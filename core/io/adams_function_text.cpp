// Adams' grammar is Fortran's: ** binds tightest, then * and /, then + and -; a sign may only
// start an expression (or a parenthesis), so a negation is written at the level of a sum. Each
// operand is put in parentheses unless it binds at least as tightly as its place needs, as
// expr/to_string.cpp does for Reuleaux's own text; the operands of ** always are, unless atoms.
#include "io/adams_function_text.h"

#include "expr/node.h"

#include <cctype>
#include <cmath>
#include <functional>

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
    default:  // a comparison's value (1 or 0) is written as a conditional (Printer::print)
      return {"", kAtom, kAtom, kAtom};
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
        if (n.binaryOp > BinaryOp::Power) {  // a comparison's value, or logic (refused)
          conditional(
              e, [&] { out += "1"; }, [&] { out += "0"; });
          break;
        }
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
        conditional(
            n.args[0], [&] { print(n.args[1], kSum); }, [&] { print(n.args[2], kSum); });
        break;
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

  // IF(e1: e2, e3, e4): e2, e3 or e4 as e1 < 0, = 0 or > 0. A comparison a < b (<=, >, >=, ==,
  // !=) as IF(a - b: ...), which has the sign of the difference exactly; any other condition c
  // holds when c != 0.
  template <class Then, class Otherwise>
  void conditional(const expr::Expr& condition, const Then& then, const Otherwise& otherwise) {
    const Node& c = *condition;
    std::function<void()> negative = then, zero = otherwise, positive = then;
    if (c.kind == Kind::Binary && c.binaryOp > BinaryOp::Power) {
      switch (c.binaryOp) {
        case BinaryOp::Less:
          negative = then, zero = otherwise, positive = otherwise;
          break;
        case BinaryOp::LessEqual:
          negative = then, zero = then, positive = otherwise;
          break;
        case BinaryOp::Greater:
          negative = otherwise, zero = otherwise, positive = then;
          break;
        case BinaryOp::GreaterEqual:
          negative = otherwise, zero = then, positive = then;
          break;
        case BinaryOp::Equal:
          negative = otherwise, zero = then, positive = otherwise;
          break;
        case BinaryOp::NotEqual:
          break;
        default:
          throw Unwritable{"logic (&&, ||) has no Adams function here"};
      }
      out += "IF(";
      print(c.args[0], kSum);
      out += " - ";
      print(c.args[1], kProd);
    } else {
      out += "IF(";
      print(condition, kSum);
    }
    out += ": ";
    negative();
    out += ", ";
    zero();
    out += ", ";
    positive();
    out += ')';
  }

  void call(const Node& n) {
    if (n.function == expr::Function::Sign) {  // -1, 0 or 1
      out += "IF(";
      print(n.args[0], kSum);
      out += ": -1, 0, 1)";
      return;
    }
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
