#pragma once
// The argument parsing every command shares: its option table plus -h/--help, and its count of
// positional arguments.

#include "arguments.h"

#include <optional>
#include <string>
#include <vector>

namespace rlx::cli {

// Parses a command's words. Returns nothing when the command must stop with *exitCode: 0 after
// printing the help, 64 after a usage error (unknown option, missing value, wrong number of
// positional arguments; `positionalNames` names the expected ones: {"MODEL"}).
std::optional<Arguments> parseCommandLine(const std::string& command,
                                          const std::vector<std::string>& words,
                                          std::vector<OptionSpec> options,
                                          const std::vector<std::string>& positionalNames,
                                          int* exitCode);

// A number option (--hht-alpha -0.2) when given; a usage error in *error otherwise.
bool numberOption(const Arguments& args, const std::string& name, std::optional<double>* value,
                  std::string* error);

// A positive number option (--end 2) when given; a usage error in *error otherwise.
bool positiveOption(const Arguments& args, const std::string& name, std::optional<double>* value,
                    std::string* error);

}  // namespace rlx::cli
