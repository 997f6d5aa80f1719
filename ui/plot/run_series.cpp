#include "plot/run_series.h"

#include "joints/family.h"
#include "output/csv.h"
#include "plot/channels.h"
#include "solve/equations/workspace.h"

#include <QFile>
#include <QFileInfo>

#include <charconv>
#include <vector>

namespace rlx::ui {
namespace {

// The unit of a motion's effort: a torque for rotations, a force for translations.
QString effortUnit(const Model& model, const Motion& motion) {
  const bool rotation =
      motion.joint >= 0 ? coordinateIsAngle(model.joints[static_cast<std::size_t>(motion.joint)].type)
                        : motion.coordinate == Axis::Angle;
  return rotation ? "N·m" : "N";
}

// A number that fills the whole text, in the C locale ("nan" and "inf" as printf writes them).
std::optional<double> parseNumber(const QByteArray& text) {
  double value = 0.0;
  const char* end = text.constData() + text.size();
  const auto [ptr, ec] = std::from_chars(text.constData(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

bool RunSeries::hasChannel(const QString& name) const {
  if (name == kEnergyDrift)
    return columnIndex("energy") >= 0 && columnIndex("work_nonconservative") >= 0;
  return columnIndex(name) >= 0;
}

Eigen::VectorXd RunSeries::channel(const QString& name) const {
  // energy_drift = (energy - work_nonconservative) - its first value.
  if (name == kEnergyDrift) {
    if (!hasChannel(name) || values.rows() == 0) return {};
    const Eigen::VectorXd balance =
        values.col(columnIndex("energy")) - values.col(columnIndex("work_nonconservative"));
    return balance.array() - balance(0);
  }
  const int index = columnIndex(name);
  if (index < 0) return {};
  return values.col(index);
}

QString RunSeries::unitOf(const QString& name) const {
  const int index = columnIndex(name);
  if (index >= 0 && index < units.size()) return units[index];
  return columnUnit(name);
}

QString defaultRunLabel(const Model& model, const Results& results) {
  if (results.analysis != AnalysisType::Dynamics) return analysisTypeName(results.analysis);
  const QString integrator = results.integrator ? integratorName(*results.integrator) : "";
  // Error-controlled methods are named by their tolerance, fixed-step ones by their step.
  const bool variable = results.integrator == Integrator::CorrectedRK45 ||
                        (results.integrator == Integrator::HHT && model.variableStep);
  if (variable) return integrator + " tol=" + QString::number(model.tolerance, 'g', 3);
  return integrator + " h=" + QString::number(model.step, 'g', 3);
}

RunSeries runSeriesFromResults(const Model& model, const Results& results, const QString& label) {
  RunSeries run;
  run.label = label.isEmpty() ? defaultRunLabel(model, results) : label;

  // Columns and their units (efforts from the motion's kind).
  for (const std::string& name : resultColumns(model)) {
    const QString column = QString::fromStdString(name);
    run.columns.append(column);
    run.units.append(columnUnit(column));
  }
  for (const Motion& motion : model.motions) {
    const int index = run.columnIndex(QString::fromStdString(motion.name) + ".effort");
    if (index >= 0) run.units[index] = effortUnit(model, motion);
  }

  // One row per frame, as the CSV writer computes it.
  run.values.resize(static_cast<Eigen::Index>(results.frames.size()), run.columns.size());
  Workspace ws(model);
  for (std::size_t f = 0; f < results.frames.size(); ++f) {
    const std::vector<double> row = frameValues(model, results.frames[f], ws);
    for (std::size_t c = 0; c < row.size(); ++c)
      run.values(static_cast<Eigen::Index>(f), static_cast<Eigen::Index>(c)) = row[c];
  }
  return run;
}

std::optional<RunSeries> readRunSeriesCsv(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    *error = path + ": cannot read: " + file.errorString();
    return std::nullopt;
  }
  std::optional<RunSeries> run = parseRunSeriesCsv(QString::fromUtf8(file.readAll()), path, error);
  if (run) run->label = QFileInfo(path).completeBaseName();
  return run;
}

std::optional<RunSeries> parseRunSeriesCsv(const QString& text, const QString& source,
                                           QString* error) {
  QStringList lines = text.split('\n');
  for (QString& line : lines)
    if (line.endsWith('\r')) line.chop(1);
  while (!lines.isEmpty() && lines.back().trimmed().isEmpty()) lines.removeLast();
  if (lines.isEmpty()) {
    *error = source + ": the file is empty (expected a header row starting with t)";
    return std::nullopt;
  }

  // The header: t first, every name once.
  RunSeries run;
  run.columns = lines.front().split(',');
  for (QString& name : run.columns) name = name.trimmed();
  if (run.columns.front() != "t") {
    *error = source + ": line 1, column 1: the first column must be t, got \"" +
             run.columns.front() + "\"";
    return std::nullopt;
  }
  for (int c = 0; c < run.columns.size(); ++c) {
    if (run.columns[c].isEmpty()) {
      *error = source + ": line 1, column " + QString::number(c + 1) + ": empty column name";
      return std::nullopt;
    }
    if (run.columns.indexOf(run.columns[c]) != c) {
      *error = source + ": line 1, column " + QString::number(c + 1) + ": column \"" +
               run.columns[c] + "\" appears twice";
      return std::nullopt;
    }
    run.units.append(columnUnit(run.columns[c]));
  }

  // The rows: as many numbers as columns.
  const auto rows = static_cast<Eigen::Index>(lines.size() - 1);
  run.values.resize(rows, run.columns.size());
  for (Eigen::Index r = 0; r < rows; ++r) {
    const QString lineName = source + ": line " + QString::number(r + 2);
    const QStringList cells = lines[static_cast<int>(r) + 1].split(',');
    if (cells.size() != run.columns.size()) {
      *error = lineName + ": " + QString::number(cells.size()) + " values, but the header has " +
               QString::number(run.columns.size()) + " columns";
      return std::nullopt;
    }
    for (int c = 0; c < cells.size(); ++c) {
      const std::optional<double> value = parseNumber(cells[c].trimmed().toLatin1());
      if (!value) {
        *error = lineName + ", column " + QString::number(c + 1) + " (\"" + run.columns[c] +
                 "\"): \"" + cells[c].trimmed() + "\" is not a number";
        return std::nullopt;
      }
      run.values(r, c) = *value;
    }
  }
  return run;
}

}  // namespace rlx::ui
