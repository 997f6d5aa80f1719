// plot RESULTS.csv --y COLUMN... -o FILE.(png|svg|pdf|csv): the desktop application's plotting
// code, drawn offscreen, for reports in batch. This file is the program reuleaux-plot, which links
// the plotting library; reuleaux-cli itself links no GUI library and hands `plot` over to it
// (plot_launch.cpp).
#include "command_args.h"
#include "commands.h"
#include "exit_codes.h"
#include "output.h"
#include "usage.h"

#include "plot/plot_chart.h"
#include "plot/plot_export.h"
#include "plot/run_series.h"

#include <QApplication>

#include <algorithm>
#include <cstdlib>

#include <cstdio>

namespace rlx::cli {

namespace {

// Edit distance between two names (insertions, deletions, substitutions).
int editDistance(const QString& a, const QString& b) {
  std::vector<int> row(static_cast<std::size_t>(b.size()) + 1);
  for (std::size_t j = 0; j < row.size(); ++j) row[j] = static_cast<int>(j);
  for (qsizetype i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (qsizetype j = 1; j <= b.size(); ++j) {
      const auto uj = static_cast<std::size_t>(j);
      const int substitution = diagonal + (a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1);
      diagonal = row[uj];
      row[uj] = std::min({row[uj] + 1, row[uj - 1] + 1, substitution});
    }
  }
  return row[static_cast<std::size_t>(b.size())];
}

// "no column \"x\" in FILE; did you mean a, b?" (or the first columns when nothing is close).
std::string unknownColumn(const QString& column, const ui::RunSeries& run, const QString& file) {
  QStringList candidates = run.columns;
  if (run.hasChannel(ui::kEnergyDrift)) candidates.append(ui::kEnergyDrift);
  QStringList close;
  for (const QString& name : candidates) {
    const bool similar = editDistance(column, name) <= std::max<qsizetype>(2, column.size() / 4);
    const bool contains = column.size() >= 3 && name.contains(column, Qt::CaseInsensitive);
    if (similar || contains) close.append(name);
  }
  QString message = "no column \"" + column + "\" in " + file;
  if (!close.isEmpty())
    message += "; did you mean " + close.mid(0, 6).join(", ") + "?";
  else
    message += "; its columns are " + candidates.mid(0, 8).join(", ") +
               (candidates.size() > 8 ? ", ..." : "");
  return message.toStdString();
}

// Qt's notes about the environment (no runtime directory, ...) are not the user's business;
// its critical and fatal messages still go to stderr.
void quietQtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type == QtCriticalMsg || type == QtFatalMsg)
    std::fprintf(stderr, "reuleaux-cli: %s\n", qPrintable(message));
}

// --size WxH in pixels.
bool sizeOption(const Arguments& args, QSize* size, std::string* error) {
  const std::optional<std::string> text = args.value("size");
  if (!text) return true;
  const QStringList parts = QString::fromStdString(*text).split('x');
  bool okWidth = false, okHeight = false;
  const int width = parts.size() == 2 ? parts[0].toInt(&okWidth) : 0;
  const int height = parts.size() == 2 ? parts[1].toInt(&okHeight) : 0;
  if (!okWidth || !okHeight || width < 16 || height < 16 || width > 20000 || height > 20000) {
    *error = "--size needs WIDTHxHEIGHT in pixels (16 to 20000), got \"" + *text + "\"";
    return false;
  }
  *size = QSize(width, height);
  return true;
}

// --dpi N.
bool dpiOption(const Arguments& args, int* dpi, std::string* error) {
  const std::optional<std::string> text = args.value("dpi");
  if (!text) return true;
  bool ok = false;
  const int value = QString::fromStdString(*text).toInt(&ok);
  if (!ok || value < 24 || value > 2400) {
    *error = "--dpi needs a whole number from 24 to 2400, got \"" + *text + "\"";
    return false;
  }
  *dpi = value;
  return true;
}

}  // namespace

int plotCommand(const std::vector<std::string>& words) {
  int exitCode = kExitOk;
  const auto args = parseCommandLine("plot", words,
                                     {{"output", 'o'},
                                      {"y"},
                                      {"x"},
                                      {"log", '\0', false},
                                      {"title"},
                                      {"size"},
                                      {"dpi"},
                                      {"quiet", '\0', false}},
                                     {"RESULTS.csv"}, &exitCode);
  if (!args) return exitCode;
  // The options: output file and its type, columns, size and resolution.
  const std::optional<std::string> output = args->value("output");
  if (!output) return usageError("plot", "missing -o FILE (.png, .svg, .pdf or .csv)");
  const QString outputPath = QString::fromStdString(*output);
  if (!ui::exportFormatOf(outputPath))
    return usageError("plot",
                      "-o FILE must end in .png, .svg, .pdf or .csv, got \"" + *output + "\"");
  QStringList yColumns;
  for (const std::string& value : args->values("y"))
    for (const QString& column : QString::fromStdString(value).split(',', Qt::SkipEmptyParts))
      yColumns.append(column.trimmed());
  if (yColumns.isEmpty()) return usageError("plot", "missing --y COLUMN (the columns to plot)");
  const QString xColumn = QString::fromStdString(args->value("x").value_or("t"));
  ui::ImageOptions image;
  std::string error;
  if (!sizeOption(*args, &image.pixels, &error) || !dpiOption(*args, &image.dpi, &error))
    return usageError("plot", error);

  // Qt without a display: the offscreen platform unless one is chosen.
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) qputenv("QT_QPA_PLATFORM", "offscreen");
  int argc = 1;
  char name[] = "reuleaux-cli";
  char* argv[] = {name, nullptr};
  qInstallMessageHandler(quietQtMessages);
  QApplication app(argc, argv);

  // The results and the columns asked for.
  const QString resultsPath = QString::fromStdString(args->positional[0]);
  QString readError;
  const std::optional<ui::RunSeries> run = ui::readRunSeriesCsv(resultsPath, &readError);
  if (!run) {
    printError(readError.toStdString());
    return kExitInvalidModel;
  }
  const QStringList wanted = QStringList(yColumns) << xColumn;
  for (const QString& column : wanted)
    if (!run->hasChannel(column))
      return usageError("plot", (column == xColumn ? "--x: " : "--y: ") +
                                    unknownColumn(column, *run, resultsPath));

  // The chart, then the file.
  ui::PlotContent content;
  content.title = QString::fromStdString(args->value("title").value_or(""));
  content.xColumn = xColumn;
  content.xUnit = run->unitOf(xColumn);
  content.logY = args->has("log");
  for (const QString& column : yColumns)
    content.curves.push_back(*ui::makeCurve(*run, column, xColumn));
  ui::PlotChart chart;
  chart.setContent(content);
  QString exportError;
  if (!ui::exportPlot(chart, outputPath, image, &exportError)) {
    printError(exportError.toStdString());
    return kExitInvalidModel;
  }
  if (!args->has("quiet")) std::printf("plot written to %s\n", output->c_str());
  return kExitOk;
}

}  // namespace rlx::cli
