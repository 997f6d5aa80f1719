#include "solve/assembly/drag.h"

#include "solve/equations/constraints.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rlx {
namespace {

// Rotation body -> global of a body at q (planar: about z).
Eigen::Matrix3d bodyRotation(const Model& model, const Eigen::VectorXd& q, int body) {
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  if (model.dimension == 2) return Eigen::AngleAxisd(q(b.q + 2), Eigen::Vector3d::UnitZ()).matrix();
  const Eigen::Quaterniond e(q(b.q + 3), q(b.q + 4), q(b.q + 5), q(b.q + 6));
  return e.normalized().toRotationMatrix();
}

Eigen::Vector3d bodyOrigin(const Model& model, const Eigen::VectorXd& q, int body) {
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  r.head(model.dimension) = q.segment(b.q, model.dimension);
  return r;
}

// dp/dv of a body point: dim x nv.
Eigen::MatrixXd pointJacobian(const Model& model, const Eigen::VectorXd& q, int body,
                              const Eigen::Vector3d& point) {
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  const int dim = model.dimension;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(dim, model.nv);
  J.block(0, b.v, dim, dim).setIdentity();
  const Eigen::Vector3d p = bodyRotation(model, q, body) * point;
  if (dim == 2) {
    J(0, b.v + 2) = -p.y();
    J(1, b.v + 2) = p.x();
  } else {
    // p_dot = omega x p = -[p]x omega.
    Eigen::Matrix3d px;
    px << 0, -p.z(), p.y(), p.z(), 0, -p.x(), -p.y(), p.x(), 0;
    J.block(0, b.v + 3, 3, 3) = -px;
  }
  return J;
}

// The rows of Phi that stay while dragging (motion rows left out when released).
std::vector<Eigen::Index> keptRows(const Model& model, bool releaseMotions) {
  std::vector<bool> keep(static_cast<std::size_t>(model.nh), true);
  if (releaseMotions)
    for (const Motion& m : model.motions) keep[static_cast<std::size_t>(m.row)] = false;
  std::vector<Eigen::Index> rows;
  for (Eigen::Index i = 0; i < model.nh; ++i)
    if (keep[static_cast<std::size_t>(i)]) rows.push_back(i);
  return rows;
}

}  // namespace

Eigen::Vector3d bodyPointPosition(const Model& model, const Eigen::VectorXd& q, int body,
                                  const Eigen::Vector3d& point) {
  if (body == kGround) return point;
  return bodyOrigin(model, q, body) + bodyRotation(model, q, body) * point;
}

Eigen::Vector3d bodyPointLocal(const Model& model, const Eigen::VectorXd& q, int body,
                               const Eigen::Vector3d& global) {
  if (body == kGround) return global;
  return bodyRotation(model, q, body).transpose() * (global - bodyOrigin(model, q, body));
}

namespace {

// One drag: the kept rows, the weights and the grabbed point, with the linear algebra of a step.
struct DragProblem {
  const Model& model;
  State& state;
  Workspace& ws;
  const DragTarget& target;
  std::vector<Eigen::Index> rows;
  Eigen::VectorXd S;  // W^-1/2
  Eigen::VectorXd Phi;

  // The kept rows of Phi at the current q; returns max |Phi|.
  double residual() {
    evaluatePhi(model, state, ws);
    for (std::size_t k = 0; k < rows.size(); ++k)
      Phi(static_cast<Eigen::Index>(k)) = ws.Phi(rows[k]);
    return Phi.size() ? Phi.lpNorm<Eigen::Infinity>() : 0.0;
  }

  Eigen::VectorXd miss() const {
    return (bodyPointPosition(model, state.q, target.body, target.point) - target.target)
        .head(model.dimension);
  }

  // Closing step y_p and the orthonormal null space N of Phi_q S at the current q.
  void linearize(Eigen::VectorXd& yp, Eigen::MatrixXd& N) {
    const Eigen::Index m = Phi.size();
    yp = Eigen::VectorXd::Zero(model.nv);
    N = Eigen::MatrixXd::Identity(model.nv, model.nv);
    if (m == 0) return;
    evaluateConstraintDerivatives(model, state, ws);
    Eigen::MatrixXd A(m, model.nv);
    for (Eigen::Index k = 0; k < m; ++k) A.row(k) = ws.Phi_q.row(rows[static_cast<std::size_t>(k)]);
    A = A * S.asDiagonal();
    const Eigen::BDCSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Eigen::VectorXd& sigma = svd.singularValues();
    const double cutoff = 1e-10 * std::max(1.0, sigma.size() ? sigma(0) : 1.0);
    Eigen::Index rank = 0;
    while (rank < sigma.size() && sigma(rank) > cutoff) ++rank;
    for (Eigen::Index k = 0; k < rank; ++k)
      yp -= svd.matrixV().col(k) * (svd.matrixU().col(k).dot(Phi) / sigma(k));
    N = svd.matrixV().rightCols(model.nv - rank);
  }

