// The table of fuzz targets and what they share: the checks and the steps after reading.
#include "fuzz_targets.h"

#include "model/compile.h"
#include "solve/assembly/assembly.h"

#include <cstdio>
#include <cstdlib>

namespace rlx::fuzz {

Target targetNamed(std::string_view name) {
  if (name == "rlx") return rlxInput;
  if (name == "expression") return expressionInput;
  if (name == "simengine2d") return simEngine2DInput;
  if (name == "adams") return adamsInput;
  return nullptr;
}

void require(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "fuzz target property violated: %s\n", what);
  std::abort();
}

void compileAndAssemble(const Spec& spec) {
  const CompileResult compiled = compile(spec);
  require(compiled.model.has_value() != hasErrors(compiled.diagnostics),
          "compile returns a model exactly when it reports no error");
  if (!compiled.model) return;
  const Model& model = *compiled.model;
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport report = assemble(model, state, ws);
  require(report.ok() || !report.message.empty(), "a failed assembly says why");
}

}  // namespace rlx::fuzz
