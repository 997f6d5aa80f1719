#include "constraint_check.h"

#include "solve/equations/constraints.h"
#include "test_support.h"

namespace rlx::test {

ConstraintDerivativeErrors constraintDerivativeErrors(const Model& model, const State& state,
                                                      const Eigen::VectorXd& a, Workspace& ws) {
  evaluateConstraintDerivatives(model, state, ws);
  const Eigen::MatrixXd Phi_q = ws.Phi_q;
  const Eigen::VectorXd nu = ws.nu, gamma = ws.gamma;

  // Phi at time t + s and positions q (+) dv.
  const auto phi = [&](double s, const Eigen::VectorXd& dv) {
    State moved = state;
    moved.t += s;
    integratePositions(model, moved.q, dv, 1.0);
    evaluatePhi(model, moved, ws);
    return Eigen::VectorXd(ws.Phi);
  };
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  const auto phiOfV = [&](const Eigen::VectorXd& dv) { return phi(0, dv); };
  const auto phiOfT = [&](const Eigen::VectorXd& s) { return phi(s(0), zero); };
  const auto phiAt = [&](double s) {
    return phi(s, Eigen::VectorXd(state.v * s + 0.5 * a * s * s));
  };
  // Second difference along the path, Richardson-extrapolated (error O(h^4)).
  const auto secondDifference = [&](double h) {
    return Eigen::VectorXd((phiAt(h) - 2 * phiAt(0) + phiAt(-h)) / (h * h));
  };
  const Eigen::VectorXd phiDdot = (4 * secondDifference(1e-4) - secondDifference(2e-4)) / 3;
  return {relativeError(Phi_q, numericJacobian(phiOfV, zero)),
          relativeError(nu, -numericJacobian(phiOfT, Eigen::VectorXd::Zero(1))),
          relativeError(gamma, Phi_q * a - phiDdot)};
}

}  // namespace rlx::test
