#include "usage.h"

#include "exit_codes.h"

#include <cstdio>
#include <string_view>

namespace rlx::cli {
namespace {

constexpr std::string_view kHelp = R"(Usage: reuleaux-cli COMMAND [ARGUMENTS]

Commands:
  check    MODEL [--acf FILE] [--ignore-unsupported] [--set NAME=VALUE]...
           Compile and assemble the model at t0; print its degrees of freedom (true rank and
           Gruebler count) and every redundant equation.
  assemble MODEL [-o OUT.rlx] [--acf FILE] [--ignore-unsupported] [--set NAME=VALUE]...
           [--quiet]
           Assemble positions, velocities and accelerations at t0 and write the model with the
           assembled poses and velocities (to stdout without -o).
  run      MODEL -o OUT.csv [options]
           Run the model's analysis and write the results as CSV.
  convert  IN OUT [--acf FILE] [--ignore-unsupported]
           Convert a model file (an Adams dataset or a simEngine2D .adm) to a .rlx file, or
           any model to an Adams/Solver dataset when OUT ends in .adm.
  plot     RESULTS.csv --y COLUMN... -o FILE [--x COLUMN] [--log] [--title TEXT]
           [--size WxH] [--dpi N]
           Plot result columns (as the desktop application does) to a PNG, SVG or PDF image,
           or write the plotted data as CSV. Needs a build with the desktop libraries.
  help     Show this help.

Options of run (each overrides the model's analysis settings):
  -o, --output FILE        results file (CSV), required
  --analysis TYPE          assembly | kinematics | statics | dynamics
  --end T                  end time [s]
  --step H                 step [s] (kinematics: spacing of the solved configurations)
  --output-step H          spacing of the stored frames [s]
  --integrator NAME        hht | bdf | corrected-rk | corrected-rk45
  --tolerance TOL          error tolerance (kinematics: Newton tolerance on the constraints)
  --variable-step on|off   hht: error-controlled steps up to --step (default off)
  --energy-correction on|off  corrected-rk*: Braun-Goldfarb energy correction (default on)
  --hht-alpha A            hht: the HHT parameter alpha in [-1/3, 0] (default -0.1; 0: no
                           numerical damping, -1/3: the most)
  --set NAME=VALUE         set a model parameter (a number or an expression); repeatable
  --acf FILE               simEngine2D analysis file for a .adm model
  --ignore-unsupported     Adams dataset: import what can be imported, with a warning for each
                           statement or argument skipped (user subroutines, statements not
                           read yet); without it they are refused, each named (check, assemble,
                           run, convert)
  --summary FILE.json      write a JSON summary of the run
  --quiet                  print nothing but errors

Options of plot:
  -o, --output FILE        the plot: .png, .svg, .pdf or .csv (the plotted data), required
  --y COLUMN[,COLUMN]      columns to plot against --x (repeatable); energy_drift is
                           (energy - work_nonconservative) minus its value at t0
  --x COLUMN               the horizontal axis (default t)
  --log                    log-scale y axis: |y|, zeros drawn at the smallest |y|
  --title TEXT             a title above the plot
  --size WxH               image size in pixels (default 1200x800)
  --dpi N                  resolution: text and lines keep their size printed at N DPI
                           (default 144)
  --quiet                  print nothing but errors

Other options:
  -h, --help               show this help
  --version                show the version

Exit status: 0 success; 1 the model is invalid or cannot be read; 2 the analysis failed;
64 bad command-line usage.
)";

// The synopsis of each command, shown with usage errors.
std::string_view synopsis(const std::string& command) {
  if (command == "check")
    return "reuleaux-cli check MODEL [--acf FILE] [--ignore-unsupported] [--set NAME=VALUE]...";
  if (command == "assemble") return "reuleaux-cli assemble MODEL [-o OUT.rlx] [options]";
  if (command == "run") return "reuleaux-cli run MODEL [options] -o OUT.csv";
  if (command == "convert")
    return "reuleaux-cli convert IN OUT [--acf FILE] [--ignore-unsupported]";
  if (command == "plot")
    return "reuleaux-cli plot RESULTS.csv --y COLUMN... -o FILE.(png|svg|pdf|csv) [options]";
  return "reuleaux-cli COMMAND [ARGUMENTS]";
}

}  // namespace

void printHelp() {
  std::fwrite(kHelp.data(), 1, kHelp.size(), stdout);
}

void printVersion() {
  std::puts("reuleaux-cli " REULEAUX_VERSION);
}

int usageError(const std::string& command, const std::string& message) {
  const std::string prefix = command.empty() ? "reuleaux-cli" : "reuleaux-cli " + command;
  std::fprintf(stderr, "%s: %s\nUsage: %s\nTry 'reuleaux-cli --help' for more information.\n",
               prefix.c_str(), message.c_str(), std::string(synopsis(command)).c_str());
  return kExitUsage;
}

}  // namespace rlx::cli
