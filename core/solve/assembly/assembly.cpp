#include "solve/assembly/assembly.h"

#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/equations/forces.h"
#include "solve/linalg/dependent_rows.h"
#include "solve/linalg/kkt_solver.h"
#include "solve/linalg/sparse_qr.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rlx {
namespace {

bool isLarge(const Model& model) { return model.nv >= kSparseFromVelocities; }

void addOwner(const Model& model, Eigen::Index row, std::vector<std::string>& names) {
  const std::string& owner = model.rowOwners[static_cast<std::size_t>(row)];
  if (std::find(names.begin(), names.end(), owner) == names.end()) names.push_back(owner);
}

}  // namespace

std::vector<Eigen::Index> dependentRows(const Model& model, const SparseMatrix& Phi_q,
                                        double rankTolerance, double share) {
  std::vector<Eigen::Index> dependentRowList;
  const Eigen::Index m = Phi_q.rows();
  if (m == 0) return dependentRowList;
  // Rows scaled to unit length, so that units do not matter.
  const Eigen::VectorXd scale = unitRowScales(Phi_q);
  // A basis of the left null space of the scaled rows, one vector per column.
  Eigen::MatrixXd null;
  if (isLarge(model)) {
    // SparseRowQR's basis is of Phi_q itself: w = D u.
    null = Eigen::MatrixXd(SparseRowQR(Phi_q, rankTolerance).leftNullSpace());
    null = scale.cwiseInverse().asDiagonal() * null;
  } else {
    const Eigen::MatrixXd rows = scale.asDiagonal() * Eigen::MatrixXd(Phi_q);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(rows, Eigen::ComputeFullU);
    const Eigen::VectorXd& sigma = svd.singularValues();
    const double tiny = rankTolerance * std::max(1.0, sigma.size() ? sigma(0) : 1.0);
    Eigen::Index rank = 0;
    while (rank < sigma.size() && sigma(rank) > tiny) ++rank;
    null = svd.matrixU().rightCols(m - rank);
  }
  std::vector<bool> dependent(static_cast<std::size_t>(m), false);
  for (Eigen::Index k = 0; k < null.cols(); ++k) {
    const double size = null.col(k).lpNorm<Eigen::Infinity>();
    for (Eigen::Index i = 0; i < m; ++i)
      if (std::abs(null(i, k)) > share * size) dependent[static_cast<std::size_t>(i)] = true;
  }
  for (Eigen::Index i = 0; i < m; ++i)
    if (dependent[static_cast<std::size_t>(i)]) dependentRowList.push_back(i);
  return dependentRowList;
}

std::vector<std::string> dependentElements(const Model& model, const SparseMatrix& Phi_q,
                                           double rankTolerance, double share) {
  std::vector<std::string> names;
  for (const Eigen::Index row : dependentRows(model, Phi_q, rankTolerance, share))
    addOwner(model, row, names);
  return names;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + ("\"" + names[i] + "\"");
  return out;
}

namespace {

// The rows with the largest residuals, by owner.
std::vector<std::string> worstElements(const Model& model, const Eigen::VectorXd& Phi) {
  std::vector<std::string> names;
  const double worst = Phi.lpNorm<Eigen::Infinity>();
  for (Eigen::Index i = 0; i < Phi.size(); ++i)
    if (std::abs(Phi(i)) > 0.1 * worst) {
      const std::string& owner = model.rowOwners[static_cast<std::size_t>(i)];
      if (std::find(names.begin(), names.end(), owner) == names.end()) names.push_back(owner);
    }
  return names;
}

std::string number(double x) { return numberText(x, 3); }

}  // namespace

