// Tests of the expression library: parsing (numbers, precedence, error messages), binding,
// evaluation against std:: math, exact derivatives against finite differences, the ADAMS steps,
// printing round trips, and a fuzz test of the parser.

#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "expr/expr.h"

using namespace rlx;
using namespace rlx::expr;

namespace {

// Variables of the tests: x y z t crank.x are slots 0..4, k is the constant 2.5.
constexpr double kK = 2.5;
const std::vector<std::string> kSlotNames{"x", "y", "z", "t", "crank.x"};

Binding resolveTest(const std::string& name) {
  for (size_t i = 0; i < kSlotNames.size(); ++i) {
    if (name == kSlotNames[i]) return static_cast<int>(i);
  }
  if (name == "k") return kK;
  return {};
}

// Parsed and bound, or nullptr with the reason in *why.
Expr compile(const std::string& text, std::string* why) {
  ParseError parseError;
  const Expr parsed = parse(text, &parseError);
  if (!parsed) {
    *why = "parse: " + parseError.message;
    return nullptr;
  }
  std::string bindError;
  const Expr bound = expr::bind(parsed, resolveTest, &bindError);
  if (!bound) *why = "bind: " + bindError;
  return bound;
}

double valueOf(const std::string& text, const std::vector<double>& values) {
  std::string why;
  const Expr e = compile(text, &why);
  return e ? evaluate(e, values) : std::numeric_limits<double>::quiet_NaN();
}

// |a - b| / max(1, |a|, |b|)
double relativeDifference(double a, double b) {
  return std::abs(a - b) / std::max({1.0, std::abs(a), std::abs(b)});
}

bool sameValue(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

// Central difference of f along slot j at the point.
template <class F>
double centralDifference(const F& f, std::vector<double> point, size_t j) {
  const double h = 1e-5 * std::max(1.0, std::abs(point[j]));
  const double x = point[j];
  point[j] = x + h;
  const double plus = f(point);
  point[j] = x - h;
  const double minus = f(point);
  return (plus - minus) / (2.0 * h);
}

// Values of the slots at which the evaluation table is computed.
constexpr double X = 0.7, Y = -1.3, Z = 2.2, T = 0.4, W = 1.9;
const std::vector<double> kPoint{X, Y, Z, T, W};

double cubicStep(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double s = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * s * s * (3.0 - 2.0 * s);
}

double quinticStep(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double s = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * s * s * s * (10.0 - 15.0 * s + 6.0 * s * s);
}

}  // namespace

class ExprTest : public QObject {
  Q_OBJECT

 private slots:
  void numbers_data();
  void numbers();
  void evaluation_data();
  void evaluation();
  void ieeeResults();
  void precedence_data();
  void precedence();
  void parseErrors_data();
  void parseErrors();
  void nestingLimits();
  void bindErrors_data();
  void bindErrors();
  void bindingFoldsConstants();
  void namesInOrder();
  void derivatives_data();
  void derivatives();
  void derivativesStaySmall();
  void stepValues_data();
  void stepValues();
  void stepDerivativesAreContinuous();
  void printing_data();
  void printing();
  void roundTrip_data();
  void roundTrip();
  void fuzz();
};

void ExprTest::numbers_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<double>("expected");
  QTest::newRow("integer") << "1" << 1.0;
  QTest::newRow("decimal") << "1.5" << 1.5;
  QTest::newRow("leading dot") << ".5" << 0.5;
  QTest::newRow("trailing dot") << "3." << 3.0;
  QTest::newRow("negative exponent") << "1e-3" << 1e-3;
  QTest::newRow("capital exponent with sign") << "2E+4" << 2e4;
  QTest::newRow("decimal and exponent") << "1.25e2" << 125.0;
  QTest::newRow("leading zeros") << "007.5" << 7.5;
  QTest::newRow("spaces") << "  42 \t" << 42.0;
  QTest::newRow("pi") << "pi" << std::numbers::pi;
  QTest::newRow("e") << "e" << std::numbers::e;
  QTest::newRow("deg") << "180*deg" << std::numbers::pi;
}

void ExprTest::numbers() {
  QFETCH(QString, text);
  QFETCH(double, expected);
  ParseError error;
  const Expr e = parse(text.toStdString(), &error);
  QVERIFY2(e, error.message.c_str());
  QVERIFY(isConstant(e));
  QVERIFY(names(e).empty());
  QCOMPARE(*constantValue(e), expected);
}

