#include "joints/curve.h"

#include <Eigen/Sparse>
#include <Eigen/SparseLU>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace rlx {
namespace {

constexpr int kSamples = 256;

// Truncated Taylor series in u, a[k] = (k-th derivative) / k!, to the third order: the offset
// curve's derivatives from the base curve's.
using Series = std::array<double, 4>;

Series times(const Series& a, const Series& b) {
  Series out{};
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t i = 0; i <= k; ++i) out[k] += a[i] * b[k - i];
  return out;
}

Series over(const Series& a, const Series& b) {
  Series q{};
  for (std::size_t k = 0; k < 4; ++k) {
    double sum = a[k];
    for (std::size_t i = 1; i <= k; ++i) sum -= b[i] * q[k - i];
    q[k] = sum / b[0];
  }
  return q;
}

Series root(const Series& a) {
  Series s{};
  s[0] = std::sqrt(a[0]);
  for (std::size_t k = 1; k < 4; ++k) {
    double sum = a[k];
    for (std::size_t i = 1; i < k; ++i) sum -= s[i] * s[k - i];
    s[k] = sum / (2 * s[0]);
  }
  return s;
}

}  // namespace

Curve Curve::expressions(const Derivatives& x, const Derivatives& y, double from, double to,
                         bool closed, double offset) {
  Curve curve;
  curve.from_ = from;
  curve.to_ = to;
  curve.closed_ = closed;
  curve.offset_ = offset;
  curve.x_ = x;
  curve.y_ = y;
  curve.sample();
  return curve;
}

// The periodic cubic spline through the points: second derivatives M_i from the cyclic
// tridiagonal system
//   h_{i-1} M_{i-1} + 2 (h_{i-1} + h_i) M_i + h_i M_{i+1} = 6 (s_i - s_{i-1}),
// h_i the chord from point i to i + 1 and s_i its slope (the closing chord included).
Curve Curve::spline(const std::vector<Vec2>& points, double offset) {
  Curve curve;
  curve.closed_ = true;
  curve.offset_ = offset;
  curve.points_ = points;
  const int n = static_cast<int>(points.size());
  curve.knots_.assign(static_cast<std::size_t>(n) + 1, 0.0);
  for (int i = 0; i < n; ++i)
    curve.knots_[static_cast<std::size_t>(i) + 1] =
        curve.knots_[static_cast<std::size_t>(i)] +
        (points[static_cast<std::size_t>((i + 1) % n)] - points[static_cast<std::size_t>(i)]).norm();
  const auto h = [&](int i) {
    const auto k = static_cast<std::size_t>((i + n) % n);
    return curve.knots_[k + 1] - curve.knots_[k];
  };
  const auto slope = [&](int i) -> Vec2 {
    const auto k = static_cast<std::size_t>((i + n) % n);
    return (points[(k + 1) % static_cast<std::size_t>(n)] - points[k]) / h(i);
  };
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::MatrixX2d rhs(n, 2);
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, (i + n - 1) % n, h(i - 1));
    entries.emplace_back(i, i, 2 * (h(i - 1) + h(i)));
    entries.emplace_back(i, (i + 1) % n, h(i));
    rhs.row(i) = 6 * (slope(i) - slope(i - 1)).transpose();
  }
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(A);
  const Eigen::MatrixX2d M = lu.solve(rhs);
  for (int i = 0; i < n; ++i) curve.second_.push_back(M.row(i).transpose());
  curve.from_ = 0.0;
  curve.to_ = curve.knots_.back();
  curve.sample();
  return curve;
}

double Curve::wrap(double u) const {
  if (!closed_) return u;
  const double period = to_ - from_;
  const double w = from_ + std::fmod(u - from_, period);
  return w < from_ ? w + period : w;
}

