#pragma once
// |A^-1|_1 of a factored square matrix by Hager's method (as LAPACK's xLACON and Eigen's rcond,
// without their temporaries): the largest |A^-1 x|_1 over sign vectors x / n, then over unit
// vectors. A lower bound, usually within a small factor; a few solves, no allocation.
//   x: work vector of the matrix's size; solve(x): x <- A^-1 x; solveTransposed(x): x <- A^-T x.

#include <Eigen/Dense>

namespace rlx {

template <typename Solve, typename SolveTransposed>
double inverseNormEstimate(Eigen::VectorXd& x, Solve&& solve, SolveTransposed&& solveTransposed) {
  const Eigen::Index n = x.size();
  if (n == 0) return 0.0;
  x.setConstant(1.0 / static_cast<double>(n));
  solve(x);
  double estimate = x.lpNorm<1>();
  Eigen::Index previous = -1;
  for (int k = 0; k < 5; ++k) {
    // x = A^-T sign(x), and its largest entry as the next unit vector.
    x = x.cwiseSign();
    solveTransposed(x);
    Eigen::Index largest = 0;
    x.cwiseAbs().maxCoeff(&largest);
    if (largest == previous) break;
    previous = largest;
    x.setZero();
    x(largest) = 1.0;
    solve(x);
    const double next = x.lpNorm<1>();
    if (next <= estimate) break;
    estimate = next;
  }
  return estimate;
}

}  // namespace rlx
