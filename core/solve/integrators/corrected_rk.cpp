#include "solve/integrators/corrected_rk.h"

#include "results/report.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/constraints.h"
#include "solve/equations/force_check.h"
#include "solve/integrators/braun_goldfarb.h"
#include "solve/integrators/runge_kutta.h"
#include "solve/integrators/singular_configuration.h"
#include "solve/linalg/dependent_rows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

namespace rlx {
namespace {

// Step-size controller (Hairer, Norsett, Wanner II.4): h_new = h min(5, max(0.2, 0.9 err^-1/5)).
constexpr double kSafety = 0.9, kGrowMax = 5.0, kShrinkMin = 0.2;

// corrected-rk: a velocity correction |qdot - v|_M after a step above this fraction of the model's
// typical velocity, at a singular configuration, means the step crossed it without resolving it:
// it left a velocity along the mode that the joints' equations did not see at the crossing, and
// later passes amplify it (the perturbed double four-bars: 8.6e-4 at the first pass, then up to
// 1e16 before the state overflows). Runs that reached their end before this check stay below it:
// the examples (the B&G slider-crank among them) at h = 0.01 and 0.001 at most 2.7e-4, the example
// double four-bar 0.024 at its worst pass (t = 253.75 s of 1000 s); the Bricard example at
// h >= 0.005 exceeds it (0.206 at t = 0.11 s, where its kept equations lose rank), and ended with
// its energy 1.66 J off (of 12.3 J): it stops now. docs/integrators-corrected-rk.md.
constexpr double kUnresolvedPass = 0.1;
// corrected-rk45 at a singular configuration: the stages' distance from the constraint manifold
// along the vanishing row combination, divided by sigma_min, makes the rates steeper the closer
// the state is to it, and gives them a kink there that no step resolves (deterministic: a change
// of the start at rounding level leaves the tries' errors as they are). A step across it keeps
// its error however short it is made (the example double four-bar at tolerance 1e-12: tries
// of 2.2e-3, 1.5e-3, 7e-4 and 4.2e-4 s err by 4.3, 24, 7 and 114 times the tolerance), and steps
// that stop short of it creep towards it, each try across it erring more the closer it starts
// (from 2.9e-4 s before it, 4.3 times; from 3e-6 s, 3e4 times), down to the minimum step. Two
// rules, with the equations nearly dependent: when a shorter try at the same point errs more than a
// truncation error of order 2 or more would (err > err_first (h / h_first)^2), the try of smallest
// error is taken; when a try stops short of the configuration, a step across it is tried
// (stepAcross). Either is this error floor, taken if within kFloorError of the scale and reported
// (RunStats::floorSteps, floorError).
constexpr double kFloorError = 1e-6;
// A step at the floor must leave a velocity correction of at most this fraction of the model's
// typical velocity (1e-3 of kUnresolvedPass). Steps that cross a turn of the motion they do not
// resolve exceed it (the perturbed double four-bars, whose motion turns into the other branch at
// a horizontal pass: 6.3e-4, 9.4e-4, with energy errors of 5e-4 and 1e-3 J), the floors of
// the exact models stay below (the N-four-bar, N = 40 and 50, at 1e-8 ... 1e-12: 5.9e-6 at most).
constexpr double kFloorCorrection = 1e-4;

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

// Whether the step from `before` to `after` passed a singular configuration that it did not
// resolve: a velocity correction above kUnresolvedPass with the joints' equations nearly dependent
// (below kNearlySingular) at either end. If so, `why` says what happened and `elements` names the
// owners of the dependent rows (at whichever end is closer to the configuration): a motion among
// them drives the mechanism into a lock-up (as hht and bdf say), else the pass is one that
// corrected-rk45 resolves.
bool unresolvedPass(const Model& model, Workspace& ws, const State& before, const State& after,
                    double correction, std::string& why, std::vector<std::string>& elements) {
  if (!(correction > kUnresolvedPass)) return false;
  double ratioBefore = 1.0, ratioAfter = 1.0;
  std::vector<Eigen::Index> atBefore = nearlyDependentRows(model, ws, before, ratioBefore);
  std::vector<Eigen::Index> atAfter = nearlyDependentRows(model, ws, after, ratioAfter);
  const double ratio = std::min(ratioBefore, ratioAfter);
  if (!(ratio < kNearlySingular)) return false;
  const std::vector<Eigen::Index>& rows = ratioBefore <= ratioAfter ? atBefore : atAfter;
  bool driven = false;
  for (const Eigen::Index row : rows) {
    const std::string& owner = model.rowOwners[static_cast<std::size_t>(row)];
    if (std::find(elements.begin(), elements.end(), owner) == elements.end())
      elements.push_back(owner);
    driven = driven || std::any_of(model.motions.begin(), model.motions.end(),
                                   [&](const Motion& motion) { return motion.row == row; });
  }
  std::sort(elements.begin(), elements.end());
  std::ostringstream text;
  text << "the step from t = " << before.t << " s "
       << (driven ? "met a configuration the motion cannot pass: the mechanism locks up"
                  : "passed a singular configuration that a fixed step does not resolve")
       << " (the joints' equations dependent to "
       << (ratio > 0 ? numberText(ratio, 2) : "less than " + numberText(kNearlySingular))
       << " of their largest singular value"
       << (elements.empty() ? "" : "; joints involved: " + joinNames(elements)) << ")"
       << (driven ? ": the velocities they ask for jump there, a correction of "
                  : ": it left a velocity they do not see there, a correction of ")
       << numberText(correction, 3) << " of the model's typical velocity (limit " << kUnresolvedPass
       << ")"
       << (driven ? ""
                  : ", which later passes amplify until the state overflows; corrected-rk45 "
                    "(variable step) resolves the pass");
  why = text.str();
  return true;
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
  const auto cancelled = [&] {
    report.status = SolveStatus::Cancelled;
    report.time = state.t;
    report.message = "cancelled at " + timeText(state.t);
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
  std::vector<std::string> joints;
  // corrected-rk45: a try of the current step; the first one's step and error, the best one.
  struct Try {
    double h = 0.0, err = std::numeric_limits<double>::infinity();
    RkPoint y;
    RkRate k;
  } best;
  double firstH = 0.0, firstErr = 0.0;
  int tries = 0;
  // Takes a try as the step at the error floor (counted, its error kept).
  const auto takeAtFloor = [&](Try& taken, RkPoint& yTo, RkRate& kTo, double& hTo) {
    std::swap(yTo, taken.y);
    std::swap(kTo, taken.k);
    hTo = taken.h;
    ++stats.floorSteps;
    stats.floorError = std::max(stats.floorError, taken.err);
  };
  // A point and its rate as the state the recorder and the report see.
  const auto show = [&](const RkPoint& point, const RkRate& rate) {
    state.t = point.t;
    state.q = point.q;
    state.v = point.v;
    ws.vdot = rate.vdot;
    ws.lambda.head(rate.lambda.size()) = rate.lambda;
  };
  // Whether a try at the floor resolved the pass: it leaves a velocity correction (a velocity
  // along the mode that the joints' equations do not see, as corrected-rk's unresolved passes)
  // of at most kFloorCorrection.
  const auto resolvesPass = [&](Try& taken) {
    f(taken.y, taken.k);
    ++stats.rhsEvaluations;
    return equation.velocityCorrection(taken.y, taken.k) <= kFloorCorrection;
  };
  // corrected-rk45: a step across the singular configuration that a rejected try of step hTry
  // from y (its end in yNew) stops short of or passed, the steps creeping towards it otherwise
  // (above): t* where sigma_min / sigma_1 reaches 0 (below). Steps of 1.5 and 2 times t* - y.t
  // (no stage near t*), up to the largest step unless the steps crept towards t* (a planar model
  // then also passes an output time next to t*, its frame interpolated). The one of smaller error
  // is taken, within kFloorError of the scale and resolving the pass, when that is the floor: the
  // longer step errs less than a truncation error of order 4 would, or the steps already crept
  // towards the same t* (else the controller's shorter steps do better). In `out`, or false.
  double sighted = std::numeric_limits<double>::quiet_NaN();  // t* of the last try that saw it
  const auto stepAcross = [&](double hTry, double stop, Try& out) {
    const double r0 = singularValueRatio(model, ws, State{y.t, y.q, y.v});
    if (!(r0 < kNearlySingular)) return false;
    const double r1 = singularValueRatio(model, ws, State{yNew.t, yNew.q, yNew.v});
    // sigma_min falling along the try: where it reaches 0 if it falls linearly, at most 2 hTry
    // ahead. Rising: the try passed t* if where a V of equal slopes through both ends reaches 0
    // is the t* sighted before (a try of the controller creeping towards it).
    const bool falling = r1 < r0;
    const double ahead = hTry * r0 / (falling ? r0 - r1 : r0 + r1), crossing = y.t + ahead;
    if (falling ? ahead > 2.0 * hTry : !(std::abs(crossing - sighted) < 0.1 * hTry)) return false;
    const bool crept = falling && sighted > y.t && std::abs(crossing - sighted) < sighted - y.t;
    sighted = crossing;
    std::array<Try, 2> trial;
    const std::array<double, 2> factors{1.5, 2.0};
    // An output time next to t* that the steps crept towards cannot be landed on: planar
    // models step past it.
    const bool pastStop = model.dimension == 2 && crept && stop > crossing - 0.5 * ahead;
    const double last = pastStop ? options.endTime : stop;
    for (std::size_t i = 0; i < 2; ++i) {
      const double across = std::min({factors[i] * ahead, last - y.t, crept ? last : options.step});
      if (across < 1.2 * ahead) return false;
      trial[i].y = yNew;
      stats.rhsEvaluations += rk.step(f, y, k, across, trial[i].y, trial[i].k);
      if (across == last - y.t) trial[i].y.t = last;
      trial[i].h = across;
      trial[i].err = finite(trial[i].y) ? errorNorm(model, rk, y, trial[i].y, options.tolerance)
                                        : std::numeric_limits<double>::infinity();
    }
    const bool floor = trial[1].err < trial[0].err * std::pow(trial[1].h / trial[0].h, 4);
    out = std::move(trial[trial[1].err < trial[0].err ? 1 : 0]);
    return (floor || crept) && out.err * options.tolerance <= kFloorError && resolvesPass(out);
  };
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
      double err = finite(yNew) ? errorNorm(model, rk, y, yNew, options.tolerance)
                                : std::numeric_limits<double>::quiet_NaN();
      bool atFloor = false;
      // The first try from here stops short of a singular configuration: step across it.
      if (!(err <= 1.0) && tries == 0 && std::isfinite(err)) {
        Try across;
        if (stepAcross(hStep, stop, across)) {
          ++stats.rejectedSteps;
          err = across.err;
          if (err > 1.0) {
            takeAtFloor(across, yNew, kNew, hStep);
            h = hStep;
            atFloor = true;
          } else {
            std::swap(yNew, across.y);
            std::swap(kNew, across.k);
            hStep = across.h;
          }
        }
      }
      if (!atFloor && !(err <= 1.0)) {
        if (tries++ == 0) firstH = hStep, firstErr = err;
        if (err < best.err) best.h = hStep, best.err = err, best.y = yNew, best.k = kNew;
        atFloor = tries >= 2 && err > firstErr * std::pow(hStep / firstH, 2) &&
                  best.err * options.tolerance <= kFloorError &&
                  nearlySingular(model, ws, State{y.t, y.q, y.v}) && resolvesPass(best);
        if (atFloor) {
          takeAtFloor(best, yNew, kNew, hStep);
          h = hStep;
        }
      }
      if (!atFloor && !(err <= 1.0)) {
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
      } else if (!atFloor) {
        // The next step; a step shortened to land on a stop does not shrink it.
        const double grow = err > 0 ? kSafety * std::pow(err, -0.2) : kGrowMax;
        const double proposal = hStep * std::clamp(grow, kShrinkMin, rejected ? 1.0 : kGrowMax);
        const bool keep = hStep < h && err * std::pow(h / hStep, 5) <= 1.0;
        h = std::min(options.step, keep ? std::max(h, proposal) : proposal);
      }
      rejected = false;
      tries = 0;
      best.err = std::numeric_limits<double>::infinity();
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
    } else if (std::string why;
               unresolvedPass(model, ws, State{y.t, y.q, y.v}, State{yNew.t, yNew.q, yNew.v},
                              equation.velocityCorrection(yNew, kNew), why, joints)) {
      return fail(SolveStatus::Singular, yNew.t, why, joints);
    }
    // A step across a singular configuration may pass output times: their frames interpolated.
    while (!recorder.finished() && recorder.nextStop() < yNew.t) {
      const double t = recorder.nextStop();
      const RkPoint at = hermite(y, k, yNew, kNew, t);
      RkRate rate;
      f(at, rate);
      ++stats.rhsEvaluations;
      show(at, rate);
      if (!recorder.accept(state, ws)) return cancelled();
    }
    // Accept: report the new state with its accelerations and multipliers.
    std::swap(y, yNew);
    std::swap(k, kNew);
    ++stats.steps;
    show(y, k);
    // Redundant equations: the rows kept may lose rank along the motion where a dropped row's
    // share in the dependency vanishes (the IFToMM Bricard at t = 0.55 s); chosen again here.
    if (redundant) {
      analyzeRedundancy(model, state, ws);
      equation.setActiveRows(ws.active);
    }
    if (!recorder.accept(state, ws)) return cancelled();
  }
  report.time = state.t;
}

}  // namespace rlx
