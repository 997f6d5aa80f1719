// plot: reuleaux-cli links no GUI library, so the plot command is the program reuleaux-plot,
// installed beside reuleaux-cli when the desktop libraries are built; this runs it in our place.
#include "commands.h"
#include "exit_codes.h"
#include "output.h"

#include <unistd.h>

#include <climits>
#include <string>
#include <vector>

namespace rlx::cli {
namespace {

// The directory of this program (from /proc/self/exe), or "" if unknown.
std::string programDirectory() {
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (n <= 0) return {};
  const std::string path(buffer, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

}  // namespace

int plotCommand(const std::vector<std::string>& args) {
  const std::string plotter = programDirectory() + "/reuleaux-plot";
  if (::access(plotter.c_str(), X_OK) != 0) {
    printError("plot is not available in this build (it needs the desktop libraries: the program " +
               plotter + " was not found)");
    return kExitAnalysisFailed;
  }
  std::vector<char*> argv{const_cast<char*>("reuleaux-plot")};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(plotter.c_str(), argv.data());
  printError("plot: cannot run " + plotter);
  return kExitAnalysisFailed;
}

}  // namespace rlx::cli
