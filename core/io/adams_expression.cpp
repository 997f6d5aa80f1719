// translateExpression: token by token. Numbers are rewritten by adams::number (so 30.0d is a
// value in radians), names mapped or refused, measures of markers written out (adams_measures),
// ** becomes ^; the parentheses, operators and commas pass through, and the expression parser
// checks the rest when the model compiles.
#include "io/adams_expression.h"

#include "expr/node.h"
#include "io/adams_measures.h"
#include "io/adams_text.h"

#include <cctype>
#include <map>
#include <optional>
#include <vector>

namespace rlx::adams {
namespace {

bool isNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool isNameChar(char c) {
  return isNameStart(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Adams' intrinsic functions with the same arguments and meaning in Reuleaux.
const std::map<std::string, std::string>& sharedFunctions() {
  static const std::map<std::string, std::string> functions{
      {"SIN", "sin"},   {"COS", "cos"},     {"TAN", "tan"},   {"ASIN", "asin"},   {"ACOS", "acos"},
      {"ATAN", "atan"}, {"ATAN2", "atan2"}, {"SINH", "sinh"}, {"COSH", "cosh"},   {"TANH", "tanh"},
      {"SQRT", "sqrt"}, {"EXP", "exp"},     {"LOG", "log"},   {"LOG10", "log10"}, {"ABS", "abs"},
      {"MIN", "min"},   {"MAX", "max"},     {"STEP", "step"}, {"STEP5", "step5"}};
  return functions;
}

// Adams' functions of the model that this translation does not read yet: accelerations, Euler
// angles, the forces of elements, splines, arrays, differential states.
bool unreadModelFunction(const std::string& name) {
  static const char* const names[] = {
      "ACCX",    "ACCY",    "ACCZ",   "WDTX",   "WDTY",   "WDTZ",   "PSI",    "THETA",  "PHI",
      "YAW",     "PITCH",   "ROLL",   "JOINT",  "SFORCE", "MOTION", "JPRIM",  "GFORCE", "VFORCE",
      "VTORQUE", "BUSHING", "SPDP",   "FX",     "FY",     "FZ",     "FM",     "TX",     "TY",
      "TZ",      "TM",      "DIF",    "DIF1",   "ARYVAL", "PINVAL", "POUVAL", "DELAY",  "CURVE",
      "CUBSPL",  "AKISPL",  "INTERP", "ORIENT", "SENVAL", "MOD"};
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

constexpr std::size_t kMaxText = 100000;

// The arguments of a call whose "(" is at text[i], as written: split at the commas (and, for IF,
// the colon after the first, which IF needs) outside parentheses; i moves past the ")". Empty
// when unbalanced or when IF's colon is missing.
std::vector<std::string> callArguments(const std::string& text, std::size_t& i, bool colonFirst) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (++i; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') ++depth;
    if (c == ')' && depth-- == 0) {
      ++i;
      return out;
    }
    if (depth == 0 && c == ',' && colonFirst && out.size() == 1) return {};  // IF(a, ...)
    const bool separator = depth == 0 && (c == ',' || (c == ':' && colonFirst && out.size() == 1));
    if (separator)
      out.emplace_back();
    else
      out.back() += c;
  }
  return {};
}

// Adams' functions of several expressions written as Reuleaux conditionals: IF(e1: e2, e3, e4)
// is e2, e3 or e4 as e1 < 0, = 0 or > 0; SIGN(a, b) is |a| with b's sign (Fortran's: + for
// b = 0); IMPACT(x, x', x1, k, e, cmax, d) is the one-sided contact force past x1 from above,
// max(0, k (x1 - x)^e - STEP(x, x1 - d, cmax, x1, 0) x') while x < x1 (the law of Reuleaux's
// `limit`, solve/equations/stop_law.h); BISTOP(x, x', x1, x2, k, e, cmax, d) that below x1 and
// min(0, -k (x - x2)^e - STEP(x, x2, 0, x2 + d, cmax) x') above x2. `a` are the arguments
// translated.
std::optional<std::string> conditionalFunction(const std::string& name,
                                               const std::vector<std::string>& a) {
  const auto p = [&](std::size_t k) { return "(" + a[k] + ")"; };
  if (name == "IF" && a.size() == 4)
    return "(" + p(0) + " < 0 ? " + p(1) + " : (" + p(0) + " == 0 ? " + p(2) + " : " + p(3) + "))";
  if (name == "SIGN" && a.size() == 2)
    return "(" + p(1) + " >= 0 ? abs" + p(0) + " : -abs" + p(0) + ")";
  const auto below = [&](const std::string& x, const std::string& v, const std::string& x1,
                         std::size_t k) {
    return "(" + x + " < " + x1 + " ? max(0, " + p(k) + "*(" + x1 + " - " + x + ")^" + p(k + 1) +
           " - step(" + x + ", " + x1 + " - " + p(k + 3) + ", " + p(k + 2) + ", " + x1 + ", 0)*" +
           v + ") : 0)";
  };
  if (name == "IMPACT" && a.size() == 7) return below(p(0), p(1), p(2), 3);
  if (name == "BISTOP" && a.size() == 8)
    return "(" + below(p(0), p(1), p(2), 4) + " + (" + p(0) + " > " + p(3) + " ? min(0, -" + p(4) +
           "*(" + p(0) + " - " + p(3) + ")^" + p(5) + " - step(" + p(0) + ", " + p(3) + ", 0, " +
           p(3) + " + " + p(7) + ", " + p(6) + ")*" + p(1) + ") : 0))";
  return std::nullopt;
}

// How many arguments each of those takes (IF: the first before a colon).
std::size_t conditionalArity(const std::string& name) {
  return name == "IF" ? 4 : name == "SIGN" ? 2 : name == "IMPACT" ? 7 : name == "BISTOP" ? 8 : 0;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string translateExpression(const std::string& text, int line, ExpressionContext& context) {
  const auto fail = [&](const std::string& message) {
    return DatasetError{line, "FUNCTION = " + text + ": " + message};
  };
  const auto unsupported = [&](const std::string& message) {
    return Unsupported{{line, "FUNCTION = " + text + ": " + message}};
  };
  // A measure's argument list: "(" ids separated by commas ")", from position i.
  const auto ids = [&](const std::string& name, std::size_t& i) {
    std::vector<long long> out;
    const auto skipSpace = [&] {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    skipSpace();
    if (i >= text.size() || text[i] != '(')
      throw fail(name + " needs its arguments in parentheses");
    ++i;
    for (;;) {
      skipSpace();
      std::size_t end = i;
      while (end < text.size() && isDigit(text[end])) ++end;
      const std::optional<long long> id = identifier(text.substr(i, end - i));
      if (!id) throw fail("the arguments of " + name + " must be ids");
      out.push_back(*id);
      i = end;
      skipSpace();
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      if (i < text.size() && text[i] == ')') {
        ++i;
        return out;
      }
      throw fail("expected ',' or ')' in the arguments of " + name);
    }
  };
  const double time = context.time;
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (isDigit(c) || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
      // The longest run that reads as a number: digits, a point, an exponent with its sign, D.
      std::size_t end = i;
      while (end < text.size() && (isDigit(text[end]) || text[end] == '.')) ++end;
      if (end < text.size() && std::string("EeDd").find(text[end]) != std::string::npos) {
        std::size_t k = end + 1;
        if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
        if (k < text.size() && isDigit(text[k])) {
          while (k < text.size() && isDigit(text[k])) ++k;
          end = k;
        }
        if (end < text.size() && (text[end] == 'D' || text[end] == 'd') &&
            (end + 1 >= text.size() || !isNameChar(text[end + 1])))
          ++end;
      }
      const std::optional<double> value = number(text.substr(i, end - i));
      if (!value) throw fail("cannot read the number " + text.substr(i, end - i));
      out += "(" + expr::numberText(*value) + ")";
      i = end;
      continue;
    }
    if (isNameStart(c)) {
      std::size_t end = i;
      while (end < text.size() && isNameChar(text[end])) ++end;
      const std::string name = upper(text.substr(i, end - i));
      i = end;
      if (name == "TIME")
        out += time == 1.0 ? "t" : "(t/" + expr::numberText(time) + ")";
      else if (name == "PI")
        out += "pi";
      else if (name == "DTOR")
        out += "(pi/180)";
      else if (name == "RTOD")
        out += "(180/pi)";
      else if (const auto f = sharedFunctions().find(name); f != sharedFunctions().end())
        out += f->second;
      else if (const std::size_t arity = conditionalArity(name)) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || text[i] != '(')
          throw fail(name + " needs its arguments in parentheses");
        std::vector<std::string> arguments = callArguments(text, i, name == "IF");
        if (arguments.size() != arity)
          throw fail(name + " takes " + std::to_string(arity) + " arguments" +
                     (name == "IF" ? " (IF(e1: e2, e3, e4))" : ""));
        for (std::string& a : arguments) a = translateExpression(a, line, context);
        out += *conditionalFunction(name, arguments);
        if (out.size() > kMaxText)
          throw fail("is too long (more than " + std::to_string(kMaxText) + " characters)");
      } else if (name == "USER")
        throw unsupported("calls a user subroutine (USER), which cannot be imported");
      else if (isMarkerMeasure(name)) {
        std::string problem;
        const auto measure = measureExpression(name, ids(name, i), context, problem);
        if (!measure) throw fail(problem);
        out += "(" + *measure + ")";
      } else if (name == "VARVAL") {
        const std::vector<long long> variable = ids(name, i);
        if (variable.size() != 1) throw fail("VARVAL takes one VARIABLE id");
        out += "(" + context.variable(variable[0], context.usedVelocities) + ")";
        // VARIABLEs that use others twice double at each level: stop before memory runs out.
        if (out.size() > kMaxText)
          throw fail("is too long with its VARIABLEs written in (more than " +
                     std::to_string(kMaxText) + " characters)");
      } else if (unreadModelFunction(name))
        throw unsupported(name + " (a function of the model) is not read yet");
      else
        throw fail("unknown name " + name);
      continue;
    }
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      out += "^";
      i += 2;
      continue;
    }
    if (std::string("+-*/(),").find(c) == std::string::npos)
      throw fail(std::string("unexpected character '") + c + "'");
    out += c;
    ++i;
  }
  if (out.empty()) throw fail("is empty");
  return out;
}

}  // namespace rlx::adams
