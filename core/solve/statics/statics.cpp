#include "solve/statics/statics.h"

#include "solve/recording/recorder.h"

#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/equations/forces.h"
#include "solve/statics/static_relaxation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace rlx {
namespace {

constexpr double kDifferenceStep = 1e-6;
constexpr double kLargestDamping = 1e20;
constexpr double kLetGoDistance = 0.1;  // model sizes or rad: how far a stalled model is let go
constexpr int kLetGoTimes = 3;
constexpr int kRetryIterations = 20;  // descents from the rests of the dynamic relaxation
constexpr double kZeroStiffness = 1e-6;  // relative: a stiffness this small is zero

std::string number(double x) { return numberText(x, 3); }

std::string iterationsText(int n) {
  return std::to_string(n) + (n == 1 ? " iteration" : " iterations");
}

// True when a motion, a force or a constraint depends on t.
bool dependsOnTime(const Model& model) {
  const auto usesTime = [](const Function& f) {
    return std::find(f.variables.begin(), f.variables.end(), 0) != f.variables.end();
  };
  if (!model.motions.empty()) return true;
  for (const Force& f : model.forces)
    if (std::any_of(f.functions.begin(), f.functions.end(), usesTime)) return true;
  for (const UserConstraint& c : model.constraints)
    if (std::any_of(c.equations.begin(), c.equations.end(), usesTime)) return true;
  return false;
}

// Levenberg-Marquardt on F = [Q - Phi_q^T lambda; c Phi] over the active rows (see statics.h).
class EquilibriumSolver {
 public:
  EquilibriumSolver(const Model& model, Workspace& ws, const StaticsOptions& options)
      : model_(model), ws_(ws), options_(options) {
    for (std::size_t i = 0; i < ws.active.size(); ++i)
      if (ws.active[i]) {
        multiplierRows_.push_back(static_cast<Eigen::Index>(i));
        if (static_cast<int>(i) < model.nh) positionRows_.push_back(static_cast<Eigen::Index>(i));
      }
    const auto n = static_cast<Eigen::Index>(model.nv);
    const auto m = static_cast<Eigen::Index>(multiplierRows_.size());
    const auto p = static_cast<Eigen::Index>(positionRows_.size());
    F_.resize(n + p);
    trialF_.resize(n + p);
    J_.setZero(n + p, n + m);
    stacked_.setZero(n + p + n + m, n + m);
    rhs_.setZero(stacked_.rows());
  }

  // The descent, then, for a model that does not depend on time, dynamic relaxation.
  SolveReport solve(State& state, RunStats& stats);

  // The stability of the (converged) equilibrium at the state (see statics.h).
  EquilibriumStability stability(const State& state, RunStats& stats);

  // Moves state.q by h along the tangent of the equilibrium path at the (converged) state.
  void predict(State& state, double h, RunStats& stats);

 private:
  // F at (q, lambda); returns false when not finite.
  bool residual(const State& state, const Eigen::VectorXd& lambda, Eigen::VectorXd& F);
  // Forces of the residual's first block (Q - Phi_q^T lambda) at q.
  Eigen::VectorXd forceBalance(const State& state, const Eigen::VectorXd& lambda);
  void jacobian(const State& state, const Eigen::VectorXd& lambda, RunStats& stats);
  // The multipliers that balance Q best at the state (least squares on the active rows).
  Eigen::VectorXd bestMultipliers(const State& state);
  // Levenberg-Marquardt from the state, at most `iterations` Jacobians.
  SolveReport descend(State& state, RunStats& stats, int iterations);
  // Moves the model the way it starts to move from rest (see statics.h); false when it does not.
  bool letGo(State& state);
  void finish(State& state);
  void describeFailure(const State& state, SolveReport& report);

