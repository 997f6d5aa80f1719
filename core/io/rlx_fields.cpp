#include "io/rlx_fields.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <utility>

namespace rlx {
namespace {

// Edit distance, for "did you mean" hints on unknown keys.
std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool isBlank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// "2", "3 or 6", "a, b or c"
std::string alternatives(const std::vector<std::string>& words, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) text += i + 1 == words.size() ? " or " : separator;
    text += words[i];
  }
  return text;
}

}  // namespace

bool isIdentifier(std::string_view text) {
  const auto letter = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  };
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  if (text.empty() || !letter(text.front())) return false;
  return std::all_of(text.begin(), text.end(), [&](char c) { return letter(c) || digit(c); });
}

FieldReader::FieldReader(const Json& object, std::string element, ReadContext& context,
                         std::string prefix)
    : object_(object),
      element_(std::move(element)),
      context_(context),
      prefix_(std::move(prefix)) {}

bool FieldReader::has(std::string_view key) const {
  return object_.contains(std::string(key));
}

const Json* FieldReader::take(std::string_view key, Need need) {
  known_.emplace_back(key);
  const auto found = object_.find(std::string(key));
  if (found != object_.end()) return &*found;
  if (need == Need::Required) error(key, "is missing");
  return nullptr;
}

std::string FieldReader::name() {
  const Json* value = take("name", Need::Required);
  if (!value) return {};
  if (!value->is_string()) {
    error("name", "must be a string, got " + describeKind(*value));
    return {};
  }
  const std::string text = value->get<std::string>();
  element_ += " " + jsonQuoted(text);
  if (!isIdentifier(text))
    error("name", "is not an identifier (a letter or _, then letters, digits or _)");
  return text;
}

void FieldReader::number(std::string_view key, Number& out, Need need) {
  if (const Json* value = take(key, need))
    if (auto number = asNumber(*value, field(key))) out = std::move(*number);
}

void FieldReader::number(std::string_view key, std::optional<Number>& out) {
  if (const Json* value = take(key)) out = asNumber(*value, field(key));
}

void FieldReader::vector(std::string_view key, Vector& out) {
  if (const Json* value = take(key))
    if (auto vector = asVector(*value, field(key), std::size_t(context_.dimension)))
      out = std::move(*vector);
}

void FieldReader::vector(std::string_view key, std::optional<Vector>& out) {
  if (const Json* value = take(key))
    out = asVector(*value, field(key), std::size_t(context_.dimension));
}

std::optional<std::vector<Number>> FieldReader::numbers(
    std::string_view key, std::initializer_list<std::size_t> lengths) {
  const Json* value = take(key);
  if (!value) return std::nullopt;
  std::vector<std::string> counts;
  for (std::size_t length : lengths) counts.push_back(std::to_string(length));
  const std::string expected = alternatives(counts, ", ");
  if (!value->is_array()) {
    error(key, "must be an array of " + expected + " numbers, got " + describeKind(*value));
    return std::nullopt;
  }
  if (std::find(lengths.begin(), lengths.end(), value->size()) == lengths.end()) {
    error(key, "must have " + expected + " numbers, got " + std::to_string(value->size()));
    return std::nullopt;
  }
  return asVector(*value, field(key), value->size());
}

void FieldReader::text(std::string_view key, std::string& out, Need need) {
  const Json* value = take(key, need);
  if (!value) return;
  if (value->is_string())
    out = value->get<std::string>();
  else
    error(key, "must be a string, got " + describeKind(*value));
}

void FieldReader::flag(std::string_view key, bool& out) {
  const Json* value = take(key);
  if (!value) return;
  if (value->is_boolean())
    out = value->get<bool>();
  else
    error(key, "must be true or false, got " + describeKind(*value));
}

void FieldReader::function(std::string_view key, std::string& out, Need need) {
  if (const Json* value = take(key, need))
    if (auto text = asFunction(*value, field(key))) out = std::move(*text);
}