void ExprTest::evaluation_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<double>("expected");
  QTest::newRow("+") << "x + y" << X + Y;
  QTest::newRow("-") << "x - y" << X - Y;
  QTest::newRow("*") << "x*y" << X * Y;
  QTest::newRow("/") << "x/y" << X / Y;
  QTest::newRow("^") << "z^x" << std::pow(Z, X);
  QTest::newRow("^ negative base, integer exponent") << "y^3" << std::pow(Y, 3.0);
  QTest::newRow("unary -") << "-x" << -X;
  QTest::newRow("unary +") << "+x" << X;
  QTest::newRow("! of non-zero") << "!x" << 0.0;
  QTest::newRow("! of zero") << "!(x - x)" << 1.0;
  QTest::newRow("< true") << "y < x" << 1.0;
  QTest::newRow("< false") << "x < y" << 0.0;
  QTest::newRow("<= equal") << "x <= x" << 1.0;
  QTest::newRow("> true") << "z > x" << 1.0;
  QTest::newRow(">= false") << "x >= z" << 0.0;
  QTest::newRow("== true") << "t == 0.4" << 1.0;
  QTest::newRow("== false") << "t == x" << 0.0;
  QTest::newRow("!= true") << "t != x" << 1.0;
  QTest::newRow("&& true") << "x && z" << 1.0;
  QTest::newRow("&& false") << "x && 0" << 0.0;
  QTest::newRow("|| true") << "0 || y" << 1.0;
  QTest::newRow("|| false") << "0 || x - x" << 0.0;
  QTest::newRow("?: then") << "x > 0 ? z : t" << Z;
  QTest::newRow("?: else") << "x < 0 ? z : t" << T;
  QTest::newRow("sin") << "sin(x)" << std::sin(X);
  QTest::newRow("cos") << "cos(y)" << std::cos(Y);
  QTest::newRow("tan") << "tan(z)" << std::tan(Z);
  QTest::newRow("asin") << "asin(t)" << std::asin(T);
  QTest::newRow("acos") << "acos(x)" << std::acos(X);
  QTest::newRow("atan") << "atan(z)" << std::atan(Z);
  QTest::newRow("atan2") << "atan2(y, x)" << std::atan2(Y, X);
  QTest::newRow("atan2 third quadrant") << "atan2(y, -x)" << std::atan2(Y, -X);
  QTest::newRow("sinh") << "sinh(y)" << std::sinh(Y);
  QTest::newRow("cosh") << "cosh(y)" << std::cosh(Y);
  QTest::newRow("tanh") << "tanh(z)" << std::tanh(Z);
  QTest::newRow("exp") << "exp(y)" << std::exp(Y);
  QTest::newRow("log") << "log(z)" << std::log(Z);
  QTest::newRow("log10") << "log10(z)" << std::log10(Z);
  QTest::newRow("sqrt") << "sqrt(z)" << std::sqrt(Z);
  QTest::newRow("abs") << "abs(y)" << std::abs(Y);
  QTest::newRow("min") << "min(x, y)" << std::min(X, Y);
  QTest::newRow("max") << "max(x, y)" << std::max(X, Y);
  QTest::newRow("sign negative") << "sign(y)" << -1.0;
  QTest::newRow("sign positive") << "sign(x)" << 1.0;
  QTest::newRow("sign zero") << "sign(x - x)" << 0.0;
  QTest::newRow("pow") << "pow(z, t)" << std::pow(Z, T);
  QTest::newRow("step inside") << "step(x, 0, 1, 2, 3)" << cubicStep(X, 0, 1, 2, 3);
  QTest::newRow("step5 inside") << "step5(x, 0, 1, 2, 3)" << quinticStep(X, 0, 1, 2, 3);
  QTest::newRow("dotted name") << "crank.x*2" << W * 2;
  QTest::newRow("constant parameter") << "k*t" << kK * T;
  QTest::newRow("mixed") << "2*pi*t + sin(x)^2 - sqrt(crank.x)/k"
                         << 2 * std::numbers::pi * T + std::pow(std::sin(X), 2) - std::sqrt(W) / kK;
}

void ExprTest::evaluation() {
  QFETCH(QString, text);
  QFETCH(double, expected);
  std::string why;
  const Expr e = compile(text.toStdString(), &why);
  QVERIFY2(e, why.c_str());
  QCOMPARE(evaluate(e, kPoint), expected);
}

void ExprTest::ieeeResults() {
  const double inf = std::numeric_limits<double>::infinity();
  QCOMPARE(valueOf("1/(x - x)", kPoint), inf);
  QCOMPARE(valueOf("-1/(x - x)", kPoint), -inf);
  QVERIFY(std::isnan(valueOf("log(y)", kPoint)));
  QVERIFY(std::isnan(valueOf("sqrt(y)", kPoint)));
  QVERIFY(std::isnan(valueOf("asin(z)", kPoint)));
  QVERIFY(std::isnan(valueOf("0/0", {})));
  QCOMPARE(valueOf("log(0)", {}), -inf);
  // A slot beyond the given values, and an unbound name, evaluate to NaN.
  QVERIFY(std::isnan(valueOf("crank.x", {1.0})));
  QVERIFY(std::isnan(evaluate(parse("a", nullptr), {})));
}

void ExprTest::precedence_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<double>("expected");
  QTest::newRow("^ is right associative") << "2^3^2" << 512.0;
  QTest::newRow("- binds looser than ^") << "-2^2" << -4.0;
  QTest::newRow("exponent may be negative") << "2^-1" << 0.5;
  QTest::newRow("-2^-2") << "-2^-2" << -0.25;
  QTest::newRow("* of a negation") << "2*-3" << -6.0;
  QTest::newRow("- is left associative") << "1-2-3" << -4.0;
  QTest::newRow("/ is left associative") << "8/4/2" << 1.0;
  QTest::newRow("* before +") << "2+3*4" << 14.0;
  QTest::newRow("parentheses") << "(2+3)*4" << 20.0;
  QTest::newRow("^ before *") << "2*3^2" << 18.0;
  QTest::newRow("^ then *") << "2^3*2" << 16.0;
  QTest::newRow("pow then ^") << "pow(2, 3)^2" << 64.0;
  QTest::newRow("signs") << "+-+2" << -2.0;
  QTest::newRow("! before ==") << "!1 == 0" << 1.0;
  QTest::newRow("! before +") << "!0 + 1" << 2.0;
  QTest::newRow("+ before <") << "1 + 2 < 4" << 1.0;
  QTest::newRow("&& before ||") << "1 || 0 && 0" << 1.0;
  QTest::newRow("&& before || (left)") << "0 && 1 || 1" << 1.0;
  QTest::newRow("< before &&") << "1 < 2 && 3 < 2" << 0.0;
  QTest::newRow("?: nests right: first") << "1 ? 2 : 0 ? 3 : 4" << 2.0;
  QTest::newRow("?: nests right: second") << "0 ? 2 : 1 ? 3 : 4" << 3.0;
  QTest::newRow("?: nests right: third") << "0 ? 2 : 0 ? 3 : 4" << 4.0;
  QTest::newRow("?: inside then") << "1 ? 0 ? 5 : 6 : 7" << 6.0;
  QTest::newRow("?: lowest") << "1 + 1 ? 2 + 3 : 4" << 5.0;
  QTest::newRow("?: of || ") << "0 || 0 ? 1 : 2" << 2.0;
}