  const Model& model_;
  Workspace& ws_;
  const StaticsOptions& options_;
  std::vector<Eigen::Index> multiplierRows_, positionRows_;
  double constraintWeight_ = 1.0;  // c
  double forceScale_ = 1.0;        // max(1, |Q|_inf)
  Eigen::VectorXd F_, trialF_, rhs_;
  Eigen::MatrixXd J_, stacked_;
};

Eigen::VectorXd EquilibriumSolver::forceBalance(const State& state, const Eigen::VectorXd& lambda) {
  evaluateAppliedForces(model_, state, ws_);
  evaluateConstraintDerivatives(model_, state, ws_);
  Eigen::VectorXd G = ws_.Q;
  for (std::size_t k = 0; k < multiplierRows_.size(); ++k)
    G -= ws_.Phi_q.row(multiplierRows_[k]).transpose() * lambda(static_cast<Eigen::Index>(k));
  return G;
}

bool EquilibriumSolver::residual(const State& state, const Eigen::VectorXd& lambda,
                                 Eigen::VectorXd& F) {
  const Eigen::Index n = model_.nv;
  F.head(n) = forceBalance(state, lambda);
  evaluatePhi(model_, state, ws_);
  for (std::size_t k = 0; k < positionRows_.size(); ++k)
    F(n + static_cast<Eigen::Index>(k)) = constraintWeight_ * ws_.Phi(positionRows_[k]);
  return F.allFinite();
}

void EquilibriumSolver::jacobian(const State& state, const Eigen::VectorXd& lambda,
                                 RunStats& stats) {
  const Eigen::Index n = model_.nv;
  // dG/dq by central differences along each velocity direction.
  State moved = state;
  Eigen::VectorXd direction = Eigen::VectorXd::Zero(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    direction(j) = 1.0;
    moved.q = state.q;
    integratePositions(model_, moved.q, direction, kDifferenceStep);
    const Eigen::VectorXd plus = forceBalance(moved, lambda);
    moved.q = state.q;
    integratePositions(model_, moved.q, direction, -kDifferenceStep);
    J_.col(j).head(n) = (plus - forceBalance(moved, lambda)) / (2 * kDifferenceStep);
    direction(j) = 0.0;
  }
  stats.rhsEvaluations += 2 * model_.nv;
  // Constraint blocks at the state itself.
  evaluateConstraintDerivatives(model_, state, ws_);
  for (std::size_t k = 0; k < multiplierRows_.size(); ++k)
    J_.col(n + static_cast<Eigen::Index>(k)).head(n) =
        -ws_.Phi_q.row(multiplierRows_[k]).transpose();
  for (std::size_t k = 0; k < positionRows_.size(); ++k)
    J_.row(n + static_cast<Eigen::Index>(k)).head(n) =
        constraintWeight_ * ws_.Phi_q.row(positionRows_[k]);
}

Eigen::VectorXd EquilibriumSolver::bestMultipliers(const State& state) {
  evaluateAppliedForces(model_, state, ws_);
  evaluateConstraintDerivatives(model_, state, ws_);
  Eigen::MatrixXd A(model_.nv, static_cast<Eigen::Index>(multiplierRows_.size()));
  for (std::size_t k = 0; k < multiplierRows_.size(); ++k)
    A.col(static_cast<Eigen::Index>(k)) = ws_.Phi_q.row(multiplierRows_[k]).transpose();
  if (A.cols() == 0) return Eigen::VectorXd(0);
  return Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(A).solve(ws_.Q);
}

SolveReport EquilibriumSolver::solve(State& state, RunStats& stats) {
  const State start = state;
  SolveReport report = descend(state, stats, options_.maxIterations);
  if (report.ok() || report.status == SolveStatus::NotFinite || dependsOnTime(model_))
    return report;
  // Dynamic relaxation (solve/statics/static_relaxation.h): the descent again from each rest.
  RunStats relaxationStats;
  StaticRelaxation relaxation(model_, ws_, start);
  int rests = 0;
  while (relaxation.nextRest(relaxationStats)) {
    ++rests;
    State rest = relaxation.rest();
    SolveReport retry = descend(rest, stats, std::min(kRetryIterations, options_.maxIterations));
    report.iterations += retry.iterations;  // Jacobians in all
    if (retry.ok()) {
      retry.iterations = report.iterations;
      state = rest;
      return retry;
    }
  }
  report.message += rests == 0 ? "; released from rest, it does not come to rest"
                                : "; released from rest, none of its " + std::to_string(rests) +
                                      " rests leads to an equilibrium";
  return report;
}

SolveReport EquilibriumSolver::descend(State& state, RunStats& stats, int iterations) {
  SolveReport report;
  report.time = state.t;
  const Eigen::Index n = model_.nv;
  const Eigen::Index unknowns = J_.cols();
  state.v.setZero();
  const State start = state;
  Eigen::VectorXd lambda = bestMultipliers(state);
  forceScale_ = std::max(1.0, ws_.Q.lpNorm<Eigen::Infinity>());
  constraintWeight_ = forceScale_;
  Eigen::VectorXd dx(unknowns), trialLambda(lambda.size());
  State trial = state;
  bool finite = residual(state, lambda, F_);
  ++stats.rhsEvaluations;
  double mu = 1e-3, growth = 2.0;
  const double initial = F_.norm();
  bool stalled = false;
  int released = 0;  // times the model was let go
  const auto converged = [&]() {
    const double force = F_.head(n).lpNorm<Eigen::Infinity>();
    const double gap = positionRows_.empty()
                           ? 0.0
                           : F_.tail(F_.size() - n).lpNorm<Eigen::Infinity>() / constraintWeight_;
    report.residualNorm = std::max(force / forceScale_, gap);
    return force <= options_.tolerance * forceScale_ && gap <= options_.tolerance;
  };
  while (finite && !converged() && report.iterations < iterations) {
    if (stalled) {
      // A stationary point of |F|^2 that is no equilibrium: let the model go and descend again.
      if (released == kLetGoTimes || !letGo(state)) break;
      ++released;
      lambda = bestMultipliers(state);
      finite = residual(state, lambda, F_);
      ++stats.rhsEvaluations;
      mu = 1e-3;
      growth = 2.0;
      stalled = false;
      continue;
    }
    ++report.iterations;
    jacobian(state, lambda, stats);
    // Marquardt's scaling D; the stacked system [J; sqrt(mu |F| / |F0|) D] dx = [-F; 0].
    const Eigen::VectorXd D = J_.colwise().norm().transpose();
    const double before = F_.squaredNorm();
    stacked_.topRows(J_.rows()) = J_;
    rhs_.head(F_.size()) = -F_;
    for (bool accepted = false; !accepted;) {
      stacked_.bottomRows(unknowns).setZero();
      stacked_.bottomRows(unknowns).diagonal() =
          std::sqrt(mu * std::min(1.0, std::sqrt(before) / initial)) * D;
      dx = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(stacked_).solve(rhs_);
      const double predicted = before - (F_ + J_ * dx).squaredNorm();
      if (!(predicted > 1e-28 * before) || mu > kLargestDamping) {
        stalled = true;
        break;
      }
      trial.q = state.q;
      integratePositions(model_, trial.q, dx.head(n), 1.0);
      trialLambda = lambda + dx.tail(lambda.size());
      ++stats.rhsEvaluations;
      const double ratio = residual(trial, trialLambda, trialF_)
                               ? (before - trialF_.squaredNorm()) / predicted
                               : -1.0;
      if (ratio > 0) {
        accepted = true;
        state.q = trial.q;
        lambda = trialLambda;
        F_ = trialF_;
        report.updateNorm = dx.head(n).lpNorm<Eigen::Infinity>();
        mu *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * ratio - 1.0, 3));
        growth = 2.0;
      } else {
        mu *= growth;
        growth *= 2.0;
      }
    }
  }
  stats.newtonIterations += report.iterations;
  if (!finite || !state.q.allFinite()) {
    // The element that is not finite where the descent stopped (or where it started, once the
    // configuration itself is not finite).
    report.status = SolveStatus::NotFinite;
    const NonFiniteForce bad = findNonFiniteElement(model_, state.q.allFinite() ? state : start, ws_);
    if (!bad.element.empty()) report.elements = {bad.element};
    report.message = "static analysis failed at t = " + number(state.t) + " s: " +
                     (bad.element.empty() ? std::string("an applied force or a constraint is not finite (NaN or infinity)")
                                          : bad.cause);
    return report;
  }
  if (!converged()) {
    report.status = stalled ? SolveStatus::Singular : SolveStatus::MaxIterations;
    describeFailure(state, report);
    return report;
  }
  finish(state);
  return report;
}

