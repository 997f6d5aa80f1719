#pragma once
// Exports of a plot: PNG (a chosen pixel size and DPI), SVG, PDF, and CSV of exactly the plotted
// data. The images are drawn from a fresh chart with the same content and visible ranges,
// without the time cursor, so an export does not depend on the widget's size on screen.
//
// Size and DPI: the image is `pixels` large; the chart is laid out at pixels * 96 / dpi logical
// pixels and drawn scaled by dpi / 96, so fonts and lines keep their physical size when the
// image is printed at `dpi` (1200x800 at 192 DPI = 6.25 x 4.17 in, text as on a 600x400 screen).
// SVG: the same logical size as a view box. PDF: one page of the image's physical size
// (pixels / dpi inches), vector text and lines.

#include "plot/plot_chart.h"

#include <QSize>
#include <QString>

#include <optional>

namespace rlx::ui {

struct ImageOptions {
  QSize pixels{1200, 800};
  int dpi = 144;
};

enum class ExportFormat { Png, Svg, Pdf, Csv };

// The format from the file name's extension (case-insensitive), or nothing.
std::optional<ExportFormat> exportFormatOf(const QString& path);

// Writes the plot in the format of the file's extension. On failure sets *error to a sentence
// naming the file.
bool exportPlot(const PlotChart& chart, const QString& path, const ImageOptions& options,
                QString* error);

bool exportPng(const PlotChart& chart, const QString& path, const ImageOptions& options,
               QString* error);
bool exportSvg(const PlotChart& chart, const QString& path, const ImageOptions& options,
               QString* error);
bool exportPdf(const PlotChart& chart, const QString& path, const ImageOptions& options,
               QString* error);
bool exportCsv(const PlotChart& chart, const QString& path, QString* error);

// The plotted data as CSV: a header with the x column and each curve's legend name, then one
// row per x value of any curve (17 significant digits; a curve without that x leaves its cell
// empty). The values are those drawn: in log scale |y| with the floor.
QString plottedDataCsv(const PlotChart& chart);

}  // namespace rlx::ui
