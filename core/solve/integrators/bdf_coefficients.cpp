#include "solve/integrators/bdf_coefficients.h"

namespace rlx {

void bdfDerivativeWeights(std::span<const double> times, std::span<double> alpha) {
  const std::size_t n = times.size();
  const double t0 = times[0];
  // The new point's weight: the derivative of l_0 at its own node.
  alpha[0] = 0.0;
  for (std::size_t m = 1; m < n; ++m) alpha[0] += 1.0 / (t0 - times[m]);
  // The past points' weights: l_j vanishes at t_0, so only the factor (t - t_0) is differentiated.
  for (std::size_t j = 1; j < n; ++j) {
    double num = 1.0, den = 1.0;
    for (std::size_t m = 0; m < n; ++m) {
      if (m == j) continue;
      if (m != 0) num *= t0 - times[m];
      den *= times[j] - times[m];
    }
    alpha[j] = num / den;
  }
}

void lagrangeWeights(std::span<const double> times, double t, std::span<double> w) {
  const std::size_t n = times.size();
  // w_j = prod_{m != j} (t - t_m) / (t_j - t_m).
  for (std::size_t j = 0; j < n; ++j) {
    w[j] = 1.0;
    for (std::size_t m = 0; m < n; ++m)
      if (m != j) w[j] *= (t - times[m]) / (times[j] - times[m]);
  }
}

}  // namespace rlx
