#pragma once
// One run's results as the plots see them: the CSV columns (core/output/csv.h) as a
// frames x columns matrix, built from a finished run or read back from a results CSV file.
//
// Derived channels (not in the CSV, computed on request by channel()):
//   energy_drift = (energy - work_nonconservative) - (its value at the first frame)   [J]
// which stays 0 for an exact integration (cli-and-results.md: energy - work is constant).

#include "model/model.h"
#include "results/results.h"

#include <QString>
#include <QStringList>

#include <Eigen/Dense>

#include <optional>

namespace rlx::ui {

// The name of the derived energy drift channel.
inline const QString kEnergyDrift = QStringLiteral("energy_drift");

struct RunSeries {
  QString label;           // shown in legends and the run list: "hht h=0.001"
  QStringList columns;     // exactly the CSV header: "t", "crank.x", ...
  QStringList units;       // one per column: "s", "m", "rad", "N·m", ... ("" when dimensionless)
  Eigen::MatrixXd values;  // frames x columns; column 0 is the time

  int frameCount() const { return static_cast<int>(values.rows()); }
  Eigen::VectorXd time() const { return values.col(0); }

  // The index of a column, or -1.
  int columnIndex(const QString& name) const { return static_cast<int>(columns.indexOf(name)); }

  // True for a CSV column or a derived channel this run can compute.
  bool hasChannel(const QString& name) const;

  // A CSV column or a derived channel (energy_drift), one value per frame; empty when unknown.
  Eigen::VectorXd channel(const QString& name) const;

  // The unit of a CSV column or derived channel ("" when dimensionless or unknown).
  QString unitOf(const QString& name) const;
};

// The run's label from its settings: "hht h=0.001", "corrected-rk45 tol=1e-06", "kinematics".
QString defaultRunLabel(const Model& model, const Results& results);

// The series of a finished (or partial) run, with frameValues() per frame.
RunSeries runSeriesFromResults(const Model& model, const Results& results,
                               const QString& label = {});

// Reads a results CSV file (as written by writeCsv), labelled with the file's base name. On
// failure returns nothing and sets *error to a sentence naming the file, the line and the column
// ("r.csv: line 7, column 3 (\"crank.angle\"): \"abc\" is not a number").
std::optional<RunSeries> readRunSeriesCsv(const QString& path, QString* error);

// The same from text; `source` names it in messages.
std::optional<RunSeries> parseRunSeriesCsv(const QString& text, const QString& source,
                                           QString* error);

}  // namespace rlx::ui