void ExprTest::precedence() {
  QFETCH(QString, text);
  QFETCH(double, expected);
  ParseError error;
  const Expr e = parse(text.toStdString(), &error);
  QVERIFY2(e, error.message.c_str());
  QCOMPARE(evaluate(e, {}), expected);
}

void ExprTest::parseErrors_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("message");
  QTest::addColumn<int>("column");
  QTest::newRow("empty") << ""
                         << "empty expression" << 1;
  QTest::newRow("blank") << "  \t "
                         << "empty expression" << 1;
  QTest::newRow("1+") << "1+"
                      << "unexpected end of expression at column 3" << 3;
  QTest::newRow("sin(") << "sin("
                        << "unexpected end of expression at column 5" << 5;
  QTest::newRow("sin(1") << "sin(1"
                         << "missing ')' after the arguments of 'sin' at column 6" << 6;
  QTest::newRow("foo(1)") << "foo(1)"
                          << "unknown function 'foo' at column 1" << 1;
  QTest::newRow("sinn") << "2*sinn(x)"
                        << "unknown function 'sinn' at column 3" << 3;
  QTest::newRow("constant as function") << "pi(2)"
                                        << "unknown function 'pi' at column 1" << 1;
  QTest::newRow("internal function") << "stepd(1, x, 0, 0, 1, 1)"
                                     << "unknown function 'stepd' at column 1" << 1;
  QTest::newRow("1 2") << "1 2"
                       << "unexpected '2' at column 3" << 3;
  QTest::newRow("()") << "()"
                      << "unexpected ')' at column 2" << 2;
  QTest::newRow("a..b") << "a..b"
                        << "expected a name after '.' at column 3" << 3;
  QTest::newRow("a.b.c") << "a.b.c"
                         << "a name has at most one '.' at column 4" << 4;
  QTest::newRow("unclosed") << "(1+2"
                            << "missing ')' at column 5" << 5;
  QTest::newRow("extra )") << "(1+2))"
                           << "unexpected ')' at column 6" << 6;
  QTest::newRow("early )") << "1+2)*3"
                           << "unexpected ')' at column 4" << 4;
  QTest::newRow("( then junk") << "(1 2)"
                               << "expected ')', got '2' at column 4" << 4;
  QTest::newRow("1e") << "1e"
                      << "malformed number '1e' at column 1" << 1;
  QTest::newRow("1e+") << "x*1e+"
                       << "malformed number '1e+' at column 3" << 3;
  QTest::newRow("2x") << "2x"
                      << "malformed number '2x' at column 1" << 1;
  QTest::newRow("1.2.3") << "1.2.3"
                         << "malformed number '1.2.3' at column 1" << 1;
  QTest::newRow("out of range") << "1e999"
                                << "number '1e999' is out of range at column 1" << 1;
  QTest::newRow("atan2(1)") << "atan2(1)"
                            << "'atan2' at column 1 takes 2 arguments, got 1" << 1;
  QTest::newRow("sin()") << "sin()"
                         << "'sin' at column 1 takes 1 argument, got 0" << 1;
  QTest::newRow("sin(1, 2)") << "x + sin(1, 2)"
                             << "'sin' at column 5 takes 1 argument, got 2" << 5;
  QTest::newRow("step(1)") << "step(1)"
                           << "'step' at column 1 takes 5 arguments, got 1" << 1;
  QTest::newRow("pow(1)") << "pow(1)"
                          << "'pow' at column 1 takes 2 arguments, got 1" << 1;
  QTest::newRow("sin(1 2)") << "sin(1 2)"
                            << "expected ')' after the arguments of 'sin', got '2' at column 7"
                            << 7;
  QTest::newRow("function without (") << "sin + 1"
                                      << "missing '(' after the function 'sin' at column 5" << 5;
  QTest::newRow("missing :") << "1 ? 2"
                             << "missing ':' in the conditional at column 6" << 6;
  QTest::newRow("wrong :") << "1 ? 2 3"
                           << "expected ':' in the conditional, got '3' at column 7" << 7;
  QTest::newRow("chained comparison") << "1 < 2 < 3"
                                      << "comparisons cannot be chained (use parentheses) at "
                                         "column 7"
                                      << 7;
  QTest::newRow("single =") << "x = 1"
                            << "unexpected character '=' at column 3 (did you mean '=='?)" << 3;
  QTest::newRow("single &") << "x & 1"
                            << "unexpected character '&' at column 3 (did you mean '&&'?)" << 3;
  QTest::newRow("#") << "3 # 4"
                     << "unexpected character '#' at column 3" << 3;
  QTest::newRow("control byte") << "1 +\x01"
                                << "unexpected character byte 0x01 at column 4" << 4;
  QTest::newRow("non-ASCII") << "x + \xC3\xA9"
                             << "unexpected character byte 0xC3 at column 5" << 5;
  QTest::newRow("lone dot") << "1 + ."
                            << "unexpected character '.' at column 5" << 5;
  QTest::newRow("operator first") << "*2"
                                  << "unexpected '*' at column 1" << 1;
  QTest::newRow("two operators") << "1 +* 2"
                                 << "unexpected '*' at column 4" << 4;
  QTest::newRow("comma") << "1, 2"
                         << "unexpected ',' at column 2" << 2;
  QTest::newRow("dangling ^") << "2^"
                              << "unexpected end of expression at column 3" << 3;
}

