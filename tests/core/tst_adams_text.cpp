// The text layer of the Adams dataset reader (io/adams_text.h): statements, continuation lines,
// comments and view names, the shapes of arguments, Fortran numbers and ids, and the line of
// every error; the UNITS statement's factors to SI and keyword abbreviations (io/adams_units.h).
#include "io/adams_text.h"
#include "io/adams_units.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace rlx;
using namespace rlx::adams;

namespace {

// In the layout Adams/View writes: sections of comments, a view name above each statement,
// arguments on continuation lines, an expression continued over three lines, a statement with
// its arguments on its own line and expressions ended by backslashes.
const char* kDataset = R"(ADAMS/View model name: torsion_pendulum
!
!------------------------------ SYSTEM UNITS ------------------------------
UNITS/
, FORCE = NEWTON
, LENGTH = METER
!                         adams_view_name='ground'
PART/01
, GROUND
!   the pin's marker, turned -90 degrees about x
!                         adams_view_name='pin_marker'
MARKER/0102
, PART = 1
, QP = 0, -0.4, 1.5E-3
, REULER = 180D, 90D, 180d
!                         adams_view_name='arm'
PART/2, MASS = 1, CM = 201, IP = 0.04:0.1:0.1
MARKER/201, PART = 2, FLOATING
SFORCE/1
, ROTATIONAL
, I = 207
, J = 208
, FUNCTION =  - 2.0*RTOD*(az(207,208)-0.0*DTOR)
, - 5.0E-002*RTOD*wz(207,208,208)
, + 0.0
REQUEST/05, F2=SFORCE(1,0,2,101)\F3=STEP(TIME, 0, 0, 1, 1)\F4=DX(1,2),C=torque, and its angle
REQUEST/6
, COMMENT = DISPLACEMENT: X Y Z, PSI THETA PHI
END
PART/99, THIS IS AFTER THE END
)";

// The dataset's text, or the error's line and message.
std::optional<Text> tryRead(std::string_view dataset, std::string& error) {
  try {
    return readText(dataset);
  } catch (const DatasetError& e) {
    error = "line " + std::to_string(e.line) + ": " + e.message;
    return std::nullopt;
  }
}

std::string spaceless(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

}  // namespace

class TestAdamsText : public QObject {
  Q_OBJECT

 private slots:
  void statements();
  void arguments();
  void expressions();
  void numbers();
  void recognised();
  void errors_data();
  void errors();
  void keywords();
  void units_data();
  void units();
  void unitErrors_data();
  void unitErrors();
};

void TestAdamsText::statements() {
  std::string error;
  const std::optional<Text> read = tryRead(kDataset, error);
  QVERIFY2(read, error.c_str());
  const Text& text = *read;
  QCOMPARE(text.title, std::string("ADAMS/View model name: torsion_pendulum"));
  QVERIFY(text.ended);
  std::vector<std::string> names;
  for (const Statement& s : text.statements) names.push_back(s.name);
  QCOMPARE(names, (std::vector<std::string>{"UNITS", "PART", "MARKER", "PART", "MARKER", "SFORCE",
                                            "REQUEST", "REQUEST"}));
  const Statement& units = text.statements[0];
  QVERIFY(!units.id);
  QCOMPARE(units.line, 4);
  QCOMPARE(units.viewName, std::string());
  const Statement& ground = text.statements[1];
  QCOMPARE(*ground.id, 1LL);  // PART/01
  QCOMPARE(ground.viewName, std::string("ground"));
  QCOMPARE(ground.arguments.size(), std::size_t(1));
  QCOMPARE(ground.arguments[0].key, std::string("GROUND"));
  QVERIFY(!ground.arguments[0].assignment);
  QCOMPARE(ground.arguments[0].line, 9);
  const Statement& marker = text.statements[2];
  QCOMPARE(*marker.id, 102LL);                           // MARKER/0102
  QCOMPARE(marker.viewName, std::string("pin_marker"));  // another comment line between
  QCOMPARE(text.statements[3].viewName, std::string("arm"));
  QCOMPARE(text.statements[4].viewName, std::string());  // the name is used once
  QCOMPARE(*text.statements[6].id, 5LL);
}

