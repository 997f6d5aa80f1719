#pragma once
// A second-order jet: a value with its exact gradient and Hessian with respect to N variables
// (forward-mode differentiation). The cam families (joints/curve_contact.cpp) write their
// distance once in jets and read Phi_q, gamma and the stiffness from it, with no hand-derived
// second derivatives to get wrong.

#include <Eigen/Dense>

#include <cmath>

namespace rlx {

template <int N>
struct Jet {
  using Gradient = Eigen::Matrix<double, N, 1>;
  using Hessian = Eigen::Matrix<double, N, N>;
  double value = 0.0;
  Gradient g = Gradient::Zero();
  Hessian H = Hessian::Zero();

  Jet() = default;
  Jet(double v) : value(v) {}  // NOLINT(google-explicit-constructor): constants mix with jets

  // The variable with index i, at value v.
  static Jet variable(int i, double v) {
    Jet x(v);
    x.g(i) = 1.0;
    return x;
  }

  // f(x) from f, f' and f'' at x.value (the chain rule to second order).
  Jet chain(double f, double df, double ddf) const {
    Jet out(f);
    out.g = df * g;
    out.H = df * H + ddf * g * g.transpose();
    return out;
  }
};

template <int N>
Jet<N> operator+(const Jet<N>& a, const Jet<N>& b) {
  Jet<N> out(a.value + b.value);
  out.g = a.g + b.g;
  out.H = a.H + b.H;
  return out;
}

template <int N>
Jet<N> operator-(const Jet<N>& a, const Jet<N>& b) {
  Jet<N> out(a.value - b.value);
  out.g = a.g - b.g;
  out.H = a.H - b.H;
  return out;
}

template <int N>
Jet<N> operator-(const Jet<N>& a) {
  return Jet<N>() - a;
}

template <int N>
Jet<N> operator*(const Jet<N>& a, const Jet<N>& b) {
  Jet<N> out(a.value * b.value);
  out.g = a.value * b.g + b.value * a.g;
  out.H = a.value * b.H + b.value * a.H + a.g * b.g.transpose() + b.g * a.g.transpose();
  return out;
}

template <int N>
Jet<N> operator*(double s, const Jet<N>& a) {
  Jet<N> out(s * a.value);
  out.g = s * a.g;
  out.H = s * a.H;
  return out;
}

template <int N>
Jet<N> operator/(const Jet<N>& a, const Jet<N>& b) {
  const double inv = 1.0 / b.value;
  return a * b.chain(inv, -inv * inv, 2 * inv * inv * inv);
}

template <int N>
Jet<N> sin(const Jet<N>& a) {
  return a.chain(std::sin(a.value), std::cos(a.value), -std::sin(a.value));
}

template <int N>
Jet<N> cos(const Jet<N>& a) {
  return a.chain(std::cos(a.value), -std::sin(a.value), -std::cos(a.value));
}

template <int N>
Jet<N> sqrt(const Jet<N>& a) {
  const double r = std::sqrt(a.value);
  return a.chain(r, 0.5 / r, -0.25 / (r * a.value));
}

// A 2-vector of jets.
template <int N>
struct Jet2 {
  Jet<N> x, y;
};

template <int N>
Jet2<N> operator+(const Jet2<N>& a, const Jet2<N>& b) { return {a.x + b.x, a.y + b.y}; }
template <int N>
Jet2<N> operator-(const Jet2<N>& a, const Jet2<N>& b) { return {a.x - b.x, a.y - b.y}; }
template <int N>
Jet<N> dot(const Jet2<N>& a, const Jet2<N>& b) { return a.x * b.x + a.y * b.y; }
template <int N>
Jet<N> cross(const Jet2<N>& a, const Jet2<N>& b) { return a.x * b.y - a.y * b.x; }
// Rotated by +90 degrees.
template <int N>
Jet2<N> perp(const Jet2<N>& a) { return {-a.y, a.x}; }
// a rotated by the angle whose cosine and sine are c and s.
template <int N>
Jet2<N> rotated(const Jet<N>& c, const Jet<N>& s, const Jet2<N>& a) {
  return {c * a.x - s * a.y, s * a.x + c * a.y};
}

}  // namespace rlx
