#pragma once
// JSON text -> document, for the model-file readers. Syntax errors become diagnostics located by
// line and column ("model.rlx:12:5: syntax error: ..."); a key given twice in one object and
// nesting deeper than kMaxJsonDepth are errors too. Object keys keep their order.

#include "model/diagnostic.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rlx {

using Json = nlohmann::ordered_json;

inline constexpr std::size_t kMaxJsonDepth = 100;

// A place in a text: 1-based line, and 1-based column counted in characters (UTF-8 code points).
struct TextLocation {
  std::size_t line = 1;
  std::size_t column = 1;
};

// Location of the byte at `offset` (0-based); an offset at or past the end is the end of the text.
TextLocation locate(std::string_view text, std::size_t offset);

struct ParsedJson {
  std::optional<Json> document;  // empty when the text is not JSON (syntax error, too deep)
  Diagnostics diagnostics;       // also duplicate keys, which still give a document
};

ParsedJson parseJson(std::string_view text, const std::string& source);

// Pretty-printed JSON, 2-space indentation, for files people read: an array of scalars that fits
// in kInlineArrayWidth characters stays on one line ("position": [0.5, 0]). Numbers print as
// nlohmann prints them (the shortest text that reads back to the same double).
inline constexpr std::size_t kInlineArrayWidth = 72;
std::string formatJson(const Json& document);

// The JSON form of a string, quotes and escapes included: `"crank pin"`.
std::string jsonQuoted(std::string_view text);

// What a JSON value is, for messages: "a number", "an array", "null", ...
std::string describeKind(const Json& value);

}  // namespace rlx
