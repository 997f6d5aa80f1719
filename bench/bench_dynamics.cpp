// Dynamics benchmarks: the Braun-Goldfarb slider-crank over 100 s with each integrator (hht, bdf
// with h its largest step, corrected-rk, corrected-rk45; steps/s, max constraint error, max
// energy error), RHS evaluations per second of corrected-rk, and the time per hht step on planar
// pendulum chains of N = 10, 100, 1000, 5000 links (the median of repeated runs; argument: the
// largest N, default 10000), the exponent p of a least-squares fit t ~ N^p (also of the time per
// Newton iteration, which leaves out the growth of the iteration count), and the peak resident
// memory after each chain; the N = 1000 chain recording a frame at every step; the time per bdf
// step on the chains of N = 10, 100, 1000; the time per hht step on chains of N = 1000, 5000,
// 10000 links of 1 m and 1 kg over 0.2 s, fixed and variable step, and whether each reached
// 0.2 s; the time per corrected-rk right-hand side on chains of 10, 100, 1000 four-bar loops and
// its fitted exponent.
#include "bench_common.h"
#include "io/model_file.h"
#include "model/compile.h"
#include "output/summary.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/dynamics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/resource.h>

using namespace rlx;
using bench::maxConstraintError;
using bench::pendulumChain;
using bench::simulate;

