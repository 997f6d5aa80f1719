#include "command_args.h"

#include "exit_codes.h"
#include "usage.h"

namespace rlx::cli {

std::optional<Arguments> parseCommandLine(const std::string& command,
                                          const std::vector<std::string>& words,
                                          std::vector<OptionSpec> options,
                                          const std::vector<std::string>& positionalNames,
                                          int* exitCode) {
  options.push_back({"help", 'h', false});
  std::string error;
  std::optional<Arguments> args = parseArguments(words, options, &error);
  if (!args) {
    *exitCode = usageError(command, error);
    return std::nullopt;
  }
  if (args->has("help")) {
    printHelp();
    *exitCode = kExitOk;
    return std::nullopt;
  }
  // Exactly the expected positional arguments.
  const std::size_t given = args->positional.size();
  if (given < positionalNames.size()) {
    *exitCode = usageError(command, "missing " + positionalNames[given]);
    return std::nullopt;
  }
  if (given > positionalNames.size()) {
    *exitCode = usageError(
        command, "unexpected argument \"" + args->positional[positionalNames.size()] + "\"");
    return std::nullopt;
  }
  return args;
}

bool numberOption(const Arguments& args, const std::string& name, std::optional<double>* value,
                  std::string* error) {
  const std::optional<std::string> text = args.value(name);
  if (!text) return true;
  *value = parseNumber(*text);
  if (!*value) *error = "--" + name + " needs a number, got \"" + *text + "\"";
  return value->has_value();
}

bool positiveOption(const Arguments& args, const std::string& name, std::optional<double>* value,
                    std::string* error) {
  if (!numberOption(args, name, value, error)) return false;
  if (*value && **value <= 0) {
    *error = "--" + name + " must be positive, got " + *args.value(name);
    return false;
  }
  return true;
}

}  // namespace rlx::cli
