// The double four-bar's long runs at rounding-level changes (issue 18): `runs` perturbed double
// four-bars (bench/perturbed_double_four_bar.h, seeds 1 ... runs) each run `end` seconds with
// corrected-rk at h = 0.01, a frame every step. Prints each run that fails or misses a bound, then
// the survival count, the largest energy error |E - E0| (J) and crank non-parallelism (rad) over
// all runs, and the time per run. Bounds: reach the end, |E - E0| < 1e-3 J, cranks parallel to
// 1e-6 rad. Arguments: runs (default 200), end time in s (default 1000), first seed (default 1).
#include "perturbed_double_four_bar.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace rlx;

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
  const double end = argc > 2 ? std::atof(argv[2]) : 1000.0;
  const unsigned firstSeed = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 1u;
  DynamicsOptions options;
  options.integrator = Integrator::CorrectedRK;
  options.step = 0.01;
  options.outputStep = 0.01;
  options.endTime = end;
  int survived = 0, withinBounds = 0;
  double worstEnergy = 0.0, worstParallel = 0.0, seconds = 0.0;
  for (int k = 0; k < runs; ++k) {
    const unsigned seed = firstSeed + static_cast<unsigned>(k);
    const bench::DoubleFourBarRun run =
        bench::runDoubleFourBar(bench::perturbedDoubleFourBar(seed), options);
    survived += run.reachedEnd;
    const bool within = run.reachedEnd && run.energyError < 1e-3 && run.nonParallel < 1e-6;
    withinBounds += within;
    worstEnergy = std::max(worstEnergy, run.energyError);
    worstParallel = std::max(worstParallel, run.nonParallel);
    seconds += run.seconds;
    std::printf("seed %4u: %s t = %.2f s, |E - E0| %.3g J, cranks %.3g rad, %.2f s%s%s\n", seed,
                within ? "ok  " : "FAIL", run.endTime, run.energyError, run.nonParallel,
                run.seconds, run.reachedEnd ? "" : ": ", run.reachedEnd ? "" : run.message.c_str());
    std::fflush(stdout);
  }
  std::printf(
      "double four-bar, corrected-rk, h = 0.01, %g s: %d of %d runs reached the end, %d of %d "
      "within the bounds (|E - E0| < 1e-3 J, cranks parallel to 1e-6 rad); largest |E - E0| "
      "%.3g J, largest crank angle difference %.3g rad; %.2f s per run\n",
      end, survived, runs, withinBounds, runs, worstEnergy, worstParallel,
      runs ? seconds / runs : 0.0);
  return 0;
}
