// reuleaux-cli: the headless face of the solver (shared/specs/cli-and-results.md).
#include "commands.h"
#include "exit_codes.h"
#include "usage.h"

#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace rlx::cli;
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) return usageError("", "no command given");
  const std::string& command = words.front();
  const std::vector<std::string> args(words.begin() + 1, words.end());

  // Help and version.
  if (command == "--help" || command == "-h" || command == "help") {
    printHelp();
    return kExitOk;
  }
  if (command == "--version") {
    printVersion();
    return kExitOk;
  }

  // The commands.
  if (command == "check") return checkCommand(args);
  if (command == "assemble") return assembleCommand(args);
  if (command == "run") return runCommand(args);
  if (command == "convert") return convertCommand(args);
  if (command == "plot") return plotCommand(args);
  if (command.rfind('-', 0) == 0) return usageError("", "unknown option " + command);
  return usageError("", "unknown command \"" + command + "\"");
}
