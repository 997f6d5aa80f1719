#pragma once
// How a solver stopped. Solvers never throw on numerical trouble: they return one of these, with
// the numbers that explain it and the elements involved, for the user to read as a sentence.

#include <string>
#include <vector>

namespace rlx {

enum class SolveStatus {
  Converged,
  MaxIterations,   // Newton did not reach the tolerance
  Singular,        // a matrix that must be invertible is not (lock-up, singular mass)
  Diverged,        // the residual grew without bound
  NotFinite,       // NaN or infinity in the state or in a function
  Inconsistent,    // redundant constraints that contradict each other; a loop that cannot close
  Unsupported,     // the model cannot be run by this analysis (e.g. kinematics with free DOF)
  Cancelled,
};

const char* statusName(SolveStatus status);

// A number for a message: `precision` significant digits, shortest form ("0.001", "1.5e-07").
std::string numberText(double x, int precision = 6);

struct SolveReport {
  SolveStatus status = SolveStatus::Converged;
  std::string message;                 // a sentence naming the cause, time and elements
  std::vector<std::string> elements;   // names of the elements involved
  int iterations = 0;
  double residualNorm = 0.0;           // infinity norm of the last residual
  double updateNorm = 0.0;             // infinity norm of the last update
  double time = 0.0;                   // model time at which it stopped

  bool ok() const { return status == SolveStatus::Converged; }
};

}  // namespace rlx