void ExprTest::parseErrors() {
  QFETCH(QString, text);
  QFETCH(QString, message);
  QFETCH(int, column);
  ParseError error;
  QVERIFY(!parse(text.toStdString(), &error));
  QCOMPARE(QString::fromStdString(error.message), message);
  QCOMPARE(error.column, column);
}

void ExprTest::nestingLimits() {
  ParseError error;
  // 199 parentheses are fine, 200 are too many (the error is at the token inside the 200th).
  QVERIFY(parse(std::string(199, '(') + "1" + std::string(199, ')'), &error));
  QVERIFY(!parse(std::string(200, '(') + "1" + std::string(200, ')'), &error));
  QCOMPARE(QString::fromStdString(error.message),
           QString("expression is nested more than 200 levels deep at column 201"));
  QCOMPARE(error.column, 201);
  // Unary operators and powers count as nesting too.
  QVERIFY(!parse(std::string(100000, '-') + "1", &error));
  QCOMPARE(error.column, 200);
  std::string powers;
  for (int i = 0; i < 100000; ++i) powers += "2^";
  QVERIFY(!parse(powers + "1", &error));
  QVERIFY(error.message.starts_with("expression is nested more than 200 levels deep"));
  // 400 operations are fine, 401 are not (the second derivative of 990 divisions t/t/.../t took
  // 4 s to compute, found by fuzz_expression).
  std::string chain = "1";
  for (int i = 0; i < 400; ++i) chain += "+1";
  const Expr e = parse(chain, &error);
  QVERIFY(e);
  QCOMPARE(evaluate(e, {}), 401.0);
  QVERIFY(!parse(chain + "+1", &error));
  QCOMPARE(QString::fromStdString(error.message),
           QString("expression is too long (more than 400 operations) at column 802"));
}

void ExprTest::bindErrors_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("message");
  QTest::newRow("unknown") << "x + foo*2"
                           << "unknown variable 'foo'";
  QTest::newRow("unknown dotted") << "crank.y"
                                  << "unknown variable 'crank.y'";
  QTest::newRow("first unknown") << "a + b"
                                 << "unknown variable 'a'";
  QTest::newRow("step x0 variable") << "step(t, x, 0, 2, 1)"
                                    << "step: x0, h0, x1 and h1 must not depend on variables";
  QTest::newRow("step5 h1 variable") << "step5(t, 0, 0, 2, sin(y))"
                                     << "step5: x0, h0, x1 and h1 must not depend on variables";
  QTest::newRow("step x0 = x1") << "step(t, 1, 0, 1, 2)"
                                << "step: x0 must be less than x1, got x0 = 1 and x1 = 1";
  QTest::newRow("step5 x0 > x1") << "step5(t, k, 0, 0.5, 2)"
                                 << "step5: x0 must be less than x1, got x0 = 2.5 and x1 = 0.5";
}

void ExprTest::bindErrors() {
  QFETCH(QString, text);
  QFETCH(QString, message);
  const Expr parsed = parse(text.toStdString(), nullptr);
  QVERIFY(parsed);
  std::string error;
  QVERIFY(!expr::bind(parsed, resolveTest, &error));
  QCOMPARE(QString::fromStdString(error), message);
}

void ExprTest::bindingFoldsConstants() {
  std::string error;
  // Parameters fold into one constant; parameters of steps may be constant expressions.
  const Expr folded = expr::bind(parse("2*k + sqrt(k*k)", nullptr), resolveTest, &error);
  QVERIFY(folded);
  QVERIFY(isConstant(folded));
  QCOMPARE(*constantValue(folded), 7.5);
  QCOMPARE(QString::fromStdString(toString(folded)), QString("7.5"));
  const Expr step = expr::bind(parse("step(t, k - 2.5, 0, 2*k, 1)", nullptr), resolveTest, &error);
  QVERIFY2(step, error.c_str());
  QCOMPARE(QString::fromStdString(toString(step)), QString("step($3, 0, 0, 5, 1)"));
  // The parts without a slot fold, the rest keeps its shape.
  const Expr mixed = expr::bind(parse("k*2*x + (1 < 2 ? t : x)", nullptr), resolveTest, &error);
  QCOMPARE(QString::fromStdString(toString(mixed)), QString("5*$0 + $3"));
  QVERIFY(!isConstant(mixed));
  QVERIFY(dependsOn(mixed, 0));
  QVERIFY(dependsOn(mixed, 3));
  QVERIFY(!dependsOn(mixed, 1));
  QVERIFY(!constantValue(mixed));
  // An unbound name is not a constant.
  QVERIFY(!isConstant(parse("k", nullptr)));
  QVERIFY(isConstant(parse("1 + 2", nullptr)));
  QCOMPARE(*constantValue(parse("1 + 2", nullptr)), 3.0);
  // A successful bind leaves no message.
  QVERIFY(error.empty());
}

void ExprTest::namesInOrder() {
  const Expr e = parse("a + b*a + crank.x - sin(b) + pi*e*deg + (c ? a : d)", nullptr);
  QVERIFY(e);
  QCOMPARE(names(e), (std::vector<std::string>{"a", "b", "crank.x", "c", "d"}));
  QVERIFY(names(parse("2*pi", nullptr)).empty());
}

