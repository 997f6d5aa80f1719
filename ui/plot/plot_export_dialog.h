#pragma once
// The dialog of "Export plot…": file (its extension picks PNG, SVG, PDF or CSV), image size in
// pixels and resolution in DPI (plot_export.h says how they combine).

#include "plot/plot_export.h"

#include <QDialog>

class QLineEdit;
class QSpinBox;

namespace rlx::ui {

class PlotExportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit PlotExportDialog(QWidget* parent = nullptr);

  QString path() const;
  ImageOptions options() const;
  void setPath(const QString& path);
  void setOptions(const ImageOptions& options);

 private:
  void browse();
  void updateEnabled();

  QLineEdit* path_;
  QSpinBox* width_;
  QSpinBox* height_;
  QSpinBox* dpi_;
};

}  // namespace rlx::ui