void TestAdamsText::arguments() {
  std::string error;
  const std::optional<Text> read = tryRead(kDataset, error);
  QVERIFY2(read, error.c_str());
  const Text& text = *read;
  const Statement& units = text.statements[0];
  QCOMPARE(units.arguments.size(), std::size_t(2));
  QCOMPARE(units.arguments[0].key, std::string("FORCE"));
  QCOMPARE(units.arguments[0].values, std::vector<std::string>{"NEWTON"});
  QCOMPARE(units.arguments[1].line, 6);

  const Statement& marker = text.statements[2];
  QCOMPARE(marker.arguments[1].key, std::string("QP"));
  QCOMPARE(marker.arguments[1].values, (std::vector<std::string>{"0", "-0.4", "1.5E-3"}));
  QCOMPARE(marker.arguments[2].values, (std::vector<std::string>{"180D", "90D", "180d"}));
  QCOMPARE(marker.arguments[2].line, 15);

  // Arguments on the statement's own line; a:b:c of numbers; a keyword after an assignment.
  const Statement& arm = text.statements[3];
  QCOMPARE(arm.arguments.size(), std::size_t(3));
  QCOMPARE(arm.arguments[2].key, std::string("IP"));
  QCOMPARE(arm.arguments[2].values, (std::vector<std::string>{"0.04", "0.1", "0.1"}));
  const Statement& floating = text.statements[4];
  QCOMPARE(floating.arguments.size(), std::size_t(2));
  QCOMPARE(floating.arguments[0].values, std::vector<std::string>{"2"});
  QCOMPARE(floating.arguments[1].key, std::string("FLOATING"));

  // COMMENT runs to the end of its line, commas and colons included.
  const Statement& request = text.statements[7];
  QCOMPARE(request.arguments.size(), std::size_t(1));
  QCOMPARE(request.arguments[0].values,
           std::vector<std::string>{"DISPLACEMENT: X Y Z, PSI THETA PHI"});
}

void TestAdamsText::expressions() {
  std::string error;
  const std::optional<Text> read = tryRead(kDataset, error);
  QVERIFY2(read, error.c_str());
  const Text& text = *read;
  // Continued over three lines: the continuation commas are not part of it.
  const Argument& function = text.statements[5].arguments.back();
  QCOMPARE(function.key, std::string("FUNCTION"));
  QVERIFY(function.expression);
  QCOMPARE(function.line, 23);
  QCOMPARE(spaceless(function.values.front()),
           std::string("-2.0*RTOD*(az(207,208)-0.0*DTOR)-5.0E-002*RTOD*wz(207,208,208)+0.0"));
  // Ended by backslashes, and by a comma before another KEY =; commas inside calls kept.
  const Statement& request = text.statements[6];
  QCOMPARE(request.arguments.size(), std::size_t(4));
  QCOMPARE(request.arguments[0].values.front(), std::string("SFORCE(1,0,2,101)"));
  QCOMPARE(request.arguments[1].values.front(), std::string("STEP(TIME, 0, 0, 1, 1)"));
  QCOMPARE(request.arguments[2].key, std::string("F4"));
  QCOMPARE(request.arguments[2].values.front(), std::string("DX(1,2)"));
  QCOMPARE(request.arguments[3].key, std::string("C"));
  QCOMPARE(request.arguments[3].values.front(), std::string("torque, and its angle"));
}

void TestAdamsText::numbers() {
  const double degree = std::numbers::pi / 180;
  const std::pair<const char*, double> cases[] = {{"1.387778781E-014", 1.387778781e-14},
                                                  {"1.5E-3", 1.5e-3},
                                                  {"-1E4", -1e4},
                                                  {"1D0", 1.0},
                                                  {"2.5d+2", 250.0},
                                                  {".5", 0.5},
                                                  {"+2", 2.0},
                                                  {"0102", 102.0},
                                                  {"90D", 90 * degree},
                                                  {"30.0d", 30 * degree},
                                                  {"-1.5E1D", -15 * degree},
                                                  {" 7 ", 7.0}};
  for (const auto& [text, value] : cases) {
    const std::optional<double> read = number(text);
    QVERIFY2(read, text);
    QVERIFY2(std::abs(*read - value) <= 1e-15 * std::abs(value), text);
  }
  for (const char* text : {"", "E3", "1E", "1.2.3", "1e3x", "NEWTON", "-", "1 2", "D"})
    QVERIFY2(!number(text), text);
  QCOMPARE(*identifier("0102"), 102LL);
  QVERIFY(!identifier("-1"));
  QVERIFY(!identifier("1.0"));
  QVERIFY(!identifier("99999999999999999999"));
}

void TestAdamsText::recognised() {
  QVERIFY(looksLikeDataset(kDataset));
  QVERIFY(looksLikeDataset("title\n\n! a comment\n  ACCGRAV/ , KGRAV = -9.8\n"));
  // JSON, the project's own files and simEngine2D's .adm, never reads as a dataset.
  for (const char* file : {"slider_crank_kin.adm", "slider_crank_kin.rlx", "pendulum_kin.acf"})
    QVERIFY2(!looksLikeDataset(test::readFile(test::testDataPath(file))), file);
  QVERIFY(!looksLikeDataset(""));
  QVERIFY(!looksLikeDataset("only a title"));
}

