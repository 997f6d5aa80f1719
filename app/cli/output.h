#pragma once
// What reuleaux-cli prints: errors and diagnostics on stderr, progress on a terminal.

#include "model/diagnostic.h"
#include "results/report.h"

#include <chrono>
#include <string>

namespace rlx::cli {

// "reuleaux-cli: <message>" on stderr.
void printError(const std::string& message);

// One diagnostic a line on stderr, prefixed by the file it came from ("model.rlx: bodies[0]
// "crank": mass must be positive, got -1"). Warnings are left out when `quiet`.
void printDiagnostics(const Diagnostics& diagnostics, const std::string& path, bool quiet);

// The failure of an analysis as a sentence on stderr: the cause, the time and the elements.
void printFailure(const SolveReport& report);

// Progress of a run ("t = 0.52 / 2 s (26%)") rewritten in place on stderr, at most ten times a
// second, and only when stderr is a terminal; finish() clears the line.
class Progress {
 public:
  Progress(double endTime, bool enabled);
  void update(double t);
  void finish();

 private:
  double endTime_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

// True when stderr is a terminal.
bool stderrIsTerminal();

}  // namespace rlx::cli
