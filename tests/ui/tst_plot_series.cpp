// RunSeries: built from a real run it equals the results CSV read back (columns, units, values);
// the derived energy drift; the channel classification; and the messages for broken CSV files.
#include "output/csv.h"
#include "plot/channels.h"
#include "plot/run_series.h"
#include "plot_test_runs.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <sstream>

using namespace rlx;
using namespace rlx::ui;

class TestPlotSeries : public QObject {
  Q_OBJECT
 private slots:
  void fromResultsEqualsCsv_data();
  void fromResultsEqualsCsv();
  void energyDrift();
  void unitsFromModel();
  void classifyChannels();
  void defaultChannels();
  void brokenCsv_data();
  void brokenCsv();
  void missingFile();
};

void TestPlotSeries::fromResultsEqualsCsv_data() {
  QTest::addColumn<QString>("example");
  QTest::addColumn<QString>("integrator");
  QTest::newRow("pendulum hht") << "simple_pendulum.rlx"
                                << "hht";
  QTest::newRow("slider-crank corrected-rk") << "braun_goldfarb_slider_crank.rlx"
                                             << "corrected-rk";
}

void TestPlotSeries::fromResultsEqualsCsv() {
  QFETCH(QString, example);
  QFETCH(QString, integrator);
  const test::ExampleRun run =
      test::runExample(example.toStdString(), integrator.toStdString(), 1.0);
  const RunSeries series = runSeriesFromResults(run.model, run.results);

  // The CSV the CLI writes, read back.
  std::ostringstream out;
  QVERIFY(writeCsv(out, run.model, run.results));
  QString error;
  const std::optional<RunSeries> read =
      parseRunSeriesCsv(QString::fromStdString(out.str()), "run.csv", &error);
  QVERIFY2(read, qPrintable(error));

  // Same columns, same frames, the same numbers bit for bit (NaN where the CSV has nan).
  QCOMPARE(series.columns, read->columns);
  QCOMPARE(series.columns.size(), static_cast<qsizetype>(resultColumns(run.model).size()));
  QCOMPARE(series.frameCount(), static_cast<int>(run.results.frames.size()));
  QCOMPARE(read->frameCount(), series.frameCount());
  QCOMPARE(series.frameCount(), 101);
  for (Eigen::Index r = 0; r < series.values.rows(); ++r)
    for (Eigen::Index c = 0; c < series.values.cols(); ++c) {
      const double a = series.values(r, c), b = read->values(r, c);
      if (std::isnan(a) && std::isnan(b)) continue;
      if (a != b)
        QFAIL(qPrintable(QString("frame %1, %2: %3 != %4")
                             .arg(r)
                             .arg(series.columns[static_cast<int>(c)])
                             .arg(a, 0, 'g', 17)
                             .arg(b, 0, 'g', 17)));
    }
  QCOMPARE(series.time()(0), 0.0);
  QCOMPARE(series.time()(100), 1.0);
  QCOMPARE(series.label,
           integrator == "hht" ? QString("hht h=0.001") : QString("corrected-rk h=0.01"));
}

void TestPlotSeries::energyDrift() {
  const test::ExampleRun run = test::runExample("simple_pendulum.rlx", "hht", 1.0);
  const RunSeries series = runSeriesFromResults(run.model, run.results);
  QVERIFY(series.hasChannel(kEnergyDrift));
  const Eigen::VectorXd drift = series.channel(kEnergyDrift);
  QCOMPARE(drift.size(), 101);
  QCOMPARE(drift(0), 0.0);
  // (energy - work) - its first value, frame by frame from the frames themselves.
  const Frame& first = run.results.frames.front();
  const double start = first.kinetic + first.potential - first.workNonconservative;
  for (int k : {10, 50, 100}) {
    const Frame& f = run.results.frames[static_cast<std::size_t>(k)];
    QCOMPARE(drift(k), (f.kinetic + f.potential - f.workNonconservative) - start);
  }
  // HHT's numerical damping: a small drift, not zero.
  QVERIFY(std::abs(drift(100)) > 1e-9);
  QVERIFY(std::abs(drift(100)) < 1e-2);
  QCOMPARE(series.unitOf(kEnergyDrift), QString("J"));
  QVERIFY(series.channel("no.such").size() == 0);
}

void TestPlotSeries::unitsFromModel() {
  const test::ExampleRun run = test::runExample("simple_pendulum.rlx", "hht", 0.05);
  const RunSeries series = runSeriesFromResults(run.model, run.results);
  QCOMPARE(series.unitOf("t"), QString("s"));
  QCOMPARE(series.unitOf("pendulum.x"), QString("m"));
  QCOMPARE(series.unitOf("pendulum.angle"), QString("rad"));
  QCOMPARE(series.unitOf("pendulum.omega"), QString("rad/s"));
  QCOMPARE(series.unitOf("pendulum.ay"), QString("m/s²"));
  QCOMPARE(series.unitOf("pin.fx"), QString("N"));
  QCOMPARE(series.unitOf("pin.tz"), QString("N·m"));
  QCOMPARE(series.unitOf("kinetic"), QString("J"));
  QCOMPARE(series.unitOf("constraint_error"), QString("m or rad"));

  // A motion's effort: a torque for a driven revolute joint.
  const Model driven =
      test::compileOrFail(test::loadSpec(test::examplePath("driven_pendulum.rlx")));
  const RunSeries drivenSeries = runSeriesFromResults(driven, Results{}, "no frames");
  QCOMPARE(drivenSeries.frameCount(), 0);
  const QString effort = "driver.effort";
  QVERIFY(drivenSeries.hasChannel(effort));
  QCOMPARE(drivenSeries.unitOf(effort), QString("N·m"));
}