void ExprTest::derivatives_data() {
  QTest::addColumn<QString>("text");
  QTest::newRow("polynomial") << "-x^2 + 3*x*y - y/z";
  QTest::newRow("2 pi t") << "2*pi*t + deg*x";
  QTest::newRow("parameter") << "k*x^2*crank.x";
  QTest::newRow("quotient") << "(x + y)*(x - y)/(z^2 + 1)";
  QTest::newRow("reciprocal") << "1/(x^2 + 1)";
  QTest::newRow("sqrt of sum") << "sqrt(x^2 + y^2)";
  QTest::newRow("log exp") << "log(y)*exp(-t)";
  QTest::newRow("nested trig") << "sin(cos(x*y))*t";
  QTest::newRow("quotient of functions") << "exp(sin(x))/(2 + cos(y*z))";
  QTest::newRow("tan") << "tan(x)*z";
  QTest::newRow("hyperbolic") << "sinh(x)*cosh(y) - tanh(z*t)";
  QTest::newRow("log10") << "log10(y + t)";
  QTest::newRow("logistic") << "1/(1 + exp(-x*z))";
  QTest::newRow("atan of quotient") << "atan(x/y)";
  QTest::newRow("asin acos") << "asin(0.9*x)*acos(0.5*t)";
  QTest::newRow("atan2") << "atan2(z, x)";
  QTest::newRow("atan2 of products") << "atan2(x*y, t - 0.1)";
  QTest::newRow("variable exponent") << "y^x";
  QTest::newRow("pow variable exponent") << "pow(y, z*t)";
  QTest::newRow("both vary") << "(1 + y)^(x*z)";
  QTest::newRow("t^t") << "t^t";
  QTest::newRow("constant base") << "2^(x*z)";
  QTest::newRow("negative base, constant exponent") << "x^3 + z^4";
  QTest::newRow("fractional exponent") << "y^2.5 + y^-1.5";
  QTest::newRow("power of power") << "exp(x)^2 + (x^2)^0.5";
  QTest::newRow("abs sign") << "abs(z)*x + sign(y)*t";
  QTest::newRow("min max") << "max(x*y, z) + min(t, 1)";
  QTest::newRow("conditional") << "x > 0 ? x^2*t : -x^3";
  QTest::newRow("not conditional") << "!(x > 1) ? y*z : t";
  QTest::newRow("comparisons and logic") << "(x < y)*z^2 + (x > 0 && y > 0)*t + (z == 1)";
  QTest::newRow("step inside") << "step(t, 0, 1, 2, 3)*x";
  QTest::newRow("step of a sum") << "step(x*y + t, -2, 0, 3, 1)";
  QTest::newRow("step of sin") << "step(sin(t), 0.5, 0, 1.5, 1)";
  QTest::newRow("step outside") << "step(t, 2, 0, 3, 1) + step(t, -1, 0, 0.1, 5)*x";
  QTest::newRow("step5 inside") << "step5(t, 0.2, -1, 1.8, 2)*x";
  QTest::newRow("step5 of product") << "step5(x*z, -1.5, 2, 1.5, -1)*y";
  QTest::newRow("step5 in a function") << "sin(step5(y, 0, 0, 3, pi))";
  QTest::newRow("dotted name") << "crank.x^2*sin(t)";
  QTest::newRow("deep chain") << "exp(-(x - 0.5)^2/(2*z^2))/sqrt(2*pi*z^2)";
}

void ExprTest::derivatives() {
  QFETCH(QString, text);
  std::string why;
  const Expr e = compile(text.toStdString(), &why);
  QVERIFY2(e, why.c_str());
  // x y z t crank.x at three points away from every switch and step end of the table.
  const std::vector<std::vector<double>> points{
      {0.3, 1.2, -0.7, 0.25, 0.6}, {0.8, 0.45, 1.3, 1.6, -1.1}, {-0.55, 2.1, 0.6, 0.9, 1.7}};
  const size_t n = kSlotNames.size();
  std::vector<Expr> d(n);
  for (size_t i = 0; i < n; ++i) d[i] = differentiate(e, static_cast<int>(i));
  for (const std::vector<double>& p : points) {
    QVERIFY(std::isfinite(evaluate(e, p)));
    for (size_t i = 0; i < n; ++i) {
      // First derivative against a central difference of the value.
      const double exact = evaluate(d[i], p);
      const double numeric =
          centralDifference([&](const std::vector<double>& q) { return evaluate(e, q); }, p, i);
      QVERIFY2(relativeDifference(exact, numeric) < 1e-6,
               qPrintable(QString("d/d%1 = %2, numeric %3, at point %4")
                              .arg(kSlotNames[i].c_str())
                              .arg(exact, 0, 'g', 17)
                              .arg(numeric, 0, 'g', 17)
                              .arg(&p - points.data())));
      // Second derivatives against central differences of the exact first derivative.
      for (size_t j = 0; j < n; ++j) {
        const Expr dd = differentiate(d[i], static_cast<int>(j));
        const double exact2 = evaluate(dd, p);
        const double numeric2 = centralDifference(
            [&](const std::vector<double>& q) { return evaluate(d[i], q); }, p, j);
        QVERIFY2(relativeDifference(exact2, numeric2) < 1e-6,
                 qPrintable(QString("d2/d%1d%2 = %3, numeric %4, at point %5")
                                .arg(kSlotNames[i].c_str())
                                .arg(kSlotNames[j].c_str())
                                .arg(exact2, 0, 'g', 17)
                                .arg(numeric2, 0, 'g', 17)
                                .arg(&p - points.data())));
      }
    }
  }
}

