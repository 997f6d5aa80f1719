// Exact symbolic derivative with respect to one slot, built with the simplifying builders.

#include <cmath>
#include <numbers>
#include <utility>

#include "expr/node.h"

namespace rlx::expr {

namespace {

Expr add(Expr a, Expr b) {
  return simplifiedBinary(BinaryOp::Add, std::move(a), std::move(b));
}
Expr sub(Expr a, Expr b) {
  return simplifiedBinary(BinaryOp::Subtract, std::move(a), std::move(b));
}
Expr mul(Expr a, Expr b) {
  return simplifiedBinary(BinaryOp::Multiply, std::move(a), std::move(b));
}
Expr div(Expr a, Expr b) {
  return simplifiedBinary(BinaryOp::Divide, std::move(a), std::move(b));
}
Expr pow(Expr a, Expr b) {
  return simplifiedBinary(BinaryOp::Power, std::move(a), std::move(b));
}
Expr neg(Expr a) {
  return simplifiedUnary(UnaryOp::Negate, std::move(a));
}
Expr fn(Function f, Expr a) {
  return simplifiedCall(f, {std::move(a)});
}
Expr num(double v) {
  return constant(v);
}

// d(u^w): u^c -> c u^(c-1) u' when w does not depend on the slot; c^w -> c^w log(c) w';
// in general u^w (w' log(u) + w u'/u).
Expr powerDerivative(const Expr& e, const Expr& u, const Expr& w, int slot) {
  const Expr du = differentiate(u, slot);
  if (!dependsOn(w, slot)) return mul(mul(w, pow(u, sub(w, num(1.0)))), du);
  const Expr dw = differentiate(w, slot);
  if (!dependsOn(u, slot)) return mul(mul(e, fn(Function::Log, u)), dw);
  return mul(e, add(mul(dw, fn(Function::Log, u)), div(mul(w, du), u)));
}

Expr binaryDerivative(const Expr& e, int slot) {
  const Expr& u = e->args[0];
  const Expr& w = e->args[1];
  switch (e->binaryOp) {
    case BinaryOp::Add:
      return add(differentiate(u, slot), differentiate(w, slot));
    case BinaryOp::Subtract:
      return sub(differentiate(u, slot), differentiate(w, slot));
    case BinaryOp::Multiply:
      return add(mul(differentiate(u, slot), w), mul(u, differentiate(w, slot)));
    case BinaryOp::Divide:
      // (u/w)' = u'/w - u w'/w^2
      return sub(div(differentiate(u, slot), w),
                 div(mul(u, differentiate(w, slot)), pow(w, num(2.0))));
    case BinaryOp::Power:
      return powerDerivative(e, u, w, slot);
    case BinaryOp::Less:
    case BinaryOp::LessEqual:
    case BinaryOp::Greater:
    case BinaryOp::GreaterEqual:
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
    case BinaryOp::And:
    case BinaryOp::Or:
      return num(0.0);
  }
  return num(0.0);
}

// d step(n, x, x0, h0, x1, h1) = step(n + 1, x, ...) x'; x0, h0, x1, h1 are constants (bind).
Expr stepDerivativeOf(const Expr& e, int slot) {
  const bool quintic = e->function == Function::Step5 || e->function == Function::Step5Derivative;
  const bool derivative = e->args.size() == 6;
  const double order = derivative ? e->args[0]->value + 1.0 : 1.0;
  std::vector<Expr> args{num(order)};
  args.insert(args.end(), e->args.end() - 5, e->args.end());
  const Expr dx = differentiate(args[1], slot);
  const Function f = quintic ? Function::Step5Derivative : Function::StepDerivative;
  return mul(simplifiedCall(f, std::move(args)), dx);
}

Expr callDerivative(const Expr& e, int slot) {
  if (isStep(e->function)) return stepDerivativeOf(e, slot);
  const Expr& u = e->args[0];
  const Expr du = differentiate(u, slot);
  // d f(u) = f'(u) u' for the functions of one argument
  const auto chain = [&](Expr outer) { return mul(std::move(outer), du); };
  const auto oneMinusSquare = [&] { return sub(num(1.0), pow(u, num(2.0))); };
  switch (e->function) {
    case Function::Sin:
      return chain(fn(Function::Cos, u));
    case Function::Cos:
      return chain(neg(fn(Function::Sin, u)));
    case Function::Tan:
      return div(du, pow(fn(Function::Cos, u), num(2.0)));
    case Function::Asin:
      return div(du, fn(Function::Sqrt, oneMinusSquare()));
    case Function::Acos:
      return neg(div(du, fn(Function::Sqrt, oneMinusSquare())));
    case Function::Atan:
      return div(du, add(num(1.0), pow(u, num(2.0))));
    case Function::Atan2: {
      // d atan2(y, x) = (x y' - y x') / (x^2 + y^2)
      const Expr& x = e->args[1];
      const Expr dx = differentiate(x, slot);
      return div(sub(mul(x, du), mul(u, dx)), add(pow(x, num(2.0)), pow(u, num(2.0))));
    }
    case Function::Sinh:
      return chain(fn(Function::Cosh, u));
    case Function::Cosh:
      return chain(fn(Function::Sinh, u));
    case Function::Tanh:
      return div(du, pow(fn(Function::Cosh, u), num(2.0)));
    case Function::Exp:
      return chain(e);
    case Function::Log:
      return div(du, u);
    case Function::Log10:
      return div(du, mul(num(std::numbers::ln10), u));
    case Function::Sqrt:
      return div(du, mul(num(2.0), e));
    case Function::Abs:
      return chain(fn(Function::Sign, u));
    case Function::Sign:
      return num(0.0);
    case Function::Min:
    case Function::Max: {
      // min(a, b)' = a <= b ? a' : b';  max(a, b)' = a >= b ? a' : b'
      const Expr& b = e->args[1];
      const BinaryOp pick =
          e->function == Function::Min ? BinaryOp::LessEqual : BinaryOp::GreaterEqual;
      return simplifiedConditional(simplifiedBinary(pick, u, b), du, differentiate(b, slot));
    }
    case Function::Step:
    case Function::Step5:
    case Function::StepDerivative:
    case Function::Step5Derivative:
      break;  // handled above
  }
  return num(0.0);
}

}  // namespace

Expr differentiate(const Expr& e, int slot) {
  if (!e) return nullptr;
  switch (e->kind) {
    case Kind::Constant:
    case Kind::Name:
      return num(0.0);
    case Kind::Slot:
      return num(e->slot == slot ? 1.0 : 0.0);
    case Kind::Unary:
      if (e->unaryOp == UnaryOp::Not) return num(0.0);
      return neg(differentiate(e->args[0], slot));
    case Kind::Binary:
      return binaryDerivative(e, slot);
    case Kind::Call:
      return callDerivative(e, slot);
    case Kind::Conditional:
      return simplifiedConditional(e->args[0], differentiate(e->args[1], slot),
                                   differentiate(e->args[2], slot));
  }
  return num(0.0);
}

}  // namespace rlx::expr
