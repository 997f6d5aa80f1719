// Singular configurations at tight tolerances (issue 18, part 3): the IFToMM N-four-bar (N = 40,
// 81 bodies, 121 pins; every link horizontal twice a revolution) over 20 s at h = 1e-3 with hht,
// bdf and corrected-rk45 at tolerances 1e-4 ... 1e-12 (time reached, largest energy error, wall
// time); hht at steps 1e-4 ... 2e-3 against the same tolerances; the IFToMM Bricard linkage over
// 10 s with each integrator (time reached, largest constraint error of all 30 equations, energy
// error). Arguments: the N-four-bar's end time (default 20 s) and N (default 40).
#include "bench_common.h"
#include "io/model_file.h"
#include "model/compile.h"
#include "output/summary.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace rlx;

namespace {

struct Outcome {
  double reached = 0.0, energyError = 0.0, constraintError = 0.0, seconds = 0.0;
  bool ok = false;
};

Outcome runOnce(const Model& model, const char* integrator, double tolerance, double step,
                double endTime) {
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.tolerance = tolerance;
  options.step = step;
  options.endTime = endTime;
  options.outputStep = 0.01;
  const auto start = std::chrono::steady_clock::now();
  const Results results = bench::simulate(model, options);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return {results.frames.empty() ? 0.0 : results.frames.back().state.t, maxEnergyError(results),
          bench::maxConstraintError(results), elapsed.count(), results.report.ok()};
}

const std::vector<double> kTolerances = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12};

}  // namespace

int main(int argc, char** argv) {
  const double endTime = argc > 1 ? std::atof(argv[1]) : 20.0;
  const int n = argc > 2 ? std::atoi(argv[2]) : 40;
  const Model fourBar = *compile(bench::nFourBar(n)).model;
  std::printf("N-four-bar, N = %d, %g s, h = 1e-3: pass (or the time reached) | largest energy "
              "error [J] | wall time [s]\n",
              n, endTime);
  std::printf("%-9s %-36s %-36s %-36s\n", "tolerance", "hht", "bdf", "corrected-rk45");
  for (const double tolerance : kTolerances) {
    std::printf("%-9.0e", tolerance);
    for (const char* integrator : {"hht", "bdf", "corrected-rk45"}) {
      const Outcome o = runOnce(fourBar, integrator, tolerance, 1e-3, endTime);
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s %.2e %6.2f", o.ok ? "pass" : std::to_string(o.reached).c_str(),
                    o.energyError, o.seconds);
      std::printf(" %-36s", cell);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  const std::vector<double> steps = {1e-4, 2e-4, 5e-4, 1e-3, 2e-3};
  std::printf("\nhht on the N-four-bar, %g s: pass (or the time reached) | largest energy error [J]\n",
              endTime);
  std::printf("%-9s", "tolerance");
  for (const double h : steps) std::printf(" h = %-18.0e", h);
  std::printf("\n");
  for (const double tolerance : kTolerances) {
    std::printf("%-9.0e", tolerance);
    for (const double h : steps) {
      const Outcome o = runOnce(fourBar, "hht", tolerance, h, endTime);
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s %.2e", o.ok ? "pass" : std::to_string(o.reached).c_str(),
                    o.energyError);
      std::printf(" %-22s", cell);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  const LoadResult example = loadModelFile(REULEAUX_EXAMPLES "/bricard.rlx");
  const Model bricard = *compile(bench::iftommBricard(*example.spec)).model;
  std::printf("\nIFToMM Bricard, 10 s, h <= 1e-3: pass (or the time reached) | largest constraint "
              "error (all 30 equations) | energy error [J]\n");
  std::printf("%-9s %-36s %-36s %-36s\n", "tolerance", "hht", "bdf", "corrected-rk45");
  for (const double tolerance : kTolerances) {
    std::printf("%-9.0e", tolerance);
    for (const char* integrator : {"hht", "bdf", "corrected-rk45"}) {
      const Outcome o = runOnce(bricard, integrator, tolerance, 1e-3, 10.0);
      char cell[64];
      std::snprintf(cell, sizeof cell, "%s %.1e %.2e", o.ok ? "pass" : std::to_string(o.reached).c_str(),
                    o.constraintError, o.energyError);
      std::printf(" %-36s", cell);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