void TestAdamsText::errors_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<int>("line");
  QTest::addColumn<QString>("message");
  QTest::newRow("no title")
      << "\nPART/1" << 1 << "the first line must be the dataset's title (an empty line was found)";
  QTest::newRow("continuation first")
      << "t\n! c\n, MASS = 1" << 3
      << "a continuation line (starting with a comma) follows no statement";
  QTest::newRow("not a statement")
      << "t\nPART/1\nHELLO WORLD" << 3 << "expected a statement (NAME/id, ...), got 'HELLO WORLD'";
  QTest::newRow("id") << "t\nPART/x1, GROUND" << 2 << "PART/x1: the id must be a whole number";
  QTest::newRow("value without key")
      << "t\nPART/1\n, MASS = 1\n, GROUND 3" << 4 << "expected a comma or '=' after GROUND";
  QTest::newRow("stray value") << "t\nMARKER/1, PART = 1, FLOATING, 3" << 2
                               << "expected an argument (a keyword or KEY = value), got '3'";
  QTest::newRow("empty value") << "t\nPART/1\n, MASS =\n, CM = 2" << 3 << "MASS = has no value";
  QTest::newRow("empty expression")
      << "t\nMOTION/1\n, FUNCTION = \\" << 3 << "FUNCTION = has no value";
}

void TestAdamsText::errors() {
  QFETCH(QString, text);
  QFETCH(int, line);
  QFETCH(QString, message);
  try {
    readText(text.toStdString());
    QFAIL("no error");
  } catch (const DatasetError& e) {
    QCOMPARE(QString::fromStdString(e.message), message);
    QCOMPARE(e.line, line);
  }
}

void TestAdamsText::keywords() {
  static constexpr const char* kWords[] = {"TRANSLATIONAL", "TRANSLATION", "REVOLUTE", "RACKPIN"};
  QCOMPARE(matchKeyword("REV", kWords), std::string("REVOLUTE"));
  QCOMPARE(matchKeyword("TRANSLATION", kWords), std::string("TRANSLATION"));  // exact wins
  QCOMPARE(matchKeyword("TRANSLATIONAL", kWords), std::string("TRANSLATIONAL"));
  QCOMPARE(matchKeyword("TRANS", kWords), std::string());  // ambiguous
  QCOMPARE(matchKeyword("R", kWords), std::string());      // ambiguous
  QCOMPARE(matchKeyword("GEAR", kWords), std::string());
  QCOMPARE(matchKeyword("", kWords), std::string());
  static constexpr const char* kPrimitives[] = {"INLINE", "INPLANE", "I", "J"};
  QCOMPARE(matchKeyword("I", kPrimitives), std::string("I"));  // after two it abbreviates
  QCOMPARE(matchKeyword("INL", kPrimitives), std::string("INLINE"));
}

void TestAdamsText::units_data() {
  QTest::addColumn<QString>("statement");
  QTest::addColumn<double>("length");
  QTest::addColumn<double>("mass");
  QTest::addColumn<double>("time");
  QTest::addColumn<double>("force");
  QTest::addColumn<QString>("description");
  // Each factor from its definition: 1 in = 2.54 cm, 1 lb = 0.45359237 kg, lbf = lb g_n.
  const double lbf = 0.45359237 * 9.80665;
  QTest::newRow("named")
      << "UNITS/\n, FORCE = POUND_FORCE\n, MASS = POUND_MASS\n, LENGTH = INCH\n, TIME = SECOND"
      << 0.0254 << 0.45359237 << 1.0 << lbf << "inch, pound_mass, second, pound_force";
  QTest::newRow("abbreviated, any case")
      << "UNITS/, FORCE = kNewton, MASS = TON, LENGTH = MILLIM, TIME = MILLISECOND" << 1e-3
      << 1000.0 << 1e-3 << 1000.0 << "millimeter, tonne, milliseconds, knewton";
  QTest::newRow("slug and foot")
      << "UNITS/, FORCE = POUND_F, MASS = SLUG, LENGTH = FOOT, TIME = SECOND" << 0.3048
      << lbf / 0.3048 << 1.0 << lbf << "foot, slug, second, pound_force";
  QTest::newRow("minutes")
      << "UNITS/, FORCE = NEWTON, MASS = KILOGRAM, LENGTH = METER, TIME = MINUTE" << 1.0 << 1.0
      << 60.0 << 1.0 << "meter, kilogram, minute, newton";
  QTest::newRow("IPS") << "UNITS/, SYSTEM = IPS" << 0.0254 << 0.45359237 << 1.0 << lbf
                       << "inch, pound_mass, second, pound_force";
  QTest::newRow("CGS") << "UNITS/, SYSTEM = CGS" << 0.01 << 1e-3 << 1.0 << 1e-5
                       << "centimeter, gram, second, dyne";
  QTest::newRow("NONE") << "UNITS/, SYSTEM = NONE" << 1.0 << 1.0 << 1.0 << 1.0
                        << "SI, with forces times UCF = 1";
  QTest::newRow("UCF") << "UNITS/, UCF = 0.5" << 1.0 << 1.0 << 1.0 << 0.5
                       << "SI, with forces times UCF = 0.5";
  QTest::newRow("poundal")
      << "UNITS/, FORCE = POUNDAL, MASS = POUND_MASS, LENGTH = FOOT, TIME = SECOND" << 0.3048
      << 0.45359237 << 1.0 << 0.45359237 * 0.3048 << "foot, pound_mass, second, poundal";
}

