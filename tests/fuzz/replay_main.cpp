// Replays saved inputs through a fuzz target without libFuzzer (any compiler):
//   fuzz_replay TARGET [--timeout SECONDS] [FILE_OR_DIRECTORY...]
// Runs every file (a directory: every file in it, sorted), printing each name before it, so that
// a finding (an abort) names its input; at the end, how many ran. An input that takes longer than
// --timeout is a finding too (a hang, as libFuzzer's -timeout).
#include "fuzz_targets.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputFiles(const std::vector<std::string>& arguments) {
  std::vector<fs::path> files;
  for (const std::string& argument : arguments) {
    if (!fs::is_directory(argument)) {
      files.emplace_back(argument);
      continue;
    }
    std::vector<fs::path> inDirectory;
    for (const fs::directory_entry& entry : fs::directory_iterator(argument))
      if (entry.is_regular_file()) inDirectory.push_back(entry.path());
    std::sort(inDirectory.begin(), inDirectory.end());
    files.insert(files.end(), inDirectory.begin(), inDirectory.end());
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_replay rlx|expression|simengine2d [--timeout SECONDS] [FILE...]\n");
    return 2;
  }
  const rlx::fuzz::Target target = rlx::fuzz::targetNamed(argv[1]);
  if (!target) {
    std::fprintf(stderr, "fuzz_replay: unknown target '%s'\n", argv[1]);
    return 2;
  }
  std::vector<std::string> arguments(argv + 2, argv + argc);
  double timeout = 0.0;  // seconds; 0: none
  if (arguments.size() >= 2 && arguments[0] == "--timeout") {
    timeout = std::stod(arguments[1]);
    arguments.erase(arguments.begin(), arguments.begin() + 2);
  }
  const std::vector<fs::path> files = inputFiles(arguments);
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fuzz_replay: cannot read %s\n", file.c_str());
      return 1;
    }
    std::ostringstream text;
    text << in.rdbuf();
    std::fprintf(stderr, "%s\n", file.c_str());
    const auto start = std::chrono::steady_clock::now();
    target(text.str());
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (timeout > 0.0 && took.count() > timeout) {
      std::fprintf(stderr, "fuzz_replay: %s took %.2f s, more than --timeout %g s (a hang)\n",
                   file.c_str(), took.count(), timeout);
      return 1;
    }
  }
  std::printf("fuzz_replay %s: %zu inputs, no finding\n", argv[1], files.size());
  return 0;
}
