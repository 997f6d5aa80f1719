#pragma once
// The commands of reuleaux-cli. Each takes the words after the command name and returns the exit
// status (exit_codes.h).

#include <string>
#include <vector>

namespace rlx::cli {

int checkCommand(const std::vector<std::string>& args);
int assembleCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);
int convertCommand(const std::vector<std::string>& args);
int plotCommand(const std::vector<std::string>& args);

}  // namespace rlx::cli