bool EquilibriumSolver::letGo(State& state) {
  state.v.setZero();
  if (!solveAccelerations(model_, state, ws_).ok() || !ws_.vdot.allFinite()) return false;
  // The accelerations scaled so that the largest body moves kLetGoDistance model sizes or turns
  // kLetGoDistance rad.
  const int d = model_.dimension, dofs = model_.bodyDofs();
  const double size = modelSize(model_, state.q);
  double largest = 0.0;
  for (const Body& b : model_.bodies)
    largest = std::max({largest, ws_.vdot.segment(b.v, d).norm() / size,
                        ws_.vdot.segment(b.v + d, dofs - d).norm()});
  if (!(largest > 0.0)) return false;
  integratePositions(model_, state.q, ws_.vdot, kLetGoDistance / largest);
  return true;
}

EquilibriumStability EquilibriumSolver::stability(const State& state, RunStats& stats) {
  const Eigen::Index n = model_.nv;
  const auto m = static_cast<Eigen::Index>(multiplierRows_.size());
  Eigen::VectorXd lambda(m);
  for (Eigen::Index k = 0; k < m; ++k)
    lambda(k) = ws_.lambda(multiplierRows_[static_cast<std::size_t>(k)]);
  // K_T = -dG/dq at fixed multipliers (the constraints' geometric stiffness included), its
  // symmetric part on an orthonormal basis of the motions the active rows allow.
  jacobian(state, lambda, stats);
  const Eigen::MatrixXd dG = J_.topLeftCorner(n, n);
  const Eigen::MatrixXd K = -0.5 * (dG + dG.transpose());
  Eigen::MatrixXd A(m, n);
  for (Eigen::Index k = 0; k < m; ++k)
    A.row(k) = ws_.Phi_q.row(multiplierRows_[static_cast<std::size_t>(k)]);
  Eigen::MatrixXd free = Eigen::MatrixXd::Identity(n, n);
  if (m > 0) {
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
    if (lu.rank() == n) return {};  // no free motion: a structure
    free = lu.kernel();
  }
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(free);
  const Eigen::MatrixXd basis = qr.householderQ() * Eigen::MatrixXd::Identity(n, free.cols());
  const Eigen::VectorXd stiffness = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(
                                        basis.transpose() * K * basis, Eigen::EigenvaluesOnly)
                                        .eigenvalues();
  // Zero: within 1e-6 of the largest stiffness or of the force scale per metre.
  double largest = forceScale_;
  for (Eigen::Index i = 0; i < stiffness.size(); ++i)
    largest = std::max(largest, std::abs(stiffness(i)));
  const double zero = kZeroStiffness * largest;
  int negative = 0, flat = 0;
  for (Eigen::Index i = 0; i < stiffness.size(); ++i) {
    negative += stiffness(i) < -zero;
    flat += std::abs(stiffness(i)) <= zero;
  }
  EquilibriumStability result;
  result.kind = negative > 0 ? Stability::Unstable
                : flat > 0   ? Stability::Neutral
                             : Stability::Stable;
  result.softDirections = negative > 0 ? negative : flat;
  return result;
}

