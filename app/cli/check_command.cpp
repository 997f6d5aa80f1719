// check MODEL: compile, assemble at t0, print the degrees of freedom and the redundant equations.
#include "command_args.h"
#include "commands.h"
#include "exit_codes.h"
#include "model_input.h"
#include "output.h"
#include "usage.h"

#include "output/summary.h"
#include "solve/assembly/assembly.h"

#include <cstdio>

namespace rlx::cli {

int checkCommand(const std::vector<std::string>& words) {
  int exitCode = kExitOk;
  const auto args =
      parseCommandLine("check", words, {{"acf"}, {"ignore-unsupported", '\0', false}, {"set"}},
                       {"MODEL"}, &exitCode);
  if (!args) return exitCode;
  const std::string& path = args->positional[0];

  // Load, set parameters, compile.
  std::optional<Spec> spec = loadSpec(path, *args, false);
  if (!spec) return kExitInvalidModel;
  std::string error;
  if (!applySettings(*spec, args->values("set"), &error)) return usageError("check", error);
  const std::optional<Model> model = compileSpec(*spec, path, false);
  if (!model) return kExitInvalidModel;

  // What the model holds.
  std::printf("model: %s\n", model->name.empty() ? path.c_str() : model->name.c_str());
  std::printf("bodies: %zu, joints: %zu, motions: %zu, forces: %zu\n", model->bodies.size(),
              model->joints.size(), model->motions.size(), model->forces.size());

  // Assembly at t0.
  Workspace ws(*model);
  State state{0.0, model->q0, model->v0};
  const AssemblyReport report = assemble(*model, state, ws);
  if (!report.ok()) {
    printFailure(report);
    return kExitAnalysisFailed;
  }
  std::printf("assembled at t = 0: constraint error %.3g after %d iterations\n",
              report.residualNorm, report.iterations);

  // Degrees of freedom and redundancy at the assembled configuration.
  const Redundancy& r = report.redundancy;
  std::printf("degrees of freedom: %d (Gruebler count: %d)\n", r.dof, r.dofGrubler);
  for (const RedundantEquation& e : r.redundant)
    std::printf("redundant equation %s of \"%s\" (consistent; dropped)\n", e.equation.c_str(),
                e.element.c_str());
  if (!r.redundant.empty()) {
    std::string names;
    for (const std::string& n : nonUniqueReactions(*model, state, ws))
      names += (names.empty() ? "" : ", ") + n;
    std::printf("reactions not unique (minimum-norm share reported): %s\n", names.c_str());
  }
  return kExitOk;
}

}  // namespace rlx::cli