void ExprTest::derivativesStaySmall() {
  std::string why;
  const auto d = [&](const std::string& text, int slot) {
    const Expr e = compile(text, &why);
    return e ? differentiate(e, slot) : nullptr;
  };
  // d/dt 2*pi*t is the constant 2 pi, its derivative the constant 0.
  const Expr rate = d("2*pi*t", 3);
  QVERIFY(isConstant(rate));
  QCOMPARE(*constantValue(rate), 2 * std::numbers::pi);
  const Expr second = differentiate(rate, 3);
  QVERIFY(isConstant(second));
  QCOMPARE(*constantValue(second), 0.0);
  QCOMPARE(QString::fromStdString(toString(d("3*x + 1", 0))), QString("3"));
  QCOMPARE(QString::fromStdString(toString(d("x^2", 0))), QString("2*$0"));
  QCOMPARE(QString::fromStdString(toString(d("x^3", 0))), QString("3*$0^2"));
  QCOMPARE(QString::fromStdString(toString(d("x*y", 0))), QString("$1"));
  QCOMPARE(QString::fromStdString(toString(d("-x", 0))), QString("-1"));
  QCOMPARE(QString::fromStdString(toString(d("sin(t)", 3))), QString("cos($3)"));
  QCOMPARE(QString::fromStdString(toString(d("exp(x)", 0))), QString("exp($0)"));
  QCOMPARE(QString::fromStdString(toString(d("x > 0 ? 2*x : 2*x", 0))), QString("2"));
  QCOMPARE(QString::fromStdString(toString(d("k*sin(x) + y", 0))), QString("2.5*cos($0)"));
  QCOMPARE(QString::fromStdString(toString(d("step(t, 0, 0, 1, 2)", 3))),
           QString("stepd(1, $3, 0, 0, 1, 2)"));
  QCOMPARE(toString(differentiate(d("step5(2*t, 0, 0, 1, 2)", 3), 3)),
           std::string("4*step5d(2, 2*$3, 0, 0, 1, 2)"));
  QVERIFY(isConstant(d("x", 1)));
  QCOMPARE(*constantValue(d("x", 1)), 0.0);
}

void ExprTest::stepValues_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<double>("expected");
  // step(x, 0, 1, 1, 3): h0 + (h1 - h0) s^2 (3 - 2s), quintic h0 + (h1 - h0) s^3 (10 - 15s + 6s^2)
  QTest::newRow("before x0") << "step(-5, 0, 1, 1, 3)" << 1.0;
  QTest::newRow("at x0") << "step(0, 0, 1, 1, 3)" << 1.0;
  QTest::newRow("quarter") << "step(0.25, 0, 1, 1, 3)" << 1.3125;
  QTest::newRow("middle") << "step(0.5, 0, 1, 1, 3)" << 2.0;
  QTest::newRow("at x1") << "step(1, 0, 1, 1, 3)" << 3.0;
  QTest::newRow("after x1") << "step(7, 0, 1, 1, 3)" << 3.0;
  QTest::newRow("shifted middle, falling") << "step(3, 2, 5, 4, -1)" << 2.0;
  QTest::newRow("5 before x0") << "step5(-5, 0, 1, 1, 3)" << 1.0;
  QTest::newRow("5 at x0") << "step5(0, 0, 1, 1, 3)" << 1.0;
  QTest::newRow("5 quarter") << "step5(0.25, 0, 1, 1, 3)" << 1.20703125;
  QTest::newRow("5 middle") << "step5(0.5, 0, 1, 1, 3)" << 2.0;
  QTest::newRow("5 at x1") << "step5(1, 0, 1, 1, 3)" << 3.0;
  QTest::newRow("5 after x1") << "step5(7, 0, 1, 1, 3)" << 3.0;
  QTest::newRow("5 shifted three quarters")
      << "step5(3.5, 2, 5, 4, -1)" << 5.0 - 6.0 * (1.0 - 0.103515625);
}

void ExprTest::stepValues() {
  QFETCH(QString, text);
  QFETCH(double, expected);
  QCOMPARE(valueOf(text.toStdString(), {}), expected);
}

void ExprTest::stepDerivativesAreContinuous() {
  std::string why;
  const Expr cubic = compile("step(t, 1, 2, 3, 6)", &why);
  const Expr quintic = compile("step5(t, 1, 2, 3, 6)", &why);
  QVERIFY(cubic && quintic);
  const auto at = [](const Expr& e, double t) { return evaluate(e, {{0, 0, 0, t}}); };
  const double eps = 1e-7;
  for (const Expr& step : {cubic, quintic}) {
    const Expr d1 = differentiate(step, 3);
    const Expr d2 = differentiate(d1, 3);
    // Values and first derivatives meet at both ends (the slope is 0 outside).
    for (double end : {1.0, 3.0}) {
      QVERIFY(std::abs(at(step, end - eps) - at(step, end + eps)) < 1e-5);
      QVERIFY(std::abs(at(d1, end - eps)) < 1e-5);
      QVERIFY(std::abs(at(d1, end + eps)) < 1e-5);
      QVERIFY(std::abs(at(d1, end - eps) - at(d1, end + eps)) < 1e-5);
    }
    // The slope in the middle: 1.5 (h1 - h0)/(x1 - x0) for the cubic, 1.875 for the quintic.
    QCOMPARE(at(d1, 2.0), step == cubic ? 3.0 : 3.75);
    // Second derivative: continuous for the quintic, a jump of 6 (h1 - h0)/(x1 - x0)^2 = 6 for the
    // cubic.
    for (double end : {1.0, 3.0}) {
      const double jump = std::abs(at(d2, end - eps) - at(d2, end + eps));
      if (step == quintic) {
        QVERIFY(jump < 1e-5);
      } else {
        QVERIFY(std::abs(jump - 6.0) < 1e-5);
      }
    }
  }
  // Third derivative of the cubic inside: -12 (h1 - h0)/(x1 - x0)^3; the fourth is zero.
  const Expr d3 = differentiate(differentiate(differentiate(cubic, 3), 3), 3);
  QCOMPARE(at(d3, 1.7), -6.0);
  QCOMPARE(at(differentiate(d3, 3), 1.7), 0.0);
  // Fifth derivative of the quintic inside: 720 (h1 - h0)/(x1 - x0)^5.
  Expr d5 = quintic;
  for (int i = 0; i < 5; ++i) d5 = differentiate(d5, 3);
  QCOMPARE(at(d5, 2.4), 720.0 * 4.0 / 32.0);
  QCOMPARE(at(d5, 3.4), 0.0);
}

