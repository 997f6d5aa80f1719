// reuleaux-cli plot, run as a separate process: a run's CSV plotted to PNG, SVG, PDF and CSV;
// the image options; and the errors (unknown column with close matches, missing -o, bad values,
// unreadable results). In a build without the desktop libraries the command says it is not
// available, and the rest is skipped.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "test_support.h"

using rlx::test::CliRun;
using rlx::test::runCli;

namespace {

QByteArray fileBytes(const QString& path) {
  return QByteArray::fromStdString(rlx::test::readFile(path.toStdString()));
}

// A big-endian 32-bit number in a PNG file.
quint32 bigEndian(const QByteArray& bytes, qsizetype at) {
  quint32 value = 0;
  for (qsizetype i = 0; i < 4; ++i) value = (value << 8) | static_cast<quint8>(bytes[at + i]);
  return value;
}

// What a PNG file says of itself: its size (IHDR) and resolution in DPI (pHYs, 0 when absent).
struct PngInfo {
  QSize size;
  int dpi = 0;
};

PngInfo pngInfo(const QString& path) {
  const QByteArray bytes = fileBytes(path);
  PngInfo info;
  if (!bytes.startsWith("\x89PNG\r\n\x1a\n") || bytes.mid(12, 4) != "IHDR") return info;
  info.size = QSize(static_cast<int>(bigEndian(bytes, 16)), static_cast<int>(bigEndian(bytes, 20)));
  const qsizetype phys = bytes.indexOf("pHYs");
  if (phys > 0 && bytes[phys + 12] == 1) info.dpi = qRound(bigEndian(bytes, phys + 4) * 0.0254);
  return info;
}

}  // namespace

class TestCliPlot : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void plotFormats();
  void imageOptions();
  void plottedData();
  void errors_data();
  void errors();
  void unreadableResults();

 private:
  QTemporaryDir dir_;
  QString results_;
};

