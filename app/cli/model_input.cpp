#include "model_input.h"

#include "arguments.h"
#include "output.h"

#include "io/model_file.h"
#include "model/compile.h"

#include <filesystem>
#include <system_error>

namespace rlx::cli {

std::optional<Spec> loadSpec(const std::string& path, const Arguments& args, bool quiet) {
  // A missing file or a directory: say so plainly before the reader tries.
  std::error_code code;
  const auto status = std::filesystem::status(path, code);
  if (!std::filesystem::exists(status)) {
    printError("cannot read \"" + path + "\": no such file");
    return std::nullopt;
  }
  if (std::filesystem::is_directory(status)) {
    printError("cannot read \"" + path + "\": it is a directory");
    return std::nullopt;
  }
  LoadResult loaded = loadModelFile(
      path, args.value("acf").value_or(""),
      args.has("ignore-unsupported") ? AdamsImport::SkipUnsupported : AdamsImport::Strict);
  printDiagnostics(loaded.diagnostics, path, quiet);
  if (!loaded.spec || hasErrors(loaded.diagnostics)) {
    if (loaded.diagnostics.empty()) printError("cannot read \"" + path + "\"");
    return std::nullopt;
  }
  return std::move(loaded.spec);
}

bool applySettings(Spec& spec, const std::vector<std::string>& settings, std::string* error) {
  for (const std::string& setting : settings) {
    const std::size_t equals = setting.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == setting.size()) {
      *error = "--set needs NAME=VALUE, got \"" + setting + "\"";
      return false;
    }
    const std::string name = setting.substr(0, equals);
    const std::string value = setting.substr(equals + 1);
    Parameter* parameter = nullptr;
    for (Parameter& p : spec.parameters)
      if (p.name == name) parameter = &p;
    if (!parameter) {
      std::string known;
      for (const Parameter& p : spec.parameters) known += (known.empty() ? "" : ", ") + p.name;
      *error = "--set " + setting + ": the model has no parameter \"" + name + "\" (" +
               (known.empty() ? std::string("it has none") : "its parameters: " + known) + ")";
      return false;
    }
    // A number that is not finite ("inf", "nan", "1e999") is refused here, naming the parameter;
    // a plain number is stored as one; anything else is an expression for compile() to check.
    if (isNonFiniteNumber(value)) {
      *error = "--set " + setting + ": the parameter \"" + name +
               "\" must be a finite number, got \"" + value + "\"";
      return false;
    }
    const std::optional<double> number = parseNumber(value);
    parameter->value = number ? Number(*number) : Number::expr(value);
  }
  return true;
}

std::optional<Model> compileSpec(const Spec& spec, const std::string& path, bool quiet) {
  CompileResult compiled = compile(spec);
  printDiagnostics(compiled.diagnostics, path, quiet);
  if (!compiled.model || hasErrors(compiled.diagnostics)) return std::nullopt;
  return std::move(compiled.model);
}

}  // namespace rlx::cli
