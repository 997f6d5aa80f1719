#include "io/json_text.h"

#include <unordered_set>
#include <utility>
#include <vector>

namespace rlx {
namespace {

// Builds the document from the parser's events, noting duplicate keys and refusing deep nesting.
class DocumentBuilder : public nlohmann::json_sax<Json> {
 public:
  Json document;
  std::vector<std::string> duplicateKeys;  // "bodies[0] has the key \"mass\" twice"
  bool tooDeep = false;
  std::size_t errorPosition = 0;  // parser's count of bytes read at the error (1-based)
  std::string errorToken;
  std::string errorWhat;
  int errorId = 0;

  bool null() override { return put(Json(nullptr)); }
  bool boolean(bool value) override { return put(Json(value)); }
  bool number_integer(number_integer_t value) override { return put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return put(Json(value)); }
  bool number_float(number_float_t value, const string_t&) override { return put(Json(value)); }
  bool string(string_t& value) override { return put(Json(std::move(value))); }
  bool binary(binary_t& value) override { return put(Json::binary(std::move(value))); }

  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& name) override {
    repeatedKey_ = !keys_.back().insert(name).second;
    if (repeatedKey_)
      duplicateKeys.push_back(where() + " has the key " + jsonQuoted(name) + " twice");
    key_ = std::move(name);
    return true;
  }

  bool parse_error(std::size_t position, const std::string& lastToken,
                   const nlohmann::detail::exception& error) override {
    errorPosition = position;
    errorToken = lastToken;
    errorWhat = error.what();
    errorId = error.id;
    return false;
  }

 private:
  std::vector<Json*> stack_;       // open containers, outermost first
  std::vector<std::string> path_;  // ".bodies", "[0]", ... for each open container but the root
  std::vector<std::unordered_set<std::string>> keys_;  // keys seen in each open container
  std::string key_;           // key of the next value in the innermost object
  bool repeatedKey_ = false;  // key_ was seen before in that object

  // Where the innermost open container is, for messages.
  std::string where() const {
    if (path_.empty()) return "the top-level object";
    std::string text;
    for (const std::string& segment : path_) text += segment;
    return text.substr(text.front() == '.' ? 1 : 0);
  }

  // Stores a value in the innermost container (the first value is the document itself). A new key
  // is appended in constant time; ordered_json's own insertion searches the object's keys.
  Json* insert(Json value) {
    if (stack_.empty()) {
      document = std::move(value);
      return &document;
    }
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      return &parent.back();
    }
    if (repeatedKey_) return &(parent[key_] = std::move(value));
    auto& members = parent.get_ref<Json::object_t&>();
    members.emplace_back(key_, std::move(value));
    return &members.back().second;
  }

  bool put(Json value) {
    insert(std::move(value));
    return true;
  }

  bool open(Json container) {
    if (stack_.size() >= kMaxJsonDepth) {
      tooDeep = true;
      return false;
    }
    if (!stack_.empty()) {
      const Json& parent = *stack_.back();
      path_.push_back(parent.is_array() ? "[" + std::to_string(parent.size()) + "]" : "." + key_);
    }
    stack_.push_back(insert(std::move(container)));
    keys_.emplace_back();
    return true;
  }

  bool close() {
    stack_.pop_back();
    keys_.pop_back();
    if (!path_.empty() && stack_.size() == path_.size()) path_.pop_back();
    return true;
  }
};

// The parser's explanation without its prefix: "invalid literal; last read: 'x'".
std::string syntaxDetail(const std::string& what) {
  std::string detail = what;
  if (const auto column = detail.find(", column "); column != std::string::npos) {
    if (const auto colon = detail.find(": ", column); colon != std::string::npos)
      detail = detail.substr(colon + 2);
  } else if (const auto bracket = detail.find("] "); bracket != std::string::npos) {
    detail = detail.substr(bracket + 2);
  }
  if (detail.rfind("syntax error while parsing", 0) == 0) {
    if (const auto dash = detail.find(" - "); dash != std::string::npos)
      detail = detail.substr(dash + 3);
  }
  return detail;
}

// One line of JSON: nlohmann's compact form, which never throws on invalid UTF-8 here.
std::string compact(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// An array of scalars on one line with ", " separators, or nothing when it does not fit.
std::optional<std::string> inlineArray(const Json& array) {
  std::string text = "[";
  for (const Json& item : array) {
    if (item.is_structured()) return std::nullopt;
    if (text.size() > 1) text += ", ";
    text += compact(item);
    if (text.size() > kInlineArrayWidth) return std::nullopt;
  }
  return text + "]";
}

void format(const Json& value, std::size_t indent, std::string& out) {
  // Scalars, empty containers and short arrays of scalars take one line.
  if (!value.is_structured() || value.empty()) {
    out += compact(value);
    return;
  }
  if (value.is_array()) {
    if (auto line = inlineArray(value)) {
      out += *line;
      return;
    }
  }

  // Otherwise one member or item per line, indented by two more spaces.
  out += value.is_object() ? "{\n" : "[\n";
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!first) out += ",\n";
    first = false;
    out.append(indent + 2, ' ');
    if (value.is_object()) out += jsonQuoted(it.key()) + ": ";
    format(*it, indent + 2, out);
  }
  out += "\n";
  out.append(indent, ' ');
  out += value.is_object() ? "}" : "]";
}

// The id nlohmann gives a number literal that overflows a double.
constexpr int kNumberOverflow = 406;

}  // namespace

TextLocation locate(std::string_view text, std::size_t offset) {
  TextLocation location;
  const std::size_t end = std::min(offset, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      ++location.line;
      location.column = 1;
    } else if ((byte & 0xC0) != 0x80) {
      ++location.column;
    }
  }
  return location;
}

ParsedJson parseJson(std::string_view text, const std::string& source) {
  ParsedJson result;
  DocumentBuilder builder;
  const bool parsed = Json::sax_parse(text.begin(), text.end(), &builder);

  // Deep nesting stops the parser; recursive algorithms on the document would overflow the stack.
  if (builder.tooDeep) {
    result.diagnostics.push_back(
        {Severity::Error, source, "",
         "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"});
    return result;
  }

  // A syntax error or an overflowing number, at the line and column where the parser stopped.
  if (!parsed) {
    std::size_t offset = builder.errorPosition > 0 ? builder.errorPosition - 1 : 0;
    std::string message = "syntax error: " + syntaxDetail(builder.errorWhat);
    if (builder.errorId == kNumberOverflow) {
      offset = builder.errorPosition - std::min(builder.errorPosition, builder.errorToken.size());
      message = "number " + builder.errorToken + " is out of range (not a finite double)";
    }
    const TextLocation at = locate(text, offset);
    result.diagnostics.push_back(
        {Severity::Error, source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column),
         "", message});
    return result;
  }

  // Keys given twice: the reader would silently take one of the values.
  for (const std::string& duplicate : builder.duplicateKeys)
    result.diagnostics.push_back({Severity::Error, source, "", duplicate});
  result.document = std::move(builder.document);
  return result;
}

std::string formatJson(const Json& document) {
  std::string out;
  format(document, 0, out);
  return out;
}

std::string jsonQuoted(std::string_view text) {
  return compact(Json(std::string(text)));
}

std::string describeKind(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::binary:
    case Json::value_t::discarded:
      return "binary data";
  }
  return "an unknown value";
}

}  // namespace rlx
