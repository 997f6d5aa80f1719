// Time per output frame of the slider-crank kinematic analysis (examples/slider_crank.rlx,
// 2 s at step 1e-3, frames every 1e-2 s). Prints the median of several runs.
#include "io/model_file.h"
#include "model/compile.h"
#include "solve/assembly.h"
#include "solve/kinematics.h"

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
  return 0;
}
