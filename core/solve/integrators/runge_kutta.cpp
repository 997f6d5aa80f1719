#include "solve/integrators/runge_kutta.h"

#include "solve/equations/constraints.h"
#include "solve/equations/spatial_constraints.h"

namespace rlx {

RkPoint hermite(const RkPoint& y0, const RkRate& k0, const RkPoint& y1, const RkRate& k1,
                double t) {
  const double h = y1.t - y0.t, s = (t - y0.t) / h;
  const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s) * h,
               h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1) * h;
  return {t, h00 * y0.q + h10 * k0.qdot + h01 * y1.q + h11 * k1.qdot,
          h00 * y0.v + h10 * k0.vdot + h01 * y1.v + h11 * k1.vdot,
          h00 * y0.W + h10 * k0.Wdot + h01 * y1.W + h11 * k1.Wdot};
}

const ButcherTableau& classicalRK4() {
  static const ButcherTableau tableau{4,
                                      {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}},
                                      {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6},
                                      {},
                                      {0.0, 0.5, 0.5, 1.0},
                                      false};
  return tableau;
}

const ButcherTableau& dormandPrince54() {
  static const ButcherTableau tableau{
      5,
      {{},
       {1.0 / 5},
       {3.0 / 40, 9.0 / 40},
       {44.0 / 45, -56.0 / 15, 32.0 / 9},
       {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
       {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
       {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}},
      {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0.0},
      {5179.0 / 57600, 0.0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40},
      {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0},
      true};
  return tableau;
}

ExplicitRungeKutta::ExplicitRungeKutta(const Model& model, const ButcherTableau& tableau)
    : model_(model),
      tableau_(tableau),
      k_(tableau.b.size()),
      stage_(tableau.b.size(), nullptr),
      dq_(model.nv),
      dv_(model.nv),
      errorQ_(Eigen::VectorXd::Zero(model.nv)),
      errorV_(Eigen::VectorXd::Zero(model.nv)),
      offset_(tableau.b.size(), Eigen::VectorXd::Zero(model.nv)),
      tangent_(tableau.b.size(), Eigen::VectorXd::Zero(model.nv)) {}

const Eigen::VectorXd& ExplicitRungeKutta::tangent(std::size_t j) const {
  return model_.dimension == 3 ? tangent_[j] : stage_[j]->qdot;
}

void ExplicitRungeKutta::combine(const RkPoint& y, const std::vector<double>& weights,
                                 std::size_t count, double h, RkPoint& out) {
  dq_.setZero();
  dv_.setZero();
  double dW = 0.0;
  for (std::size_t j = 0; j < count; ++j) {
    if (weights[j] == 0.0) continue;
    dq_ += weights[j] * tangent(j);
    dv_ += weights[j] * stage_[j]->vdot;
    dW += weights[j] * stage_[j]->Wdot;
  }
  out.q = y.q;
  integratePositions(model_, out.q, dq_, h);
  out.v = y.v + h * dv_;
  out.W = y.W + h * dW;
}

int ExplicitRungeKutta::step(const RkFunction& f, const RkPoint& y, const RkRate& k0, double h,
                             RkPoint& yNew, RkRate& kNew) {
  const std::size_t s = tableau_.b.size();
  const std::size_t inner = tableau_.firstSameAsLast ? s - 1 : s;
  int evaluations = 0;
  // Stages 1 ... inner-1 (stage 0 is k0); the stage point is reused as scratch in yNew.
  stage_[0] = &k0;
  if (model_.dimension == 3) tangent_[0] = k0.qdot;
  for (std::size_t i = 1; i < inner; ++i) {
    combine(y, tableau_.a[i], i, h, yNew);
    yNew.t = y.t + tableau_.c[i] * h;
    f(yNew, k_[i]);
    ++evaluations;
    stage_[i] = &k_[i];
    if (model_.dimension == 3) {
      offset_[i] = h * dq_;
      tangent_[i] = k_[i].qdot;
      correctRotationRates(model_, offset_[i], tangent_[i]);
    }
  }
  // The new point and its rate (the last stage of a first-same-as-last tableau).
  combine(y, tableau_.b, inner, h, yNew);
  yNew.t = y.t + h;
  f(yNew, kNew);
  ++evaluations;
  if (tableau_.firstSameAsLast) {
    stage_[s - 1] = &kNew;
    if (model_.dimension == 3) {
      offset_[s - 1] = h * dq_;
      tangent_[s - 1] = kNew.qdot;
      correctRotationRates(model_, offset_[s - 1], tangent_[s - 1]);
    }
  }
  // Embedded error estimate e = h sum (b_i - bhat_i) k_i.
  if (!tableau_.bHat.empty()) {
    errorQ_.setZero();
    errorV_.setZero();
    for (std::size_t i = 0; i < s; ++i) {
      const double e = h * (tableau_.b[i] - tableau_.bHat[i]);
      if (e == 0.0) continue;
      errorQ_ += e * tangent(i);
      errorV_ += e * stage_[i]->vdot;
    }
  }
  return evaluations;
}

}  // namespace rlx
