// readText: lines -> statements (header, joined segments) -> arguments. A statement's segments
// (its first line after the header, and each continuation line without its leading comma) are
// joined with '\n', which can appear nowhere else: between arguments it is a separator like a
// comma; inside an expression it is a space, so `FUNCTION = a` / `, + b` reads `a + b`.
#include "io/adams_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>
#include <numbers>

namespace rlx::adams {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool isLetter(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isNameChar(char c) {
  return isLetter(c) || isDigit(c) || c == '_';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Where a line's comment starts (a '!' outside quotes), or npos.
std::size_t commentStart(std::string_view line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (quote) {
      if (line[i] == quote) quote = 0;
    } else if (line[i] == '\'' || line[i] == '"') {
      quote = line[i];
    } else if (line[i] == '!') {
      return i;
    }
  }
  return std::string_view::npos;
}

// The name in `adams_view_name='name'` (any case, either quote), or empty.
std::string viewName(std::string_view comment) {
  const std::string folded = upper(comment);
  const std::size_t at = folded.find("ADAMS_VIEW_NAME");
  if (at == std::string::npos) return {};
  std::size_t i = at + 15;
  while (i < comment.size() && isSpace(comment[i])) ++i;
  if (i >= comment.size() || comment[i] != '=') return {};
  ++i;
  while (i < comment.size() && isSpace(comment[i])) ++i;
  if (i >= comment.size() || (comment[i] != '\'' && comment[i] != '"')) return {};
  const char quote = comment[i];
  const std::size_t end = comment.find(quote, i + 1);
  if (end == std::string_view::npos) return {};
  return std::string(comment.substr(i + 1, end - i - 1));
}

// Keys whose value is an expression: FUNCTION (abbreviated to 2 letters or more), a REQUEST's
// F1 ... F8, and the components of GFORCE, VFORCE and VTORQUE.
bool expressionKey(const std::string& key) {
  if (key.size() >= 2 && std::string_view("FUNCTION").starts_with(key)) return true;
  if (key.size() == 2 && key[0] == 'F' && key[1] >= '1' && key[1] <= '8') return true;
  return key == "FX" || key == "FY" || key == "FZ" || key == "TX" || key == "TY" || key == "TZ";
}

// COMMENT (abbreviated to 2 letters or more, or to C in a REQUEST, where C is no other key):
// text to the end of its line.
bool textKey(const std::string& statement, const std::string& key) {
  if (key == "C") return statement == "REQUEST";
  return key.size() >= 2 && std::string_view("COMMENT").starts_with(key);
}

// One statement's joined segments and where each starts.
class ArgumentReader {
 public:
  ArgumentReader(std::string statement, std::string joined,
                 std::vector<std::pair<std::size_t, int>> starts)
      : statement_(std::move(statement)), s_(std::move(joined)), starts_(std::move(starts)) {}

  std::vector<Argument> read() {
    std::vector<Argument> arguments;
    while (skipSeparators()) arguments.push_back(argument());
    return arguments;
  }

 private:
  int lineAt(std::size_t offset) const {
    const auto after =
        std::upper_bound(starts_.begin(), starts_.end(), offset,
                         [](std::size_t o, const auto& start) { return o < start.first; });
    return std::prev(after)->second;
  }

  [[noreturn]] void fail(std::size_t offset, const std::string& message) const {
    throw DatasetError{lineAt(offset), message};
  }

  // Skips blanks, commas and segment breaks; false at the end.
  bool skipSeparators() {
    while (p_ < s_.size() && (isSpace(s_[p_]) || s_[p_] == ',' || s_[p_] == '\n')) ++p_;
    return p_ < s_.size();
  }

  void skipBlanks() {
    while (p_ < s_.size() && isSpace(s_[p_])) ++p_;
  }

  // Whether `KEY =` (not `==`) starts at offset i, after blanks and separators.
  bool assignmentAhead(std::size_t i) const {
    while (i < s_.size() && (isSpace(s_[i]) || s_[i] == ',' || s_[i] == '\n')) ++i;
    if (i >= s_.size() || !isLetter(s_[i])) return false;
    while (i < s_.size() && isNameChar(s_[i])) ++i;
    while (i < s_.size() && isSpace(s_[i])) ++i;
    return i < s_.size() && s_[i] == '=' && (i + 1 >= s_.size() || s_[i + 1] != '=');
  }

  Argument argument() {
    Argument a;
    a.line = lineAt(p_);
    if (!isLetter(s_[p_])) {
      const std::size_t end = std::min(s_.find_first_of(",\n", p_), s_.size());
      fail(p_, "expected an argument (a keyword or KEY = value), got '" +
                   std::string(trim(std::string_view(s_).substr(p_, end - p_))) + "'");
    }
    const std::size_t keyStart = p_;
    while (p_ < s_.size() && isNameChar(s_[p_])) ++p_;
    a.key = upper(std::string_view(s_).substr(keyStart, p_ - keyStart));
    skipBlanks();
    if (p_ >= s_.size() || s_[p_] == ',' || s_[p_] == '\n') return a;  // a keyword
    if (s_[p_] != '=') fail(p_, "expected a comma or '=' after " + a.key);
    ++p_;
    a.assignment = true;
    skipBlanks();
    if (expressionKey(a.key)) {
      a.expression = true;
      a.values.push_back(expression());
    } else if (textKey(statement_, a.key)) {
      const std::size_t end = std::min(s_.find('\n', p_), s_.size());
      a.values.emplace_back(trim(std::string_view(s_).substr(p_, end - p_)));
      p_ = end;
    } else {
      values(a);
    }
    if (a.values.front().empty()) fail(keyStart, a.key + " = has no value");
    return a;
  }

  // Up to a backslash (consumed), the end, or a comma or segment break before `KEY =`; other
  // segment breaks read as blanks.
  std::string expression() {
    std::string text;
    int depth = 0;
    for (; p_ < s_.size(); ++p_) {
      const char c = s_[p_];
      if (c == '\\') {
        ++p_;
        break;
      }
      if ((c == ',' || c == '\n') && depth == 0 && assignmentAhead(p_)) break;
      if (c == '(') ++depth;
      if (c == ')') depth = std::max(0, depth - 1);
      text += c == '\n' ? ' ' : c;
    }
    return std::string(trim(text));
  }

  // The first value as written up to a comma or the line's end (quotes kept whole); then more
  // values while they are numbers. `a:b:c` of numbers is three values.
  void values(Argument& a) {
    a.values.push_back(token());
    const std::string first = a.values.front();
    if (first.find(':') != std::string::npos) {
      std::vector<std::string> parts;
      std::size_t from = 0;
      for (std::size_t colon; (colon = first.find(':', from)) != std::string::npos;
           from = colon + 1)
        parts.emplace_back(trim(std::string_view(first).substr(from, colon - from)));
      parts.emplace_back(trim(std::string_view(first).substr(from)));
      if (std::all_of(parts.begin(), parts.end(),
                      [](const std::string& t) { return number(t).has_value(); }))
        a.values = parts;
    }
    for (;;) {
      std::size_t i = p_;
      while (i < s_.size() && isSpace(s_[i])) ++i;
      if (i >= s_.size() || (s_[i] != ',' && s_[i] != '\n')) break;
      const std::size_t saved = p_;
      p_ = i + 1;
      skipBlanks();
      const std::string next = p_ < s_.size() ? token() : std::string();
      if (!number(next)) {
        p_ = saved;
        break;
      }
      a.values.push_back(next);
    }
  }

  std::string token() {
    std::string text;
    char quote = 0;
    for (; p_ < s_.size(); ++p_) {
      const char c = s_[p_];
      if (quote) {
        if (c == quote)
          quote = 0;
        else
          text += c;
        continue;
      }
      if (c == ',' || c == '\n') break;
      if (c == '\'' || c == '"')
        quote = c;
      else
        text += c;
    }
    return std::string(trim(text));
  }

  std::string statement_;  // its name
  std::string s_;
  std::vector<std::pair<std::size_t, int>> starts_;  // (offset in s_, line), increasing
  std::size_t p_ = 0;
};

// The lines of the text, without their ends.
std::vector<std::string_view> lines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

// `NAME/id` at the start of code: the statement's name, id and the rest after them; false
// when code does not start so.
bool header(std::string_view code, std::string& name, std::string_view& id,
            std::string_view& rest) {
  std::size_t i = 0;
  if (code.empty() || !isLetter(code[0])) return false;
  while (i < code.size() && isNameChar(code[i])) ++i;
  name = upper(code.substr(0, i));
  std::size_t j = i;
  while (j < code.size() && isSpace(code[j])) ++j;
  if (j >= code.size() || code[j] != '/') return false;
  ++j;
  std::size_t idEnd = j;
  while (idEnd < code.size() && code[idEnd] != ',') ++idEnd;
  id = trim(code.substr(j, idEnd - j));
  rest = code.substr(idEnd);
  return true;
}

}  // namespace

std::optional<double> number(std::string_view text) {
  text = trim(text);
  std::string clean;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) clean += text[i++];
  std::size_t digits = 0;
  while (i < text.size() && isDigit(text[i])) clean += text[i++], ++digits;
  if (i < text.size() && text[i] == '.') {
    clean += text[i++];
    while (i < text.size() && isDigit(text[i])) clean += text[i++], ++digits;
  }
  if (digits == 0) return std::nullopt;
  // An exponent: E, or Fortran's D, with digits after it; a D without digits means degrees.
  if (i < text.size() && (text[i] == 'E' || text[i] == 'e' || text[i] == 'D' || text[i] == 'd')) {
    std::size_t k = i + 1;
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
    if (k < text.size() && isDigit(text[k])) {
      clean += 'e';
      clean.append(text.substr(i + 1, k - i - 1));
      while (k < text.size() && isDigit(text[k])) clean += text[k++];
      i = k;
    }
  }
  bool degrees = false;
  if (i < text.size() && (text[i] == 'D' || text[i] == 'd')) degrees = true, ++i;
  if (i != text.size()) return std::nullopt;
  double value = 0;
  const char* first = clean.data() + (clean.front() == '+' ? 1 : 0);
  const auto [end, error] = std::from_chars(first, clean.data() + clean.size(), value);
  if (error != std::errc() || end != clean.data() + clean.size()) return std::nullopt;
  return degrees ? value * std::numbers::pi / 180 : value;
}

