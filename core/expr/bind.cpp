// Binding: names become slots or constants, and the tree is rebuilt with the simplifying
// builders, so every part without a slot folds into one constant.

#include <string>
#include <utility>

#include "expr/node.h"

namespace rlx::expr {

namespace {

// The check of a step call once its arguments are bound: x0 < x1, both and h0, h1 constant.
std::string stepError(Function function, const std::vector<Expr>& args) {
  const std::string name = functionInfo(function).name;
  const auto parameter = [&](int i) { return args[args.size() - 4 + static_cast<size_t>(i)]; };
  for (int i = 0; i < 4; ++i) {
    if (parameter(i)->kind != Kind::Constant) {
      return name + ": x0, h0, x1 and h1 must not depend on variables";
    }
  }
  const double x0 = parameter(0)->value;
  const double x1 = parameter(2)->value;
  if (!(x0 < x1)) {
    return name + ": x0 must be less than x1, got x0 = " + numberText(x0) +
           " and x1 = " + numberText(x1);
  }
  return {};
}

Expr bound(const Expr& e, const Resolver& resolve, std::string& error) {
  if (e->kind == Kind::Constant || e->kind == Kind::Slot) return e;
  if (e->kind == Kind::Name) {
    const Binding binding = resolve ? resolve(e->name) : Binding{};
    if (const int* slot = std::get_if<int>(&binding); slot && *slot >= 0) return makeSlot(*slot);
    if (const double* value = std::get_if<double>(&binding)) return constant(*value);
    error = "unknown variable '" + e->name + "'";
    return nullptr;
  }
  std::vector<Expr> args;
  for (const Expr& a : e->args) {
    args.push_back(bound(a, resolve, error));
    if (!args.back()) return nullptr;
  }
  switch (e->kind) {
    case Kind::Unary:
      return simplifiedUnary(e->unaryOp, args[0]);
    case Kind::Binary:
      return simplifiedBinary(e->binaryOp, args[0], args[1]);
    case Kind::Call:
      if (isStep(e->function)) {
        error = stepError(e->function, args);
        if (!error.empty()) return nullptr;
      }
      return simplifiedCall(e->function, std::move(args));
    case Kind::Conditional:
      return simplifiedConditional(args[0], args[1], args[2]);
    case Kind::Constant:
    case Kind::Slot:
    case Kind::Name:
      break;  // handled above
  }
  return e;
}

}  // namespace

Expr bind(const Expr& e, const Resolver& resolve, std::string* error) {
  std::string message = e ? std::string{} : "no expression to bind";
  const Expr result = e ? bound(e, resolve, message) : nullptr;
  if (error) *error = result ? std::string{} : message;
  return result;
}

}  // namespace rlx::expr
