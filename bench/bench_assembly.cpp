// Time to assemble a chain of N four-bar loops (default 100, bench::fourBarChain) from a
// perturbed guess, driven by the crank.
// Then a redundant large model: a 5000-link pendulum chain with its middle pin duplicated,
// assembled (with the redundancy analysis) and the joints whose reactions are not unique named.
#include "bench_common.h"
#include "model/compile.h"
#include "solve/assembly/assembly.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  using namespace rlx;
  const int loops = argc > 1 ? std::atoi(argv[1]) : 100;
  // Driven by the crank.
  Spec spec = bench::fourBarChain(loops, 0.05);
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