void EquilibriumSolver::finish(State& state) {
  state.v.setZero();
  evaluateAppliedForces(model_, state, ws_);
  evaluateConstraintDerivatives(model_, state, ws_);
  ws_.vdot.setZero();
  ws_.lambda =
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(Eigen::MatrixXd(ws_.Phi_q.transpose()))
          .solve(ws_.Q);
}

void EquilibriumSolver::describeFailure(const State& state, SolveReport& report) {
  const Eigen::Index n = model_.nv;
  const Eigen::VectorXd G = F_.head(n);
  const double force = G.lpNorm<Eigen::Infinity>();
  const double gap = positionRows_.empty()
                         ? 0.0
                         : F_.tail(F_.size() - n).lpNorm<Eigen::Infinity>() / constraintWeight_;
  // The bodies whose force balance fails most.
  for (const Body& b : model_.bodies)
    if (G.segment(b.v, model_.bodyDofs()).lpNorm<Eigen::Infinity>() > 0.1 * force && force > 0)
      report.elements.push_back(b.name);
  const std::string where = report.elements.empty() ? "" : " on " + joinNames(report.elements);
  const std::string numbers = "an unbalanced force of " + number(force) + where +
                              " and a constraint error of " + number(gap);
  const std::string at = "static analysis failed at t = " + number(state.t) + " s: ";
  if (report.status == SolveStatus::Singular)
    report.message = at + "no equilibrium: the residual cannot be reduced further after " +
                     iterationsText(report.iterations) + " (" + numbers +
                     "; no change of position balances the forces)";
  else
    report.message =
        at + "no equilibrium found in " + iterationsText(report.iterations) + " (" + numbers + ")";
}

