#pragma once
// The analysis settings dialog: type, end time, step, output step, integrator, tolerance and the
// integrator switches. Fields take numbers or parameter expressions, as in the file.

#include "model/spec.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace rlx::ui {

class AnalysisDialog : public QDialog {
  Q_OBJECT
 public:
  AnalysisDialog(const AnalysisSpec& analysis, QWidget* parent = nullptr);

  AnalysisSpec analysis() const { return analysis_; }
  void accept() override;

  QComboBox* typeBox() const { return type_; }
  QComboBox* integratorBox() const { return integrator_; }
  QLineEdit* endTimeEdit() const { return endTime_; }
  QLineEdit* stepEdit() const { return step_; }
  QLineEdit* hhtAlphaEdit() const { return hhtAlpha_; }

 private:
  void updateEnabled();

  AnalysisSpec analysis_;
  QComboBox *type_, *integrator_;
  QLineEdit *endTime_, *step_, *outputStep_, *tolerance_, *hhtAlpha_;
  QCheckBox *variableStep_, *energyCorrection_;
  QLabel* message_;
};

}  // namespace rlx::ui
