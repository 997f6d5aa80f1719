#include "test_support.h"

#include <QProcess>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rlx::test {

CliRun runCli(const QStringList& args) {
  QProcess process;
  process.start(QString::fromStdString(cliPath()), args);
  CliRun run;
  if (!process.waitForFinished(300000) || process.exitStatus() != QProcess::NormalExit) {
    run.err = "did not finish normally";
    return run;
  }
  run.exitCode = process.exitCode();
  run.out = QString::fromUtf8(process.readAllStandardOutput());
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  if (!value) throw std::runtime_error(std::string("environment variable not set: ") + name);
  return value;
}

}  // namespace

std::string examplesDir() { return environment("REULEAUX_EXAMPLES"); }
std::string testDataDir() { return environment("REULEAUX_TESTDATA"); }
std::string cliPath() { return environment("REULEAUX_CLI"); }

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const double scale = std::max({1.0, std::abs(a(i)), std::abs(b(i))});
    worst = std::max(worst, std::abs(a(i) - b(i)) / scale);
  }
  return worst;
}

double logLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

Eigen::MatrixXd numericJacobian(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                const Eigen::VectorXd& x, double h) {
  const Eigen::VectorXd f0 = f(x);
  Eigen::MatrixXd J(f0.size(), x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    Eigen::VectorXd xp = x, xm = x;
    xp(j) += h;
    xm(j) -= h;
    J.col(j) = (f(xp) - f(xm)) / (2 * h);
  }
  return J;
}

}  // namespace rlx::test

#include "io/model_file.h"

namespace rlx::test {

Spec loadSpec(const std::string& path) {
  const LoadResult loaded = loadModelFile(path);
  if (!loaded.spec) {
    std::string message = "cannot load " + path;
    for (const Diagnostic& d : loaded.diagnostics) message += "\n  " + d.text();
    throw std::runtime_error(message);
  }
  return *loaded.spec;
}

Spec readAdamsOrFail(const std::string& text) {
  const LoadResult read = readAdams(text, "test.adm");
  if (!read.spec) {
    std::string message = "cannot read the dataset";
    for (const Diagnostic& d : read.diagnostics) message += "\n  " + d.text();
    throw std::runtime_error(message);
  }
  return *read.spec;
}

std::string firstAdamsDiagnostic(const std::string& text) {
  const LoadResult read = readAdams(text, "test.adm");
  return read.diagnostics.empty() ? std::string() : read.diagnostics.front().text();
}

Model compileOrFail(const Spec& spec) {
  CompileResult compiled = compile(spec);
  if (!compiled.model) {
    std::string message = "cannot compile " + spec.name;
    for (const Diagnostic& d : compiled.diagnostics) message += "\n  " + d.text();
    throw std::runtime_error(message);
  }
  return std::move(*compiled.model);
}

std::string examplePath(const std::string& file) { return examplesDir() + "/" + file; }
std::string testDataPath(const std::string& file) { return testDataDir() + "/" + file; }

const Body& body(const Model& model, const std::string& name) {
  for (const Body& b : model.bodies)
    if (b.name == name) return b;
  throw std::runtime_error("no body " + name);
}

}  // namespace rlx::test
