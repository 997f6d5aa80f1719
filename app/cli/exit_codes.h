#pragma once
// Exit status of reuleaux-cli (shared/specs/cli-and-results.md).

namespace rlx::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitInvalidModel = 1,    // the model is invalid, or a file cannot be read or written
  kExitAnalysisFailed = 2,  // assembly impossible, Newton failure, non-finite state, ...
  kExitUsage = 64,          // bad command-line usage (EX_USAGE)
};

}  // namespace rlx::cli
