// Recursive-descent parser of the grammar in expr.h. Tokens are read on demand; the first error
// ends the parse (an internal exception caught in parse()).

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <numbers>
#include <string>
#include <utility>

#include "expr/node.h"

namespace rlx::expr {

namespace {

// Parentheses, unary operators and conditionals may nest this deep, and an expression may have
// this many operations (operators and calls). The nesting keeps the parser's recursion bounded,
// the operations every walk of the tree and of its derivatives: the second derivative of a chain
// t/t/.../t grows as the cube of its length (990 divisions took 4 s and 400 MB to compile,
// found by fuzz_expression; 400 take 0.3 s).
constexpr int kMaxNesting = 200;
constexpr int kMaxOperations = 400;

enum class TokenKind { Number, Name, Symbol, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  int column = 1;
  double number = 0.0;
};

struct Failure {
  ParseError error;
};

// Character classes in ASCII, independent of the C locale (Qt sets it from the environment).
bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isNameChar(char c) {
  return isNameStart(c) || isDigit(c);
}
bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool isPrintable(char c) {
  return c >= ' ' && c <= '~';
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) { advance(); }

  Expr parseAll() {
    if (token_.kind == TokenKind::End) failWith("empty expression", 1);
    Expr e = parseConditional();
    if (token_.kind != TokenKind::End) fail("unexpected " + describe(token_), token_.column);
    return e;
  }

 private:
  static std::string at(int column) { return " at column " + std::to_string(column); }

  // Ends the parse with the message as given, or with " at column N" appended (fail).
  [[noreturn]] static void failWith(std::string message, int column) {
    throw Failure{{std::move(message), column}};
  }
  [[noreturn]] static void fail(const std::string& what, int column) {
    failWith(what + at(column), column);
  }

  int columnAt(size_t offset) const { return static_cast<int>(offset) + 1; }

  static std::string describe(const Token& t) {
    if (t.kind == TokenKind::End) return "end of expression";
    return "'" + std::string(t.text) + "'";
  }

  bool isSymbol(std::string_view s) const {
    return token_.kind == TokenKind::Symbol && token_.text == s;
  }

  // Reads the next token into token_.
  void advance() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
    token_ = Token{TokenKind::End, {}, columnAt(pos_), 0.0};
    if (pos_ >= text_.size()) return;
    const char c = text_[pos_];
    if (isDigit(c) || (c == '.' && pos_ + 1 < text_.size() && isDigit(text_[pos_ + 1]))) {
      readNumber();
    } else if (isNameStart(c)) {
      readName();
    } else {
      readSymbol();
    }
  }

