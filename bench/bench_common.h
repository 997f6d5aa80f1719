#pragma once
// What the benchmark programs share: a planar pendulum chain (free or with every pin driven), a
// chain of four-bar loops, a dynamic run from the assembled initial state, and the largest
// constraint error of a run.

#include "model/spec.h"
#include "results/results.h"
#include "solve/assembly.h"
#include "solve/dynamics.h"

#include <algorithm>
#include <cmath>
#include <random>
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

// A revolute joint between points x1 and x2 on the axes of two bars.
inline JointSpec barPin(const std::string& name, const std::string& body1, double x1,
                        const std::string& body2, double x2) {
  JointSpec j;
  j.name = name;
  j.body1 = body1;
  j.body2 = body2;
  j.point1 = Vector{x1, 0.0};
  j.point2 = Vector{x2, 0.0};
  return j;
}

// A chain of `loops` four-bar loops of unit rods (unit mass): loop k is rocker k, pinned to
// ground at (k + 1, 0), and coupler k, joining the tip of the previous link (the crank, pinned at
// the origin, for k = 0) to the tip of rocker k: parallelograms at 60 degrees, one degree of
// freedom. The bodies' positions and angles are off by up to `noise` (seeded: the same every
// time) for the assembly to correct.
inline Spec fourBarChain(int loops, double noise = 0.0) {
  const auto rod = [](const std::string& name, double x, double y, double angle) {
    BodySpec b;
    b.name = name;
    b.mass = 1.0;
    b.inertia = {1.0 / 12};
    b.position = {x, y};
    b.angle = angle;
    b.shape.type = "bar";
    b.shape.length = 1.0;
    b.shape.width = 0.05;
    return b;
  };
  const double theta = M_PI / 3;
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> uniform(-noise, noise);
  const auto off = [&] { return noise > 0 ? uniform(rng) : 0.0; };
  Spec spec;
  spec.name = "four-bar chain";
  spec.bodies.push_back(rod("crank", 0.5 * std::cos(theta), 0.5 * std::sin(theta), theta));
  spec.joints.push_back(barPin("crank_pin", "ground", 0.0, "crank", -0.5));
  spec.joints.back().point1 = Vector{0.0, 0.0};
  std::string previous = "crank";
  for (int k = 0; k < loops; ++k) {
    const std::string c = "coupler" + std::to_string(k), r = "rocker" + std::to_string(k);
    const double x0 = k + std::cos(theta);
    spec.bodies.push_back(rod(c, x0 + 0.5 + off(), std::sin(theta) + off(), off()));
    spec.bodies.push_back(rod(r, k + 1 + 0.5 * std::cos(theta) + off(),
                              0.5 * std::sin(theta) + off(), theta + off()));
    spec.joints.push_back(barPin("pin_a" + std::to_string(k), previous, 0.5, c, -0.5));
    spec.joints.push_back(barPin("pin_b" + std::to_string(k), c, 0.5, r, 0.5));
    spec.joints.push_back(barPin("pin_g" + std::to_string(k), "ground", 0.0, r, -0.5));
    spec.joints.back().point1 = Vector{static_cast<double>(k + 1), 0.0};
    previous = r;
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
