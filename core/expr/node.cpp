// Node construction and the queries that walk a tree.

#include "expr/node.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

namespace rlx::expr {

namespace {

constexpr std::array<FunctionInfo, 22> kFunctions{{
    {Function::Sin, "sin", 1, false},
    {Function::Cos, "cos", 1, false},
    {Function::Tan, "tan", 1, false},
    {Function::Asin, "asin", 1, false},
    {Function::Acos, "acos", 1, false},
    {Function::Atan, "atan", 1, false},
    {Function::Atan2, "atan2", 2, false},
    {Function::Sinh, "sinh", 1, false},
    {Function::Cosh, "cosh", 1, false},
    {Function::Tanh, "tanh", 1, false},
    {Function::Exp, "exp", 1, false},
    {Function::Log, "log", 1, false},
    {Function::Log10, "log10", 1, false},
    {Function::Sqrt, "sqrt", 1, false},
    {Function::Abs, "abs", 1, false},
    {Function::Min, "min", 2, false},
    {Function::Max, "max", 2, false},
    {Function::Sign, "sign", 1, false},
    {Function::Step, "step", 5, false},
    {Function::Step5, "step5", 5, false},
    {Function::StepDerivative, "stepd", 6, true},
    {Function::Step5Derivative, "step5d", 6, true},
}};

// A node with its operands.
Expr withArgs(Node node, std::vector<Expr> args) {
  node.args = std::move(args);
  return std::make_shared<const Node>(std::move(node));
}

// Calls visit(node) on every node of the tree until it returns true; true if one did.
template <class Visit>
bool anyNode(const Expr& e, const Visit& visit) {
  if (!e) return false;
  if (visit(*e)) return true;
  return std::any_of(e->args.begin(), e->args.end(),
                     [&](const Expr& a) { return anyNode(a, visit); });
}

}  // namespace

const FunctionInfo& functionInfo(Function function) {
  const auto* info = std::find_if(kFunctions.begin(), kFunctions.end(),
                                  [&](const FunctionInfo& f) { return f.function == function; });
  assert(info != kFunctions.end());
  return *info;
}

std::optional<Function> functionByName(std::string_view name) {
  for (const FunctionInfo& f : kFunctions) {
    if (!f.internal && name == f.name) return f.function;
  }
  return std::nullopt;
}

bool isStep(Function function) {
  return function == Function::Step || function == Function::Step5 ||
         function == Function::StepDerivative || function == Function::Step5Derivative;
}

Expr constant(double value) {
  Node node;
  node.value = value;
  return std::make_shared<const Node>(std::move(node));
}

Expr makeSlot(int slot) {
  assert(slot >= 0);
  Node node;
  node.kind = Kind::Slot;
  node.slot = slot;
  return std::make_shared<const Node>(std::move(node));
}

Expr makeName(std::string name) {
  Node node;
  node.kind = Kind::Name;
  node.name = std::move(name);
  return std::make_shared<const Node>(std::move(node));
}

Expr makeUnary(UnaryOp op, Expr a) {
  Node node;
  node.kind = Kind::Unary;
  node.unaryOp = op;
  return withArgs(std::move(node), {std::move(a)});
}

Expr makeBinary(BinaryOp op, Expr a, Expr b) {
  Node node;
  node.kind = Kind::Binary;
  node.binaryOp = op;
  return withArgs(std::move(node), {std::move(a), std::move(b)});
}

Expr makeCall(Function function, std::vector<Expr> args) {
  assert(static_cast<int>(args.size()) == functionInfo(function).arity);
  Node node;
  node.kind = Kind::Call;
  node.function = function;
  return withArgs(std::move(node), std::move(args));
}

Expr makeConditional(Expr condition, Expr then, Expr otherwise) {
  Node node;
  node.kind = Kind::Conditional;
  return withArgs(std::move(node), {std::move(condition), std::move(then), std::move(otherwise)});
}

std::vector<std::string> names(const Expr& e) {
  std::vector<std::string> found;
  anyNode(e, [&](const Node& n) {
    if (n.kind == Kind::Name && std::find(found.begin(), found.end(), n.name) == found.end()) {
      found.push_back(n.name);
    }
    return false;
  });
  return found;
}

bool isConstant(const Expr& e) {
  return e &&
         !anyNode(e, [](const Node& n) { return n.kind == Kind::Slot || n.kind == Kind::Name; });
}

bool dependsOn(const Expr& e, int slot) {
  return anyNode(e, [&](const Node& n) { return n.kind == Kind::Slot && n.slot == slot; });
}

std::optional<double> constantValue(const Expr& e) {
  if (!isConstant(e)) return std::nullopt;
  if (e->kind == Kind::Constant) return e->value;
  return evaluate(e, {});
}

}  // namespace rlx::expr
