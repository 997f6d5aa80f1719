#include "io/matlab_expression.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <vector>

namespace rlx {
namespace {

// Precedence of a translated piece in the model language, from loosest to tightest binding.
enum class Level { Sum, Product, Unary, Power, Atom };

struct Piece {
  std::string text;
  Level level = Level::Atom;
};

using Pieces = std::vector<Piece>;

Piece atom(std::string text) {
  return {std::move(text), Level::Atom};
}

std::string parenthesized(const Piece& p, bool needed) {
  return needed ? "(" + p.text + ")" : p.text;
}

// a + b, a - b: the right operand keeps its own parentheses when it is a sum or is signed.
Piece sum(const Piece& left, char op, const Piece& right) {
  const bool wrapRight = right.level == Level::Sum || right.level == Level::Unary;
  return {left.text + " " + op + " " + parenthesized(right, wrapRight), Level::Sum};
}

// a*b, a/b: a sum on the left and anything looser than a power on the right is parenthesized.
Piece product(const Piece& left, char op, const Piece& right) {
  return {parenthesized(left, left.level == Level::Sum) + op +
              parenthesized(right, right.level < Level::Power),
          Level::Product};
}

Piece negated(const Piece& operand) {
  return {"-" + parenthesized(operand, operand.level < Level::Power), Level::Unary};
}

// The model language's `^` takes an atom on the left and a signed operand on the right.
Piece power(const Piece& base, const Piece& exponent) {
  const bool wrapExponent = exponent.level != Level::Atom && exponent.level != Level::Unary;
  return {
      parenthesized(base, base.level != Level::Atom) + "^" + parenthesized(exponent, wrapExponent),
      Level::Power};
}

Piece call(const std::string& name, const Pieces& args) {
  std::string text = name + "(";
  for (std::size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + args[i].text;
  return atom(text + ")");
}

// How a MATLAB function is written in the model language.
Piece sameFunction(const char* target, const Pieces& args) {
  return call(target, args);
}
Piece degreeArgument(const char* target, const Pieces& args) {
  return call(target, {product(args[0], '*', atom("deg"))});
}
Piece degreeResult(const char* target, const Pieces& args) {
  return product(call(target, args), '/', atom("deg"));
}
Piece reciprocal(const char* target, const Pieces& args) {
  return product(atom("1"), '/', call(target, args));
}
Piece logBase2(const char*, const Pieces& args) {
  return product(call("log", args), '/', call("log", {atom("2")}));
}
Piece hypotenuse(const char*, const Pieces& args) {
  return call("sqrt", {sum(power(args[0], atom("2")), '+', power(args[1], atom("2")))});
}

struct FunctionRule {
  const char* matlab;
  std::size_t arity;
  const char* target;
  Piece (*build)(const char* target, const Pieces& args);
};

constexpr std::array<FunctionRule, 34> kFunctions{{
    {"sin", 1, "sin", sameFunction},       {"cos", 1, "cos", sameFunction},
    {"tan", 1, "tan", sameFunction},       {"asin", 1, "asin", sameFunction},
    {"acos", 1, "acos", sameFunction},     {"atan", 1, "atan", sameFunction},
    {"atan2", 2, "atan2", sameFunction},   {"sinh", 1, "sinh", sameFunction},
    {"cosh", 1, "cosh", sameFunction},     {"tanh", 1, "tanh", sameFunction},
    {"exp", 1, "exp", sameFunction},       {"log", 1, "log", sameFunction},
    {"log10", 1, "log10", sameFunction},   {"sqrt", 1, "sqrt", sameFunction},
    {"abs", 1, "abs", sameFunction},       {"sign", 1, "sign", sameFunction},
    {"min", 2, "min", sameFunction},       {"max", 2, "max", sameFunction},
    {"power", 2, "pow", sameFunction},     {"realpow", 2, "pow", sameFunction},
    {"realsqrt", 1, "sqrt", sameFunction}, {"reallog", 1, "log", sameFunction},
    {"sind", 1, "sin", degreeArgument},    {"cosd", 1, "cos", degreeArgument},
    {"tand", 1, "tan", degreeArgument},    {"asind", 1, "asin", degreeResult},
    {"acosd", 1, "acos", degreeResult},    {"atand", 1, "atan", degreeResult},
    {"atan2d", 2, "atan2", degreeResult},  {"sec", 1, "cos", reciprocal},
    {"csc", 1, "sin", reciprocal},         {"cot", 1, "tan", reciprocal},
    {"log2", 1, "log", logBase2},          {"hypot", 2, "sqrt", hypotenuse},
}};

const FunctionRule* findFunction(std::string_view name) {
  for (const FunctionRule& rule : kFunctions)
    if (name == rule.matlab) return &rule;
  return nullptr;
}

bool isNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// digits[.digits][e[+-]digits]: a literal the model language reads as written.
bool isPlainNumber(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    return i > start;
  };
  if (!digits()) return false;
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

std::string shortestText(double value) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

// Recursive descent over MATLAB's scalar grammar (precedence low -> high):
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/' | '\' | '.*' | './' | '.\') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary (('^' | '.^') ('-' | '+')* primary)*      (left associative)
//   primary := number | name | name '(' sum (',' sum)* ')' | '(' sum ')'
class Translator {
 public:
  explicit Translator(std::string_view text) : text_(text) {}

  std::optional<std::string> run(std::string* error) {
    std::optional<Piece> result;
    skipSpaces();
    if (pos_ == text_.size()) {
      fail(pos_, "the function is empty");
    } else {
      result = parseSum();
      skipSpaces();
      if (result && pos_ < text_.size()) result = unexpected();
    }
    if (!result) {
      if (error) *error = error_;
      return std::nullopt;
    }
    return result->text;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;

  std::nullopt_t fail(std::size_t at, const std::string& message) {
    if (error_.empty()) error_ = "column " + std::to_string(at + 1) + ": " + message;
    return std::nullopt;
  }

  std::nullopt_t unexpected() {
    if (pos_ >= text_.size()) return fail(pos_, "unexpected end of the function");
    return fail(pos_, std::string("unexpected '") + text_[pos_] + "'");
  }

  void skipSpaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool accept(std::string_view token) {
    skipSpaces();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  std::optional<Piece> parseSum() {
    std::optional<Piece> left = parseProduct();
    while (left) {
      const char op = accept("+") ? '+' : accept("-") ? '-' : '\0';
      if (!op) break;
      const std::optional<Piece> right = parseProduct();
      if (!right) return std::nullopt;
      left = sum(*left, op, *right);
    }
    return left;
  }

  std::optional<Piece> parseProduct() {
    std::optional<Piece> left = parseUnary();
    while (left) {
      // Element-wise and matrix operators are the same on scalars; a\b is b/a.
      char op = '\0';
      bool leftDivision = false;
      if (accept(".*") || accept("*")) {
        op = '*';
      } else if (accept("./") || accept("/")) {
        op = '/';
      } else if (accept(".\\") || accept("\\")) {
        op = '/';
        leftDivision = true;
      } else {
        break;
      }
      const std::optional<Piece> right = parseUnary();
      if (!right) return std::nullopt;
      left = leftDivision ? product(*right, op, *left) : product(*left, op, *right);
    }
    return left;
  }

  std::optional<Piece> parseUnary() {
    if (accept("-")) {
      const std::optional<Piece> operand = parseUnary();
      if (!operand) return std::nullopt;
      return negated(*operand);
    }
    if (accept("+")) return parseUnary();
    return parsePower();
  }

  std::optional<Piece> parsePower() {
    std::optional<Piece> base = parsePrimary();
    while (base && (accept(".^") || accept("^"))) {
      // MATLAB lets a sign follow `^` and binds it to the next operand only: 2^-1^2 = (2^-1)^2.
      bool negative = false;
      for (;;) {
        if (accept("-")) {
          negative = !negative;
        } else if (!accept("+")) {
          break;
        }
      }
      std::optional<Piece> exponent = parsePrimary();
      if (!exponent) return std::nullopt;
      base = power(*base, negative ? negated(*exponent) : *exponent);
    }
    return base;
  }

  std::optional<Piece> parsePrimary() {
    skipSpaces();
    if (pos_ >= text_.size()) return unexpected();
    const char c = text_[pos_];
    if (isDigit(c) || (c == '.' && pos_ + 1 < text_.size() && isDigit(text_[pos_ + 1])))
      return parseNumber();
    if (isNameStart(c)) return parseName();
    if (accept("(")) {
      std::optional<Piece> inner = parseSum();
      if (inner && !accept(")")) return fail(pos_, "expected ')'");
      return inner;
    }
    return unexpected();
  }

  std::optional<Piece> parseNumber() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (isDigit(text_[pos_]) || text_[pos_] == '.')) ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      std::size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && isDigit(text_[p])) {
        pos_ = p;
        while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
      }
    }
    const std::string_view literal = text_.substr(start, pos_ - start);
    if (pos_ < text_.size() && (text_[pos_] == 'i' || text_[pos_] == 'j') &&
        (pos_ + 1 == text_.size() || !isNameChar(text_[pos_ + 1])))
      return fail(start, "complex numbers are not supported");
    if (pos_ < text_.size() && isNameChar(text_[pos_])) return unexpected();

    // Parse the literal (locale-independent); ".5" and "5." are rewritten as "0.5" and "5".
    std::string digits(literal);
    if (digits.front() == '.') digits.insert(digits.begin(), '0');
    double value = 0.0;
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != digits.data() + digits.size() ||
        !std::isfinite(value))
      return fail(start, "'" + std::string(literal) + "' is not a number");
    return atom(isPlainNumber(literal) ? std::string(literal) : shortestText(value));
  }

