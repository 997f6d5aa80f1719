#include "plot/plot_export_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace rlx::ui {
namespace {

QSpinBox* spinBox(int minimum, int maximum, const QString& suffix) {
  auto* box = new QSpinBox;
  box->setRange(minimum, maximum);
  box->setSuffix(suffix);
  box->setAccelerated(true);
  return box;
}

}  // namespace

PlotExportDialog::PlotExportDialog(QWidget* parent)
    : QDialog(parent),
      path_(new QLineEdit(QDir::home().filePath("plot.png"))),
      width_(spinBox(16, 20000, " px")),
      height_(spinBox(16, 20000, " px")),
      dpi_(spinBox(24, 2400, " DPI")) {
  setWindowTitle(tr("Export Plot"));
  path_->setMinimumWidth(320);

  // File with a Browse button, then size and resolution.
  auto* browseButton = new QPushButton(tr("Browse…"));
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browseButton);
  auto* sizeRow = new QHBoxLayout;
  sizeRow->addWidget(width_);
  sizeRow->addWidget(new QLabel(QStringLiteral("×")));
  sizeRow->addWidget(height_);
  sizeRow->addStretch(1);
  auto* dpiRow = new QHBoxLayout;
  dpiRow->addWidget(dpi_);
  dpiRow->addStretch(1);
  auto* form = new QFormLayout;
  form->addRow(tr("File:"), fileRow);
  form->addRow(tr("Image size:"), sizeRow);
  form->addRow(tr("Resolution:"), dpiRow);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
  setOptions(ImageOptions{});

  connect(browseButton, &QPushButton::clicked, this, &PlotExportDialog::browse);
  connect(path_, &QLineEdit::textChanged, this, &PlotExportDialog::updateEnabled);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  updateEnabled();
}

QString PlotExportDialog::path() const {
  return path_->text().trimmed();
}

ImageOptions PlotExportDialog::options() const {
  return {QSize(width_->value(), height_->value()), dpi_->value()};
}

void PlotExportDialog::setPath(const QString& path) {
  path_->setText(path);
}

void PlotExportDialog::setOptions(const ImageOptions& options) {
  width_->setValue(options.pixels.width());
  height_->setValue(options.pixels.height());
  dpi_->setValue(options.dpi);
}

void PlotExportDialog::browse() {
  const QString chosen = QFileDialog::getSaveFileName(
      this, tr("Export Plot"), path(),
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf);;Plotted data (*.csv)"));
  if (!chosen.isEmpty()) path_->setText(chosen);
}

// Size and resolution apply to images only; OK needs a known file type.
void PlotExportDialog::updateEnabled() {
  const std::optional<ExportFormat> format = exportFormatOf(path());
  const bool image = format && *format != ExportFormat::Csv;
  width_->setEnabled(image);
  height_->setEnabled(image);
  dpi_->setEnabled(image);
  if (auto* buttons = findChild<QDialogButtonBox*>())
    buttons->button(QDialogButtonBox::Ok)->setEnabled(format.has_value());
}

}  // namespace rlx::ui