  // number := digits ('.' digits?)? | '.' digits, then optionally [eE] [+-]? digits
  void readNumber() {
    const size_t start = pos_;
    const auto digits = [&] {
      while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
    };
    digits();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      digits();
    }
    bool malformed = false;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      const size_t exponent = pos_;
      digits();
      malformed = pos_ == exponent;
    }
    // A letter, digit, '_' or '.' right after a number makes it malformed: "2x", "1.2.3".
    while (pos_ < text_.size() && (isNameChar(text_[pos_]) || text_[pos_] == '.')) {
      malformed = true;
      ++pos_;
    }
    const std::string_view number = text_.substr(start, pos_ - start);
    if (malformed) {
      fail("malformed number '" + std::string(number) + "'", columnAt(start));
    }
    double value = 0.0;
    const auto result = std::from_chars(number.data(), number.data() + number.size(), value);
    if (result.ec != std::errc{}) {
      fail("number '" + std::string(number) + "' is out of range", columnAt(start));
    }
    token_ = Token{TokenKind::Number, number, columnAt(start), value};
  }

  // name := identifier ('.' identifier)?
  void readName() {
    const size_t start = pos_;
    const auto identifier = [&] {
      while (pos_ < text_.size() && isNameChar(text_[pos_])) ++pos_;
    };
    identifier();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (pos_ >= text_.size() || !isNameStart(text_[pos_])) {
        fail("expected a name after '.'", columnAt(pos_));
      }
      identifier();
      if (pos_ < text_.size() && text_[pos_] == '.') {
        fail("a name has at most one '.'", columnAt(pos_));
      }
    }
    token_ = Token{TokenKind::Name, text_.substr(start, pos_ - start), columnAt(start), 0.0};
  }

  void readSymbol() {
    const size_t start = pos_;
    const std::string_view rest = text_.substr(pos_);
    for (std::string_view two : {"<=", ">=", "==", "!=", "&&", "||"}) {
      if (rest.starts_with(two)) {
        pos_ += 2;
        token_ = Token{TokenKind::Symbol, two, columnAt(start), 0.0};
        return;
      }
    }
    const char c = rest[0];
    if (std::string_view("+-*/^()?:,<>!").find(c) == std::string_view::npos) {
      const bool hint = c == '=' || c == '&' || c == '|';
      const std::string shown = isPrintable(c) ? "'" + std::string(1, c) + "'"
                                               : "byte " + hex(static_cast<unsigned char>(c));
      failWith("unexpected character " + shown + at(columnAt(start)) +
                   (hint ? " (did you mean '" + std::string(2, c) + "'?)" : std::string{}),
               columnAt(start));
    }
    ++pos_;
    token_ = Token{TokenKind::Symbol, rest.substr(0, 1), columnAt(start), 0.0};
  }

  static std::string hex(unsigned char c) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "0x%02X", c);
    return buffer;
  }

  // Consumes the symbol s, or fails with "missing 's'" at the end or "expected 's', got ..."
  void expect(std::string_view s, const std::string& context) {
    if (isSymbol(s)) {
      advance();
      return;
    }
    const int column = token_.column;
    if (token_.kind == TokenKind::End) fail("missing '" + std::string(s) + "'" + context, column);
    fail("expected '" + std::string(s) + "'" + context + ", got " + describe(token_), column);
  }

  // Every operation the parser builds passes here: the limit on their number.
  Expr checked(Expr e, int column) {
    if (++operations_ > kMaxOperations)
      fail("expression is too long (more than " + std::to_string(kMaxOperations) + " operations)",
           column);
    return e;
  }

  // Counts one level of nesting for the lifetime of a recursive call.
  struct Nesting {
    Parser& parser;
    explicit Nesting(Parser& p) : parser(p) {
      if (++parser.nesting_ > kMaxNesting) {
        const int column = parser.token_.column;
        fail("expression is nested more than " + std::to_string(kMaxNesting) + " levels deep",
             column);
      }
    }
    ~Nesting() { --parser.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
  };

  // cond := or ('?' cond ':' cond)?
  Expr parseConditional() {
    const Nesting nesting(*this);
    Expr condition = parseOr();
    if (!isSymbol("?")) return condition;
    const int column = token_.column;
    advance();
    Expr then = parseConditional();
    expect(":", " in the conditional");
    Expr otherwise = parseConditional();
    return checked(makeConditional(std::move(condition), std::move(then), std::move(otherwise)),
                   column);
  }

  // A left-associative chain: operand (op operand)*, ops given as (symbol, operator) pairs.
  template <class Operand, size_t N>
  Expr parseChain(Operand operand, const std::pair<std::string_view, BinaryOp> (&ops)[N]) {
    Expr left = (this->*operand)();
    for (;;) {
      const auto* op = std::find_if(std::begin(ops), std::end(ops),
                                    [&](const auto& o) { return isSymbol(o.first); });
      if (op == std::end(ops)) return left;
      const int column = token_.column;
      advance();
      left = checked(makeBinary(op->second, std::move(left), (this->*operand)()), column);
    }
  }

  Expr parseOr() { return parseChain(&Parser::parseAnd, {{"||", BinaryOp::Or}}); }
  Expr parseAnd() { return parseChain(&Parser::parseComparison, {{"&&", BinaryOp::And}}); }

  // cmp := sum (op sum)?; a second comparison in a row is an error, not a chain.
  Expr parseComparison() {
    static constexpr std::pair<std::string_view, BinaryOp> kOps[] = {
        {"<", BinaryOp::Less},          {"<=", BinaryOp::LessEqual}, {">", BinaryOp::Greater},
        {">=", BinaryOp::GreaterEqual}, {"==", BinaryOp::Equal},     {"!=", BinaryOp::NotEqual}};
    const auto comparison = [&] {
      return std::find_if(std::begin(kOps), std::end(kOps),
                          [&](const auto& o) { return isSymbol(o.first); });
    };
    Expr left = parseSum();
    const auto* op = comparison();
    if (op == std::end(kOps)) return left;
    const int column = token_.column;
    advance();
    Expr e = checked(makeBinary(op->second, std::move(left), parseSum()), column);
    if (comparison() != std::end(kOps)) {
      fail("comparisons cannot be chained (use parentheses)", token_.column);
    }
    return e;
  }

  Expr parseSum() {
    return parseChain(&Parser::parseProduct, {{"+", BinaryOp::Add}, {"-", BinaryOp::Subtract}});
  }

  Expr parseProduct() {
    return parseChain(&Parser::parseUnary, {{"*", BinaryOp::Multiply}, {"/", BinaryOp::Divide}});
  }

  // unary := ('-' | '+' | '!') unary | power
  Expr parseUnary() {
    if (!isSymbol("-") && !isSymbol("+") && !isSymbol("!")) return parsePower();
    const Nesting nesting(*this);
    const int column = token_.column;
    const char op = token_.text[0];
    advance();
    Expr operand = parseUnary();
    if (op == '+') return operand;
    return checked(makeUnary(op == '-' ? UnaryOp::Negate : UnaryOp::Not, std::move(operand)),
                   column);
  }

  // power := atom ('^' unary)?
  Expr parsePower() {
    Expr base = parseAtom();
    if (!isSymbol("^")) return base;
    const Nesting nesting(*this);
    const int column = token_.column;
    advance();
    return checked(makeBinary(BinaryOp::Power, std::move(base), parseUnary()), column);
  }

  // atom := number | name | name '(' args ')' | '(' cond ')'
  Expr parseAtom() {
    const Token t = token_;
    if (t.kind == TokenKind::Number) {
      advance();
      return constant(t.number);
    }
    if (t.kind == TokenKind::Name) {
      advance();
      if (isSymbol("(")) return parseCall(t);
      return nameOrConstant(t);
    }
    if (isSymbol("(")) {
      advance();
      Expr inner = parseConditional();
      expect(")", "");
      return inner;
    }
    fail("unexpected " + describe(t), t.column);
  }

  Expr nameOrConstant(const Token& t) {
    if (t.text == "pi") return constant(std::numbers::pi);
    if (t.text == "e") return constant(std::numbers::e);
    if (t.text == "deg") return constant(std::numbers::pi / 180.0);
    if (functionByName(t.text)) {
      fail("missing '(' after the function '" + std::string(t.text) + "'", token_.column);
    }
    return makeName(std::string(t.text));
  }

  // name '(' cond (',' cond)* ')' with the function's number of arguments; pow(a, b) is a^b.
  Expr parseCall(const Token& name) {
    const std::string fname(name.text);
    const bool isPow = fname == "pow";
    const std::optional<Function> function = functionByName(fname);
    if (!function && !isPow) fail("unknown function '" + fname + "'", name.column);
    advance();
    std::vector<Expr> args;
    if (!isSymbol(")")) {
      args.push_back(parseConditional());
      while (isSymbol(",")) {
        advance();
        args.push_back(parseConditional());
      }
    }
    expect(")", " after the arguments of '" + fname + "'");
    const int arity = isPow ? 2 : functionInfo(*function).arity;
    if (static_cast<int>(args.size()) != arity) {
      failWith("'" + fname + "'" + at(name.column) + " takes " + std::to_string(arity) +
                   (arity == 1 ? " argument" : " arguments") + ", got " +
                   std::to_string(args.size()),
               name.column);
    }
    if (isPow) return checked(makeBinary(BinaryOp::Power, args[0], args[1]), name.column);
    return checked(makeCall(*function, std::move(args)), name.column);
  }

  std::string_view text_;
  size_t pos_ = 0;
  Token token_;
  int nesting_ = 0;
  int operations_ = 0;
};

}  // namespace

Expr parse(std::string_view text, ParseError* error) {
  try {
    Expr e = Parser(text).parseAll();
    if (error) *error = {};
    return e;
  } catch (const Failure& failure) {
    if (error) *error = failure.error;
    return nullptr;
  }
}

}  // namespace rlx::expr
