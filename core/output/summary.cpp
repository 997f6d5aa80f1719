#include "output/summary.h"

#include "io/atomic_write.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"

#include <algorithm>
#include <cmath>

namespace rlx {
namespace {

// max over the frames of a frame's number; NaN (null in JSON) if any is NaN; null without frames.
template <typename Get>
nlohmann::json maxOver(const Results& results, Get get) {
  if (results.frames.empty()) return nullptr;
  double worst = 0.0;
  for (const Frame& f : results.frames) {
    const double x = get(f);
    if (std::isnan(x)) return x;
    worst = std::max(worst, x);
  }
  return worst;
}

}  // namespace

double maxEnergyError(const Results& results) {
  if (results.frames.size() < 2) return 0.0;
  const auto balance = [](const Frame& f) {
    return f.kinetic + f.potential - f.workNonconservative;
  };
  const double initial = balance(results.frames.front());
  // A NaN propagates: a non-finite frame must not look accurate.
  double worst = 0.0;
  for (const Frame& f : results.frames) {
    const double x = std::abs(balance(f) - initial);
    if (std::isnan(x)) return x;
    worst = std::max(worst, x);
  }
  return worst;
}

std::vector<std::string> nonUniqueReactions(const Model& model, const State& state, Workspace& ws) {
  evaluateConstraintDerivatives(model, state, ws);
  return dependentElements(model, ws.Phi_q, 1e-9, 1e-8);
}

nlohmann::json makeSummary(const Model& model, const Results& results, bool assembled) {
  nlohmann::json s;
  s["model"] = model.name;
  s["analysis"] = analysisTypeName(results.analysis);
  s["integrator"] = results.integrator ? integratorName(*results.integrator) : "";
  s["status"] = results.report.ok() ? "ok" : "failed";
  s["message"] = results.report.message;
  s["end_time"] = results.frames.empty() ? nlohmann::json(nullptr)
                                         : nlohmann::json(results.frames.back().state.t);
  s["frames"] = results.frames.size();

  // Degrees of freedom and redundancy, from the assembly at t0.
  s["dof_grubler"] = model.nv - model.nh - model.nn;
  s["dof"] = assembled ? nlohmann::json(results.redundancy.dof) : nlohmann::json(nullptr);
  s["redundant"] = nlohmann::json::array();
  for (const RedundantEquation& r : results.redundancy.redundant)
    s["redundant"].push_back({{"joint", r.element}, {"equation", r.equation}});
  s["reactions_not_unique"] = nlohmann::json::array();
  if (assembled && !results.redundancy.redundant.empty() && !results.frames.empty()) {
    Workspace ws(model);
    s["reactions_not_unique"] = nonUniqueReactions(model, results.frames.front().state, ws);
  }

  // Statics: the stability of each equilibrium (one per frame).
  s["equilibria"] = nlohmann::json::array();
  for (std::size_t i = 0; i < results.equilibria.size() && i < results.frames.size(); ++i)
    s["equilibria"].push_back({{"t", results.frames[i].state.t},
                               {"stability", stabilityName(results.equilibria[i].kind)},
                               {"soft_directions", results.equilibria[i].softDirections}});

  // End stops: each contact and the energy it took.
  s["impacts"] = nlohmann::json::array();
  for (const Impact& impact : results.impacts) {
    const auto orNull = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    s["impacts"].push_back({{"limit", model.forces[static_cast<std::size_t>(impact.force)].name},
                            {"bound", impact.upper ? "upper" : "lower"},
                            {"start", impact.start},
                            {"end", orNull(impact.end)},
                            {"approach_speed", impact.approachSpeed},
                            {"rebound_speed", orNull(impact.reboundSpeed)},
                            {"max_penetration", impact.maxPenetration},
                            {"energy_lost", impact.energyLost}});
  }

  // Solver statistics.
  s["steps"] = results.stats.steps;
  s["rejected_steps"] = results.stats.rejectedSteps;
  s["floor_steps"] = results.stats.floorSteps;
  s["floor_error"] = results.stats.floorError;
  s["newton_iterations"] = results.stats.newtonIterations;
  s["rhs_evaluations"] = results.stats.rhsEvaluations;
  s["iteration_matrices"] = results.stats.iterationMatrices;
  s["wall_time_s"] = results.stats.wallTime;

  // Accuracy over the stored frames.
  s["max_constraint_error"] = maxOver(results, [](const Frame& f) { return f.constraintError; });
  s["max_velocity_constraint_error"] =
      maxOver(results, [](const Frame& f) { return f.velocityConstraintError; });
  s["max_energy_error"] =
      results.frames.empty() ? nlohmann::json(nullptr) : nlohmann::json(maxEnergyError(results));
  return s;
}

bool writeSummaryFile(const nlohmann::json& summary, const std::string& path, std::string* error) {
  return writeFileAtomically(path, summary.dump(2) + '\n', error);
}

}  // namespace rlx