std::optional<long long> identifier(std::string_view text) {
  text = trim(text);
  if (text.empty() || !std::all_of(text.begin(), text.end(), isDigit)) return std::nullopt;
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool looksLikeDataset(std::string_view text) {
  const std::vector<std::string_view> all = lines(text);
  for (std::size_t k = 1; k < all.size(); ++k) {
    std::string_view code = all[k];
    code = trim(code.substr(0, std::min(commentStart(code), code.size())));
    if (code.empty()) continue;
    std::string name;
    std::string_view id, rest;
    return header(code, name, id, rest);
  }
  return false;
}

Text readText(std::string_view text) {
  const std::vector<std::string_view> all = lines(text);
  Text out;
  if (all.empty() || trim(all[0]).empty())
    throw DatasetError{1, "the first line must be the dataset's title (an empty line was found)"};
  out.title = std::string(trim(all[0]));

  // The statement being gathered: its segments joined, and where each starts.
  std::string joined;
  std::vector<std::pair<std::size_t, int>> starts;
  const auto finish = [&] {
    if (out.statements.empty() || starts.empty()) return;
    out.statements.back().arguments =
        ArgumentReader(out.statements.back().name, joined, starts).read();
    joined.clear();
    starts.clear();
  };
  const auto addSegment = [&](std::string_view segment, int line) {
    if (!starts.empty()) joined += '\n';
    starts.emplace_back(joined.size(), line);
    joined.append(segment);
  };

  std::string pendingName;
  bool open = false;  // a statement takes continuation lines
  for (std::size_t k = 1; k < all.size() && !out.ended; ++k) {
    const int line = static_cast<int>(k) + 1;
    std::string_view code = all[k];
    const std::size_t comment = commentStart(code);
    if (comment != std::string_view::npos) {
      if (std::string name = viewName(code.substr(comment)); !name.empty()) pendingName = name;
      code = code.substr(0, comment);
    }
    code = trim(code);
    if (code.empty()) continue;
    if (code.front() == ',') {
      if (!open)
        throw DatasetError{line,
                           "a continuation line (starting with a comma) follows no statement"};
      addSegment(code.substr(1), line);
      continue;
    }
    finish();
    if (upper(code) == "END") {
      out.ended = true;
      break;
    }
    Statement statement;
    std::string_view id, rest;
    if (!header(code, statement.name, id, rest))
      throw DatasetError{line,
                         "expected a statement (NAME/id, ...), got '" + std::string(code) + "'"};
    if (!id.empty()) {
      statement.id = identifier(id);
      if (!statement.id)
        throw DatasetError{
            line, statement.name + "/" + std::string(id) + ": the id must be a whole number"};
    }
    statement.line = line;
    statement.viewName = std::move(pendingName);
    pendingName.clear();
    out.statements.push_back(std::move(statement));
    open = true;
    rest = trim(rest);
    if (!rest.empty()) addSegment(rest.substr(1), line);  // after the comma
  }
  finish();
  return out;
}

}  // namespace rlx::adams
