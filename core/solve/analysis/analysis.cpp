#include "solve/analysis/analysis.h"

#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/integrators/dynamics.h"
#include "solve/linalg/subnormals.h"
#include "solve/recording/frame.h"
#include "solve/statics/statics.h"

#include <chrono>
#include <string>

namespace rlx {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Frame assembledFrame(const Model& model, const State& state, Workspace& ws) {
  return makeFrame(model, state, ws, 0.0);
}

AnalysisOutcome runAnalysis(const Model& model, const FrameObserver& observer) {
  const auto start = std::chrono::steady_clock::now();
  const FlushSubnormals flush;  // from the assembly on
  AnalysisOutcome out;
  Results& results = out.results;
  results.analysis = model.analysis;

  // Assembly at t0: positions, velocities, accelerations and multipliers.
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport assembly = assemble(model, state, ws);
  results.report = assembly;
  results.stats.newtonIterations = assembly.iterations;
  if (!assembly.ok()) {
    results.stats.wallTime = secondsSince(start);
    return out;
  }
  out.assembled = true;
  results.redundancy = assembly.redundancy;

  // The analysis from the assembled state.
  switch (model.analysis) {
    case AnalysisType::Assembly:
      results.frames.push_back(assembledFrame(model, state, ws));
      if (observer) observer(results.frames.back());
      break;
    case AnalysisType::Kinematics: {
      KinematicsOptions options;
      options.endTime = model.endTime;
      options.step = model.step;
      options.outputStep = model.outputStep;
      options.tolerance = model.tolerance;
      results.report = SolveReport{};
      runKinematics(model, state, ws, options, results, observer);
      results.stats.newtonIterations += assembly.iterations;
      break;
    }
    case AnalysisType::Statics: {
      StaticsOptions options;
      options.endTime = model.endTime;
      options.outputStep = model.outputStep;
      results.report = SolveReport{};
      runStatics(model, state, ws, options, results, observer);
      results.stats.newtonIterations += assembly.iterations;
      break;
    }
    case AnalysisType::Dynamics: {
      DynamicsOptions options;
      options.integrator = model.integrator;
      options.endTime = model.endTime;
      options.step = model.step;
      options.outputStep = model.outputStep;
      options.tolerance = model.tolerance;
      options.variableStep = model.variableStep;
      options.energyCorrection = model.energyCorrection;
      options.hhtAlpha = model.hhtAlpha;
      results.report = SolveReport{};
      runDynamics(model, state, ws, options, results, observer);
      results.stats.newtonIterations += assembly.iterations;
      break;
    }
  }
  results.stats.wallTime = secondsSince(start);
  return out;
}

}  // namespace rlx
