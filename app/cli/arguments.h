#pragma once
// Command-line parsing: options (`--end 2`, `--end=2`, `-o out.csv`), flags (`--quiet`) and
// positional arguments, against a command's table of known options.

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rlx::cli {

struct OptionSpec {
  std::string name;       // long name without dashes: "end"
  char shortName = '\0';  // one-letter alias: 'o' for -o
  bool takesValue = true;
};

struct Arguments {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;  // (long name, value) in order

  bool has(const std::string& name) const;
  // The last value given for the option (a later one overrides an earlier one).
  std::optional<std::string> value(const std::string& name) const;
  // Every value, in order (repeatable options such as --set).
  std::vector<std::string> values(const std::string& name) const;
};

// Parses `args` (the words after the command). On bad usage returns nothing and sets *error to a
// sentence ("unknown option --foo", "--end needs a value"). A lone "-" and everything after
// "--" are positional.
std::optional<Arguments> parseArguments(const std::vector<std::string>& args,
                                        const std::vector<OptionSpec>& known, std::string* error);

// A finite decimal number that fills the whole text ("1e-3", "-0.5"); nothing otherwise.
std::optional<double> parseNumber(const std::string& text);

// True for text that reads as a number but not a finite one: "inf", "-Infinity", "nan", "1e999".
bool isNonFiniteNumber(const std::string& text);

}  // namespace rlx::cli
