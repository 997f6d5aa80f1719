// reuleaux-plot: the `plot` command of reuleaux-cli, as a program of its own because it links the
// plotting library (Qt Charts), which reuleaux-cli must not. reuleaux-cli runs it for `plot`.
#include "commands.h"

#include <string>
#include <vector>

int main(int argc, char** argv) {
  return rlx::cli::plotCommand(std::vector<std::string>(argv + 1, argv + argc));
}