void FieldReader::functions(std::string_view key, std::vector<std::string>& out, Need need,
                            std::optional<std::size_t> length) {
  const Json* value = take(key, need);
  if (!value) return;
  if (!value->is_array()) {
    error(key, "must be an array of expressions, got " + describeKind(*value));
    return;
  }
  if (length && value->size() != *length) {
    error(key, "must have " + std::to_string(*length) + " expressions, got " +
                   std::to_string(value->size()));
    return;
  }
  std::vector<std::string> texts;
  for (std::size_t i = 0; i < value->size(); ++i)
    if (auto text = asFunction((*value)[i], field(key) + "[" + std::to_string(i) + "]"))
      texts.push_back(std::move(*text));
  if (texts.size() == value->size()) out = std::move(texts);
}

void FieldReader::choice(std::string_view key, std::string& out,
                         const std::vector<std::string>& allowed, Need need) {
  if (const Json* value = take(key, need))
    if (auto word = asChoice(*value, field(key), allowed)) out = std::move(*word);
}

void FieldReader::misplaced(std::string_view key, const std::string& reason) {
  if (!has(key)) return;
  known_.emplace_back(key);
  error(key, reason);
}

void FieldReader::exclusive(std::string_view first, std::string_view second) {
  if (has(first) && has(second))
    error(first, "and " + std::string(second) + " are alternatives; give one of them");
}

void FieldReader::error(std::string_view key, const std::string& message) {
  report(field(key), message);
}

void FieldReader::report(const std::string& field, const std::string& message) {
  context_.diagnostics.push_back({Severity::Error, element_, field, message});
}

void FieldReader::takeAll() {
  for (const auto& [key, value] : object_.items()) known_.push_back(key);
}

void FieldReader::finish() {
  for (const auto& [key, value] : object_.items()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string message = "unknown key " + jsonQuoted(prefix_ + key);
    const auto nearest = std::min_element(known_.begin(), known_.end(),
                                          [&key = key](const std::string& a, const std::string& b) {
                                            return editDistance(key, a) < editDistance(key, b);
                                          });
    if (nearest != known_.end() && editDistance(key, *nearest) <= 2 &&
        editDistance(key, *nearest) < key.size())
      message += " (did you mean " + jsonQuoted(prefix_ + *nearest) + "?)";
    context_.diagnostics.push_back({Severity::Error, element_, "", message});
  }
}

std::string FieldReader::field(std::string_view key) const {
  return prefix_ + std::string(key);
}

std::optional<Number> FieldReader::asNumber(const Json& value, const std::string& field) {
  if (value.is_number()) return Number(value.get<double>());
  if (value.is_string() && !isBlank(value.get_ref<const std::string&>()))
    return Number::expr(value.get<std::string>());
  const std::string kind = value.is_string() ? "an empty string" : describeKind(value);
  report(field, "must be a number or an expression, got " + kind);
  return std::nullopt;
}

std::optional<Vector> FieldReader::asVector(const Json& value, const std::string& field,
                                            std::size_t length) {
  const std::string count = std::to_string(length);
  if (!value.is_array()) {
    report(field, "must be an array of " + count + " numbers, got " + describeKind(value));
    return std::nullopt;
  }
  if (value.size() != length) {
    report(field, "must have " + count + " numbers, got " + std::to_string(value.size()));
    return std::nullopt;
  }
  Vector vector;
  for (std::size_t i = 0; i < length; ++i)
    if (auto number = asNumber(value[i], field + "[" + std::to_string(i) + "]"))
      vector.push_back(std::move(*number));
  if (vector.size() != length) return std::nullopt;
  return vector;
}

std::optional<std::string> FieldReader::asFunction(const Json& value, const std::string& field) {
  if (value.is_number()) return value.dump();
  if (value.is_string() && !isBlank(value.get_ref<const std::string&>()))
    return value.get<std::string>();
  const std::string kind = value.is_string() ? "an empty string" : describeKind(value);
  report(field, "must be an expression, got " + kind);
  return std::nullopt;
}

std::optional<std::string> FieldReader::asChoice(const Json& value, const std::string& field,
                                                 const std::vector<std::string>& allowed) {
  if (value.is_string()) {
    const std::string& word = value.get_ref<const std::string&>();
    if (std::find(allowed.begin(), allowed.end(), word) != allowed.end()) return word;
  }
  report(field,
         "must be one of " + alternatives(allowed, ", ") + ", got " +
             (value.is_string() ? jsonQuoted(value.get<std::string>()) : describeKind(value)));
  return std::nullopt;
}

}  // namespace rlx
