#pragma once
// What the benchmark programs share: a planar pendulum chain (free or with every pin driven), a
// dynamic run from the assembled initial state, and the largest constraint error of a run.

#include "model/spec.h"
#include "results/results.h"
#include "solve/assembly.h"
#include "solve/dynamics.h"

#include <algorithm>
#include <string>

namespace rlx::bench {

// A chain of N slender unit-mass rods of length 1/N hanging from ground, horizontal (released
// from there in the dynamics benchmarks), drawn as bars.
inline Spec pendulumChain(int links) {
  Spec spec;
  spec.name = "chain";
  const double l = 1.0 / links;
  for (int k = 0; k < links; ++k) {
    BodySpec b;
    b.name = "link" + std::to_string(k);
    b.mass = 1.0 / links;
    b.inertia = {l * l / (12.0 * links)};
    b.position = {(k + 0.5) * l, 0.0};
    b.shape.type = "bar";
    b.shape.length = l;
    b.shape.width = 0.2 * l;
    spec.bodies.push_back(b);
    JointSpec j;
    j.name = "pin" + std::to_string(k);
    j.body1 = k == 0 ? "ground" : "link" + std::to_string(k - 1);
    j.body2 = b.name;
    j.point1 = Vector{k == 0 ? 0.0 : l / 2, 0.0};
    j.point2 = Vector{-l / 2, 0.0};
    spec.joints.push_back(j);
  }
  return spec;
}

// The chain with every pin driven by the relative angle `function` of t (zero at t = 0): a fully
// driven model for the kinematic analysis.
inline Spec drivenChain(int links, const std::string& function) {
  Spec spec = pendulumChain(links);
  spec.name = "driven chain";
  for (const JointSpec& j : spec.joints) {
    MotionSpec motion;
    motion.name = "drive_" + j.name;
    motion.joint = j.name;
    motion.function = function;
    spec.motions.push_back(motion);
  }
  return spec;
}

// Assembles at t = 0 and runs the dynamics.
inline Results simulate(const Model& model, const DynamicsOptions& options) {
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  assemble(model, state, ws);
  Results results;
  runDynamics(model, state, ws, options, results);
  return results;
}

inline double maxConstraintError(const Results& results) {
  double worst = 0;
  for (const Frame& f : results.frames) worst = std::max(worst, f.constraintError);
  return worst;
}

}  // namespace rlx::bench
