#pragma once
// Variable-step BDF coefficients in Lagrange form (the polynomial through past time points).
//
// Derivative weights: with times t_0 > t_1 > ... > t_k (t_0 the new point),
//   y'(t_0) ~ sum_j alpha_j y_j,   alpha_j = l_j'(t_0),   l_j the Lagrange basis polynomials:
//   alpha_0 = sum_{m>0} 1 / (t_0 - t_m),
//   alpha_j = prod_{m != 0, j} (t_0 - t_m) / prod_{m != j} (t_j - t_m)   (j > 0).
// For equal steps h this is BDF-k: alpha_0 = (1/h) sum_{m=1..k} 1/m = 1 / (h beta_0).
// Extrapolation weights: y(t) ~ sum_j w_j y_j with w_j = l_j(t) (the predictor).

#include <span>

namespace rlx {

void bdfDerivativeWeights(std::span<const double> times, std::span<double> alpha);

void lagrangeWeights(std::span<const double> times, double t, std::span<double> w);

}  // namespace rlx
