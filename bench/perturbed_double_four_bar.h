#pragma once
// Double four-bars (examples/double_four_bar.rlx: three unit cranks pinned to ground 1 m apart,
// two unit couplers joining their tips, unit masses; cranks vertical turning at -1 rad/s) that
// differ from it at rounding level: every mass, rod length and ground spacing, the initial crank
// angle and rate perturbed by up to `relative` (uniform, seeded), the bodies and joints listed in
// a shuffled order. A run must keep its energy and its cranks parallel through the horizontal
// passes, where the mobility jumps from 1 to 3 (doubleFourBarRun).
// Shared by bench/bench_double_four_bar.cpp and tests/core/tst_corrected_rk.cpp.

#include "bench_common.h"
#include "model/compile.h"
#include "model/spec.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/dynamics.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <random>
#include <string>

namespace rlx::bench {

inline Spec perturbedDoubleFourBar(unsigned seed, double relative = 1e-9) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-relative, relative);
  const auto perturbed = [&](double x) { return x * (1.0 + uniform(rng)); };
  const double theta = perturbed(M_PI / 2), rate = perturbed(-1.0);
  std::array<double, 3> crank{}, pivot{}, tipX{}, tipY{};
  for (int i = 0; i < 3; ++i) crank[i] = perturbed(1.0);
  pivot[1] = perturbed(1.0);
  pivot[2] = pivot[1] + perturbed(1.0);
  const std::array<double, 2> coupler{perturbed(1.0), perturbed(1.0)};
  const double c = std::cos(theta), s = std::sin(theta);
  // A uniform rod of the given length, at (x, y, angle) moving at (vx, vy, omega).
  const auto rod = [&](const std::string& name, double length, std::array<double, 6> pose) {
    BodySpec b = uniformRod(name, length, perturbed(1.0), pose[0], pose[1], pose[2], 0.04);
    b.velocity = {pose[3], pose[4]};
    b.angularVelocity = {pose[5]};
    return b;
  };
  Spec spec;
  spec.name = "perturbed double four-bar " + std::to_string(seed);
  // Cranks: centre at half length from the pivot, turning about it.
  for (int i = 0; i < 3; ++i) {
    const std::string name = "crank" + std::to_string(i + 1);
    const double l = crank[i];
    spec.bodies.push_back(rod(name, l,
                              {pivot[i] + 0.5 * l * c, 0.5 * l * s, theta, -0.5 * l * s * rate,
                               0.5 * l * c * rate, rate}));
    JointSpec j;
    j.name = name + "_pin";
    j.body2 = name;
    j.at = Vector{pivot[i], 0.0};
    spec.joints.push_back(j);
    tipX[i] = pivot[i] + l * c;
    tipY[i] = l * s;
  }
  // Couplers: from the tip of crank k to that of crank k + 1, translating with the tips.
  for (int k = 0; k < 2; ++k) {
    const std::string name = "coupler" + std::to_string(k + 1);
    const double l = coupler[k];
    spec.bodies.push_back(
        rod(name, l,
            {0.5 * (tipX[k] + tipX[k + 1]), 0.5 * (tipY[k] + tipY[k + 1]),
             std::atan2(tipY[k + 1] - tipY[k], tipX[k + 1] - tipX[k]), -s * rate, c * rate, 0.0}));
    spec.joints.push_back(
        barPin(name + "_left", "crank" + std::to_string(k + 1), 0.5 * crank[k], name, -0.5 * l));
    spec.joints.push_back(barPin(name + "_right", "crank" + std::to_string(k + 2),
                                 0.5 * crank[k + 1], name, 0.5 * l));
  }
  std::shuffle(spec.bodies.begin(), spec.bodies.end(), rng);
  std::shuffle(spec.joints.begin(), spec.joints.end(), rng);
  return spec;
}

// What one run of a double four-bar kept: whether it reached the end, or stopped at a singular
// pass it does not resolve (corrected-rk's clear stop, status Singular), the largest |E - E0| (J)
// and the largest angle between the directions of crank1 and crank3 (rad) over its frames, the
// time it took (s), its steps at the error floor and the largest one's error (in tolerances).
struct DoubleFourBarRun {
  bool reachedEnd = false;
  bool stoppedAtPass = false;
  std::string message;
  double endTime = 0.0, energyError = 0.0, nonParallel = 0.0, seconds = 0.0;
  int floorSteps = 0;
  double floorError = 0.0;
};

inline DoubleFourBarRun runDoubleFourBar(const Spec& spec, const DynamicsOptions& options) {
  DoubleFourBarRun run;
  const CompileResult compiled = compile(spec);
  if (!compiled.model) {
    run.message = "the model does not compile";
    return run;
  }
  const Model& model = *compiled.model;
  const auto angleOf = [&](const std::string& name) {
    for (const Body& b : model.bodies)
      if (b.name == name) return b.q + 2;
    return -1;
  };
  const int first = angleOf("crank1"), last = angleOf("crank3");
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const AssemblyReport assembly = assemble(model, state, ws);
  if (!assembly.ok()) {
    run.message = assembly.message;
    return run;
  }
  // Each frame is measured as it is recorded.
  double E0 = 0.0;
  bool started = false;
  Results results;
  const auto measure = [&](const Frame& f) {
    const double E = f.kinetic + f.potential;
    if (!started) E0 = E;
    started = true;
    run.energyError = std::max(run.energyError, std::abs(E - E0));
    const double d = f.state.q(first) - f.state.q(last);
    run.nonParallel = std::max(run.nonParallel, std::abs(std::remainder(d, 2 * M_PI)));
    run.endTime = f.state.t;
    return true;
  };
  const auto start = std::chrono::steady_clock::now();
  runDynamics(model, state, ws, options, results, measure);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.reachedEnd = results.report.ok() && run.endTime >= options.endTime * (1 - 1e-12);
  run.stoppedAtPass =
      results.report.status == SolveStatus::Singular &&
      results.report.message.find("passed a singular configuration") != std::string::npos;
  run.message = results.report.message;
  run.floorSteps = results.stats.floorSteps;
  run.floorError = results.stats.floorError;
  return run;
}

}  // namespace rlx::bench
