#pragma once
// Helpers shared by the tests: where the data is, and finite-difference checks.

#include <QString>
#include <QStringList>

#include <Eigen/Dense>

#include <functional>
#include <string>
#include <vector>

namespace rlx::test {

std::string examplesDir();   // $REULEAUX_EXAMPLES
std::string testDataDir();   // $REULEAUX_TESTDATA
std::string cliPath();       // $REULEAUX_CLI
std::string readFile(const std::string& path);

// reuleaux-cli run to completion (5 minutes at most): its exit status and output.
struct CliRun {
  int exitCode = -1;
  QString out, err;
};
CliRun runCli(const QStringList& args);

// Relative difference |a - b| / max(1, |a|, |b|), elementwise maximum.
double relativeError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);

// Least-squares slope of log(y) against log(x): the order p of y ~ x^p.
double logLogSlope(const std::vector<double>& x, const std::vector<double>& y);

// Central-difference Jacobian of f at x (columns = d f / d x_j).
Eigen::MatrixXd numericJacobian(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                const Eigen::VectorXd& x, double h = 1e-6);

}  // namespace rlx::test

#include "model/compile.h"
#include "model/model.h"
#include "model/spec.h"

namespace rlx::test {

// Loads and compiles a model file (examples/NAME or an absolute path); fails the test if not.
Spec loadSpec(const std::string& path);
Model compileOrFail(const Spec& spec);
std::string examplePath(const std::string& file);  // examplesDir() + "/" + file
std::string testDataPath(const std::string& file);

// An Adams dataset's text as a model (throws, failing the test, with the diagnostics if it does
// not read), and the first diagnostic of reading one ("" when none); the source is "test.adm".
Spec readAdamsOrFail(const std::string& text);
std::string firstAdamsDiagnostic(const std::string& text);

// The body of that name (throws if there is none).
const Body& body(const Model& model, const std::string& name);

}  // namespace rlx::test
