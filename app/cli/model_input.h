#pragma once
// Reading the model of a command: load the file (.rlx or simEngine2D .adm), apply --set
// NAME=VALUE to its parameters, compile. Diagnostics are printed on stderr.

#include "model/model.h"
#include "model/spec.h"

#include <optional>
#include <string>
#include <vector>

namespace rlx::cli {

struct Arguments;

// Loads a model file (the command's --acf and --ignore-unsupported apply). On failure prints why
// and returns nothing (exit status 1): the file does not exist, cannot be read, or is not a valid
// model file.
std::optional<Spec> loadSpec(const std::string& path, const Arguments& args, bool quiet);

// Applies NAME=VALUE settings to the spec's parameters. VALUE is a number or an expression of
// the parameters before NAME. On a malformed setting or an unknown parameter returns false and
// sets *error (a usage error: exit status 64).
bool applySettings(Spec& spec, const std::vector<std::string>& settings, std::string* error);

// Compiles; prints the diagnostics (`path` names the file). Nothing when there are errors.
std::optional<Model> compileSpec(const Spec& spec, const std::string& path, bool quiet);

}  // namespace rlx::cli
