#include "run/analysis_dialog.h"

#include "model/integrator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace rlx::ui {
namespace {

QString textOf(const Number& n) {
  return n.expression.empty() ? QString::number(n.value, 'g', 12) : QString::fromStdString(n.expression);
}

// A number as typed: a literal, or an expression the compiler evaluates.
Number numberOf(const QString& text) {
  bool ok = false;
  const double value = text.trimmed().toDouble(&ok);
  return ok ? Number(value) : Number::expr(text.trimmed().toStdString());
}

}  // namespace

AnalysisDialog::AnalysisDialog(const AnalysisSpec& analysis, QWidget* parent)
    : QDialog(parent), analysis_(analysis) {
  setWindowTitle(tr("Analysis Settings"));
  type_ = new QComboBox(this);
  for (AnalysisType t : {AnalysisType::Assembly, AnalysisType::Kinematics, AnalysisType::Statics,
                         AnalysisType::Dynamics})
    type_->addItem(analysisTypeName(t), static_cast<int>(t));
  type_->setCurrentIndex(static_cast<int>(analysis.type));
  integrator_ = new QComboBox(this);
  for (const Integrator integrator : kIntegrators)
    integrator_->addItem(integratorName(integrator), static_cast<int>(integrator));
  integrator_->setCurrentText(QString::fromStdString(analysis.integrator));
  endTime_ = new QLineEdit(textOf(analysis.endTime), this);
  step_ = new QLineEdit(textOf(analysis.step), this);
  outputStep_ = new QLineEdit(analysis.outputStep ? textOf(*analysis.outputStep) : QString(), this);
  outputStep_->setPlaceholderText(tr("same as the step"));
  tolerance_ = new QLineEdit(textOf(analysis.tolerance), this);
  variableStep_ = new QCheckBox(tr("Error-controlled step (hht)"), this);
  variableStep_->setChecked(analysis.variableStep);
  energyCorrection_ = new QCheckBox(tr("Energy correction (corrected-rk)"), this);
  energyCorrection_->setChecked(analysis.energyCorrection);
  hhtAlpha_ = new QLineEdit(textOf(analysis.hhtAlpha), this);
  hhtAlpha_->setToolTip(tr("In [-1/3, 0]: 0 damps nothing, -1/3 damps the fast modes most"));
  message_ = new QLabel(this);
  message_->setStyleSheet("color: #b00020;");
  message_->hide();

  auto* form = new QFormLayout;
  form->addRow(tr("Type"), type_);
  form->addRow(tr("End time [s]"), endTime_);
  form->addRow(tr("Step [s]"), step_);
  form->addRow(tr("Output step [s]"), outputStep_);
  form->addRow(tr("Integrator"), integrator_);
  form->addRow(tr("Tolerance"), tolerance_);
  form->addRow(QString(), variableStep_);
  form->addRow(tr("HHT α"), hhtAlpha_);
  form->addRow(QString(), energyCorrection_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &AnalysisDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &AnalysisDialog::reject);
  connect(type_, &QComboBox::currentIndexChanged, this, &AnalysisDialog::updateEnabled);
  connect(integrator_, &QComboBox::currentIndexChanged, this, &AnalysisDialog::updateEnabled);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(message_);
  layout->addWidget(buttons);
  updateEnabled();
}

void AnalysisDialog::updateEnabled() {
  const bool dynamics = type_->currentData().toInt() == static_cast<int>(AnalysisType::Dynamics);
  integrator_->setEnabled(dynamics);
  const auto integrator = static_cast<Integrator>(integrator_->currentData().toInt());
  variableStep_->setEnabled(dynamics && integrator == Integrator::HHT);
  hhtAlpha_->setEnabled(dynamics && integrator == Integrator::HHT);
  energyCorrection_->setEnabled(dynamics && (integrator == Integrator::CorrectedRK ||
                                             integrator == Integrator::CorrectedRK45));
}

void AnalysisDialog::accept() {
  AnalysisSpec a = analysis_;
  a.type = static_cast<AnalysisType>(type_->currentData().toInt());
  a.endTime = numberOf(endTime_->text());
  a.step = numberOf(step_->text());
  a.outputStep = outputStep_->text().trimmed().isEmpty() ? std::nullopt
                                                          : std::optional<Number>(numberOf(outputStep_->text()));
  a.integrator = integrator_->currentText().toStdString();
  a.tolerance = numberOf(tolerance_->text());
  a.variableStep = variableStep_->isChecked();
  a.energyCorrection = energyCorrection_->isChecked();
  a.hhtAlpha = numberOf(hhtAlpha_->text());
  // Literal values are checked here; expressions are checked by the compiler.
  const auto positive = [](const Number& n) { return !n.expression.empty() || n.value > 0; };
  if (!positive(a.endTime) || !positive(a.step) || !positive(a.tolerance) ||
      (a.outputStep && !positive(*a.outputStep))) {
    message_->setText(tr("End time, step, output step and tolerance must be positive."));
    message_->show();
    return;
  }
  if (!a.hhtAlpha.isExpression() && !hhtAlphaInRange(a.hhtAlpha.value)) {
    message_->setText(tr("HHT α must be in [-1/3, 0]."));
    message_->show();
    return;
  }
  analysis_ = a;
  QDialog::accept();
}

}  // namespace rlx::ui
