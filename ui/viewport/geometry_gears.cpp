// Outlines of toothed parts for the gear, rack-and-pinion and screw symbols (scene_joints.cpp).
// Teeth are trapezoids of height 0.6 of the tooth pitch, centred on the pitch circle or line, so
// that two wheels (or a wheel and a rack) drawn with the same pitch mesh at the pitch point.
#include "viewport/geometry.h"

#include <cmath>
#include <numbers>

namespace rlx::ui::geometry {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr double kToothHeight = 0.6;  // of the tooth pitch

}  // namespace

int teethOn(double pitchRadius, double toothPitch) {
  return std::max(6, static_cast<int>(std::lround(kTwoPi * pitchRadius / toothPitch)));
}

Outline gearOutline(const Vec2& centre, double pitchRadius, int teeth, bool ring, double toothAngle) {
  const double step = kTwoPi / teeth;
  const double half = 0.5 * kToothHeight * kTwoPi * pitchRadius / teeth;
  const double tip = ring ? pitchRadius - half : pitchRadius + half;
  const double root = ring ? pitchRadius + half : pitchRadius - half;
  Outline out;
  const auto at = [&](double r, double a) { out.push_back(centre + r * Vec2(std::cos(a), std::sin(a))); };
  for (int k = 0; k < teeth; ++k) {
    const double a = toothAngle + k * step;
    at(root, a - 0.35 * step);
    at(tip, a - 0.15 * step);
    at(tip, a + 0.15 * step);
    at(root, a + 0.35 * step);
  }
  return out;
}

Outline rackOutline(const Vec2& centre, const Vec2& axis, const Vec2& towards, double length,
                    double toothPitch) {
  const Vec2 u = axis.normalized(), n = towards.normalized();
  const double half = 0.5 * kToothHeight * toothPitch;
  const int teeth = 2 * std::max(1, static_cast<int>(0.5 * length / toothPitch));
  Outline out;
  const auto at = [&](double x, double y) { out.push_back(centre + x * u + y * n); };
  const double first = -0.5 * (teeth - 1) * toothPitch;  // a gap at the centre
  for (int k = 0; k < teeth; ++k) {
    const double x = first + k * toothPitch;
    at(x - 0.35 * toothPitch, -half);
    at(x - 0.15 * toothPitch, half);
    at(x + 0.15 * toothPitch, half);
    at(x + 0.35 * toothPitch, -half);
  }
  // The rack's back, below the roots.
  at(-first + 0.5 * toothPitch, -4 * half);
  at(first - 0.5 * toothPitch, -4 * half);
  return out;
}

std::vector<Vec3> helix(const Vec3& centre, const Eigen::Matrix3d& frame, double radius,
                        double length, int turns) {
  std::vector<Vec3> out;
  const int samples = 24 * turns;
  for (int k = 0; k <= samples; ++k) {
    const double s = static_cast<double>(k) / samples, a = kTwoPi * turns * s;
    out.push_back(centre + frame * Vec3(radius * std::cos(a), radius * std::sin(a), length * (s - 0.5)));
  }
  return out;
}

}  // namespace rlx::ui::geometry
