#include "arguments.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace rlx::cli {
namespace {

const OptionSpec* findLong(const std::vector<OptionSpec>& known, const std::string& name) {
  for (const OptionSpec& o : known)
    if (o.name == name) return &o;
  return nullptr;
}

const OptionSpec* findShort(const std::vector<OptionSpec>& known, char name) {
  for (const OptionSpec& o : known)
    if (o.shortName != '\0' && o.shortName == name) return &o;
  return nullptr;
}

}  // namespace

bool Arguments::has(const std::string& name) const {
  for (const auto& [key, value] : options)
    if (key == name) return true;
  return false;
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  std::optional<std::string> last;
  for (const auto& [key, value] : options)
    if (key == name) last = value;
  return last;
}

std::vector<std::string> Arguments::values(const std::string& name) const {
  std::vector<std::string> all;
  for (const auto& [key, value] : options)
    if (key == name) all.push_back(value);
  return all;
}

std::optional<Arguments> parseArguments(const std::vector<std::string>& args,
                                        const std::vector<OptionSpec>& known, std::string* error) {
  Arguments out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    // Positional arguments: plain words, "-", and everything after "--".
    if (word == "--") {
      out.positional.insert(out.positional.end(), args.begin() + static_cast<long>(i) + 1,
                            args.end());
      break;
    }
    if (word.size() < 2 || word[0] != '-') {
      out.positional.push_back(word);
      continue;
    }
    // The option: --name, --name=value, or -x.
    const OptionSpec* option = nullptr;
    std::optional<std::string> inlineValue;
    std::string shown = word;
    if (word.rfind("--", 0) == 0) {
      const std::size_t equals = word.find('=');
      const std::string name = word.substr(2, equals == std::string::npos ? equals : equals - 2);
      if (equals != std::string::npos) inlineValue = word.substr(equals + 1);
      shown = "--" + name;
      option = findLong(known, name);
    } else if (word.size() == 2) {
      option = findShort(known, word[1]);
    }
    if (!option) {
      *error = "unknown option " + shown;
      return std::nullopt;
    }
    // Its value: inline, or the next word.
    if (!option->takesValue) {
      if (inlineValue) {
        *error = shown + " takes no value";
        return std::nullopt;
      }
      out.options.emplace_back(option->name, "");
      continue;
    }
    if (!inlineValue) {
      if (i + 1 >= args.size()) {
        *error = shown + " needs a value";
        return std::nullopt;
      }
      inlineValue = args[++i];
    }
    out.options.emplace_back(option->name, *inlineValue);
  }
  return out;
}

namespace {

// strtod over the whole text (no leading space): the value and whether it was out of range
// (overflow to infinity, or underflow).
std::optional<double> readWholeNumber(const std::string& text, bool* outOfRange) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  *outOfRange = errno == ERANGE;
  return value;
}

}  // namespace

std::optional<double> parseNumber(const std::string& text) {
  bool outOfRange = false;
  const std::optional<double> value = readWholeNumber(text, &outOfRange);
  if (!value || outOfRange || !std::isfinite(*value)) return std::nullopt;
  return value;
}

bool isNonFiniteNumber(const std::string& text) {
  bool outOfRange = false;
  const std::optional<double> value = readWholeNumber(text, &outOfRange);
  return value && !std::isfinite(*value);
}

}  // namespace rlx::cli