namespace {

// Least-squares slope of log t against log N.
double fittedExponent(const std::vector<double>& logN, const std::vector<double>& logT) {
  const double n = static_cast<double>(logN.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < logN.size(); ++k) {
    sx += logN[k];
    sy += logT[k];
    sxx += logN[k] * logN[k];
    sxy += logN[k] * logT[k];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// The chains' runs: 0.1 s at h = 1e-3 (the largest step of bdf), a frame at the end.
DynamicsOptions chainOptions(const char* integrator) {
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.endTime = 0.1;
  options.step = 1e-3;
  options.outputStep = 0.1;
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const int largestChain = argc > 1 ? std::atoi(argv[1]) : 10000;
  const LoadResult loaded = loadModelFile(std::string(REULEAUX_EXAMPLES) + "/braun_goldfarb_slider_crank.rlx");
  if (!loaded.spec) return 1;
  const Model model = *compile(*loaded.spec).model;
  std::printf("Braun-Goldfarb slider-crank, 100 s:\n");
  for (const auto& [integrator, step] : {std::pair{"hht", 1e-3}, {"bdf", 1e-2},
                                         {"corrected-rk", 1e-2}, {"corrected-rk45", 1e-2}}) {
    DynamicsOptions options;
    options.integrator = *integratorFromName(integrator);
    options.endTime = 100;
    options.step = step;
    options.outputStep = 0.05;
    options.tolerance = integrator == std::string("corrected-rk45") ? 1e-8 : 1e-6;
    const Results r = simulate(model, options);
    std::printf("  %-15s h=%-6g %s  %8.0f steps/s  %.2f us/step  max constraint error %.1e  "
                "max energy error %.1e J  (%d steps, %d RHS evaluations: %.0f RHS/s)\n",
                integrator, step, r.report.ok() ? "ok    " : "FAILED",
                r.stats.steps / r.stats.wallTime, 1e6 * r.stats.wallTime / r.stats.steps,
                maxConstraintError(r), maxEnergyError(r), r.stats.steps, r.stats.rhsEvaluations,
                r.stats.rhsEvaluations / r.stats.wallTime);
  }
  std::printf("Planar pendulum chains, hht h = 1e-3, 0.1 s:\n");
  std::vector<double> logN, logT, logIteration;
  for (const int links : {10, 100, 1000, 5000}) {
    if (links > largestChain) break;
    const Model chain = *compile(pendulumChain(links)).model;
    const DynamicsOptions options = chainOptions("hht");
    // The median over repeated runs (at least 5, and 0.5 s of stepping): one run of the small
    // chains lasts about a millisecond, too short to time once.
    const auto start = std::chrono::steady_clock::now();
    Results r = simulate(chain, options);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<double> perStep{r.stats.wallTime / r.stats.steps};
    for (double spent = r.stats.wallTime; perStep.size() < 5 || spent < 0.5;) {
      r = simulate(chain, options);
      perStep.push_back(r.stats.wallTime / r.stats.steps);
      spent += r.stats.wallTime;
    }
    std::sort(perStep.begin(), perStep.end());
    const double median = perStep[perStep.size() / 2];
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("  N = %5d  %s  %.4f ms per step, median of %zu runs  (%d steps, %d Newton "
                "iterations, %d iteration matrices, %d RHS evaluations; with the assembly %.2f s; "
                "peak memory %.0f MB)\n",
                links, r.report.ok() ? "ok    " : "FAILED", 1e3 * median, perStep.size(),
                r.stats.steps, r.stats.newtonIterations, r.stats.iterationMatrices,
                r.stats.rhsEvaluations, total,
                static_cast<double>(usage.ru_maxrss) / 1024.0);
    logN.push_back(std::log(links));
    logT.push_back(std::log(median));
    logIteration.push_back(std::log(median * r.stats.steps / r.stats.newtonIterations));
  }
  if (logN.size() >= 2)
    std::printf("  fitted exponent of the time per step: %.3f (per Newton iteration, forming J "
                "included: %.3f)\n",
                fittedExponent(logN, logT), fittedExponent(logN, logIteration));
  // Recording: a frame at every step re-solves the accelerations and multipliers at its state.
  if (largestChain >= 1000) {
    const Model chain = *compile(pendulumChain(1000)).model;
    DynamicsOptions options = chainOptions("hht");
    options.outputStep = 1e-3;
    std::vector<double> perStep;
    Results r;
    for (int run = 0; run < 5; ++run) {
      r = simulate(chain, options);
      perStep.push_back(r.stats.wallTime / r.stats.steps);
    }
    std::sort(perStep.begin(), perStep.end());
    std::printf("  N =  1000 with a frame at every step: %.4f ms per step, median of 5 runs "
                "(%zu frames)\n",
                1e3 * perStep[2], r.frames.size());
  }
  std::printf("Planar pendulum chains, bdf (tolerance 1e-6, largest step 1e-3), 0.1 s:\n");
  for (const int links : {10, 100, 1000}) {
    if (links > largestChain) break;
    const Model chain = *compile(pendulumChain(links)).model;
    const DynamicsOptions options = chainOptions("bdf");
    const Results r = simulate(chain, options);
    std::printf("  N = %5d  %s  %.3f ms per step  (%d steps, %d Newton iterations, %d RHS "
                "evaluations) %s\n",
                links, r.report.ok() ? "ok    " : "FAILED", 1e3 * r.stats.wallTime / r.stats.steps,
                r.stats.steps, r.stats.newtonIterations, r.stats.rhsEvaluations,
                r.report.message.c_str());
  }
  // Chains of 1 m, 1 kg links (as the reference engines are measured): coordinates up to 1e4 m,
  // rounded to 1e-12 m (the pin force reaches 3e3 N by 0.2 s). One run each.
  std::printf("Planar pendulum chains of 1 m, 1 kg links, hht h = 1e-3 (variable: tolerance 1e-6, "
              "steps of at most 1e-3), 0.2 s:\n");
  for (const int links : {1000, 5000, 10000}) {
    if (links > largestChain) break;
    const Model chain = *compile(pendulumChain(links, 1.0, 1.0)).model;
    for (const bool variable : {false, true}) {
      DynamicsOptions options = chainOptions("hht");
      options.endTime = 0.2;
      options.outputStep = 0.2;
      options.variableStep = variable;
      const Results r = simulate(chain, options);
      std::printf("  N = %5d  %-8s  %s  reached t = %g s  %.3f ms per step  (%d steps, %d "
                  "rejected, %d Newton iterations, %d iteration matrices) %s\n",
                  links, variable ? "variable" : "fixed", r.report.ok() ? "ok    " : "FAILED",
                  r.report.time, 1e3 * r.stats.wallTime / std::max(1, r.stats.steps), r.stats.steps,
                  r.stats.rejectedSteps, r.stats.newtonIterations, r.stats.iterationMatrices,
                  r.report.message.c_str());
    }
  }
  // corrected-rk on large models: the pseudoinverses through the normal equations.
  std::printf("Chains of four-bar loops (2 L + 1 rods), corrected-rk h = 1e-3, 0.1 s:\n");
  logN.clear();
  logT.clear();
  for (const int loops : {10, 100, 1000}) {
    if (loops > largestChain) break;
    const Model chain = *compile(bench::fourBarChain(loops)).model;
    const DynamicsOptions options = chainOptions("corrected-rk");
    const Results r = simulate(chain, options);
    const double perRhs = r.stats.wallTime / r.stats.rhsEvaluations;
    std::printf("  L = %5d  %s  %.1f us per RHS evaluation (%.0f RHS/s), max constraint error "
                "%.1e\n",
                loops, r.report.ok() ? "ok    " : "FAILED", 1e6 * perRhs, 1 / perRhs,
                maxConstraintError(r));
    logN.push_back(std::log(loops));
    logT.push_back(std::log(perRhs));
  }
  if (logN.size() >= 2)
    std::printf("  fitted exponent of the time per RHS evaluation: %.3f\n",
                fittedExponent(logN, logT));
  return 0;
}
