// Bad input through the command line: each broken copy of the four-bar example exits with 1
// (invalid model) or 2 (analysis failed) and a message on stderr that names the element.
#include "test_support.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

namespace {

struct Edit {
  std::string from, to;  // text replaced in examples/four_bar.rlx
};

}  // namespace

class TestCliBadInput : public QObject {
  Q_OBJECT

 private slots:
  void badModel_data();
  void badModel();
};

void TestCliBadInput::badModel_data() {
  QTest::addColumn<QString>("from");
  QTest::addColumn<QString>("to");
  QTest::addColumn<int>("exitCode");
  QTest::addColumn<QString>("message");
  const auto row = [](const char* name, const char* from, const char* to, int code, const char* message) {
    QTest::newRow(name) << from << to << code << message;
  };
  row("malformed JSON", R"("dimension": 2,)", R"("dimension": 2)", 1, "syntax error");
  row("unknown key", R"("name": "crank",)", R"("name": "crank", "mas": 1,)", 1, R"(bodies[0] "crank": unknown key "mas")");
  row("unknown body", R"("body2": "coupler")", R"("body2": "couplr")", 1, R"(body2 names an unknown body "couplr")");
  row("unknown joint", R"("joint": "crank_pin")", R"("joint": "crank_pn")", 1, R"(motions[0] "crank_drive": joint names an unknown joint "crank_pn")");
  row("wrong vector length", R"("point1": [0, 0])", R"("point1": [0, 0, 0])", 1, R"(joints[0] "crank_pin": point1 must have 2 numbers, got 3)");
  row("non-positive mass", R"("mass": "m_crank")", R"("mass": 0)", 1, R"(bodies[0] "crank": mass must be positive)");
  row("duplicate names", R"("name": "rocker_pin")", R"("name": "crank_pin")", 1, R"(name "crank_pin" is already used by joints[0] "crank_pin")");
  row("newer format version", R"("reuleaux": 1)", R"("reuleaux": 2)", 1, "newer");
  row("expression syntax error", R"("function": "2*pi*t")", R"("function": "2*pi*(t")", 1, R"(motions[0] "crank_drive": function has a syntax error)");
  row("unknown variable", R"("function": "2*pi*t")", R"("function": "2*pi*speed")", 1, R"(motions[0] "crank_drive": function "2*pi*speed": unknown variable 'speed')");
  row("infinity", R"("mass": "m_crank")", R"("mass": 1e999)", 1, "1e999");
  row("NaN expression", R"("mass": "m_crank")", R"("mass": "0/0")", 1, R"(bodies[0] "crank": mass "0/0" is not a finite number)");
  row("over-driven joint", R"("motions": [)", R"("motions": [{"name": "again", "joint": "crank_pin", "function": "t"}, )", 1, R"(over-drives joint "crank_pin")");
}

void TestCliBadInput::badModel() {
  QFETCH(QString, from);
  QFETCH(QString, to);
  QFETCH(int, exitCode);
  QFETCH(QString, message);
  std::string text = rlx::test::readFile(rlx::test::examplePath("four_bar.rlx"));
  const auto at = text.find(from.toStdString());
  QVERIFY2(at != std::string::npos, "the example no longer has the text to replace");
  text.replace(at, static_cast<std::size_t>(from.size()), to.toStdString());
  QTemporaryDir dir;
  const QString path = dir.filePath("broken.rlx");
  std::ofstream(path.toStdString()) << text;

  QProcess process;
  process.start(QString::fromStdString(rlx::test::cliPath()), {"check", path});
  QVERIFY(process.waitForFinished(60000));
  QCOMPARE(process.exitStatus(), QProcess::NormalExit);
  const QString err = QString::fromUtf8(process.readAllStandardError());
  QCOMPARE(process.exitCode(), exitCode);
  QVERIFY2(err.contains(message), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestCliBadInput)
#include "tst_cli_bad_input.moc"
