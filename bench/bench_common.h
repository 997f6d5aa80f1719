#pragma once
// What the benchmark programs share: a planar pendulum chain (free or with every pin driven), a
// chain of four-bar loops, the IFToMM N-four-bar and Bricard linkage, a dynamic run from the
// assembled initial state, and the largest constraint error of a run.

#include "model/spec.h"
#include "results/results.h"
#include "solve/assembly/assembly.h"
#include "solve/integrators/dynamics.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace rlx::bench {

// A uniform rod of `length` and `mass` at (x, y) and `angle`, at rest, drawn as a bar of `width`.
inline BodySpec uniformRod(const std::string& name, double length, double mass, double x, double y,
                           double angle, double width) {
  BodySpec b;
  b.name = name;
  b.mass = mass;
  b.inertia = {mass * length * length / 12.0};
  b.position = {x, y};
  b.angle = angle;
  b.shape.type = "bar";
  b.shape.length = length;
  b.shape.width = width;
  return b;
}

// A chain of N slender rods of length `length` and mass `mass` hanging from ground at (x0, 0),
// horizontal (released from there in the dynamics benchmarks), drawn as bars.
inline Spec pendulumChain(int links, double length, double mass, double x0 = 0.0) {
  Spec spec;
  spec.name = "chain";
  const double l = length;
  for (int k = 0; k < links; ++k) {
    const BodySpec b =
        uniformRod("link" + std::to_string(k), l, mass, x0 + (k + 0.5) * l, 0.0, 0.0, 0.2 * l);
    spec.bodies.push_back(b);
    JointSpec j;
    j.name = "pin" + std::to_string(k);
    j.body1 = k == 0 ? "ground" : "link" + std::to_string(k - 1);
    j.body2 = b.name;
    j.point1 = Vector{k == 0 ? x0 : l / 2, 0.0};
    j.point2 = Vector{-l / 2, 0.0};
    spec.joints.push_back(j);
  }
  return spec;
}

// The chain of unit length and mass: N rods of length 1/N and mass 1/N.
inline Spec pendulumChain(int links) { return pendulumChain(links, 1.0 / links, 1.0 / links); }

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
    return uniformRod(name, 1.0, 1.0, x, y, angle, 0.05);
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

// The IFToMM N-four-bar (examples/double_four_bar.rlx is N = 2): N + 1 cranks crank1 ...,
// pinned to ground at x = 0 ... N, and N couplers coupler1 ... joining the tips of neighbouring
// cranks; uniform rods of 1 m and 1 kg. The cranks start vertical, turning clockwise at 1 rad/s,
// under gravity -9.81 m/s^2 in y: every link is horizontal twice per revolution, where Phi_q
// loses N of its rows' rank.
inline Spec nFourBar(int n) {
  const auto rod = [](const std::string& name, double x, double y, double angle, double vx,
                      double omega) {
    BodySpec b = uniformRod(name, 1.0, 1.0, x, y, angle, 0.04);
    b.velocity = {vx, 0.0};
    b.angularVelocity = {omega};
    return b;
  };
  Spec spec;
  spec.name = "N-four-bar";
  spec.gravity = Vector{0.0, -9.81};
  const auto crank = [](int k) { return "crank" + std::to_string(k + 1); };
  const auto coupler = [](int k) { return "coupler" + std::to_string(k + 1); };
  for (int k = 0; k <= n; ++k)
    spec.bodies.push_back(rod(crank(k), static_cast<double>(k), 0.5, M_PI / 2, 0.5, -1.0));
  for (int k = 0; k < n; ++k) spec.bodies.push_back(rod(coupler(k), k + 0.5, 1.0, 0.0, 1.0, 0.0));
  // The ground pins by their global point, as in the example.
  for (int k = 0; k <= n; ++k) {
    JointSpec j;
    j.name = crank(k) + "_pin";
    j.body2 = crank(k);
    j.at = Vector{static_cast<double>(k), 0.0};
    spec.joints.push_back(j);
  }
  for (int k = 0; k < n; ++k) {
    spec.joints.push_back(barPin(coupler(k) + "_left", crank(k), 0.5, coupler(k), -0.5));
    spec.joints.push_back(barPin(coupler(k) + "_right", crank(k + 1), 0.5, coupler(k), 0.5));
  }
  return spec;
}

// The IFToMM Bricard linkage from examples/bricard.rlx (`example`): the same mechanism with 1 m
// links and hinges hinge_A ... hinge_F. One of its 30 equations is redundant; the 29 kept at
// assembly lose rank at t = 0.55 s, where the redundant one alone holds the loop together.
inline Spec iftommBricard(Spec example) {
  for (Parameter& p : example.parameters)
    if (p.name == "a") p.value = 1.0;
  const char* names[] = {"hinge_A", "hinge_B", "hinge_C", "hinge_D", "hinge_E", "hinge_F"};
  for (std::size_t k = 0; k < example.joints.size() && k < 6; ++k)
    example.joints[k].name = names[k];
  return example;
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