Eigen::VectorXd assemblyWeights(const Model& model, bool velocities, double holdWeight) {
  const double L = modelSize(model, model.q0);
  Eigen::VectorXd w = Eigen::VectorXd::Ones(model.nv);
  const std::vector<bool>& held = velocities ? model.holdV : model.holdQ;
  for (const Body& b : model.bodies)
    w.segment(b.v + model.dimension, model.dimension == 2 ? 1 : 3).setConstant(L * L);
  for (Eigen::Index i = 0; i < model.nv; ++i)
    if (held[static_cast<std::size_t>(i)]) w(i) *= holdWeight;
  return w;
}

Redundancy analyzeRedundancy(const Model& model, const State& state, Workspace& ws) {
  evaluateConstraintDerivatives(model, state, ws);
  Redundancy out;
  const Eigen::Index m = ws.Phi_q.rows();
  out.dofGrubler = model.nv - static_cast<int>(m);
  std::fill(ws.active.begin(), ws.active.end(), true);
  if (m == 0) {
    out.dof = model.nv;
    return out;
  }
  std::vector<Eigen::Index> redundantRows;
  Eigen::VectorXd unused;
  if (isLarge(model) && fullRankMinimumNorm(ws.Phi_q, Eigen::VectorXd::Zero(m), unused)) {
    out.rank = static_cast<int>(m);
  } else if (isLarge(model)) {
    const SparseRowQR qr(ws.Phi_q, 1e-9);
    out.rank = static_cast<int>(qr.rank());
    redundantRows = qr.dependentRows();
  } else {
    // Rows scaled to unit length, so that the pivoting prefers earlier equations among equals.
    Eigen::MatrixXd rows = ws.Phi_q;
    for (Eigen::Index i = 0; i < m; ++i)
      if (const double n = rows.row(i).norm(); n > 0) rows.row(i) /= n;
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(rows.transpose());
    qr.setThreshold(1e-9);
    out.rank = static_cast<int>(qr.rank());
    const auto& permutation = qr.colsPermutation().indices();
    for (Eigen::Index k = out.rank; k < m; ++k) redundantRows.push_back(permutation(k));
    std::sort(redundantRows.begin(), redundantRows.end());
  }
  out.dof = model.nv - out.rank;
  for (const Eigen::Index row : redundantRows) {
    ws.active[static_cast<std::size_t>(row)] = false;
    out.redundant.push_back({static_cast<int>(row), model.rowOwners[static_cast<std::size_t>(row)],
                             model.rowNames[static_cast<std::size_t>(row)]});
  }
  return out;
}