  std::optional<Piece> parseName() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && isNameChar(text_[pos_])) ++pos_;
    const std::string name(text_.substr(start, pos_ - start));
    skipSpaces();
    if (pos_ < text_.size() && text_[pos_] == '(') return parseCall(name, start);

    // Variables and constants.
    if (name == "t" || name == "pi") return atom(name);
    if (name == "eps") return atom("2.220446049250313e-16");
    if (name == "i" || name == "j" || name == "Inf" || name == "inf" || name == "NaN" ||
        name == "nan")
      return fail(start, "'" + name + "' is not a finite real number");
    if (findFunction(name)) return fail(start, "'" + name + "' needs arguments");
    return fail(start, "unknown name '" + name + "': a simEngine2D function depends on t only");
  }

  std::optional<Piece> parseCall(const std::string& name, std::size_t start) {
    const FunctionRule* rule = findFunction(name);
    if (!rule) {
      if (name == "t" || name == "pi" || name == "eps")
        return fail(start, "'" + name + "' is not a function");
      return fail(start, "function '" + name + "' has no equivalent in the model language");
    }
    accept("(");
    Pieces args;
    do {
      std::optional<Piece> arg = parseSum();
      if (!arg) return std::nullopt;
      args.push_back(std::move(*arg));
    } while (accept(","));
    if (!accept(")")) return fail(pos_, "expected ')' after the arguments of '" + name + "'");
    if (args.size() != rule->arity)
      return fail(start, "'" + name + "' takes " + std::to_string(rule->arity) + " argument" +
                             (rule->arity == 1 ? "" : "s") + ", got " +
                             std::to_string(args.size()));
    return rule->build(rule->target, args);
  }
};

}  // namespace

std::optional<std::string> translateMatlabExpression(std::string_view matlab, std::string* error) {
  return Translator(matlab).run(error);
}

}  // namespace rlx
