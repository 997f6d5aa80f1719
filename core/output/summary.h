#pragma once
// The JSON summary of a run (`reuleaux-cli run --summary FILE.json`): how the run ended and the
// numbers that say how well it went. Keys (shared/specs/cli-and-results.md):
//   model, analysis, integrator, status ("ok" | "failed"), message, end_time (the last stored
//   frame's time), frames, dof, dof_grubler, redundant [{joint, equation}], reactions_not_unique
//   [element names], equilibria, impacts [{limit, bound, start, end, approach_speed,
//   rebound_speed, max_penetration, energy_lost}], steps, rejected_steps, newton_iterations, rhs_evaluations,
//   max_constraint_error, max_velocity_constraint_error, max_energy_error, wall_time_s.
// Numbers that were not computed (no assembled frame) are null.

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rlx {

// max over the frames of |(E - W_nc) - (E - W_nc)(t0)| with E = kinetic + potential: the drift of
// the energy balance (zero for an exact solution). 0 for fewer than two frames.
double maxEnergyError(const Results& results);

// The elements whose multipliers, hence reactions, are not unique at the state: the owners of the
// rows that take part in a linear dependency of the rows of Phi_q (a non-zero entry in a vector
// of its left null space). Their reaction columns hold the minimum-norm solution.
std::vector<std::string> nonUniqueReactions(const Model& model, const State& state, Workspace& ws);

// `assembled`: the run got past the assembly at t0, so the degrees of freedom and the redundancy
// in `results` are known.
nlohmann::json makeSummary(const Model& model, const Results& results, bool assembled);

// Writes the summary as indented JSON. Returns false and sets *error on failure.
bool writeSummaryFile(const nlohmann::json& summary, const std::string& path, std::string* error);

}  // namespace rlx
