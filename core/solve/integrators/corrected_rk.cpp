#include "solve/integrators/corrected_rk.h"

#include "results/report.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/integrators/braun_goldfarb.h"
#include "solve/integrators/runge_kutta.h"
#include "solve/linalg/dependent_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace rlx {
namespace {

// Step-size controller (Hairer, Norsett, Wanner II.4): h_new = h min(5, max(0.2, 0.9 err^-1/5)).
constexpr double kSafety = 0.9, kGrowMax = 5.0, kShrinkMin = 0.2;

std::string timeText(double t) {
  std::ostringstream out;
  out << "t = " << t << " s";
  return out.str();
}

bool finite(const RkPoint& y) {
  return std::isfinite(y.W) && y.q.allFinite() && y.v.allFinite();
}

// The failure sentence for a non-finite state, naming the element whose forces or equations are
// not finite at the last finite positions and velocities at the failing time
// (findNonFiniteElement), if any.
std::string nonFiniteReason(const Model& model, const State& last, double t, Workspace& ws,
                            std::vector<std::string>& elements) {
  const NonFiniteForce bad = findNonFiniteElement(model, State{t, last.q, last.v}, ws);
  if (!bad.element.empty()) elements.push_back(bad.element);
  return "the state became NaN or infinite" + (bad.element.empty() ? "" : " (" + bad.cause + ")");
}

// The size of position entry i of the tangent space: |q_i| (planar), |r_k| for a spatial body's
// position and 0 for its rotation (an angle, of size 1 at most: the tolerance applies as is).
double positionSize(const Model& model, const Eigen::VectorXd& q, Eigen::Index i) {
  if (model.dimension == 2) return std::abs(q(i));
  const Eigen::Index body = i / 6, k = i % 6;
  return k < 3 ? std::abs(q(7 * body + k)) : 0.0;
}

// Root-mean-square of the local error scaled by tolerance * (1 + max(|y_n|, |y_n+1|)) over q and v.
double errorNorm(const Model& model, const ExplicitRungeKutta& rk, const RkPoint& y,
                 const RkPoint& yNew, double tolerance) {
  double sum = 0.0;
  const Eigen::Index n = y.v.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double sq = tolerance * (1.0 + std::max(positionSize(model, y.q, i),
                                                  positionSize(model, yNew.q, i)));
    const double sv = tolerance * (1.0 + std::max(std::abs(y.v(i)), std::abs(yNew.v(i))));
    sum += std::pow(rk.errorQ()(i) / sq, 2) + std::pow(rk.errorV()(i) / sv, 2);
  }
  return n ? std::sqrt(sum / static_cast<double>(2 * n)) : 0.0;
}

}  // namespace