AssemblyReport assemble(const Model& model, State& state, Workspace& ws,
                        const AssemblyOptions& options) {
  AssemblyReport report;
  report.time = state.t;
  const Eigen::VectorXd S = assemblyWeights(model, false, options.holdWeight).cwiseInverse().cwiseSqrt();

  const State guess = state;

  // Positions: least-change Gauss-Newton steps d = -S pinv(Phi_q S) Phi, with backtracking.
  evaluatePhi(model, state, ws);
  double residual = model.nh ? ws.Phi.lpNorm<Eigen::Infinity>() : 0.0;
  bool stalled = false;
  while (residual > options.tolerance && report.iterations < options.maxIterations && !stalled) {
    if (!std::isfinite(residual) || !state.q.allFinite()) break;
    ++report.iterations;
    evaluateConstraintDerivatives(model, state, ws);
    const SparseMatrix A = ws.Phi_q.topRows(model.nh) * S.asDiagonal();
    const Eigen::VectorXd d = S.cwiseProduct(minimumNormSolution(A, -ws.Phi, isLarge(model)));
    report.updateNorm = d.lpNorm<Eigen::Infinity>();
    const double before = ws.Phi.squaredNorm();
    const Eigen::VectorXd q = state.q;
    double alpha = 1.0;
    for (int halving = 0;; ++halving) {
      state.q = q;
      integratePositions(model, state.q, d, alpha);
      evaluatePhi(model, state, ws);
      if (ws.Phi.squaredNorm() < before || halving == 30) break;
      alpha /= 2;
    }
    stalled = ws.Phi.squaredNorm() >= before * (1 - 1e-12);
    residual = ws.Phi.lpNorm<Eigen::Infinity>();
  }
  report.residualNorm = residual;

  if (!std::isfinite(residual) || !state.q.allFinite()) {
    // The element whose equations are not finite where the iterations stopped (or, once the
    // configuration itself is not finite, at the starting guess).
    report.status = SolveStatus::NotFinite;
    const NonFiniteForce bad = findNonFiniteConstraint(model, state.q.allFinite() ? state : guess, ws);
    if (!bad.element.empty()) report.elements = {bad.element};
    report.message = "assembly failed: " + (bad.element.empty()
                                                ? std::string("the configuration became non-finite (NaN or infinity)")
                                                : bad.cause);
    return report;
  }
  if (residual > options.tolerance) {
    // Rank deficiency already at the guess (structural) tells conflicting redundant constraints
    // apart from a loop that cannot close (rank lost only at the end of the mechanism's reach).
    report.status = SolveStatus::Inconsistent;
    evaluateConstraintDerivatives(model, guess, ws);
    const std::vector<std::string> dependentAtGuess =
        dependentElements(model, SparseMatrix(ws.Phi_q.topRows(model.nh)));
    evaluateConstraintDerivatives(model, state, ws);
    const std::vector<std::string> dependentAtEnd =
        dependentElements(model, SparseMatrix(ws.Phi_q.topRows(model.nh)));
    if (!dependentAtGuess.empty()) {
      report.elements = dependentAtGuess;
      report.message = "assembly failed: redundant constraints contradict each other: " +
                       joinNames(dependentAtGuess) + " (the closest configuration leaves an error of " +
                       number(residual) + ")";
    } else if (!dependentAtEnd.empty()) {
      report.elements = dependentAtEnd;
      report.message = "assembly failed: the loop through " + joinNames(dependentAtEnd) +
                       " cannot close (the closest configuration leaves a gap of " + number(residual) + ")";
    } else {
      report.elements = worstElements(model, ws.Phi);
      report.status = SolveStatus::MaxIterations;
      report.message = "assembly failed: no convergence after " + std::to_string(report.iterations) +
                       " iterations; the largest error (" + number(residual) + ") is at " +
                       joinNames(report.elements);
    }
    return report;
  }

  // Redundancy at the assembled configuration; the redundant rows are consistent here.
  report.redundancy = analyzeRedundancy(model, state, ws);

  // Velocities: v = v0 + Sv pinv(Phi_q Sv) (nu - Phi_q v0), one solve.
  const Eigen::VectorXd Sv = assemblyWeights(model, true, options.holdWeight).cwiseInverse().cwiseSqrt();
  if (ws.Phi_q.rows() > 0) {
    const SparseMatrix A = ws.Phi_q * Sv.asDiagonal();
    state.v += Sv.cwiseProduct(minimumNormSolution(A, ws.nu - ws.Phi_q * state.v, isLarge(model)));
  }

  // Accelerations and multipliers.
  const SolveReport accelerations = solveAccelerations(model, state, ws);
  if (!accelerations.ok()) {
    report.status = accelerations.status;
    report.message = accelerations.message;
    report.elements = accelerations.elements;
  }
  return report;
}

namespace {

// [M A^T; A 0] [vdot; lambda_A] = [Q; gamma_A] on the active rows `rows`, by a dense LU or, for
// the large models, the workspace's sparse KKT solver (made at the first call, or when the
// active rows change). False when the matrix is singular: a singular KKT matrix shows as a failed
// factorization or a non-finite or inaccurate solution.
bool solveKkt(const Model& model, Workspace& ws, const std::vector<Eigen::Index>& rows,
              const Eigen::VectorXd& rhs, Eigen::VectorXd& x) {
  const auto m = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index n = model.nv;
  if (!isLarge(model)) {
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
    K.topLeftCorner(n, n) = ws.M;
    for (Eigen::Index k = 0; k < m; ++k) {
      K.block(n + k, 0, 1, n) = ws.Phi_q.row(rows[static_cast<std::size_t>(k)]);
      K.block(0, n + k, n, 1) = ws.Phi_q.row(rows[static_cast<std::size_t>(k)]).transpose();
    }
    x = Eigen::PartialPivLU<Eigen::MatrixXd>(K).solve(rhs);
    return solvesKkt(K, x, rhs);
  }
  if (!ws.kkt || ws.kkt->rows() != rows)
    ws.kkt = std::make_shared<KktSolver>(ws, rows, model.bodyDofs());
  return ws.kkt->solve(ws, rhs, x);
}

}  // namespace

