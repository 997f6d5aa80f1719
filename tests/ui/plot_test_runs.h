#pragma once
// Runs of an example model for the plot tests: load, compile, assemble, integrate.

#include "plot/run_series.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/dynamics.h"
#include "test_support.h"

#include <stdexcept>
#include <string>

namespace rlx::test {

struct ExampleRun {
  Model model;
  Results results;
};

// The example's dynamics with an integrator, to `endTime`.
inline ExampleRun runExample(const std::string& file, const std::string& integrator, double endTime,
                             double step = 1e-3, double outputStep = 1e-2) {
  ExampleRun run{compileOrFail(loadSpec(examplePath(file))), {}};
  Workspace ws(run.model);
  State state{0.0, run.model.q0, run.model.v0};
  const AssemblyReport assembly = assemble(run.model, state, ws);
  if (!assembly.ok()) throw std::runtime_error(assembly.message);
  DynamicsOptions options;
  options.integrator = *integratorFromName(integrator);
  options.endTime = endTime;
  options.step = step;
  options.outputStep = outputStep;
  runDynamics(run.model, state, ws, options, run.results);
  if (!run.results.report.ok()) throw std::runtime_error(run.results.report.message);
  return run;
}

}  // namespace rlx::test
