#pragma once
// Finite-difference checks of a model's constraint derivatives, planar or spatial: Phi_q by
// central differences in the velocity chart (q (+) dv), nu = -Phi_t, and gamma from the second
// derivative of Phi along the path q (+) (v s + a s^2 / 2) at time t + s, for which
// d^2 Phi / ds^2 = Phi_q a - gamma.

#include "model/model.h"
#include "solve/equations/workspace.h"

#include <Eigen/Dense>

namespace rlx::test {

struct ConstraintDerivativeErrors {
  double Phi_q = 0, nu = 0, gamma = 0;  // relative errors (relativeError)
};

// Compares evaluateConstraintDerivatives at `state` with the differences above (a: any vdot).
ConstraintDerivativeErrors constraintDerivativeErrors(const Model& model, const State& state,
                                                      const Eigen::VectorXd& a, Workspace& ws);

}  // namespace rlx::test
