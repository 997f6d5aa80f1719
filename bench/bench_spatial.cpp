// Spatial dynamics benchmark, steps/s, max constraint error and max energy error per integrator:
// the spatial slider-crank (examples/spatial_slider_crank.rlx) with its motion removed, so that it
// runs freely under gravity from the file's crank speed of 1 rev/s, over 10 s; and the coin of
// examples/rolling_disk.rlx (nonholonomic no-slip rows) over 5 s.
#include "bench_common.h"
#include "io/model_file.h"
#include "model/compile.h"
#include "output/summary.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/dynamics.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>

using namespace rlx;
using bench::maxConstraintError;
using bench::simulate;

// The largest velocity-level constraint error over the frames (the no-slip rows of the coin).
double maxVelocityConstraintError(const Results& r) {
  double worst = 0;
  for (const Frame& f : r.frames) worst = std::max(worst, f.velocityConstraintError);
  return worst;
}

void report(const char* integrator, double step, const Results& r) {
  std::printf(
      "  %-15s h=%-6g %s  %8.0f steps/s  %.2f us/step  max constraint error %.1e (velocity "
      "%.1e)  max energy error %.1e J  (%d steps, %d RHS evaluations)\n",
      integrator, step, r.report.ok() ? "ok    " : "FAILED", r.stats.steps / r.stats.wallTime,
      1e6 * r.stats.wallTime / r.stats.steps, maxConstraintError(r), maxVelocityConstraintError(r),
      maxEnergyError(r), r.stats.steps, r.stats.rhsEvaluations);
  if (!r.report.ok()) std::printf("    %s\n", r.report.message.c_str());
}

int main() {
  LoadResult loaded = loadModelFile(std::string(REULEAUX_EXAMPLES) + "/spatial_slider_crank.rlx");
  if (!loaded.spec) return 1;
  loaded.spec->motions.clear();
  const Model model = *compile(*loaded.spec).model;
  std::printf("Spatial slider-crank, free under gravity, 10 s:\n");
  for (const auto& [integrator, step] :
       {std::pair{"hht", 1e-3}, {"corrected-rk", 1e-3}, {"corrected-rk45", 1e-2}, {"bdf", 1e-2}}) {
    DynamicsOptions options;
    options.integrator = *integratorFromName(integrator);
    options.endTime = 10;
    options.step = step;
    options.outputStep = 0.01;
    options.tolerance = integrator == std::string("corrected-rk45") ? 1e-8 : 1e-6;
    report(integrator, step, simulate(model, options));
  }
  const LoadResult coinFile = loadModelFile(std::string(REULEAUX_EXAMPLES) + "/rolling_disk.rlx");
  if (!coinFile.spec) return 1;
  const Model coin = *compile(*coinFile.spec).model;
  std::printf("Coin rolling in a circle, 5 s:\n");
  for (const auto& [integrator, step, alpha, tolerance] : {std::tuple{"hht", 1e-3, -0.1, 1e-6},
                                                           {"hht", 1e-3, 0.0, 1e-6},
                                                           {"corrected-rk", 1e-3, 0.0, 1e-6},
                                                           {"corrected-rk45", 1e-2, 0.0, 1e-8},
                                                           {"bdf", 1e-2, 0.0, 1e-6},
                                                           {"bdf", 1e-2, 0.0, 1e-8}}) {
    DynamicsOptions options;
    options.integrator = *integratorFromName(integrator);
    options.endTime = 5;
    options.step = step;
    options.outputStep = 0.01;
    options.hhtAlpha = alpha;
    options.tolerance = tolerance;
    if (integrator == std::string("hht")) std::printf("  (alpha = %g)", alpha);
    if (integrator != std::string("hht") && integrator != std::string("corrected-rk"))
      std::printf("  (tol %g)", tolerance);
    report(integrator, step, simulate(coin, options));
  }
  return 0;
}