void TestCliPlot::initTestCase() {
  QVERIFY(dir_.isValid());
  // Without the desktop libraries: exit 2 and a sentence, nothing else to test.
  const CliRun probe = runCli({"plot", "none.csv", "--y", "a", "-o", dir_.filePath("a.png")});
  if (probe.err.contains("not available in this build")) {
    QCOMPARE(probe.exitCode, 2);
    QSKIP("reuleaux-cli was built without the desktop libraries");
  }
  results_ = dir_.filePath("pendulum.csv");
  const CliRun run =
      runCli({"run", QString::fromStdString(rlx::test::examplePath("simple_pendulum.rlx")), "--end",
              "1", "-o", results_, "--quiet"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
}

void TestCliPlot::plotFormats() {
  // PNG: the default size; SVG: valid XML with the curves; PDF: one page.
  const QString png = dir_.filePath("angle.png");
  CliRun run = runCli({"plot", results_, "--y", "pendulum.angle", "--y", "pendulum.omega", "-o",
                       png, "--title", "Simple pendulum"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QCOMPARE(run.out, "plot written to " + png + "\n");
  QCOMPARE(run.err, QString());  // no noise from Qt on stderr
  QCOMPARE(pngInfo(png).size, QSize(1200, 800));
  QCOMPARE(pngInfo(png).dpi, 144);
  QVERIFY(QFileInfo(png).size() > 20000);  // anti-aliased curves and text, not a blank image

  const QString svg = dir_.filePath("drift.svg");
  run = runCli({"plot", results_, "--y", "constraint_error,energy_drift", "--log", "-o", svg});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const QByteArray svgText = fileBytes(svg);
  QVERIFY(svgText.startsWith("<?xml"));
  QVERIFY(svgText.contains("<svg"));
  QVERIFY(svgText.count("<polyline") > 200);
  QVERIFY(svgText.contains("|energy_drift|"));

  const QString pdf = dir_.filePath("force.pdf");
  run = runCli({"plot", results_, "--y=pin.fy", "-o", pdf, "--quiet"});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QCOMPARE(run.out, QString());
  const QByteArray pdfText = fileBytes(pdf);
  QVERIFY(pdfText.startsWith("%PDF-"));
  QVERIFY(pdfText.contains("/Type /Page"));
}

void TestCliPlot::imageOptions() {
  // 800x500 at 200 DPI: that many pixels; the PDF page is 4 x 2.5 in.
  const QString png = dir_.filePath("small.png");
  CliRun run = runCli({"plot", results_, "--y", "pendulum.x", "--x", "pendulum.y", "--size",
                       "800x500", "--dpi", "200", "-o", png});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QCOMPARE(pngInfo(png).size, QSize(800, 500));
  QCOMPARE(pngInfo(png).dpi, 200);
  const QString pdf = dir_.filePath("small.pdf");
  run = runCli(
      {"plot", results_, "--y", "pendulum.x", "--size", "800x500", "--dpi", "200", "-o", pdf});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QVERIFY(fileBytes(pdf).contains("/MediaBox [0 0 288.000000 180.000000]"));
}

void TestCliPlot::plottedData() {
  // The CSV holds the plotted columns exactly as in the results.
  const QString csv = dir_.filePath("data.csv");
  const CliRun run = runCli({"plot", results_, "--y", "pin.fx,pin.fy", "-o", csv});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const QStringList plotted = QString::fromUtf8(fileBytes(csv)).split('\n', Qt::SkipEmptyParts);
  const QStringList source = QString::fromUtf8(fileBytes(results_)).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(plotted.size(), source.size());
  QCOMPARE(plotted.size(), 102);
  QCOMPARE(plotted[0], QString("t,pin.fx,pin.fy"));
  const QStringList header = source[0].split(',');
  const auto fx = header.indexOf("pin.fx"), fy = header.indexOf("pin.fy");
  for (int k : {1, 50, 101}) {
    const QStringList cells = source[k].split(',');
    QCOMPARE(plotted[k], cells[0] + "," + cells[fx] + "," + cells[fy]);
  }
}

void TestCliPlot::errors_data() {
  QTest::addColumn<QStringList>("args");
  QTest::addColumn<int>("exitCode");
  QTest::addColumn<QString>("message");
  QTest::newRow("unknown column")
      << QStringList{"--y", "pendulum.angel", "-o", "x.png"} << 64
      << "reuleaux-cli plot: --y: no column \"pendulum.angel\" in %1; did you mean pendulum.angle?";
  QTest::newRow("unknown x")
      << QStringList{"--y", "pin.fx", "--x", "time", "-o", "x.png"} << 64
      << "reuleaux-cli plot: --x: no column \"time\" in %1; its columns are t, pendulum.x,";
  QTest::newRow("missing -o") << QStringList{"--y", "pin.fx"} << 64
                              << "reuleaux-cli plot: missing -o FILE (.png, .svg, .pdf or .csv)";
  QTest::newRow("missing --y") << QStringList{"-o", "x.png"} << 64
                               << "reuleaux-cli plot: missing --y COLUMN (the columns to plot)";
  QTest::newRow("bad type")
      << QStringList{"--y", "pin.fx", "-o", "x.jpg"} << 64
      << "reuleaux-cli plot: -o FILE must end in .png, .svg, .pdf or .csv, got \"x.jpg\"";
  QTest::newRow("bad size")
      << QStringList{"--y", "pin.fx", "-o", "x.png", "--size", "800"} << 64
      << "reuleaux-cli plot: --size needs WIDTHxHEIGHT in pixels (16 to 20000), got \"800\"";
  QTest::newRow("bad dpi")
      << QStringList{"--y", "pin.fx", "-o", "x.png", "--dpi", "high"} << 64
      << "reuleaux-cli plot: --dpi needs a whole number from 24 to 2400, got \"high\"";
  QTest::newRow("log with value") << QStringList{"--y", "pin.fx", "-o", "x.png", "--log=yes"} << 64
                                  << "reuleaux-cli plot: --log takes no value";
  QTest::newRow("unwritable") << QStringList{"--y", "pin.fx", "-o", "/nonexistent/dir/x.png"} << 1
                              << "reuleaux-cli: cannot save \"/nonexistent/dir/x.png\": No such file or directory";
}

void TestCliPlot::errors() {
  QFETCH(QStringList, args);
  QFETCH(int, exitCode);
  QFETCH(QString, message);
  const CliRun run = runCli(QStringList{"plot", results_} + args);
  QCOMPARE(run.exitCode, exitCode);
  QVERIFY2(run.err.startsWith(message.arg(results_)), qPrintable(run.err));
  QVERIFY(!QFileInfo::exists("x.png"));
}

void TestCliPlot::unreadableResults() {
  // A missing file, and a broken one: exit 1 with the file, the line and the column.
  CliRun run =
      runCli({"plot", dir_.filePath("none.csv"), "--y", "a", "-o", dir_.filePath("a.png")});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.startsWith("reuleaux-cli: " + dir_.filePath("none.csv") + ": cannot read"),
           qPrintable(run.err));
  const QString broken = dir_.filePath("broken.csv");
  QFile file(broken);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("t,a.x\n0,1\n0.1,1..5\n");
  file.close();
  run = runCli({"plot", broken, "--y", "a.x", "-o", dir_.filePath("a.png")});
  QCOMPARE(run.exitCode, 1);
  QCOMPARE(run.err,
           "reuleaux-cli: " + broken + ": line 3, column 2 (\"a.x\"): \"1..5\" is not a number\n");
  QVERIFY(!QFileInfo::exists(dir_.filePath("a.png")));
}

QTEST_MAIN(TestCliPlot)
#include "tst_cli_plot.moc"
