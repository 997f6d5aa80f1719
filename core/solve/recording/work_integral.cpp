#include "solve/recording/work_integral.h"

#include <algorithm>
#include <cmath>

namespace rlx {
namespace {

constexpr double kSmallestGap = 0.25;  // an older sample's gap, in new steps

}  // namespace

void WorkIntegral::add(double t, double power) {
  constexpr int last = kSamples - 1;
  if (count_ > 0 && t == t_[last]) {
    power_[last] = power;
    return;
  }
  std::rotate(t_.begin(), t_.begin() + 1, t_.end());
  std::rotate(power_.begin(), power_.begin() + 1, power_.end());
  t_[last] = t;
  power_[last] = power;
  count_ = std::min(count_ + 1, kSamples);
  if (count_ < 2) return;
  const int oldest = kSamples - count_;
  if (starting_) {
    double shortest = t_[last] - t_[last - 1], longest = shortest;
    for (int i = oldest; i < last; ++i) {
      shortest = std::min(shortest, t_[i + 1] - t_[i]);
      longest = std::max(longest, t_[i + 1] - t_[i]);
    }
    starting_ = shortest >= kSmallestGap * longest;
    if (starting_) {
      work_ = integral(oldest, oldest);
      starting_ = count_ < kSamples;
      return;
    }
  }
  const double h = t_[last] - t_[last - 1];
  int first = last - 1;
  while (first > oldest && t_[first] - t_[first - 1] >= kSmallestGap * h) --first;
  work_ += integral(first, last - 1);
}

double WorkIntegral::integral(int first, int from) const {
  constexpr int last = kSamples - 1;
  // Lagrange's form of the interpolant, at the two Gauss points of each step.
  const auto interpolant = [&](double x) {
    double value = 0.0;
    for (int i = first; i <= last; ++i) {
      double weight = 1.0;
      for (int j = first; j <= last; ++j)
        if (j != i) weight *= (x - t_[j]) / (t_[i] - t_[j]);
      value += weight * power_[i];
    }
    return value;
  };
  const double offset = 0.5 / std::sqrt(3.0);
  double sum = 0.0;
  for (int k = from; k < last; ++k) {
    const double h = t_[k + 1] - t_[k], middle = 0.5 * (t_[k] + t_[k + 1]);
    sum += 0.5 * h * (interpolant(middle - offset * h) + interpolant(middle + offset * h));
  }
  return sum;
}

}  // namespace rlx
