// Time to write and to read an Adams dataset of about 10 000 lines: a chain of N pendulum links
// (default 356: 10 002 lines; bench::pendulumChain) written by writeAdams (parts, markers, revolute
// joints in Adams/View's layout), then read back by readAdams and compiled. Each is timed as the
// best of five runs.
#include "bench_common.h"
#include "io/model_file.h"
#include "model/compile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace {

double bestOfFive(const std::function<void()>& work) {
  double best = 1e300;
  for (int k = 0; k < 5; ++k) {
    const auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rlx;
  const int links = argc > 1 ? std::atoi(argv[1]) : 356;
  const Spec chain = bench::pendulumChain(links);
  std::string text;
  const double write = bestOfFive([&] { text = writeAdams(chain).text.value_or(""); });
  if (text.empty()) {
    std::fprintf(stderr, "the chain was not written\n");
    return 1;
  }
  const long lines = static_cast<long>(std::count(text.begin(), text.end(), '\n'));
  LoadResult read;
  const double reading = bestOfFive([&] { read = readAdams(text, "chain.adm"); });
  if (!read.spec) {
    std::fprintf(stderr, "%s\n", read.diagnostics.front().text().c_str());
    return 2;
  }
  CompileResult compiled;
  const double compiling = bestOfFive([&] { compiled = compile(*read.spec); });
  std::printf(
      "Adams dataset of a %d-link chain: %ld lines (%.0f kB); written in %.1f ms, read in "
      "%.1f ms, compiled in %.1f ms (%zu bodies, %zu joints)\n",
      links, lines, text.size() / 1e3, 1e3 * write, 1e3 * reading, 1e3 * compiling,
      read.spec->bodies.size(), read.spec->joints.size());
  return compiled.model ? 0 : 3;
}
