// The double four-bar's long runs at rounding-level changes (issue 18): `runs` perturbed double
// four-bars (bench/perturbed_double_four_bar.h, seeds first ... first + runs - 1) each run `end`
// seconds with corrected-rk (h = 0.01) or corrected-rk45 (steps up to 0.01 at `tolerance`), a
// frame every 0.01 s. Each run either reaches the end within |E - E0| < 1e-3 J (on either branch:
// the perturbed models' exact motion leaves the parallelogram at a horizontal pass), or stops
// with corrected-rk's message for a singular pass it does not resolve; anything else is a defect.
// Prints every run, then the counts, the largest energy error and crank non-parallelism (rad)
// over the runs that reached the end, and the time per run. Arguments: runs (default 200), end
// time in s (default 1000), first seed (default 1), integrator (default corrected-rk), tolerance
// (default 1e-8).
#include "perturbed_double_four_bar.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace rlx;

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 200;
  const double end = argc > 2 ? std::atof(argv[2]) : 1000.0;
  const unsigned firstSeed = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 1u;
  DynamicsOptions options;
  const std::string integrator = argc > 4 ? argv[4] : "corrected-rk";
  if (!integratorFromName(integrator)) {
    std::fprintf(stderr, "unknown integrator \"%s\" (%s)\n", integrator.c_str(),
                 integratorNameList().c_str());
    return 64;
  }
  options.integrator = *integratorFromName(integrator);
  options.tolerance = argc > 5 ? std::atof(argv[5]) : 1e-8;
  options.step = 0.01;
  options.outputStep = 0.01;
  options.endTime = end;
  int reached = 0, stopped = 0, defects = 0;
  double worstEnergy = 0.0, worstParallel = 0.0, seconds = 0.0;
  for (int k = 0; k < runs; ++k) {
    const unsigned seed = firstSeed + static_cast<unsigned>(k);
    const bench::DoubleFourBarRun run =
        bench::runDoubleFourBar(bench::perturbedDoubleFourBar(seed), options);
    const bool within = run.reachedEnd && run.energyError < 1e-3;
    reached += within;
    stopped += run.stoppedAtPass;
    defects += !within && !run.stoppedAtPass;
    if (run.reachedEnd) {
      worstEnergy = std::max(worstEnergy, run.energyError);
      worstParallel = std::max(worstParallel, run.nonParallel);
    }
    seconds += run.seconds;
    std::printf(
        "seed %4u: %s t = %.2f s, |E - E0| %.3g J, cranks %.3g rad, %.2f s, %d floor "
        "steps (%.3g)%s%s\n",
        seed,
        within              ? "end "
        : run.stoppedAtPass ? "stop"
                            : "FAIL",
        run.endTime, run.energyError, run.nonParallel, run.seconds, run.floorSteps, run.floorError,
        run.reachedEnd ? "" : ": ", run.reachedEnd ? "" : run.message.c_str());
    std::fflush(stdout);
  }
  std::printf(
      "double four-bar, %s (h <= 0.01, tolerance %g), %g s: %d of %d runs reached the end within "
      "|E - E0| < 1e-3 J, %d stopped at a singular pass with the message, %d other outcomes "
      "(defects); over the runs that reached the end: largest |E - E0| %.3g J, largest crank "
      "angle difference %.3g rad; %.2f s per run\n",
      integrator.c_str(), options.tolerance, end, reached, runs, stopped, defects,
      worstEnergy, worstParallel, runs ? seconds / runs : 0.0);
  return defects ? 1 : 0;
}
