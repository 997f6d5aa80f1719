// assemble MODEL [-o OUT.rlx]: assemble at t0 and write the model with the assembled poses and
// velocities (to stdout without -o).
#include "command_args.h"
#include "commands.h"
#include "exit_codes.h"
#include "model_input.h"
#include "output.h"
#include "usage.h"

#include "io/model_file.h"
#include "solve/assembly/assembly.h"

#include <cstdio>

namespace rlx::cli {
namespace {

// The spec with every body's position, angle, velocity and angular velocity replaced by the
// assembled values, as literal numbers.
void storeAssembledState(Spec& spec, const Model& model, const State& state) {
  for (BodySpec& s : spec.bodies)
    for (const Body& b : model.bodies) {
      if (b.name != s.name) continue;
      s.position = {state.q(b.q), state.q(b.q + 1)};
      s.angle = state.q(b.q + 2);
      s.velocity = {state.v(b.v), state.v(b.v + 1)};
      s.angularVelocity = {state.v(b.v + 2)};
    }
}

}  // namespace

int assembleCommand(const std::vector<std::string>& words) {
  int exitCode = kExitOk;
  const auto args = parseCommandLine("assemble", words,
                                     {{"output", 'o'},
                                      {"acf"},
                                      {"ignore-unsupported", '\0', false},
                                      {"set"},
                                      {"quiet", '\0', false}},
                                     {"MODEL"}, &exitCode);
  if (!args) return exitCode;
  const std::string& path = args->positional[0];
  const bool quiet = args->has("quiet");

  // Load, set parameters, compile.
  std::optional<Spec> spec = loadSpec(path, *args, quiet);
  if (!spec) return kExitInvalidModel;
  std::string error;
  if (!applySettings(*spec, args->values("set"), &error)) return usageError("assemble", error);
  const std::optional<Model> model = compileSpec(*spec, path, quiet);
  if (!model) return kExitInvalidModel;

  // Assembly at t0.
  Workspace ws(*model);
  State state{0.0, model->q0, model->v0};
  const AssemblyReport report = assemble(*model, state, ws);
  if (!report.ok()) {
    printFailure(report);
    return kExitAnalysisFailed;
  }
  if (!quiet)
    std::fprintf(stderr, "assembled at t = 0: constraint error %.3g after %d iterations\n",
                 report.residualNorm, report.iterations);

  // The assembled model, to the file or to stdout.
  storeAssembledState(*spec, *model, state);
  const std::optional<std::string> output = args->value("output");
  if (!output) {
    const std::string text = writeRlx(*spec);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitInvalidModel;
  }
  if (!saveRlxFile(*spec, *output, &error)) {
    printError(error);
    return kExitInvalidModel;
  }
  if (!quiet) std::fprintf(stderr, "assembled model written to %s\n", output->c_str());
  return kExitOk;
}

}  // namespace rlx::cli
