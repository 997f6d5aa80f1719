// Viewport speed under the current X server (run under xvfb-run): render time per frame and scrub
// latency (setState + render) for a planar pendulum chain of N links (argument, default 100),
// and the time of one drag step on it. Second argument: multisampling samples (default 4).
#include "bench_common.h"
#include "model/compile.h"
#include "solve/assembly/drag.h"
#include "viewport/viewport.h"

#include <QApplication>
#include <QElapsedTimer>

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace rlx;
using bench::pendulumChain;

namespace {

// A swinging configuration of the chain at phase s (angles only; the picture is what counts).
State swung(const Model& model, double s) {
  State state{s, model.q0, model.v0};
  double x = 0, y = 0, l = 1.0 / static_cast<double>(model.bodies.size());
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const double a = -0.5 * std::sin(s + 0.05 * static_cast<double>(k));
    const int q = model.bodies[k].q;
    state.q(q) = x + l / 2 * std::cos(a);
    state.q(q + 1) = y + l / 2 * std::sin(a);
    state.q(q + 2) = a;
    x += l * std::cos(a);
    y += l * std::sin(a);
  }
  return state;
}

}  // namespace

int main(int argc, char** argv) {
  ui::Viewport::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  const int links = argc > 1 ? std::atoi(argv[1]) : 100;
  const Spec spec = pendulumChain(links);
  const Model model = *compile(spec).model;

  ui::Viewport view;
  const int samples = argc > 2 ? std::atoi(argv[2]) : 4;
  view.setMultiSamples(samples);
  view.resize(1280, 800);
  view.show();
  QElapsedTimer setup;
  setup.start();
  view.setModel(spec, &model);
  view.fitToModel();
  view.grabFrame();
  std::printf("Viewport, %d-link pendulum chain, 1280x800, %d samples requested (none on a software rasterizer):\n", links, samples);
  std::printf("  setModel + first frame: %.1f ms\n",
              static_cast<double>(setup.nsecsElapsed()) / 1e6);

  // Render only (no change), then scrub: setState + render, as the timeline does.
  const int frames = 60;
  QElapsedTimer timer;
  timer.start();
  for (int k = 0; k < frames; ++k) view.renderNow();
  const double renderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6 / frames;
  timer.restart();
  for (int k = 0; k < frames; ++k) {
    view.setState(swung(model, 0.1 * k));
    view.renderNow();
  }
  const double scrubMs = static_cast<double>(timer.nsecsElapsed()) / 1e6 / frames;
  timer.restart();
  for (int k = 0; k < frames; ++k) {
    view.setState(swung(model, 0.1 * k));
    view.grabFrame();
  }
  const double grabMs = static_cast<double>(timer.nsecsElapsed()) / 1e6 / frames;
  std::printf("  render per frame:             %.1f ms\n", renderMs);
  std::printf("  scrub latency (setState+render): %.1f ms\n", scrubMs);
  std::printf("  setState + grabFrame (export): %.1f ms\n", grabMs);

  // One drag step: the chain's tip follows a target 1 cm away.
  State state{0.0, model.q0, model.v0};
  Workspace ws(model);
  const DragTarget target{static_cast<int>(model.bodies.size()) - 1,
                          Eigen::Vector3d(0.5 / links, 0, 0), Eigen::Vector3d(0.99, 0.01, 0)};
  timer.restart();
  const DragReport report = dragAssemble(model, state, ws, target);
  std::printf("  drag step (tip 1 cm): %.1f ms, %d steps, %s, miss %.2e m\n",
              static_cast<double>(timer.nsecsElapsed()) / 1e6, report.iterations,
              statusName(report.status), report.miss);
  return 0;
}
