#include "solve/integrators/integrator_report.h"

#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/linalg/dependent_rows.h"

#include <algorithm>
#include <cmath>

namespace rlx {

std::string checkStepOptions(const DynamicsOptions& options) {
  if (!(options.step > 0) || !std::isfinite(options.step))
    return "the step must be positive, got " + numberText(options.step);
  if (!(options.tolerance > 0) || !std::isfinite(options.tolerance))
    return "the tolerance must be positive, got " + numberText(options.tolerance);
  if (!(options.minStep > 0) || options.minStep > options.step)
    return "the minimum step must be in (0, step], got " + numberText(options.minStep);
  return {};
}

std::string dynamicsFailurePrefix(double t) {
  return "dynamic analysis failed at t = " + numberText(t) + " s: ";
}

void reportNonFiniteForce(const NonFiniteForce& bad, double t, SolveReport& report) {
  report.status = SolveStatus::NotFinite;
  report.time = t;
  report.elements = {bad.element};
  report.message = dynamicsFailurePrefix(t) + bad.cause;
}

namespace {

// dependentElements' defaults: dependent to the solver's accuracy.
constexpr double kLockRank = 1e-4, kLockShare = 1e-3;

// The active rows (those the integrators solve with) that are dependent at `at`, as rows of the
// model: a consistent redundant equation, dropped at assembly, is dependent everywhere and takes
// no part.
std::vector<Eigen::Index> dependentActiveRows(const Model& model, Workspace& ws, const State& at) {
  evaluateConstraintDerivatives(model, at, ws);
  const std::vector<Eigen::Index> rows = activeRows(ws);
  SparseMatrix active(static_cast<Eigen::Index>(rows.size()), ws.Phi_q.cols());
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t k = 0; k < rows.size(); ++k)
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows[k]); it; ++it)
      entries.emplace_back(static_cast<int>(k), static_cast<int>(it.col()), it.value());
  active.setFromTriplets(entries.begin(), entries.end());
  std::vector<Eigen::Index> dependent = dependentRows(model, active, kLockRank, kLockShare);
  for (Eigen::Index& k : dependent) k = rows[static_cast<std::size_t>(k)];
  return dependent;
}

}  // namespace

void reportStepFailure(const Model& model, Workspace& ws, const State& last,
                       const State& predictor, SolveStatus status, const std::string& cause,
                       double h, SolveReport& report) {
  report.status = status;
  report.time = last.t;
  std::vector<Eigen::Index> rows = dependentActiveRows(model, ws, last);
  if (rows.empty()) rows = dependentActiveRows(model, ws, predictor);
  report.elements.clear();
  for (const Eigen::Index row : rows) {
    const std::string& owner = model.rowOwners[static_cast<std::size_t>(row)];
    if (std::find(report.elements.begin(), report.elements.end(), owner) == report.elements.end())
      report.elements.push_back(owner);
  }
  // A motion among them drives the mechanism into the configuration: it locks up. Without one
  // the configuration is a singular one that the motion may pass.
  const bool driven = std::any_of(rows.begin(), rows.end(), [&](Eigen::Index row) {
    return std::any_of(model.motions.begin(), model.motions.end(),
                       [&](const Motion& motion) { return motion.row == row; });
  });
  const std::string names = joinNames(report.elements);
  report.message = dynamicsFailurePrefix(last.t) + cause + " even with the step reduced to " +
                   numberText(h) + " s" +
                   (rows.empty() ? ""
                    : driven     ? ": the mechanism locks up (joints involved: " + names + ")"
                                 : ": at a singular configuration (dependent equations: " + names +
                                   ")");
}

}  // namespace rlx
