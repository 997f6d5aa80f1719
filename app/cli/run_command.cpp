// run MODEL [options] -o OUT.csv: the model's analysis (or --analysis TYPE), results as CSV and
// optionally a JSON summary.
#include "command_args.h"
#include "commands.h"
#include "exit_codes.h"
#include "model_input.h"
#include "output.h"
#include "solve/analysis/analysis.h"
#include "usage.h"

#include "io/atomic_write.h"
#include "output/csv.h"
#include "output/summary.h"

#include <cstdio>
#include <sstream>

namespace rlx::cli {
namespace {

// Analysis settings given on the command line; each overrides the model's.
struct Overrides {
  std::optional<AnalysisType> type;
  std::optional<double> endTime, step, outputStep, tolerance, hhtAlpha;
  std::optional<std::string> integrator;
  std::optional<bool> variableStep, energyCorrection;
};

// An on|off option.
bool switchOption(const Arguments& args, const char* name, std::optional<bool>* out,
                  std::string* error) {
  const auto value = args.value(name);
  if (!value) return true;
  if (*value != "on" && *value != "off") {
    *error = std::string("--") + name + " must be on or off, got \"" + *value + "\"";
    return false;
  }
  *out = *value == "on";
  return true;
}

// --hht-alpha: a number in [-1/3, 0].
bool alphaOption(const Arguments& args, std::optional<double>* out, std::string* error) {
  if (!numberOption(args, "hht-alpha", out, error)) return false;
  if (*out && !hhtAlphaInRange(**out)) {
    *error = "--hht-alpha must be in [-1/3, 0], got " + *args.value("hht-alpha");
    return false;
  }
  return true;
}

// Reads and checks the overrides; a usage error in *error.
bool readOverrides(const Arguments& args, Overrides& out, std::string* error) {
  if (const auto name = args.value("analysis")) {
    out.type = analysisTypeFromName(*name);
    if (!out.type) {
      *error =
          "--analysis must be assembly, kinematics, statics or dynamics, got \"" + *name + "\"";
      return false;
    }
  }
  out.integrator = args.value("integrator");
  return positiveOption(args, "end", &out.endTime, error) &&
         positiveOption(args, "step", &out.step, error) &&
         positiveOption(args, "output-step", &out.outputStep, error) &&
         positiveOption(args, "tolerance", &out.tolerance, error) &&
         switchOption(args, "variable-step", &out.variableStep, error) &&
         switchOption(args, "energy-correction", &out.energyCorrection, error) &&
         alphaOption(args, &out.hhtAlpha, error);
}

void applyOverrides(Spec& spec, const Overrides& o) {
  AnalysisSpec a = spec.analysis.value_or(AnalysisSpec{});
  if (o.type) a.type = *o.type;
  if (o.endTime) a.endTime = *o.endTime;
  if (o.step) a.step = *o.step;
  if (o.outputStep) a.outputStep = Number(*o.outputStep);
  if (o.tolerance) a.tolerance = *o.tolerance;
  if (o.integrator) a.integrator = *o.integrator;
  if (o.variableStep) a.variableStep = *o.variableStep;
  if (o.energyCorrection) a.energyCorrection = *o.energyCorrection;
  if (o.hhtAlpha) a.hhtAlpha = *o.hhtAlpha;
  spec.analysis = a;
}

// The results as CSV, written atomically: a failed write keeps the previous file.
bool writeCsvFile(const std::string& path, const Model& model, const Results& results,
                  std::string* error) {
  std::ostringstream out;  // a string stream fails only when memory runs out, which throws
  writeCsv(out, model, results);
  return writeFileAtomically(path, out.str(), error);
}

}  // namespace

int runCommand(const std::vector<std::string>& words) {
  int exitCode = kExitOk;
  const auto args = parseCommandLine("run", words,
                                     {{"output", 'o'},
                                      {"analysis"},
                                      {"end"},
                                      {"step"},
                                      {"output-step"},
                                      {"integrator"},
                                      {"tolerance"},
                                      {"variable-step"},
                                      {"energy-correction"},
                                      {"hht-alpha"},
                                      {"set"},
                                      {"acf"},
                                      {"ignore-unsupported", '\0', false},
                                      {"summary"},
                                      {"quiet", '\0', false}},
                                     {"MODEL"}, &exitCode);
  if (!args) return exitCode;
  const std::string& path = args->positional[0];
  const bool quiet = args->has("quiet");
  const std::optional<std::string> csvPath = args->value("output");
  if (!csvPath) return usageError("run", "missing -o OUT.csv (the results file)");
  Overrides overrides;
  std::string error;
  if (!readOverrides(*args, overrides, &error)) return usageError("run", error);

  // Load, set parameters and analysis settings, compile.
  std::optional<Spec> spec = loadSpec(path, *args, quiet);
  if (!spec) return kExitInvalidModel;
  if (!applySettings(*spec, args->values("set"), &error)) return usageError("run", error);
  applyOverrides(*spec, overrides);
  const std::optional<Model> model = compileSpec(*spec, path, quiet);
  if (!model) return kExitInvalidModel;

  // The analysis, with progress on a terminal.
  Progress progress(model->endTime, !quiet && stderrIsTerminal());
  const AnalysisOutcome outcome = runAnalysis(*model, [&progress](const Frame& frame) {
    progress.update(frame.state.t);
    return true;
  });
  progress.finish();
  const Results& results = outcome.results;

  // The results (also the frames computed before a failure) and the summary.
  int status = kExitOk;
  if (!writeCsvFile(*csvPath, *model, results, &error)) {
    printError(error);
    status = kExitInvalidModel;
  } else if (!quiet) {
    std::printf("results: %zu frames written to %s\n", results.frames.size(), csvPath->c_str());
    for (const std::string& note : equilibriumNotes(results))
      std::printf("note: %s\n", note.c_str());
    if (const std::string note = floorNote(results.stats); !note.empty())
      std::printf("note: %s\n", note.c_str());
  }
  if (const auto summaryPath = args->value("summary")) {
    nlohmann::json summary = makeSummary(*model, results, outcome.assembled);
    summary["model_file"] = path;
    summary["results_file"] = *csvPath;
    if (!writeSummaryFile(summary, *summaryPath, &error)) {
      printError(error);
      status = kExitInvalidModel;
    } else if (!quiet) {
      std::printf("summary written to %s\n", summaryPath->c_str());
    }
  }
  if (!results.report.ok()) printFailure(results.report);
  return results.report.ok() ? status : kExitAnalysisFailed;
}

}  // namespace rlx::cli
