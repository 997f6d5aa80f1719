#pragma once
// Results of an analysis: a time series of frames. The CSV writer, the summary, the GUI's timeline
// and every plot read the same series.

#include "model/model.h"
#include "results/redundancy.h"
#include "results/report.h"

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <vector>

namespace rlx {

struct Frame {
  State state;
  Eigen::VectorXd vdot;    // accelerations
  Eigen::VectorXd lambda;  // multipliers (all rows; redundant rows: minimum-norm share)
  double kinetic = 0.0;
  double potential = 0.0;
  double workNonconservative = 0.0;  // since t0
  double constraintError = 0.0;      // max |Phi|
  double velocityConstraintError = 0.0;
};

struct RunStats {
  int steps = 0;
  int rejectedSteps = 0;
  int newtonIterations = 0;
  int rhsEvaluations = 0;
  int iterationMatrices = 0;  // hht, bdf: iteration matrices formed (K and C evaluated) and factored
  int maxOrder = 0;       // variable-order methods (bdf): the highest order used
  // corrected-rk45: steps across a singular configuration taken at the error floor that rounding
  // sets there (solve/integrators/corrected_rk.cpp), and the largest of their errors, in
  // multiples of the tolerance.
  int floorSteps = 0;
  double floorError = 0.0;
  double wallTime = 0.0;  // seconds
};

// A static equilibrium's stability: the signs of the tangent stiffness on the motions the
// constraints allow (solve/statics/statics.h).
enum class Stability { Stable, Neutral, Unstable };

struct EquilibriumStability {
  Stability kind = Stability::Stable;
  int softDirections = 0;  // free motions along which the stiffness is negative (unstable) or zero
};

const char* stabilityName(Stability kind);  // "stable", "neutral", "unstable"

// One contact of an end stop (a `limit` force) during a run: from the first accepted step inside
// the bound to the first outside it. Speeds are the joint coordinate's, at those steps' times
// linearly interpolated to the bound.
struct Impact {
  int force = -1;                // index in model.forces
  bool upper = false;            // which bound
  double start = 0, end = 0;     // times; end is NaN when the run ended in contact
  double approachSpeed = 0;      // |qdot| entering
  double reboundSpeed = 0;       // |qdot| leaving (NaN when the run ended in contact)
  double maxPenetration = 0;
  double energyLost = 0;         // dissipated in the stop during the contact
};

struct Results {
  AnalysisType analysis = AnalysisType::Kinematics;
  std::optional<Integrator> integrator;  // dynamics only
  std::vector<Frame> frames;
  std::vector<EquilibriumStability> equilibria;  // statics: one per frame
  Redundancy redundancy;   // from the assembly at t0
  std::vector<Impact> impacts;  // dynamics: end stops' contacts, in order of their start
  SolveReport report;      // how the run ended
  RunStats stats;
};

// A sentence on one impact of an end stop, for the user: when, how fast in and out, the energy
// it took (speeds in the joint coordinate's units per second, energy in J).
std::string impactNote(const Model& model, const Impact& impact);

// Sentences on the equilibria that are not stable (none when all are), for the user.
std::vector<std::string> equilibriumNotes(const Results& results);

// A sentence on the steps an integrator took at an error floor above the tolerance (RunStats
// floorSteps), for the user; empty when there were none.
std::string floorNote(const RunStats& stats);

// Reaction of one joint (or motion, or user constraint) on its body2, from body1: force in global
// axes at the joint point on body2, torque about that point in global axes. From the multipliers:
// the generalized constraint force on body2 is Q^C = -Phi_{q2}^T lambda (ME451), whose force part
// is the force and whose moment part, moved from the centre of mass to the point, the torque.
struct Reaction {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();
};

}  // namespace rlx
