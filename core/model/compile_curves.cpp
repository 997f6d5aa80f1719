// The cams' curves (joints/curve.h): expressions of u and the parameters, or spline points.
#include "expr/node.h"
#include "joints/curve.h"
#include "joints/family.h"
#include "model/compiler.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

namespace rlx::detail {
namespace {

// What differentiating a tree may cost: a derivative's tree is at most about its size times its
// depth, so four derivatives of a long product grow by orders of magnitude. Each step is taken
// only while that bound stays within kDerivativeBudget nodes.
constexpr std::size_t kDerivativeBudget = 200000;

struct TreeExtent {
  std::size_t size = 0, depth = 0;
};

// Nodes counted with repetition (what evaluating walks) and the depth, memoized on the shared
// subtrees; sizes stop growing past the budget.
TreeExtent extentOf(const expr::Expr& e, std::unordered_map<const expr::Node*, TreeExtent>& seen) {
  if (const auto it = seen.find(e.get()); it != seen.end()) return it->second;
  TreeExtent out{1, 1};
  for (const expr::Expr& a : e->args) {
    const TreeExtent child = extentOf(a, seen);
    out.size = std::min(out.size + child.size, kDerivativeBudget + 1);
    out.depth = std::max(out.depth, child.depth + 1);
  }
  seen.emplace(e.get(), out);
  return out;
}

// The expression and its first four derivatives in u, or nothing (reported) when they grow
// past the budget.
std::optional<Curve::Derivatives> derivatives(Compiler& c, const expr::Expr& e,
                                              const std::string& element, const std::string& field) {
  Curve::Derivatives d{e};
  for (std::size_t k = 1; k < d.size(); ++k) {
    std::unordered_map<const expr::Node*, TreeExtent> seen;
    const TreeExtent extent = extentOf(d[k - 1], seen);
    if (extent.size * extent.depth > kDerivativeBudget) {
      c.error(element, field, "is too large to differentiate four times (its derivatives would "
                              "grow past " + std::to_string(kDerivativeBudget) +
                              " operations): write it more simply, or give the curve as points");
      return std::nullopt;
    }
    d[k] = expr::differentiate(d[k - 1], 0);
  }
  return d;
}

// An expression of u (slot 0) and the parameters.
expr::Expr curveExpression(Compiler& c, const std::string& text, const std::string& element,
                           const std::string& field) {
  const expr::Expr tree = c.parsed(text, element, field);
  if (!tree) return nullptr;
  const auto resolve = [&](const std::string& name) -> expr::Binding {
    if (name == "u") return 0;
    if (const auto it = c.parameters.find(name); it != c.parameters.end()) return it->second;
    return std::monostate{};
  };
  std::string why;
  const expr::Expr bound = expr::bind(tree, resolve, &why);
  if (!bound)
    c.error(element, field, "\"" + text + "\": " + why + " (a curve is a function of u and the parameters)");
  return bound;
}

std::shared_ptr<const Curve> curveOf(Compiler& c, const CurveSpec& s, const std::string& element,
                                     const std::string& key) {
  double offset = 0.0;
  if (s.offset) {
    const auto d = c.number(*s.offset, element, key + ".offset");
    if (!d) return nullptr;
    offset = *d;
  }
  if (!s.points.empty()) {
    std::vector<Curve::Vec2> points;
    for (std::size_t i = 0; i < s.points.size(); ++i)
      if (const auto p = c.vector(s.points[i], 2, element, key + ".points[" + std::to_string(i) + "]"))
        points.push_back(p->head<2>());
    if (points.size() != s.points.size()) return nullptr;
    if (points.size() < 3) {
      c.error(element, key + ".points", "must hold at least 3 points");
      return nullptr;
    }
    for (std::size_t i = 0; i < points.size(); ++i)
      if (points[i] == points[(i + 1) % points.size()]) {
        c.error(element, key + ".points", "repeats point " + std::to_string(i) +
                                              " (consecutive points, and the last and the first, must differ)");
        return nullptr;
      }
    return std::make_shared<const Curve>(Curve::spline(points, offset));
  }
  const expr::Expr x = curveExpression(c, s.x, element, key + ".x");
  const expr::Expr y = curveExpression(c, s.y, element, key + ".y");
  double from = 0.0, to = 2 * std::numbers::pi;
  if (s.range.size() == 2) {
    const auto a = c.number(s.range[0], element, key + ".range");
    const auto b = c.number(s.range[1], element, key + ".range");
    if (!a || !b) return nullptr;
    from = *a;
    to = *b;
    if (!(from < to) || !std::isfinite(to - from)) {
      c.error(element, key + ".range", "must run from a smaller to a larger finite value, got [" +
                                           std::to_string(from) + ", " + std::to_string(to) + "]");
      return nullptr;
    }
  }
  if (!x || !y) return nullptr;
  const auto dx = derivatives(c, x, element, key + ".x");
  const auto dy = derivatives(c, y, element, key + ".y");
  if (!dx || !dy) return nullptr;
  return std::make_shared<const Curve>(Curve::expressions(*dx, *dy, from, to, s.closed, offset));
}

}  // namespace

void Compiler::compileCurves(const JointSpec& s, Joint& j, const std::string& element) {
  const JointCurves wanted = jointFamily(s.type).curves;
  if (wanted == JointCurves::None) return;
  const auto one = [&](const std::optional<CurveSpec>& given, const std::string& key, int index,
                       const char* whose) {
    if (!given) {
      error(element, key, std::string("is missing (the curve on ") + whose + ")");
      return;
    }
    auto curve = curveOf(*this, *given, element, key);
    if (!curve) return;
    if (const std::string defect = curve->defect(); !defect.empty()) {
      error(element, key, defect);
      return;
    }
    j.curves[static_cast<std::size_t>(index)] = std::move(curve);
  };
  if (wanted == JointCurves::Both) one(s.curve1, "curve1", 0, "body1");
  one(s.curve2, "curve2", 1, "body2");
}

}  // namespace rlx::detail