  // Least-change Gauss-Newton steps on Phi alone; true when the joints close.
  bool close(double tolerance, int maxSteps) {
    double res = residual();
    for (int k = 0; k < maxSteps && res >= tolerance; ++k) {
      if (!std::isfinite(res)) return false;
      Eigen::VectorXd yp;
      Eigen::MatrixXd N;
      linearize(yp, N);
      integratePositions(model, state.q, S.cwiseProduct(yp), 1.0);
      res = residual();
    }
    return res < tolerance;
  }
};

}  // namespace

DragReport dragAssemble(const Model& model, State& state, Workspace& ws, const DragTarget& target,
                        const DragOptions& options) {
  DragReport report;
  report.time = state.t;
  const double L = modelSize(model, model.q0);
  DragProblem problem{model,
                      state,
                      ws,
                      target,
                      keptRows(model, options.releaseMotions),
                      assemblyWeights(model, false, 1.0).cwiseInverse().cwiseSqrt(),
                      {}};
  problem.Phi.resize(static_cast<Eigen::Index>(problem.rows.size()));

  // Start from a closed configuration.
  bool closed = problem.close(options.tolerance, options.maxIterations);
  double mu = 1.0 / options.pointWeight, nu = 2.0;
  Eigen::VectorXd r = problem.miss();
  bool settled = false;
  while (closed && !settled && report.iterations < options.maxIterations) {
    ++report.iterations;
    // The damped step z on the free motions, with the closing part y_p.
    Eigen::VectorXd yp;
    Eigen::MatrixXd N;
    problem.linearize(yp, N);
    const Eigen::MatrixXd JS =
        pointJacobian(model, state.q, target.body, target.point) * problem.S.asDiagonal();
    const Eigen::MatrixXd B = JS * N;
    const Eigen::VectorXd rl = r + JS * yp;
    const Eigen::VectorXd g = B.transpose() * rl;
    const Eigen::MatrixXd H =
        B.transpose() * B + mu * Eigen::MatrixXd::Identity(N.cols(), N.cols());
    const Eigen::VectorXd z = H.ldlt().solve(-g);
    Eigen::VectorXd d = problem.S.cwiseProduct(yp + N * z);
    report.updateNorm = d.lpNorm<Eigen::Infinity>();
    if (report.updateNorm < options.tolerance * L ||
        g.lpNorm<Eigen::Infinity>() < options.tolerance * (r.norm() + L)) {
      settled = true;
      break;
    }
    if (report.updateNorm > options.maxStep * L) d *= options.maxStep * L / report.updateNorm;

    // Try the step, close the joints again, keep it if the miss shrank (gain ratio rho).
    const Eigen::VectorXd q = state.q;
    integratePositions(model, state.q, d, 1.0);
    const bool trialClosed = problem.close(options.tolerance, 10);
    const Eigen::VectorXd rTrial = problem.miss();
    const double predicted = 0.5 * z.dot(mu * z - g);
    const double actual = 0.5 * (r.squaredNorm() - rTrial.squaredNorm());
    // Near a far target's nearest place |r|^2 is flat to first order and the closing steps move
    // it by more than the step's gain: steps that change it by a negligible amount are kept.
    const double roundoff = 1e-12 * (r.squaredNorm() + L * L);
    if (trialClosed && (actual >= -roundoff || predicted < roundoff) && rTrial.allFinite()) {
      const double rho = predicted > 0 ? actual / predicted : 1.0;
      if (actual > roundoff) mu *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
      mu = std::max(mu, 1.0 / options.pointWeight);
      nu = 2.0;
      r = rTrial;
    } else {
      state.q = q;
      problem.residual();
      mu *= nu;
      nu *= 2.0;
      settled = mu > 1e20;  // no step along the free motions brings the point closer
    }
  }
  report.residualNorm = problem.residual();
  report.miss = problem.miss().norm();

  if (!state.q.allFinite() || !std::isfinite(report.residualNorm)) {
    report.status = SolveStatus::NotFinite;
    report.message = "drag failed: the configuration became non-finite (NaN or infinity)";
  } else if (!closed) {
    report.status = SolveStatus::Inconsistent;
    report.message = "drag: the joints cannot be closed from this configuration (largest error " +
                     std::to_string(report.residualNorm) + ")";
  } else if (!settled) {
    report.status = SolveStatus::MaxIterations;
    report.message = "drag: the mechanism is still moving towards the target after " +
                     std::to_string(report.iterations) + " steps";
  }
  return report;
}

}  // namespace rlx
