#pragma once
// A plane curve c(u) fixed in a body (body coordinates), on which the cam families
// (point_on_curve, curve_on_curve) keep their contact. Two kinds:
//   - expressions x(u), y(u) of the parameter u and the model's parameters, differentiated
//     exactly (expr::differentiate); `range` [from, to] is where contact is searched for and what
//     is drawn, and the expressions continue beyond it, so a contact may run past an open end;
//   - points through which a periodic cubic spline passes (closed), parametrised by chord length
//     (u runs from 0 to the polygon's perimeter), with C2 continuity.
// A closed curve repeats with period to - from. An offset d moves every point by d along the unit
// left normal R c'/|c'| (R: +90 degrees): a cam's profile from its pitch curve (the path of the
// roller's centre) is that curve offset by the roller's radius, towards the cam.

#include "expr/expr.h"

#include <Eigen/Dense>

#include <array>
#include <string>
#include <vector>

namespace rlx {

class Curve {
 public:
  using Vec2 = Eigen::Vector2d;

  // The point and its first three derivatives with respect to u.
  struct Point {
    Vec2 c, d1, d2, d3;
  };

  // x and y bound to slot 0 = u (no other slot), each with its first four derivatives.
  using Derivatives = std::array<expr::Expr, 5>;
  static Curve expressions(const Derivatives& x, const Derivatives& y, double from, double to,
                           bool closed, double offset = 0.0);
  // At least 3 points, consecutive ones (and the last and the first) distinct.
  static Curve spline(const std::vector<Vec2>& points, double offset = 0.0);

  Point at(double u) const;
  double from() const { return from_; }
  double to() const { return to_; }
  bool closed() const { return closed_; }
  // u brought into [from, to) on a closed curve; unchanged on an open one.
  double wrap(double u) const;

  // Evenly spaced in u over the range (closed: the end left out), for the contact search and the
  // drawing.
  const std::vector<double>& sampleParameters() const { return sampleU_; }
  const std::vector<Vec2>& samples() const { return samples_; }

  // Why the curve cannot carry a contact ("the curve has a cusp at u = 0.5: x' = y' = 0"), or "".
  std::string defect() const;

 private:
  double from_ = 0.0, to_ = 1.0;
  bool closed_ = false;
  double offset_ = 0.0;
  Derivatives x_, y_;  // expressions: value and four derivatives
  // spline: knots t_0 < ... < t_n (t_n = perimeter), the points and second derivatives at them
  std::vector<double> knots_;
  std::vector<Vec2> points_, second_;
  std::vector<double> sampleU_;
  std::vector<Vec2> samples_;

  // The curve before the offset: value and four derivatives.
  std::array<Vec2, 5> base(double u) const;
  void sample();
};

}  // namespace rlx
