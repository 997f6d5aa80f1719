// Marker measures as vector algebra on expression texts. A marker on body B has the position
// B.(x,y,z) + R p and the axes R a, where R is B's rotation matrix (B.R11 ... B.R33), p and a its
// frame in B's; its velocity is B.(vx,vy,vz) + w x R p with w = B.(wx,wy,wz) in ground axes. A
// ground marker's vectors are numbers. Terms with a zero factor are left out.
#include "io/adams_measures.h"

#include "expr/node.h"

#include <array>
#include <cmath>

namespace rlx::adams {
namespace {

using Text = std::string;
using Vec = std::array<Text, 3>;

const Text kZero = "0";

Text number(double v) {
  return v < 0 ? "(" + expr::numberText(v) + ")" : expr::numberText(v);
}

Text plus(const Text& a, const Text& b) {
  if (a == kZero) return b;
  if (b == kZero) return a;
  return a + " + " + b;
}

Text minus(const Text& a, const Text& b) {
  if (b == kZero) return a;
  return (a == kZero ? "-" : a + " - ") + "(" + b + ")";
}

Text times(const Text& a, const Text& b) {
  if (a == kZero || b == kZero) return kZero;
  return "(" + a + ")*(" + b + ")";
}

// c * x for a number c.
Text scaled(double c, const Text& x) {
  if (c == 0.0 || x == kZero) return kZero;
  if (c == 1.0) return x;
  return number(c) + "*(" + x + ")";
}

Vec constant(const Eigen::Vector3d& v) {
  Vec out;
  for (int k = 0; k < 3; ++k) out[k] = v(k) == 0.0 ? kZero : number(v(k));
  return out;
}

// R v for body B's rotation matrix R.
Vec rotated(const std::string& body, const Eigen::Vector3d& v) {
  Vec out;
  for (int row = 0; row < 3; ++row) {
    Text sum = kZero;
    for (int col = 0; col < 3; ++col) {
      const Text entry = body + ".R" + std::to_string(row + 1) + std::to_string(col + 1);
      sum = plus(sum, v(col) == 1.0 ? entry : v(col) == 0.0 ? kZero : number(v(col)) + "*" + entry);
    }
    out[row] = sum;
  }
  return out;
}

Vec add(const Vec& a, const Vec& b) {
  return {plus(a[0], b[0]), plus(a[1], b[1]), plus(a[2], b[2])};
}
Vec subtract(const Vec& a, const Vec& b) {
  return {minus(a[0], b[0]), minus(a[1], b[1]), minus(a[2], b[2])};
}

Text dot(const Vec& a, const Vec& b) {
  Text out = kZero;
  for (int k = 0; k < 3; ++k) out = plus(out, times(a[k], b[k]));
  return out;
}

Vec cross(const Vec& a, const Vec& b) {
  return {minus(times(a[1], b[2]), times(a[2], b[1])), minus(times(a[2], b[0]), times(a[0], b[2])),
          minus(times(a[0], b[1]), times(a[1], b[0]))};
}

Text norm(const Vec& a) {
  const Text squares = dot(a, a);
  return squares == kZero ? kZero : "sqrt(" + squares + ")";
}

Vec position(const MarkerFrame& m) {
  if (m.body.empty()) return constant(m.origin);
  return add({m.body + ".x", m.body + ".y", m.body + ".z"}, rotated(m.body, m.origin));
}

Vec axis(const MarkerFrame& m, int column) {
  const Eigen::Vector3d a = m.axes.col(column);
  return m.body.empty() ? constant(a) : rotated(m.body, a);
}

Vec angularVelocity(const MarkerFrame& m) {
  if (m.body.empty()) return {kZero, kZero, kZero};
  return {m.body + ".wx", m.body + ".wy", m.body + ".wz"};
}

Vec velocity(const MarkerFrame& m) {
  if (m.body.empty()) return {kZero, kZero, kZero};
  const Vec base{m.body + ".vx", m.body + ".vy", m.body + ".vz"};
  return add(base, cross(angularVelocity(m), rotated(m.body, m.origin)));
}

struct Shape {
  const char* name;
  std::size_t arguments;  // at most
  int component;          // x y z as 0 1 2, -1 for a magnitude or a radial rate
};

constexpr Shape kShapes[] = {{"DX", 3, 0},  {"DY", 3, 1}, {"DZ", 3, 2}, {"DM", 2, -1},
                             {"VX", 4, 0},  {"VY", 4, 1}, {"VZ", 4, 2}, {"VR", 3, -1},
                             {"VM", 3, -1}, {"WX", 3, 0}, {"WY", 3, 1}, {"WZ", 3, 2},
                             {"WM", 2, -1}, {"AX", 2, 0}, {"AY", 2, 1}, {"AZ", 2, 2}};

const Shape* shapeOf(const std::string& name) {
  for (const Shape& s : kShapes)
    if (name == s.name) return &s;
  return nullptr;
}

}  // namespace

bool isMarkerMeasure(const std::string& name) {
  return shapeOf(name) != nullptr;
}

std::array<std::string, 3> markerAxis(const MarkerFrame& marker, int column) {
  return axis(marker, column);
}

std::optional<std::string> measureExpression(const std::string& name,
                                             const std::vector<long long>& ids,
                                             ExpressionContext& context, std::string& problem) {
  const Shape* shape = shapeOf(name);
  if (!shape) {
    problem = name + " is not a measure of markers";
    return std::nullopt;
  }
  if (ids.empty() || ids.size() > shape->arguments || ids[0] == 0) {
    problem = name + " takes a marker and up to " + std::to_string(shape->arguments - 1) +
              " more (" + std::to_string(ids.size()) + " given)";
    return std::nullopt;
  }
  // The i-th argument's frame: ground's (origin, global axes) when absent or 0.
  const auto frame = [&](std::size_t i) {
    return i < ids.size() && ids[i] != 0 ? context.marker(ids[i]) : MarkerFrame{};
  };
  const MarkerFrame mi = frame(0), mj = frame(1);
  const char kind = name[0];
  const int c = shape->component;
  const double perLength = 1.0 / context.length, perRate = context.time / context.length;
  const Vec d = subtract(position(mi), position(mj));

  if (kind == 'D') return scaled(perLength, c < 0 ? norm(d) : dot(d, axis(frame(2), c)));
  if (kind == 'A') {
    // The angle about j's axis c from j's next axis to i's (AZ: from x_j to x_i about z_j).
    if (c == 0)
      return "atan2(-(" + dot(axis(mi, 2), axis(mj, 1)) + "), " + dot(axis(mi, 2), axis(mj, 2)) +
             ")";
    if (c == 1)
      return "atan2(" + dot(axis(mi, 2), axis(mj, 0)) + ", " + dot(axis(mi, 2), axis(mj, 2)) + ")";
    return "atan2(" + dot(axis(mi, 0), axis(mj, 1)) + ", " + dot(axis(mi, 0), axis(mj, 0)) + ")";
  }
  context.usedVelocities = true;
  if (kind == 'W') {
    const Vec w = subtract(angularVelocity(mi), angularVelocity(mj));
    return scaled(context.time, c < 0 ? norm(w) : dot(w, axis(frame(2), c)));
  }
  // Velocities of i relative to j, differentiated in frame l (ground unless given).
  const std::size_t l = c < 0 ? 2 : 3;
  const Vec rate =
      subtract(subtract(velocity(mi), velocity(mj)), cross(angularVelocity(frame(l)), d));
  if (name == "VR") {
    const Text distance = norm(d);
    if (distance == kZero) {
      problem = "VR of two ground markers is not defined";
      return std::nullopt;
    }
    return scaled(perRate, "(" + dot(rate, d) + ")/" + distance);
  }
  return scaled(perRate, c < 0 ? norm(rate) : dot(rate, axis(frame(2), c)));
}

}  // namespace rlx::adams
