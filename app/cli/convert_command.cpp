// convert IN OUT: read a model file of any supported format (e.g. simEngine2D .adm) and write it
// as .rlx, or, when OUT ends in .adm, as an Adams/Solver dataset (which compiles the model and
// refuses, by name, each element Adams has no statement for). An .rlx is checked for structure
// only; `check` the result to compile it.
#include "command_args.h"
#include "commands.h"
#include "exit_codes.h"
#include "model_input.h"
#include "output.h"

#include "io/atomic_write.h"
#include "io/model_file.h"

#include <cstdio>

namespace rlx::cli {

int convertCommand(const std::vector<std::string>& words) {
  int exitCode = kExitOk;
  const auto args = parseCommandLine(
      "convert", words, {{"acf"}, {"ignore-unsupported", '\0', false}, {"quiet", '\0', false}},
      {"IN", "OUT"}, &exitCode);
  if (!args) return exitCode;
  const std::string& in = args->positional[0];
  const std::string& out = args->positional[1];
  const bool quiet = args->has("quiet");

  const std::optional<Spec> spec = loadSpec(in, *args, quiet);
  if (!spec) return kExitInvalidModel;
  std::string error;
  if (out.ends_with(".adm")) {
    const AdamsWriteResult dataset = writeAdams(*spec);
    printDiagnostics(dataset.diagnostics, in, quiet);
    if (!dataset.text) {
      printError("no Adams dataset written to " + out);
      return kExitInvalidModel;
    }
    if (!writeFileAtomically(out, *dataset.text, &error)) {
      printError(error);
      return kExitInvalidModel;
    }
  } else if (!saveRlxFile(*spec, out, &error)) {
    printError(error);
    return kExitInvalidModel;
  }
  if (!quiet) std::printf("%s written to %s\n", in.c_str(), out.c_str());
  return kExitOk;
}

}  // namespace rlx::cli
