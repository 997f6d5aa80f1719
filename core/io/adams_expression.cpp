// translateExpression: token by token. Numbers are rewritten by adams::number (so 30.0d is a
// value in radians), names mapped or refused, ** becomes ^; the parentheses, operators and
// commas pass through, and the expression parser checks the rest when the model compiles.
#include "io/adams_expression.h"

#include "expr/node.h"
#include "io/adams_text.h"

#include <cctype>
#include <map>

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
      {"MIN", "min"},   {"MAX", "max"},     {"STEP", "step"}};
  return functions;
}

// Adams' measures and functions of the model (displacements, velocities, forces, VARVAL, ...),
// which this translation does not read yet.
bool modelFunction(const std::string& name) {
  static const char* const names[] = {
      "DX",      "DY",     "DZ",     "DM",     "VX",     "VY",     "VZ",     "VR",     "VM",
      "AX",      "AY",     "AZ",     "WX",     "WY",     "WZ",     "WM",     "ACCX",   "ACCY",
      "ACCZ",    "WDTX",   "WDTY",   "WDTZ",   "PSI",    "THETA",  "PHI",    "YAW",    "PITCH",
      "ROLL",    "VARVAL", "JOINT",  "SFORCE", "MOTION", "JPRIM",  "GFORCE", "VFORCE", "VTORQUE",
      "BUSHING", "SPDP",   "FX",     "FY",     "FZ",     "FM",     "TX",     "TY",     "TZ",
      "TM",      "DIF",    "DIF1",   "ARYVAL", "PINVAL", "POUVAL", "DELAY",  "CURVE",  "CUBSPL",
      "AKISPL",  "INTERP", "ORIENT", "SENVAL"};
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string translateExpression(const std::string& text, int line, double time) {
  const auto fail = [&](const std::string& message) {
    return DatasetError{line, "FUNCTION = " + text + ": " + message};
  };
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
      else if (name == "USER")
        throw fail("calls a user subroutine (USER), which cannot be imported");
      else if (modelFunction(name))
        throw fail(name + " (a measure of the model) is not read yet");
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
