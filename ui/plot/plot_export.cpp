#include "plot/plot_export.h"

#include "io/atomic_write.h"
#include "output/csv.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <map>

namespace rlx::ui {
namespace {

constexpr double kScreenDpi = 96.0;

// The logical size the chart is laid out at.
QSizeF logicalSize(const ImageOptions& options) {
  const double scale = kScreenDpi / options.dpi;
  return {options.pixels.width() * scale, options.pixels.height() * scale};
}

// Draws a copy of `source` laid out at `logical` size into `target` of the painter.
void renderChart(const PlotChart& source, QPainter& painter, const QRectF& target,
                 const QSizeF& logical) {
  QGraphicsScene scene;
  auto* chart = new PlotChart;
  scene.addItem(chart);
  chart->setContent(source.content());
  chart->setRanges(source.xRange(), source.yRanges());
  chart->setCursorVisible(false);
  chart->setGeometry(QRectF(QPointF(0, 0), logical));
  // Lay the chart out now (the layout is otherwise posted to the event loop).
  chart->layout()->activate();
  QCoreApplication::sendPostedEvents();
  scene.setSceneRect(QRectF(QPointF(0, 0), logical));
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  scene.render(&painter, target, scene.sceneRect());
}

bool validOptions(const ImageOptions& options, const QString& path, QString* error) {
  if (options.pixels.width() < 16 || options.pixels.height() < 16 ||
      options.pixels.width() > 20000 || options.pixels.height() > 20000) {
    *error = path + ": the image size must be between 16 and 20000 pixels, got " +
             QString::number(options.pixels.width()) + "x" +
             QString::number(options.pixels.height());
    return false;
  }
  if (options.dpi < 24 || options.dpi > 2400) {
    *error = path + ": the resolution must be between 24 and 2400 DPI, got " +
             QString::number(options.dpi);
    return false;
  }
  return true;
}

// A CSV field, quoted when it holds a comma, a quote or a line break.
QString csvField(const QString& text) {
  if (!text.contains(',') && !text.contains('"') && !text.contains('\n')) return text;
  return '"' + QString(text).replace("\"", "\"\"") + '"';
}

// The rendered file, written atomically (io/atomic_write.h): a failed export leaves the previous
// file. Not QSaveFile: it takes a short write (a disk filling up) for a whole one and ignores a
// failed sync, and then renamed a 100-byte SVG over the previous plot in tst_cli_save_faults.
bool saveBytes(const QString& path, const QByteArray& bytes, QString* error) {
  std::string message;
  if (writeFileAtomically(path.toStdString(), bytes.toStdString(), &message)) return true;
  *error = QString::fromStdString(message);
  return false;
}

}  // namespace

std::optional<ExportFormat> exportFormatOf(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "png") return ExportFormat::Png;
  if (suffix == "svg") return ExportFormat::Svg;
  if (suffix == "pdf") return ExportFormat::Pdf;
  if (suffix == "csv") return ExportFormat::Csv;
  return std::nullopt;
}

bool exportPlot(const PlotChart& chart, const QString& path, const ImageOptions& options,
                QString* error) {
  const std::optional<ExportFormat> format = exportFormatOf(path);
  if (!format) {
    *error = path + ": unknown file type (use .png, .svg, .pdf or .csv)";
    return false;
  }
  switch (*format) {
    case ExportFormat::Png:
      return exportPng(chart, path, options, error);
    case ExportFormat::Svg:
      return exportSvg(chart, path, options, error);
    case ExportFormat::Pdf:
      return exportPdf(chart, path, options, error);
    case ExportFormat::Csv:
      return exportCsv(chart, path, error);
  }
  return false;
}

bool exportPng(const PlotChart& chart, const QString& path, const ImageOptions& options,
               QString* error) {
  if (!validOptions(options, path, error)) return false;
  QImage image(options.pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  const int dotsPerMeter = qRound(options.dpi / 0.0254);
  image.setDotsPerMeterX(dotsPerMeter);
  image.setDotsPerMeterY(dotsPerMeter);
  {
    QPainter painter(&image);
    renderChart(chart, painter, QRectF(QPointF(0, 0), QSizeF(options.pixels)),
                logicalSize(options));
  }
  QBuffer png;
  png.open(QIODevice::WriteOnly);
  if (!image.save(&png, "PNG")) {
    *error = path + ": the image cannot be encoded as PNG";
    return false;
  }
  return saveBytes(path, png.data(), error);
}

bool exportSvg(const PlotChart& chart, const QString& path, const ImageOptions& options,
               QString* error) {
  if (!validOptions(options, path, error)) return false;
  const QSizeF logical = logicalSize(options);
  QBuffer text;
  QSvgGenerator svg;
  svg.setOutputDevice(&text);
  svg.setSize(logical.toSize());
  svg.setViewBox(QRectF(QPointF(0, 0), logical));
  svg.setResolution(static_cast<int>(kScreenDpi));
  svg.setTitle(chart.content().title.isEmpty() ? "Reuleaux plot" : chart.content().title);
  {
    QPainter painter(&svg);
    renderChart(chart, painter, QRectF(QPointF(0, 0), logical), logical);
  }
  return saveBytes(path, text.data(), error);
}

bool exportPdf(const PlotChart& chart, const QString& path, const ImageOptions& options,
               QString* error) {
  if (!validOptions(options, path, error)) return false;
  QBuffer document;
  document.open(QIODevice::WriteOnly);
  {
    // One page of the image's physical size, no margins.
    QPdfWriter pdf(&document);
    const QSizeF inches(double(options.pixels.width()) / options.dpi,
                        double(options.pixels.height()) / options.dpi);
    pdf.setPageSize(QPageSize(inches * 72.0, QPageSize::Point, "plot", QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setResolution(options.dpi);
    pdf.setTitle(chart.content().title.isEmpty() ? "Reuleaux plot" : chart.content().title);
    pdf.setCreator("Reuleaux");
    QPainter painter(&pdf);
    renderChart(chart, painter, QRectF(0, 0, pdf.width(), pdf.height()), logicalSize(options));
  }
  return saveBytes(path, document.data(), error);
}

bool exportCsv(const PlotChart& chart, const QString& path, QString* error) {
  return saveBytes(path, plottedDataCsv(chart).toUtf8(), error);
}

QString plottedDataCsv(const PlotChart& chart) {
  // Header: x column, then one column per curve.
  QString text = csvField(chart.content().xColumn);
  for (int i = 0; i < chart.curveCount(); ++i) text += ',' + csvField(chart.curveName(i));
  text += '\n';

  // Rows: every x of any curve, in order; cells of curves without that x stay empty.
  std::map<double, std::vector<std::optional<double>>> rows;
  const auto curves = static_cast<std::size_t>(chart.curveCount());
  for (int i = 0; i < chart.curveCount(); ++i)
    for (const QPointF& p : chart.plottedPoints(i)) {
      auto& row = rows[p.x()];
      row.resize(curves);
      row[static_cast<std::size_t>(i)] = p.y();
    }
  for (const auto& [x, values] : rows) {
    text += QString::fromStdString(formatNumber(x));
    for (const std::optional<double>& v : values)
      text += ',' + (v ? QString::fromStdString(formatNumber(*v)) : QString());
    text += '\n';
  }
  return text;
}

}  // namespace rlx::ui
