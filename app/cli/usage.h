#pragma once
// Help, version and usage errors.

#include <string>

namespace rlx::cli {

// The full help (every command and option) on stdout.
void printHelp();

// "reuleaux-cli 0.1.0" on stdout.
void printVersion();

// "reuleaux-cli <command>: <message>" and a usage hint on stderr; returns kExitUsage.
int usageError(const std::string& command, const std::string& message);

}  // namespace rlx::cli