void integrateCorrectedRK(const Model& model, State& state, Workspace& ws,
                          const DynamicsOptions& options, Recorder& recorder, SolveReport& report) {
  const auto fail = [&](SolveStatus status, double t, const std::string& why,
                        std::vector<std::string> elements = {}) {
    report.status = status;
    report.time = t;
    report.elements = std::move(elements);
    report.message = "dynamic analysis failed at " + timeText(t) + ": " + why;
  };
  CorrectedEquation equation(model, model.nv >= options.sparseFrom);
  std::string body;
  if (!equation.factorMassMatrix(body))
    return fail(SolveStatus::Singular, state.t,
                "the mass matrix is singular (body \"" + body +
                    "\" has no mass or inertia in a direction it can move); " +
                    integratorName(options.integrator) +
                    " needs M^-1, use hht or give the body an inertia",
                {body});
  equation.setStart(state, options.energyCorrection);
  equation.setActiveRows(ws.active);
  // Small models with redundant equations choose the rows they keep again at every step (below).
  const bool redundant = choosesRowsEveryStep(model, ws);

  const bool adaptive = options.integrator == Integrator::CorrectedRK45;
  ExplicitRungeKutta rk(model, adaptive ? dormandPrince54() : classicalRK4());
  const RkFunction f = [&](const RkPoint& y, RkRate& k) { equation.evaluate(y, k); };
  RkPoint y{state.t, state.q, state.v, 0.0}, yNew = y;
  RkRate k, kNew;
  f(y, k);
  RunStats& stats = recorder.stats();
  ++stats.rhsEvaluations;

  double h = options.step;
  bool rejected = false;
  while (!recorder.finished()) {
    // The step: at most h, landing exactly on the next stop without leaving a sliver.
    const double stop = recorder.nextStop(), remaining = stop - y.t;
    double hStep = h;
    bool lands = false;
    if (remaining <= h * (1.0 + 1e-6)) {
      hStep = remaining;
      lands = true;
    } else if (adaptive && remaining < 2.0 * h) {
      hStep = 0.5 * remaining;
    }
    stats.rhsEvaluations += rk.step(f, y, k, hStep, yNew, kNew);
    if (lands) yNew.t = stop;
    // Error control (corrected-rk45): reject and shrink, or accept and propose the next step.
    if (adaptive) {
      const double err = finite(yNew) ? errorNorm(model, rk, y, yNew, options.tolerance)
                                      : std::numeric_limits<double>::quiet_NaN();
      if (!(err <= 1.0)) {
        ++stats.rejectedSteps;
        rejected = true;
        h = hStep *
            (std::isfinite(err) ? std::max(kShrinkMin, kSafety * std::pow(err, -0.2)) : kShrinkMin);
        if (h >= options.minStep) continue;
        if (!std::isfinite(err)) {
          std::vector<std::string> elements;
          const std::string why = nonFiniteReason(model, state, yNew.t, ws, elements);
          return fail(SolveStatus::NotFinite, yNew.t, why + " even at the minimum step", elements);
        }
        std::ostringstream why;
        why << "the step size fell below the minimum step " << options.minStep
            << " s without meeting the tolerance " << options.tolerance;
        return fail(SolveStatus::MaxIterations, y.t, why.str());
      }
      // The next step; a step shortened to land on a stop does not shrink it.
      const double grow = err > 0 ? kSafety * std::pow(err, -0.2) : kGrowMax;
      const double proposal = hStep * std::clamp(grow, kShrinkMin, rejected ? 1.0 : kGrowMax);
      const bool keep = hStep < h && err * std::pow(h / hStep, 5) <= 1.0;
      h = std::min(options.step, keep ? std::max(h, proposal) : proposal);
      rejected = false;
    } else if (!finite(yNew)) {
      std::vector<std::string> elements;
      std::string why = nonFiniteReason(model, state, yNew.t, ws, elements);
      // Every force finite: the fixed explicit step is the likely cause.
      if (elements.empty())
        why += ": every force is finite, so the step of " + numberText(options.step) +
               " s is likely beyond the stability limit of the model's fastest motion "
               "(corrected-rk is explicit); take a smaller step, corrected-rk45 (which chooses "
               "its steps) or an implicit integrator (hht, bdf)";
      return fail(SolveStatus::NotFinite, yNew.t, why, elements);
    }
    // Accept: report the new state with its accelerations and multipliers.
    std::swap(y, yNew);
    std::swap(k, kNew);
    ++stats.steps;
    state.t = y.t;
    state.q = y.q;
    state.v = y.v;
    ws.vdot = k.vdot;
    ws.lambda.head(k.lambda.size()) = k.lambda;
    // Redundant equations: the rows kept may lose rank along the motion where a dropped row's
    // share in the dependency vanishes (the IFToMM Bricard at t = 0.55 s); chosen again here.
    if (redundant) {
      analyzeRedundancy(model, state, ws);
      equation.setActiveRows(ws.active);
    }
    if (!recorder.accept(state, ws)) {
      report.status = SolveStatus::Cancelled;
      report.time = state.t;
      report.message = "cancelled at " + timeText(state.t);
      return;
    }
  }
  report.time = state.t;
}

}  // namespace rlx
