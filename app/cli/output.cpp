#include "output.h"

#include <unistd.h>

#include <cstdio>
#include <sstream>

namespace rlx::cli {
namespace {

// A time for messages: 6 significant digits.
std::string shortNumber(double x) {
  std::ostringstream out;
  out.precision(6);
  out << x;
  return out.str();
}

}  // namespace

void printError(const std::string& message) {
  std::fprintf(stderr, "reuleaux-cli: %s\n", message.c_str());
}

void printDiagnostics(const Diagnostics& diagnostics, const std::string& path, bool quiet) {
  for (const Diagnostic& d : diagnostics) {
    const bool warning = d.severity == Severity::Warning;
    if (quiet && warning) continue;
    // Syntax errors already name the file (and the line) as their element.
    std::string line = d.element.rfind(path, 0) == 0 ? d.element
                       : d.element.empty()           ? path
                                                     : path + ": " + d.element;
    line += warning ? ": warning: " : ": ";
    if (!d.field.empty()) line += d.field + " ";
    line += d.message;
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

void printFailure(const SolveReport& report) {
  std::string message = report.message.empty() ? "the analysis failed" : report.message;
  // The elements involved, unless the message names them already.
  std::string missing;
  for (const std::string& e : report.elements)
    if (message.find(e) == std::string::npos) missing += (missing.empty() ? "" : ", ") + e;
  if (!missing.empty()) message += " (elements: " + missing + ")";
  // The time, unless the message gives it.
  if (message.find("t = ") == std::string::npos)
    message = "at t = " + shortNumber(report.time) + " s: " + message;
  printError(message);
}

Progress::Progress(double endTime, bool enabled)
    : endTime_(endTime), enabled_(enabled), last_(std::chrono::steady_clock::now()) {}

void Progress::update(double t) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  const double percent = endTime_ > 0 ? 100.0 * t / endTime_ : 100.0;
  std::fprintf(stderr, "\r\033[Kt = %s / %s s (%.0f%%)", shortNumber(t).c_str(),
               shortNumber(endTime_).c_str(), percent);
  std::fflush(stderr);
}

void Progress::finish() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

bool stderrIsTerminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

}  // namespace rlx::cli
