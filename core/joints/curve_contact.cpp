#include "joints/curve_contact.h"

#include "joints/curve.h"
#include "joints/jet.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace rlx {
namespace {

using planar::Vec2;

// A curve quantity (point or tangent) at u from its value and two derivatives.
template <int N>
Jet2<N> along(const Vec2& value, const Vec2& rate, const Vec2& curvature, const Jet<N>& u) {
  return {u.chain(value.x(), rate.x(), curvature.x()), u.chain(value.y(), rate.y(), curvature.y())};
}

// A body's pose in jets: variables First, First + 1, First + 2 (x, y, phi), or constants
// (First < 0).
template <int N>
struct Placement {
  Jet2<N> r;
  Jet<N> c, s;
  Jet2<N> point(const Jet2<N>& local) const { return r + rotated(c, s, local); }
  Jet2<N> direction(const Jet2<N>& local) const { return rotated(c, s, local); }
};

template <int N, int First>
Placement<N> placement(const planar::Body& b) {
  if constexpr (First < 0) {
    return {{Jet<N>(b.r.x()), Jet<N>(b.r.y())}, Jet<N>(std::cos(b.phi)), Jet<N>(std::sin(b.phi))};
  } else {
    const Jet<N> phi = Jet<N>::variable(First + 2, b.phi);
    return {{Jet<N>::variable(First, b.r.x()), Jet<N>::variable(First + 1, b.r.y())}, cos(phi),
            sin(phi)};
  }
}

template <int N>
struct Equations {
  Jet<N> h, f0, f1;  // f1: curve_on_curve only
  Vec2 point;        // X2
};

// The jets' variables: with Pose, body1's (x, y, phi) and body2's, then the curve parameters
// (u1 of a pair, then u2); without, the curve parameters alone.
template <bool Pair, bool Pose>
constexpr int kVariables = (Pose ? 6 : 0) + (Pair ? 2 : 1);

// h and f at (u1, u2) (u1: a pair's only).
template <bool Pair, bool Pose, int N = kVariables<Pair, Pose>>
Equations<N> equations(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                       double u1, double u2) {
  constexpr int u = Pose ? 6 : 0;
  const Placement<N> p1 = placement<N, Pose ? 0 : -1>(b1);
  const Placement<N> p2 = placement<N, Pose ? 3 : -1>(b2);
  const Curve::Point k2 = joint.curves[1]->at(u2);
  const Jet<N> w2 = Jet<N>::variable(Pair ? u + 1 : u, u2);
  const Jet2<N> X2 = p2.point(along(k2.c, k2.d1, k2.d2, w2));
  const Jet2<N> T2 = p2.direction(along(k2.d1, k2.d2, k2.d3, w2));
  Equations<N> e;
  Jet2<N> X1;
  if constexpr (Pair) {
    const Curve::Point k1 = joint.curves[0]->at(u1);
    const Jet<N> w1 = Jet<N>::variable(u, u1);
    X1 = p1.point(along(k1.c, k1.d1, k1.d2, w1));
    e.f1 = cross(p1.direction(along(k1.d1, k1.d2, k1.d3, w1)), T2);
  } else {
    X1 = p1.point(Jet2<N>{Jet<N>(joint.s1.x()), Jet<N>(joint.s1.y())});
  }
  const Jet2<N> D = X1 - X2;
  e.h = dot(perp(T2), D) / sqrt(dot(T2, T2));
  e.f0 = dot(T2, D);
  e.point = {X2.x.value, X2.y.value};
  return e;
}

// The nearest samples: (u1, u2) to start Newton from.
std::pair<double, double> nearestSamples(const Joint& joint, const planar::Body& b1,
                                         const planar::Body& b2) {
  const Curve& c2 = *joint.curves[1];
  // Body1's pose in body2's coordinates.
  const planar::Mat2 A = b2.A.transpose() * b1.A;
  const Vec2 o = b2.A.transpose() * (b1.r - b2.r);
  double best = std::numeric_limits<double>::infinity();
  std::pair<double, double> u{0.0, c2.from()};
  if (!joint.curves[0]) {
    const Vec2 p = o + A * joint.s1.head<2>();
    for (std::size_t j = 0; j < c2.samples().size(); ++j)
      if (const double d = (p - c2.samples()[j]).squaredNorm(); d < best) {
        best = d;
        u.second = c2.sampleParameters()[j];
      }
    return u;
  }
  const Curve& c1 = *joint.curves[0];
  constexpr std::size_t stride = 4;  // 64 x 64 pairs
  for (std::size_t i = 0; i < c1.samples().size(); i += stride) {
    const Vec2 p = o + A * c1.samples()[i];
    for (std::size_t j = 0; j < c2.samples().size(); j += stride)
      if (const double d = (p - c2.samples()[j]).squaredNorm(); d < best) {
        best = d;
        u = {c1.sampleParameters()[i], c2.sampleParameters()[j]};
      }
  }
  return u;
}

// Newton on f = 0 for the curve parameters, steps limited to an eighth of each range.
std::pair<double, double> solveParameters(const Joint& joint, const planar::Body& b1,
                                          const planar::Body& b2) {
  auto [u1, u2] = nearestSamples(joint, b1, b2);
  const Curve& c2 = *joint.curves[1];
  const double span2 = c2.to() - c2.from();
  if (!joint.curves[0]) {
    for (int iteration = 0; iteration < 50; ++iteration) {
      const Jet<1> f = equations<false, false>(joint, b1, b2, u1, u2).f0;
      const double du = -f.value / f.g(0);
      if (!std::isfinite(du)) break;
      u2 += std::clamp(du, -span2 / 8, span2 / 8);
      if (std::abs(du) <= 1e-15 * (std::abs(u2) + span2)) break;
    }
    return {u1, u2};
  }
  const double span1 = joint.curves[0]->to() - joint.curves[0]->from();
  for (int iteration = 0; iteration < 50; ++iteration) {
    const Equations<2> e = equations<true, false>(joint, b1, b2, u1, u2);
    Eigen::Matrix2d J;
    J << e.f0.g.transpose(), e.f1.g.transpose();
    const Eigen::Vector2d du = J.partialPivLu().solve(-Eigen::Vector2d(e.f0.value, e.f1.value));
    if (!du.allFinite()) break;
    u1 += std::clamp(du(0), -span1 / 8, span1 / 8);
    u2 += std::clamp(du(1), -span2 / 8, span2 / 8);
    if (std::abs(du(0)) <= 1e-15 * (std::abs(u1) + span1) &&
        std::abs(du(1)) <= 1e-15 * (std::abs(u2) + span2))
      break;
  }
  return {u1, u2};
}

// Phi's gradient and Hessian from h and f through the implicit function u(q) (above).
template <int N>
CurveContact contactOf(const Equations<N>& e) {
  constexpr int K = N - 6;
  Eigen::Matrix<double, K, K> fu;
  Eigen::Matrix<double, K, 6> fq;
  fu.row(0) = e.f0.g.template tail<K>().transpose();
  fq.row(0) = e.f0.g.template head<6>().transpose();
  if constexpr (K == 2) {
    fu.row(1) = e.f1.g.template tail<K>().transpose();
    fq.row(1) = e.f1.g.template head<6>().transpose();
  }
  const Eigen::Matrix<double, K, 6> uq = -fu.partialPivLu().solve(fq);
  const Eigen::Matrix<double, K, 6> huq = e.h.H.template bottomLeftCorner<K, 6>();
  CurveContact c;
  c.distance = e.h.value;
  c.gradient = e.h.g.template head<6>() + uq.transpose() * e.h.g.template tail<K>();
  c.hessian = e.h.H.template topLeftCorner<6, 6>() + huq.transpose() * uq + uq.transpose() * huq +
              uq.transpose() * e.h.H.template bottomRightCorner<K, K>() * uq;
  c.point = e.point;
  return c;
}

}  // namespace

CurveContact curveContact(const Joint& joint, const planar::Body& b1, const planar::Body& b2) {
  const auto [u1, u2] = solveParameters(joint, b1, b2);
  CurveContact c = joint.curves[0] ? contactOf(equations<true, true>(joint, b1, b2, u1, u2))
                                   : contactOf(equations<false, true>(joint, b1, b2, u1, u2));
  c.u1 = joint.curves[0] ? joint.curves[0]->wrap(u1) : 0.0;
  c.u2 = joint.curves[1]->wrap(u2);
  return c;
}

}  // namespace rlx