std::array<Curve::Vec2, 5> Curve::base(double u) const {
  std::array<Vec2, 5> c;
  const double w = wrap(u);
  if (points_.empty()) {
    const double slot[] = {w};
    for (std::size_t k = 0; k < 5; ++k) c[k] = {expr::evaluate(x_[k], slot), expr::evaluate(y_[k], slot)};
    return c;
  }
  // The spline's segment i holding u, at s = u - t_i of its length L:
  //   c = M_i (L - s)^3 / 6L + M_{i+1} s^3 / 6L + (P_i / L - M_i L / 6)(L - s) + (P_{i+1} / L - M_{i+1} L / 6) s.
  const auto it = std::upper_bound(knots_.begin(), knots_.end(), w);
  const std::size_t n = points_.size();
  const std::size_t i = std::min<std::size_t>(
      n - 1, static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, it - knots_.begin() - 1)));
  const std::size_t j = (i + 1) % n;
  const double L = knots_[i + 1] - knots_[i], s = w - knots_[i], r = L - s;
  const Vec2 &Mi = second_[i], &Mj = second_[j];
  const Vec2 a = points_[i] / L - Mi * L / 6, b = points_[j] / L - Mj * L / 6;
  c[0] = Mi * (r * r * r) / (6 * L) + Mj * (s * s * s) / (6 * L) + a * r + b * s;
  c[1] = -Mi * (r * r) / (2 * L) + Mj * (s * s) / (2 * L) - a + b;
  c[2] = Mi * r / L + Mj * s / L;
  c[3] = (Mj - Mi) / L;
  c[4] = Vec2::Zero();
  return c;
}

Curve::Point Curve::at(double u) const {
  const std::array<Vec2, 5> c = base(u);
  if (offset_ == 0.0) return {c[0], c[1], c[2], c[3]};
  // c + d R T / |T|, T = c', in series: T's coefficients are c^(k+1) / k!.
  constexpr double kFactorial[] = {1, 1, 2, 6};
  Series tx{}, ty{};
  for (std::size_t k = 0; k < 4; ++k) {
    tx[k] = c[k + 1].x() / kFactorial[k];
    ty[k] = c[k + 1].y() / kFactorial[k];
  }
  const Series length = root([&] {
    Series sum = times(tx, tx);
    const Series yy = times(ty, ty);
    for (std::size_t k = 0; k < 4; ++k) sum[k] += yy[k];
    return sum;
  }());
  const Series nx = over(ty, length), ny = over(tx, length);  // R T / |T| = (-ty, tx) / |T|
  std::array<Vec2, 4> out;
  for (std::size_t k = 0; k < 4; ++k)
    out[k] = c[k] + offset_ * kFactorial[k] * Vec2(-nx[k], ny[k]);
  return {out[0], out[1], out[2], out[3]};
}

void Curve::sample() {
  const int count = closed_ ? kSamples : kSamples + 1;
  for (int k = 0; k < count; ++k) {
    const double u = from_ + (to_ - from_) * k / kSamples;
    sampleU_.push_back(u);
    samples_.push_back(at(u).c);
  }
}

std::string Curve::defect() const {
  double extent = 0.0;
  for (const Vec2& p : samples_) extent = std::max(extent, p.cwiseAbs().maxCoeff());
  for (const double u : sampleU_) {
    const Point p = at(u);
    std::ostringstream where;
    where << "u = " << u;
    if (!p.c.allFinite() || !p.d1.allFinite() || !p.d2.allFinite() || !p.d3.allFinite())
      return "is not finite at " + where.str();
    if (p.d1.norm() <= 1e-9 * std::max(extent, 1e-300) / (to_ - from_))
      return "has a cusp at " + where.str() + " (the tangent x'(u), y'(u) vanishes)";
    // An offset beyond the radius of curvature turns the tangent back: the profile loops.
    const std::array<Vec2, 5> c = base(u);
    if (offset_ != 0.0 && p.d1.dot(c[1]) <= 0.0) {
      const double speed = c[1].norm();
      std::ostringstream radius;
      radius << speed * speed * speed / std::abs(c[1].x() * c[2].y() - c[1].y() * c[2].x());
      std::ostringstream offset;
      offset << offset_;
      return "undercuts at " + where.str() + ": its offset " + offset.str() +
             " reaches beyond the radius of curvature " + radius.str() +
             " there (the offset curve would loop; a smaller roller or a larger cam)";
    }
  }
  if (closed_ && points_.empty() && (at(to_).c - at(from_).c).norm() > 1e-9 * std::max(extent, 1.0))
    return "is closed but ends at a point other than its start (x(to), y(to) differs from x(from), y(from))";
  return {};
}

}  // namespace rlx
