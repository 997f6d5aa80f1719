// Time per output frame of the slider-crank kinematic analysis (examples/slider_crank.rlx,
// 2 s at step 1e-3, frames every 1e-2 s; the median of several runs), and of chains of 100, 300
// and 1000 links with every pin driven (their assembly, then 1 s with a frame every 1e-2 s).
#include "bench_common.h"
#include "io/model_file.h"
#include "model/compile.h"
#include "solve/assembly/assembly.h"
#include "solve/kinematics/kinematics.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  using namespace rlx;
  const LoadResult loaded = loadModelFile(std::string(REULEAUX_EXAMPLES) + "/slider_crank.rlx");
  if (!loaded.spec) return 1;
  const CompileResult compiled = compile(*loaded.spec);
  if (!compiled.model) return 1;
  const Model& model = *compiled.model;
  std::vector<double> perFrame, perStep;
  for (int run = 0; run < 7; ++run) {
    Workspace ws(model);
    State state{0.0, model.q0, model.v0};
    assemble(model, state, ws);
    KinematicsOptions options;
    options.endTime = model.endTime;
    options.step = model.step;
    options.outputStep = model.outputStep;
    options.tolerance = model.tolerance;
    Results results;
    const auto start = std::chrono::steady_clock::now();
    runKinematics(model, state, ws, options, results);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!results.report.ok()) return 2;
    perFrame.push_back(seconds / static_cast<double>(results.frames.size()));
    perStep.push_back(seconds / results.stats.steps);
  }
  std::sort(perFrame.begin(), perFrame.end());
  std::sort(perStep.begin(), perStep.end());
  std::printf("slider-crank kinematics: %.1f us per output frame, %.2f us per solved step (median of 7)\n",
              1e6 * perFrame[3], 1e6 * perStep[3]);
  // Large fully driven models (the sparse LU from kSparseFromVelocities velocities on).
  for (const int links : {100, 300, 1000}) {
    const Model chain = *compile(bench::drivenChain(links, "0.5*sin(2*t)")).model;
    Workspace ws(chain);
    State state{0.0, chain.q0, chain.v0};
    const auto start = std::chrono::steady_clock::now();
    assemble(chain, state, ws);
    const double assembly = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    KinematicsOptions options;
    options.endTime = 1.0;
    options.step = 1e-2;
    options.outputStep = 1e-2;
    Results results;
    runKinematics(chain, state, ws, options, results);
    std::printf("chain of %4d links, every pin driven (nv = %d): assembly %.3f s; %s, %.3f ms per "
                "frame (%zu frames)\n",
                links, chain.nv, assembly, results.report.ok() ? "ok" : "FAILED",
                1e3 * results.stats.wallTime / static_cast<double>(results.frames.size()),
                results.frames.size());
  }
  return 0;
}