void ExprTest::printing_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("printed");
  QTest::newRow("parentheses kept") << "(1+2)*3"
                                    << "(1 + 2)*3";
  QTest::newRow("parentheses dropped") << "(1*2)+3"
                                       << "1*2 + 3";
  QTest::newRow("right operand of -") << "a-(b-c)"
                                      << "a - (b - c)";
  QTest::newRow("left operand of -") << "(a-b)-c"
                                     << "a - b - c";
  QTest::newRow("right operand of /") << "a/(b*c)"
                                      << "a/(b*c)";
  QTest::newRow("^ right") << "2^3^2"
                           << "2^3^2";
  QTest::newRow("^ left") << "(2^3)^2"
                          << "(2^3)^2";
  QTest::newRow("negated power") << "-(2^2)"
                                 << "-2^2";
  QTest::newRow("negative base") << "(-2)^2"
                                 << "(-2)^2";
  QTest::newRow("negative exponent") << "2^(-x)"
                                     << "2^-x";
  QTest::newRow("double negation") << "-(-x)"
                                   << "--x";
  QTest::newRow("conditional right") << "a ? b : (c ? d : f)"
                                     << "a ? b : c ? d : f";
  QTest::newRow("conditional left") << "(a ? b : c) ? d : f"
                                    << "(a ? b : c) ? d : f";
  QTest::newRow("comparison in comparison") << "(a < b) == c"
                                            << "(a < b) == c";
  QTest::newRow("logic") << "a || b && !c"
                         << "a || b && !c";
  QTest::newRow("logic grouped") << "(a || b) && c"
                                 << "(a || b) && c";
  QTest::newRow("call") << "atan2( y,x )"
                        << "atan2(y, x)";
  QTest::newRow("pow is ^") << "pow(x, 2)"
                            << "x^2";
  QTest::newRow("dotted name") << "crank.x+1"
                               << "crank.x + 1";
  QTest::newRow("number") << "1.5e-7"
                          << "1.5e-07";
  QTest::newRow("constant") << "pi"
                            << "3.141592653589793";
  QTest::newRow("infinity") << "1/0 + 1"
                            << "1/0 + 1";
}

void ExprTest::printing() {
  QFETCH(QString, text);
  QFETCH(QString, printed);
  ParseError error;
  const Expr e = parse(text.toStdString(), &error);
  QVERIFY2(e, error.message.c_str());
  QCOMPARE(QString::fromStdString(toString(e)), printed);
}

void ExprTest::roundTrip_data() {
  QTest::addColumn<QString>("text");
  for (const char* text : {"1 - 2 - 3",
                           "1 - (2 - 3)",
                           "2^3^2",
                           "(2^3)^2",
                           "-2^2",
                           "(-2)^2",
                           "2^-1^2",
                           "-x^-y",
                           "x*-y/-z",
                           "x/(y*z)",
                           "x - -y",
                           "!x + !!y",
                           "!(x < y) || z >= t && x != y",
                           "(x ? y : z) ? t : x",
                           "x ? y ? z : t : x",
                           "x < y ? -x : +y",
                           "(x == y) == (z < t)",
                           "sin(x)^2 + cos(x)^2",
                           "atan2(-y, -x)",
                           "step5(x*y, -1, 2, 1.5, -3)",
                           "max(min(x, y), -z)",
                           "pow(x, pow(y, -2))",
                           "1e-300*x + 1e300*y",
                           "0.1 + 0.2*x",
                           "crank.x*pi/deg",
                           "-(x + y)",
                           "-(-(x))",
                           "--x",
                           "x^(y^z)",
                           "(x^y)^z",
                           "e^x",
                           "1/(x - x)",
                           "-1/(x - x) + y",
                           "log(-1)*x",
                           "(0/0)",
                           "t - 1e-7 < 0 || x > y ? 2 : 3"}) {
    QTest::newRow(text) << text;
  }
}

void ExprTest::roundTrip() {
  QFETCH(QString, text);
  ParseError error;
  const Expr first = parse(text.toStdString(), &error);
  QVERIFY2(first, error.message.c_str());
  const std::string printed = toString(first);
  const Expr second = parse(printed, &error);
  QVERIFY2(second, (printed + ": " + error.message).c_str());
  QCOMPARE(QString::fromStdString(toString(second)), QString::fromStdString(printed));
  std::string why;
  const Expr a = expr::bind(first, resolveTest, &why);
  const Expr b = expr::bind(second, resolveTest, &why);
  QVERIFY2(a && b, why.c_str());
  for (const std::vector<double>& p : {kPoint, std::vector<double>{-0.3, 0.9, -2.0, 0.0, 4.0}}) {
    QVERIFY2(sameValue(evaluate(a, p), evaluate(b, p)), printed.c_str());
  }
}