void TestPlotSeries::classifyChannels() {
  const auto check = [](const QString& column, ChannelGroup group, const QString& element,
                        const QString& quantity) {
    const ChannelName name = classifyChannel(column);
    QCOMPARE(static_cast<int>(name.group), static_cast<int>(group));
    QCOMPARE(name.element, element);
    QCOMPARE(name.quantity, quantity);
  };
  check("t", ChannelGroup::Time, "", "t");
  check("crank.angle", ChannelGroup::Body, "crank", "angle");
  check("arm.v2.qw", ChannelGroup::Body, "arm.v2", "qw");
  check("pin.fx", ChannelGroup::Joint, "pin", "fx");
  check("drive.effort", ChannelGroup::Motion, "drive", "effort");
  check("energy_drift", ChannelGroup::Energy, "", "energy_drift");
  check("velocity_constraint_error", ChannelGroup::ConstraintError, "",
        "velocity_constraint_error");
  check("crank.colour", ChannelGroup::Other, "", "crank.colour");
  QCOMPARE(columnUnit("drive.effort"), QString("N or N·m"));
  QCOMPARE(columnUnit("b.alz"), QString("rad/s²"));
  QCOMPARE(withUnit("crank.omega", "rad/s"), QString("crank.omega [rad/s]"));
}

void TestPlotSeries::defaultChannels() {
  // The first motion's effort wherever it stands.
  QCOMPARE(ui::defaultChannels({"t", "crank.x", "crank.angle", "drive.effort", "lift.effort"}),
           QStringList({"drive.effort"}));
  // Without a motion, the first body's position: planar x, y, angle; spatial x, y, z.
  QCOMPARE(ui::defaultChannels({"t", "arm.x", "arm.y", "arm.angle", "arm.vx", "hand.x"}),
           QStringList({"arm.x", "arm.y", "arm.angle"}));
  QCOMPARE(ui::defaultChannels({"t", "top.x", "top.y", "top.z", "top.qw", "top.wx"}),
           QStringList({"top.x", "top.y", "top.z"}));
  // Nothing to show: nothing chosen.
  QCOMPARE(ui::defaultChannels({"t", "kinetic", "constraint_error"}), QStringList());
}

void TestPlotSeries::brokenCsv_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("message");
  QTest::newRow("empty") << "\n\n"
                         << "r.csv: the file is empty (expected a header row starting with t)";
  QTest::newRow("no t") << "time,a.x\n0,1\n"
                        << "r.csv: line 1, column 1: the first column must be t, got \"time\"";
  QTest::newRow("twice") << "t,a.x,a.x\n0,1,2\n"
                         << "r.csv: line 1, column 3: column \"a.x\" appears twice";
  QTest::newRow("empty name") << "t,,a.x\n0,1,2\n"
                              << "r.csv: line 1, column 2: empty column name";
  QTest::newRow("short row") << "t,a.x,a.y\n0,1,2\n0.1,1\n"
                             << "r.csv: line 3: 2 values, but the header has 3 columns";
  QTest::newRow("not a number") << "t,a.x\n0,1\n0.1,abc\n"
                                << "r.csv: line 3, column 2 (\"a.x\"): \"abc\" is not a number";
  QTest::newRow("decimal comma") << "t,a.x\r\n0,1\r\n0.1,\"1,5\"\r\n"
                                 << "r.csv: line 3: 3 values, but the header has 2 columns";
  QTest::newRow("empty cell") << "t,a.x\n0,\n"
                              << "r.csv: line 2, column 2 (\"a.x\"): \"\" is not a number";
}

void TestPlotSeries::brokenCsv() {
  QFETCH(QString, text);
  QFETCH(QString, message);
  QString error;
  QVERIFY(!parseRunSeriesCsv(text, "r.csv", &error));
  QCOMPARE(error, message);
}

void TestPlotSeries::missingFile() {
  QTemporaryDir dir;
  const QString path = dir.filePath("none.csv");
  QString error;
  QVERIFY(!readRunSeriesCsv(path, &error));
  QVERIFY2(error.startsWith(path + ": cannot read"), qPrintable(error));

  // A good file with CRLF line ends, nan cells and a trailing blank line reads back.
  QFile file(dir.filePath("good.csv"));
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("t,a.x,a.ax\r\n0,1.5,nan\r\n0.5,-2e-3,-nan\r\n\r\n");
  file.close();
  const std::optional<RunSeries> good = readRunSeriesCsv(file.fileName(), &error);
  QVERIFY2(good, qPrintable(error));
  QCOMPARE(good->label, QString("good"));
  QCOMPARE(good->frameCount(), 2);
  QCOMPARE(good->values(1, 1), -2e-3);
  QVERIFY(std::isnan(good->values(0, 2)) && std::isnan(good->values(1, 2)));
  QCOMPARE(good->units, QStringList({"s", "m", "m/s²"}));
}

QTEST_MAIN(TestPlotSeries)
#include "tst_plot_series.moc"