void TestAdamsText::units() {
  QFETCH(QString, statement);
  std::string error;
  const std::optional<Text> text = tryRead(("title\n" + statement).toStdString(), error);
  QVERIFY2(text, error.c_str());
  const Units u = readUnits(text->statements.front());
  QFETCH(double, length);
  QFETCH(double, mass);
  QFETCH(double, time);
  QFETCH(double, force);
  QFETCH(QString, description);
  for (const auto& [read, expected] : {std::pair{u.length, length}, std::pair{u.mass, mass},
                                       std::pair{u.time, time}, std::pair{u.force, force}})
    QVERIFY2(std::abs(read - expected) <= 1e-15 * expected,
             qPrintable(QString::number(read, 'g', 17)));
  QCOMPARE(QString::fromStdString(u.description), description);
  // The slug is the mass a pound-force accelerates at 1 ft/s^2.
  if (description.contains("slug"))
    QVERIFY(std::abs(u.force - u.mass * u.acceleration()) < 1e-15 * u.force);
}

void TestAdamsText::unitErrors_data() {
  QTest::addColumn<QString>("statement");
  QTest::addColumn<int>("line");
  QTest::addColumn<QString>("message");
  QTest::newRow("unknown unit")
      << "UNITS/\n, LENGTH = FURLONG" << 3
      << "UNITS: unknown length FURLONG (expected one of ANGSTROM, CENTIMETER, FOOT, "
         "KILOMETER, INCH, METER, MICROINCH, MICROMETER, MILE, MILLIMETER, MILS, "
         "NANOMETER, YARD)";
  QTest::newRow("ambiguous unit")
      << "UNITS/, LENGTH = MIL, MASS = KILOGRAM, TIME = SECOND, FORCE = NEWTON" << 2
      << "UNITS: unknown length MIL (expected one of ANGSTROM, CENTIMETER, FOOT, "
         "KILOMETER, INCH, METER, MICROINCH, MICROMETER, MILE, MILLIMETER, MILS, "
         "NANOMETER, YARD)";
  QTest::newRow("missing") << "UNITS/\n, LENGTH = METER\n, MASS = KILOGRAM\n, TIME = SECOND" << 2
                           << "UNITS: FORCE is missing (FORCE, LENGTH, MASS and TIME go together)";
  QTest::newRow("unknown key")
      << "UNITS/\n, SYSTEM = MKS\n, ANGLE = DEGREE" << 4
      << "UNITS: unknown argument ANGLE (expected FORCE, LENGTH, MASS, TIME, SYSTEM or UCF)";
  QTest::newRow("UCF beside") << "UNITS/\n, SYSTEM = MKS\n, UCF = 2" << 4
                              << "UNITS: UCF cannot be given beside named units";
  QTest::newRow("bad UCF") << "UNITS/, UCF = -1" << 2
                           << "UNITS: UCF must be a positive number, got -1";
  QTest::newRow("keyword") << "UNITS/, MKS" << 2
                           << "UNITS: unknown argument MKS (expected FORCE, LENGTH, MASS, "
                              "TIME, SYSTEM or UCF)";
  QTest::newRow("no value") << "UNITS/, FORCE" << 2 << "UNITS: FORCE takes one value";
}

void TestAdamsText::unitErrors() {
  QFETCH(QString, statement);
  QFETCH(int, line);
  QFETCH(QString, message);
  std::string error;
  const std::optional<Text> text = tryRead(("title\n" + statement).toStdString(), error);
  QVERIFY2(text, error.c_str());
  try {
    readUnits(text->statements.front());
    QFAIL("no error");
  } catch (const DatasetError& e) {
    QCOMPARE(QString::fromStdString(e.message), message);
    QCOMPARE(e.line, line);
  }
}

QTEST_GUILESS_MAIN(TestAdamsText)
#include "tst_adams_text.moc"