namespace {

// Random text from the grammar (mostly valid), with random spacing.
class RandomExpression {
 public:
  explicit RandomExpression(unsigned seed) : random_(seed) {}

  std::string operator()() { return node(0); }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  std::string space() { return pick(4) == 0 ? " " : ""; }

  std::string number() {
    static const char* kForms[] = {"1", "0", "2.5", ".5", "3.", "1e-3", "2E+4", "7e1", "1e308"};
    return kForms[pick(9)];
  }

  std::string node(int depth) {
    static const char* kNames[] = {"x", "y", "z", "t", "crank.x", "k", "foo", "pi", "e", "deg"};
    static const char* kBinary[] = {
        "+", "-", "*", "/", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    static const char* kFunctions[] = {"sin",  "cos",  "tan",  "asin", "acos", "atan",  "atan2",
                                       "sinh", "cosh", "tanh", "exp",  "log",  "log10", "sqrt",
                                       "abs",  "min",  "max",  "sign", "pow",  "step",  "step5"};
    static const int kArity[] = {1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 2, 5, 5};
    const int choice = depth >= 6 ? pick(2) : pick(7);
    switch (choice) {
      case 0:
        return number();
      case 1:
        return kNames[pick(10)];
      case 2:
        return space() + "-+!"[pick(3)] + node(depth + 1);
      case 3:
        return node(depth + 1) + space() + kBinary[pick(13)] + space() + node(depth + 1);
      case 4:
        return "(" + node(depth + 1) + ")";
      case 5: {
        const int f = pick(21);
        // Usually the right number of arguments, sometimes one more or one fewer.
        const int arity = kArity[f] + (pick(10) == 0 ? pick(3) - 1 : 0);
        std::string text = std::string(kFunctions[f]) + "(";
        for (int i = 0; i < arity; ++i) text += (i ? "," + space() : "") + node(depth + 1);
        return text + ")";
      }
      default:
        return node(depth + 1) + " ? " + node(depth + 1) + " : " + node(depth + 1);
    }
  }

  std::mt19937 random_;
};

}  // namespace

void ExprTest::fuzz() {
  RandomExpression randomExpression(12345);
  std::mt19937 random(678);
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  int parsed = 0, bound = 0;
  double slowest = 0.0;
  QElapsedTimer total;
  total.start();
  for (int i = 0; i < 20000; ++i) {
    std::string text = randomExpression();
    // Every other input gets random byte mutations: replace, insert or delete.
    if (i % 2 == 1) {
      const int mutations = 1 + pick(4);
      for (int m = 0; m < mutations; ++m) {
        const size_t at = static_cast<size_t>(pick(static_cast<int>(text.size()) + 1));
        const char byte = static_cast<char>(pick(256));
        switch (pick(3)) {
          case 0:
            if (at < text.size()) text[at] = byte;
            break;
          case 1:
            text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte);
            break;
          default:
            if (at < text.size()) text.erase(at, 1);
            break;
        }
      }
    }
    QElapsedTimer timer;
    timer.start();
    ParseError error;
    const Expr e = parse(text, &error);
    if (!e) {
      // Every failure has a message and a column inside the text (or just after it).
      QVERIFY2(!error.message.empty(), text.c_str());
      QVERIFY2(error.column >= 1 && error.column <= static_cast<int>(text.size()) + 1,
               text.c_str());
      continue;
    }
    ++parsed;
    // Printing gives text that parses back to the same text.
    const std::string printed = toString(e);
    const Expr again = parse(printed, &error);
    QVERIFY2(again, (text + " -> " + printed + ": " + error.message).c_str());
    QCOMPARE(QString::fromStdString(toString(again)), QString::fromStdString(printed));
    std::string why;
    const Expr b = expr::bind(e, resolveTest, &why);
    if (!b) {
      QVERIFY2(!why.empty(), text.c_str());
      continue;
    }
    ++bound;
    // Evaluation and first and second derivatives: no crash, and the same value after printing.
    const Expr rebound = expr::bind(again, resolveTest, &why);
    QVERIFY(rebound);
    QVERIFY2(sameValue(evaluate(b, kPoint), evaluate(rebound, kPoint)), text.c_str());
    const Expr dx = differentiate(b, 0);
    QVERIFY(dx);
    evaluate(dx, kPoint);
    evaluate(differentiate(dx, 3), kPoint);
    slowest = std::max(slowest, static_cast<double>(timer.nsecsElapsed()) * 1e-9);
  }
  qInfo("fuzz: %d of 20000 parsed, %d bound, slowest %.3f ms, total %.2f s", parsed, bound,
        slowest * 1e3, static_cast<double>(total.elapsed()) * 1e-3);
  // The generator is mostly valid: a good share must get through to evaluation.
  QVERIFY(parsed > 5000);
  QVERIFY(bound > 2000);
  QVERIFY(slowest < 0.5);
  // Huge inputs: errors or values in bounded time, no crash.
  ParseError error;
  QVERIFY(!parse(std::string(1000000, '('), &error));
  QVERIFY(!parse(std::string(1000000, '1') + "+", &error));
  QVERIFY(error.message.starts_with("number '111"));
  const Expr longName = parse(std::string(1000000, 'a'), &error);
  QVERIFY(longName);
  QCOMPARE(names(longName).front().size(), size_t{1000000});
  std::string manyCalls;
  for (int i = 0; i < 100000; ++i) manyCalls += "sin(";
  QVERIFY(!parse(manyCalls, &error));
  QVERIFY(total.elapsed() < 60000);
}

QTEST_GUILESS_MAIN(ExprTest)
#include "tst_expr.moc"
