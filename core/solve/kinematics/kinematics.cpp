#include "solve/kinematics/kinematics.h"

#include "model/function.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/equations/forces.h"
#include "solve/kinematics/driven_jacobian.h"

#include <chrono>
#include <cmath>
#include <sstream>

namespace rlx {
namespace {

std::string timeText(double t) {
  std::ostringstream out;
  out << "t = " << t << " s";
  return out.str();
}

}  // namespace

void runKinematics(const Model& model, const State& assembled, Workspace& ws,
                   const KinematicsOptions& options, Results& results,
                   const FrameObserver& observer) {
  const auto start = std::chrono::steady_clock::now();
  results.analysis = AnalysisType::Kinematics;
  SolveReport& report = results.report;
  const std::vector<Eigen::Index> rows = activeRows(ws);
  if (static_cast<int>(rows.size()) != model.nv) {
    report.status = SolveStatus::Unsupported;
    const int free = model.nv - static_cast<int>(rows.size());
    report.message = "kinematic analysis needs a fully driven mechanism, but " + std::to_string(free) +
                     (free == 1 ? " degree of freedom remains" : " degrees of freedom remain") +
                     ": add motions, or run a dynamic analysis";
    return;
  }
  const auto n = static_cast<Eigen::Index>(model.nv);
  Eigen::VectorXd rhs(n);
  DrivenJacobian jacobian(ws, rows);
  const auto gatherActive = [&](const Eigen::VectorXd& all) {
    for (Eigen::Index k = 0; k < n; ++k) rhs(k) = all(rows[static_cast<std::size_t>(k)]);
    return rhs;
  };
  // Phi on the active rows; nonholonomic rows have no position residual (zero).
  const auto gatherPositionResidual = [&]() {
    for (Eigen::Index k = 0; k < n; ++k) {
      const Eigen::Index row = rows[static_cast<std::size_t>(k)];
      rhs(k) = row < model.nh ? ws.Phi(row) : 0.0;
    }
    return rhs;
  };

  State state = assembled;
  Recorder recorder(model, results, observer, state.t, options.endTime, options.outputStep);
  // Velocities, accelerations and multipliers at a solved configuration.
  const auto solveRates = [&]() -> bool {
    evaluateConstraintDerivatives(model, state, ws);
    if (!jacobian.factor(ws)) return false;
    state.v = jacobian.solve(gatherActive(ws.nu));
    evaluateConstraintDerivatives(model, state, ws);  // gamma depends on v
    ws.vdot = jacobian.solve(gatherActive(ws.gamma));
    evaluateMassMatrix(model, state, ws);
    evaluateAppliedForces(model, state, ws);
    const Eigen::VectorXd effort = ws.Q - ws.M * ws.vdot;
    const Eigen::VectorXd active = jacobian.solveTransposed(effort);
    ws.lambda.setZero();
    for (Eigen::Index k = 0; k < n; ++k) ws.lambda(rows[static_cast<std::size_t>(k)]) = active(k);
    // Redundant rows: the minimum-norm multipliers.
    if (n < ws.Phi_q.rows()) minimumNormMultipliers(model, ws, effort, ws.lambda);
    return state.v.allFinite() && ws.vdot.allFinite() && ws.lambda.allFinite();
  };
  const auto cancel = [&]() {
    report.status = SolveStatus::Cancelled;
    report.time = state.t;
    report.message = "cancelled at " + timeText(state.t);
  };
  // The state the last solve started from: where a non-finite element is looked for once the
  // solve has made the positions or velocities themselves non-finite.
  State solvedFrom = state;
  const auto fail = [&](const std::string& why) {
    report.time = state.t;
    // A force or an equation that is not finite is the cause, whatever the solve ran into.
    const bool finite = state.q.allFinite() && state.v.allFinite();
    const NonFiniteForce bad = findNonFiniteElement(
        model, finite ? state : State{state.t, solvedFrom.q, solvedFrom.v}, ws);
    if (!bad.element.empty()) {
      report.status = SolveStatus::NotFinite;
      report.elements = {bad.element};
      report.message = "kinematic analysis failed at " + timeText(state.t) + ": " + bad.cause;
      return;
    }
    report.status = std::isfinite(report.residualNorm) ? SolveStatus::Singular : SolveStatus::NotFinite;
    evaluateConstraintDerivatives(model, state, ws);
    report.elements = dependentElements(model, ws.Phi_q);
    report.message = "kinematic analysis failed at " + timeText(state.t) + ": " + why +
                     (report.elements.empty() ? "" : " (joints involved: " + joinNames(report.elements) + ")");
  };

  if (!solveRates()) return fail("the constraint Jacobian is singular");
  if (!recorder.accept(state, ws)) return cancel();

  // Newton on Phi(q, t) = 0 from q; nonholonomic rows keep their directions (A dq = 0).
  const auto solvePositions = [&]() {
    evaluatePhi(model, state, ws);
    double residual = model.nh ? gatherPositionResidual().lpNorm<Eigen::Infinity>() : 0.0;
    int iterations = 0;
    while (residual > options.tolerance && iterations < options.maxIterations &&
           std::isfinite(residual)) {
      evaluateConstraintDerivatives(model, state, ws);
      if (!jacobian.factor(ws)) break;
      const Eigen::VectorXd dq = jacobian.solve(-gatherPositionResidual());
      integratePositions(model, state.q, dq, 1.0);
      evaluatePhi(model, state, ws);
      residual = gatherPositionResidual().lpNorm<Eigen::Infinity>();
      report.updateNorm = dq.lpNorm<Eigen::Infinity>();
      ++iterations;
    }
    results.stats.newtonIterations += iterations;
    report.iterations = iterations;
    report.residualNorm = residual;
    return residual <= options.tolerance;
  };
  const auto lockUp = [&]() {
    return fail("the mechanism locks up: Newton stopped at a constraint error of " +
                std::to_string(report.residualNorm) + " after " +
                std::to_string(report.iterations) + " iterations");
  };

  // Solve at most `step` apart, landing on every output time. With nonholonomic rows the last
  // state and its accelerations feed the corrector.
  State previous = state;
  Eigen::VectorXd previousVdot = ws.vdot;
  while (!recorder.finished()) {
    const double target = recorder.nextStop();
    const auto substeps = std::max(1L, static_cast<long>(std::ceil((target - state.t) / options.step - 1e-9)));
    const double h = (target - state.t) / static_cast<double>(substeps);
    for (long s = 1; s <= substeps; ++s) {
      if (model.nn > 0) {
        previous = state;
        previousVdot = ws.vdot;
      }
      // Predictor q + h v + h^2/2 vdot, then the positions and rates at the new time.
      solvedFrom.q = state.q;
      solvedFrom.v = state.v;
      integratePositions(model, state.q, state.v + 0.5 * h * ws.vdot, h);
      state.t = s == substeps ? target : state.t + h;
      ++results.stats.steps;
      if (!solvePositions()) return lockUp();
      if (!solveRates()) return fail("the mechanism is in a singular configuration");
      // Nonholonomic rows leave directions that only q' = v determines: the Hermite corrector
      // q_n (+) [h/2 (v_n + v) + h^2/12 (vdot_n - vdot)], then positions and rates again.
      if (model.nn > 0) {
        state.q = previous.q;
        integratePositions(model, state.q,
                           0.5 * (previous.v + state.v) + h / 12 * (previousVdot - ws.vdot), h);
        if (!solvePositions()) return lockUp();
        if (!solveRates()) return fail("the mechanism is in a singular configuration");
      }
      if (!recorder.accept(state, ws)) return cancel();
    }
  }
  results.stats.wallTime = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rlx
