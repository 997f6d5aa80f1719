// Evaluation of a bound tree: a recursive walk, no allocation. IEEE arithmetic throughout: a
// division by zero or the log of a negative number gives inf or NaN, which callers check.

#include <array>
#include <cmath>
#include <limits>

#include "expr/node.h"

namespace rlx::expr {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double truth(bool b) {
  return b ? 1.0 : 0.0;
}

double sign(double x) {
  return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x;
}

double unary(UnaryOp op, double a) {
  switch (op) {
    case UnaryOp::Negate:
      return -a;
    case UnaryOp::Not:
      return truth(a == 0.0);
  }
  return kNaN;
}

double binary(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::Add:
      return a + b;
    case BinaryOp::Subtract:
      return a - b;
    case BinaryOp::Multiply:
      return a * b;
    case BinaryOp::Divide:
      return a / b;
    case BinaryOp::Power:
      return std::pow(a, b);
    case BinaryOp::Less:
      return truth(a < b);
    case BinaryOp::LessEqual:
      return truth(a <= b);
    case BinaryOp::Greater:
      return truth(a > b);
    case BinaryOp::GreaterEqual:
      return truth(a >= b);
    case BinaryOp::Equal:
      return truth(a == b);
    case BinaryOp::NotEqual:
      return truth(a != b);
    case BinaryOp::And:
    case BinaryOp::Or:
      break;  // short-circuit: handled by the caller
  }
  return kNaN;
}

double call(const Node& n, std::span<const double> slots) {
  const auto arg = [&](int i) { return evaluate(n.args[static_cast<size_t>(i)], slots); };
  switch (n.function) {
    case Function::Sin:
      return std::sin(arg(0));
    case Function::Cos:
      return std::cos(arg(0));
    case Function::Tan:
      return std::tan(arg(0));
    case Function::Asin:
      return std::asin(arg(0));
    case Function::Acos:
      return std::acos(arg(0));
    case Function::Atan:
      return std::atan(arg(0));
    case Function::Atan2:
      return std::atan2(arg(0), arg(1));
    case Function::Sinh:
      return std::sinh(arg(0));
    case Function::Cosh:
      return std::cosh(arg(0));
    case Function::Tanh:
      return std::tanh(arg(0));
    case Function::Exp:
      return std::exp(arg(0));
    case Function::Log:
      return std::log(arg(0));
    case Function::Log10:
      return std::log10(arg(0));
    case Function::Sqrt:
      return std::sqrt(arg(0));
    case Function::Abs:
      return std::abs(arg(0));
    case Function::Min:
      return std::fmin(arg(0), arg(1));
    case Function::Max:
      return std::fmax(arg(0), arg(1));
    case Function::Sign:
      return sign(arg(0));
    case Function::Step:
      return stepDerivative(false, 0, arg(0), arg(1), arg(2), arg(3), arg(4));
    case Function::Step5:
      return stepDerivative(true, 0, arg(0), arg(1), arg(2), arg(3), arg(4));
    case Function::StepDerivative:
    case Function::Step5Derivative:
      return stepDerivative(n.function == Function::Step5Derivative, static_cast<int>(arg(0)),
                            arg(1), arg(2), arg(3), arg(4), arg(5));
  }
  return kNaN;
}

}  // namespace

// p(s) = 3s^2 - 2s^3 (cubic) or 10s^3 - 15s^4 + 6s^5 (quintic), s = (x - x0)/(x1 - x0);
// step = h0 + (h1 - h0) p(s), so d^n step/dx^n = (h1 - h0) p^(n)(s) / (x1 - x0)^n inside.
double stepDerivative(bool quintic, int n, double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return n == 0 ? h0 : 0.0;
  if (x >= x1) return n == 0 ? h1 : 0.0;
  std::array<double, 6> p = quintic ? std::array<double, 6>{0, 0, 0, 10, -15, 6}
                                    : std::array<double, 6>{0, 0, 3, -2, 0, 0};
  // Differentiate the polynomial n times (coefficient k of p' is (k+1) p[k+1]).
  for (int order = 0; order < n; ++order) {
    for (size_t k = 0; k + 1 < p.size(); ++k) p[k] = static_cast<double>(k + 1) * p[k + 1];
    p.back() = 0.0;
  }
  const double width = x1 - x0;
  const double s = (x - x0) / width;
  double value = 0.0;
  for (size_t k = p.size(); k-- > 0;) value = value * s + p[k];
  return (n == 0 ? h0 : 0.0) + (h1 - h0) * value / std::pow(width, n);
}

double evaluate(const Expr& e, std::span<const double> slots) {
  if (!e) return kNaN;
  const Node& n = *e;
  switch (n.kind) {
    case Kind::Constant:
      return n.value;
    case Kind::Slot:
      return static_cast<size_t>(n.slot) < slots.size() ? slots[static_cast<size_t>(n.slot)] : kNaN;
    case Kind::Name:
      return kNaN;
    case Kind::Unary:
      return unary(n.unaryOp, evaluate(n.args[0], slots));
    case Kind::Binary:
      if (n.binaryOp == BinaryOp::And) {
        return truth(evaluate(n.args[0], slots) != 0.0 && evaluate(n.args[1], slots) != 0.0);
      }
      if (n.binaryOp == BinaryOp::Or) {
        return truth(evaluate(n.args[0], slots) != 0.0 || evaluate(n.args[1], slots) != 0.0);
      }
      return binary(n.binaryOp, evaluate(n.args[0], slots), evaluate(n.args[1], slots));
    case Kind::Call:
      return call(n, slots);
    case Kind::Conditional:
      return evaluate(n.args[evaluate(n.args[0], slots) != 0.0 ? 1 : 2], slots);
  }
  return kNaN;
}

}  // namespace rlx::expr