bool projectVelocities(const Model& model, State& state, Workspace& ws) {
  evaluateConstraintDerivatives(model, state, ws);
  evaluateMassMatrix(model, state, ws);
  const std::vector<Eigen::Index> rows = activeRows(ws);
  const auto m = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index n = model.nv;
  const Eigen::VectorXd error = ws.nu - ws.Phi_q * state.v;
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + m), x;
  for (Eigen::Index k = 0; k < m; ++k) rhs(n + k) = error(rows[static_cast<std::size_t>(k)]);
  if (!rhs.allFinite() || !solveKkt(model, ws, rows, rhs, x)) return false;
  state.v += x.head(n);
  return true;
}

SolveReport solveAccelerations(const Model& model, const State& state, Workspace& ws) {
  SolveReport report;
  report.time = state.t;
  evaluateConstraintDerivatives(model, state, ws);
  evaluateMassMatrix(model, state, ws);
  evaluateAppliedForces(model, state, ws);
  const std::vector<Eigen::Index> rows = activeRows(ws);
  const auto m = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index n = model.nv;
  Eigen::VectorXd rhs(n + m), x;
  rhs.head(n) = ws.Q;
  for (Eigen::Index k = 0; k < m; ++k) rhs(n + k) = ws.gamma(rows[static_cast<std::size_t>(k)]);
  if (!rhs.allFinite()) {
    report.status = SolveStatus::NotFinite;
    const NonFiniteForce bad = findNonFiniteElement(model, state, ws);
    if (!bad.element.empty()) report.elements = {bad.element};
    report.message = "accelerations cannot be computed: " +
                     (!bad.element.empty()  ? bad.cause
                      : ws.Q.allFinite()    ? "a constraint's acceleration term is not finite"
                                            : "an applied force is not finite");
    return report;
  }
  if (!solveKkt(model, ws, rows, rhs, x)) {
    report.status = SolveStatus::Singular;
    report.message =
        "accelerations cannot be computed: the mass matrix is singular on the free motions (a "
        "body with zero mass or inertia that no joint holds)";
    return report;
  }
  ws.vdot = x.head(n);
  ws.lambda.setZero();
  for (Eigen::Index k = 0; k < m; ++k) ws.lambda(rows[static_cast<std::size_t>(k)]) = x(n + k);
  // Redundant rows: the minimum-norm multipliers of all rows, Phi_q^T lambda = Q - M vdot.
  if (m < ws.Phi_q.rows()) minimumNormMultipliers(model, ws, ws.Q - ws.M * ws.vdot, ws.lambda);
  return report;
}

void minimumNormMultipliers(const Model& model, const Workspace& ws, const Eigen::VectorXd& f,
                            Eigen::VectorXd& lambda) {
  if (!isLarge(model)) {
    lambda = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(
                 Eigen::MatrixXd(ws.Phi_q.transpose()))
                 .solve(f);
    return;
  }
  const SparseMatrix W = SparseRowQR(ws.Phi_q, 1e-9).leftNullSpace();
  if (W.cols() == 0) return;
  const Eigen::MatrixXd gram = W.transpose() * W;
  const Eigen::VectorXd shares = gram.ldlt().solve(W.transpose() * lambda);
  lambda -= W * shares;
}

}  // namespace rlx