void EquilibriumSolver::predict(State& state, double h, RunStats& stats) {
  const Eigen::Index n = model_.nv;
  const Eigen::VectorXd lambda = bestMultipliers(state);
  jacobian(state, lambda, stats);
  // J [dq; dlambda] = [0; c nu h]: the first-order change of the equilibrium over h.
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(J_.rows());
  for (std::size_t k = 0; k < positionRows_.size(); ++k)
    rhs(n + static_cast<Eigen::Index>(k)) = constraintWeight_ * ws_.nu(positionRows_[k]) * h;
  const Eigen::VectorXd dx = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(J_).solve(rhs);
  if (dx.allFinite()) integratePositions(model_, state.q, dx.head(n), 1.0);
}

}  // namespace

SolveReport equilibrium(const Model& model, State& state, Workspace& ws,
                        const StaticsOptions& options) {
  RunStats stats;
  EquilibriumSolver solver(model, ws, options);
  return solver.solve(state, stats);
}

void runStatics(const Model& model, const State& assembled, Workspace& ws,
                const StaticsOptions& options, Results& results, const FrameObserver& observer) {
  const auto start = std::chrono::steady_clock::now();
  results.analysis = AnalysisType::Statics;
  // One equilibrium at t0; a time-dependent model: also at the output times and the end time.
  const double t0 = assembled.t;
  Recorder recorder(model, results, observer, t0, dependsOnTime(model) ? options.endTime : t0,
                    options.outputStep);
  EquilibriumSolver solver(model, ws, options);
  State state = assembled;
  for (bool first = true; first || !recorder.finished(); first = false) {
    if (!first) {
      const double target = recorder.nextStop();
      solver.predict(state, target - state.t, results.stats);
      state.t = target;
    }
    results.report = solver.solve(state, results.stats);
    ++results.stats.steps;
    if (!results.report.ok()) break;
    const bool go = recorder.accept(state, ws);
    results.equilibria.push_back(solver.stability(state, results.stats));
    if (!go) {
      results.report.status = SolveStatus::Cancelled;
      results.report.message = "cancelled at t = " + number(state.t) + " s";
      break;
    }
  }
  results.stats.wallTime =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace rlx
