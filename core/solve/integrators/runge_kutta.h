#pragma once
// Explicit Runge-Kutta steps for a first-order mechanical system y = (q, v, W) with
// y' = f(t, y) = (qdot, vdot, Wdot), W a scalar carried along (the integrated work).
//
//   stages  Y_i = y_n + h sum_{j<i} a_ij k_j,  k_i = f(t_n + c_i h, Y_i)
//   step    y_{n+1} = y_n + h sum_i b_i k_i
//   error   e = h sum_i (b_i - bhat_i) k_i            (embedded pairs only)
//
// Positions advance with integratePositions (q (+) h sum a_ij qdot_j), never q += h qdot.
// Spatial bodies (Runge-Kutta-Munthe-Kaas): stage i sits at rotation vector Theta_i (global axes)
// from y_n, Y_i = exp(Theta_i) y_n, and its angular rate enters the sums as
// dexp^-1(Theta_i) omega_i = omega_i - 1/2 Theta_i x omega_i + 1/12 Theta_i x (Theta_i x omega_i),
// which keeps the tableau's order on the rotation group (to order 4).
// Every step also returns f(y_{n+1}): the first stage of the next step and the rate the caller
// reports at the new point. With a first-same-as-last tableau (Dormand-Prince) it is the last
// stage itself, so a step costs stages - 1 evaluations; otherwise (RK4) stages.

#include "model/model.h"

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace rlx {

struct RkPoint {
  double t = 0.0;
  Eigen::VectorXd q, v;
  double W = 0.0;
};

// The rate at a point; lambda is an output of the right-hand side (constraint multipliers) that
// the stepper carries but does not integrate.
struct RkRate {
  Eigen::VectorXd qdot, vdot, lambda;
  double Wdot = 0.0;
};

struct ButcherTableau {
  int order = 0;
  std::vector<std::vector<double>> a;  // a[i][j], j < i
  std::vector<double> b, bHat, c;      // bHat empty: no error estimate
  bool firstSameAsLast = false;        // the last stage is at y_{n+1} (a[s-1] = b)
};

// The cubic Hermite interpolant at t of a step from y0 (rate k0) to y1 (rate k1): q with qdot, v
// with vdot, W with Wdot. Planar positions only (a spatial body's rotation is not a vector).
RkPoint hermite(const RkPoint& y0, const RkRate& k0, const RkPoint& y1, const RkRate& k1,
                double t);

const ButcherTableau& classicalRK4();
const ButcherTableau& dormandPrince54();

using RkFunction = std::function<void(const RkPoint&, RkRate&)>;

class ExplicitRungeKutta {
 public:
  ExplicitRungeKutta(const Model& model, const ButcherTableau& tableau);

  // One step of size h from y with k0 = f(y). Fills yNew, kNew = f(yNew) and, for an embedded
  // pair, the local error estimate of positions and velocities (errorQ in the tangent space of q,
  // size nv). Returns the number of evaluations of f.
  int step(const RkFunction& f, const RkPoint& y, const RkRate& k0, double h, RkPoint& yNew,
           RkRate& kNew);

  const Eigen::VectorXd& errorQ() const { return errorQ_; }
  const Eigen::VectorXd& errorV() const { return errorV_; }

 private:
  // y + h sum_j weights[j] k_j over the first `count` stages.
  void combine(const RkPoint& y, const std::vector<double>& weights, std::size_t count, double h,
               RkPoint& out);

  const Model& model_;
  const ButcherTableau& tableau_;
  std::vector<RkRate> k_;
  std::vector<const RkRate*> stage_;  // k_0 ... k_{s-1} of the current step
  Eigen::VectorXd dq_, dv_, errorQ_, errorV_;
  std::vector<Eigen::VectorXd> offset_, tangent_;  // spatial: h sum a_ij (.) of stage i; its corrected qdot
  const Eigen::VectorXd& tangent(std::size_t j) const;  // qdot of stage j as summed
};

}  // namespace rlx
