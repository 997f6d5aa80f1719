// Time to assemble a chain of N four-bar loops (default 100) from a perturbed guess.
// Loop k: rocker k pinned to ground at (k+1, 0), coupler k joining the tip of the previous
// link (the crank for k = 0) to the tip of rocker k: parallelograms, driven by the crank.
// Then a redundant large model: a 5000-link pendulum chain with its middle pin duplicated,
// assembled (with the redundancy analysis) and the joints whose reactions are not unique named.
#include "bench_common.h"
#include "model/compile.h"
#include "solve/assembly.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace {

rlx::BodySpec rod(const std::string& name, double x, double y, double angle) {
  rlx::BodySpec b;
  b.name = name;
  b.mass = 1.0;
  b.inertia = {1.0 / 12};
  b.position = {x, y};
  b.angle = angle;
  return b;
}

rlx::JointSpec pin(const std::string& name, const std::string& body1, double x1,
                   const std::string& body2, double x2) {
  rlx::JointSpec j;
  j.name = name;
  j.body1 = body1;
  j.body2 = body2;
  j.point1 = rlx::Vector{x1, 0.0};
  j.point2 = rlx::Vector{x2, 0.0};
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rlx;
  const int loops = argc > 1 ? std::atoi(argv[1]) : 100;
  const double theta = M_PI / 3;
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> noise(-0.05, 0.05);
  Spec spec;
  spec.name = "four-bar chain";
  spec.bodies.push_back(rod("crank", 0.5 * std::cos(theta), 0.5 * std::sin(theta), theta));
  spec.joints.push_back(pin("crank_pin", "ground", 0.0, "crank", -0.5));
  spec.joints.back().point1 = Vector{0.0, 0.0};
  std::string previous = "crank";
  for (int k = 0; k < loops; ++k) {
    const std::string c = "coupler" + std::to_string(k), r = "rocker" + std::to_string(k);
    const double x0 = k + std::cos(theta);
    spec.bodies.push_back(rod(c, x0 + 0.5 + noise(rng), std::sin(theta) + noise(rng), noise(rng)));
    spec.bodies.push_back(rod(r, k + 1 + 0.5 * std::cos(theta) + noise(rng), 0.5 * std::sin(theta) + noise(rng),
                              theta + noise(rng)));
    spec.joints.push_back(pin("pin_a" + std::to_string(k), previous, 0.5, c, -0.5));
    spec.joints.push_back(pin("pin_b" + std::to_string(k), c, 0.5, r, 0.5));
    spec.joints.push_back(pin("pin_g" + std::to_string(k), "ground", 0.0, r, -0.5));
    spec.joints.back().point1 = Vector{static_cast<double>(k + 1), 0.0};
    previous = r;
  }
  MotionSpec drive;
  drive.name = "drive";
  drive.joint = "crank_pin";
  drive.function = "t";
  spec.motions.push_back(drive);
  const CompileResult compiled = compile(spec);
  if (!compiled.model) {
    std::fprintf(stderr, "%s\n", compiled.diagnostics.front().text().c_str());
    return 1;
  }
  const Model& model = *compiled.model;
  Workspace ws(model);
  State state{0.0, model.q0, model.v0};
  const auto start = std::chrono::steady_clock::now();
  const AssemblyReport report = assemble(model, state, ws);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("assembly of a %d-loop four-bar chain (%d bodies, %d equations): %.3f s, %d iterations, "
              "residual %.1e, dof %d, %s\n",
              loops, static_cast<int>(model.bodies.size()), model.nh, seconds, report.iterations,
              report.residualNorm, report.redundancy.dof, report.ok() ? "ok" : report.message.c_str());
  if (!report.ok()) return 2;

  Spec chain = bench::pendulumChain(5000);
  JointSpec twin = chain.joints[2500];
  twin.name = "twin";
  chain.joints.push_back(twin);
  const Model redundant = *compile(chain).model;
  Workspace rws(redundant);
  State rstate{0.0, redundant.q0, redundant.v0};
  const auto rstart = std::chrono::steady_clock::now();
  const AssemblyReport rreport = assemble(redundant, rstate, rws);
  const auto rmiddle = std::chrono::steady_clock::now();
  const std::vector<std::string> shared = dependentElements(redundant, rws.Phi_q, 1e-9, 1e-8);
  const auto rend = std::chrono::steady_clock::now();
  std::printf("assembly of a 5000-link chain with a duplicated pin (%d equations): %.3f s, %zu "
              "redundant equations, %s; joints with shared reactions (%zu) found in %.3f s\n",
              redundant.nh, std::chrono::duration<double>(rmiddle - rstart).count(),
              rreport.redundancy.redundant.size(), rreport.ok() ? "ok" : rreport.message.c_str(),
              shared.size(), std::chrono::duration<double>(rend - rmiddle).count());
  return rreport.ok() ? 0 : 2;
}
