// readAdams: a dataset's statements -> a 3-D Spec in SI (docs/adams-datasets.md). Parts and
// markers first (a statement may name a marker defined further down), then the elements that
// join them. Each body's frame is its part's CM marker: the centre of mass and the axes of the
// inertia; a joint's body2 is its I marker's part and body1 its J marker's, with points and axes
// per body, so that assembly closes whatever the dataset leaves open, as Adams does.
#include "io/adams_reader.h"
#include "expr/node.h"

#include <cmath>

namespace rlx::adams {

Spec Reader::read() {
  spec_.formatVersion = 1;
  spec_.dimension = 3;
  spec_.name = text_.title;
  spec_.gravity = Vector{0.0, 0.0, 0.0};  // Adams: no gravity without ACCGRAV
  // Dynamics by variable-order BDF, as Adams' default (GSTIFF), at a tolerance that matches
  // Adams' published results to their printed digits (tests/cli/tst_adams_runs.cpp).
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Dynamics;
  analysis.integrator = "bdf";
  analysis.tolerance = 1e-8;
  spec_.analysis = analysis;
  for (const Statement& s : text_.statements)
    if (kind(s) == "UNITS") units_ = readUnits(s);
  for (const Statement& s : text_.statements) {
    const std::string k = kind(s);
    if (k == "PART") part(s);
    if (k == "MARKER") marker(s);
    if (k == "VARIABLE") variable(s);
  }
  bodies();
  for (const Statement& s : text_.statements) {
    const std::string k = kind(s);
    if (k == "ACCGRAV")
      gravity(s);
    else if (k == "JOINT")
      attempt(s, [&] { joint(s); });
    else if (k == "JPRIM")
      attempt(s, [&] { primitive(s); });
    else if (k == "SFORCE")
      attempt(s, [&] { sforce(s); });
    else if (k == "GCON")
      attempt(s, [&] { gcon(s); });
    else if (k == "SPRINGDAMPER")
      attempt(s, [&] { springDamper(s); });
    else if (k == "VFORCE" || k == "VTORQUE" || k == "GFORCE")
      attempt(s, [&] { vectorForce(s, k); });
    else if (k == "MOTION" || k == "COUPLER" || k == "GEAR" || k == "UNITS" || k == "PART" ||
             k == "MARKER" || k == "VARIABLE")
      continue;  // motions and couplers below, once every joint is known
    else if (k == "GRAPHICS")
      graphics(s);
    else if (k == "INTEGRATOR")
      integrator(s);
    else if (k == "EQUILIBRIUM" || k == "KINEMATICS" || k == "IC")
      note(s, where(s) +
                  " holds the settings of an analysis the dataset does not run (Adams' "
                  "command file does): not used");
    else if (k == "REQUEST" || k == "OUTPUT" || k == "RESULTS")
      continue;
    else if (k.empty())
      diagnostics_.push_back({Severity::Error, "line " + std::to_string(s.line), "",
                              where(s) + " is not an Adams/Solver statement"});
    else
      attempt(s, [&] { throw Unsupported{{s.line, where(s) + " is not read yet"}}; });
  }
  mergeScrews();
  for (const Statement& s : text_.statements) {
    if (kind(s) == "MOTION") attempt(s, [&] { motion(s); });
    if (kind(s) == "COUPLER") attempt(s, [&] { coupler(s); });
    if (kind(s) == "GEAR") attempt(s, [&] { gear(s); });
  }
  spec_.description = "Imported from an Adams/Solver dataset (units: " + units_.description + ").";
  return spec_;
}

// The name Adams/View wrote made an identifier ("SPRING.force" -> SPRING_force), else kind_id;
// unique across the model.
std::string Reader::nameOf(const Statement& s, const char* kind) {
  const std::string written = toIdentifier(s.viewName);
  return names_.claim(written.empty() ? std::string(kind) + "_" + std::to_string(s.id.value_or(0))
                                      : written);
}

std::string Reader::kind(const Statement& s) {
  static constexpr const char* kStatements[] = {
      "ACCGRAV", "ARRAY",  "BEAM",       "BUSHING",     "CONTACT",      "COUPLER",   "CURVE",
      "CVCV",    "DIFF",   "END",        "EQUILIBRIUM", "FIELD",        "FLEX_BODY", "FRICTION",
      "GCON",    "GEAR",   "GFORCE",     "GRAPHICS",    "GSE",          "IC",        "INTEGRATOR",
      "JOINT",   "JPRIM",  "KINEMATICS", "LSE",         "MARKER",       "MATRIX",    "MOTION",
      "NFORCE",  "OUTPUT", "PART",       "POINT_MASS",  "PREFERENCES",  "PTCV",      "REQUEST",
      "RESULTS", "SENSOR", "SFORCE",     "SPLINE",      "SPRINGDAMPER", "STRING",    "SURFACE",
      "TFSISO",  "UNITS",  "VARIABLE",   "VFORCE",      "VTORQUE"};
  return matchKeyword(s.name, kStatements);
}

// What is not imported: an error, or a warning when the user asked to skip it.
void Reader::unsupported(const Unsupported& u) {
  diagnostics_.push_back({skipUnsupported_ ? Severity::Warning : Severity::Error,
                          "line " + std::to_string(u.line), "",
                          skipUnsupported_ ? u.message + " (skipped)" : u.message});
}

// One argument's values as numbers, `count` of them (any count when 0).
std::vector<double> Reader::numbers(const Statement& s, const Argument& a, std::size_t count) {
  std::vector<double> out;
  for (const std::string& v : a.values) {
    const std::optional<double> x = number(v);
    if (!x) throw DatasetError{a.line, where(s) + ": " + a.key + " must be numbers, got " + v};
    out.push_back(*x);
  }
  if (count && out.size() != count)
    throw DatasetError{a.line, where(s) + ": " + a.key + " must have " + std::to_string(count) +
                                   " numbers, got " + std::to_string(out.size())};
  return out;
}

long long Reader::id(const Statement& s, const Argument& a) {
  const std::optional<long long> x = a.values.size() == 1 ? identifier(a.values[0]) : std::nullopt;
  if (!x) throw DatasetError{a.line, where(s) + ": " + a.key + " must be one id"};
  return *x;
}

Vector3d Reader::vector3(const Statement& s, const Argument& a, double scale) {
  const std::vector<double> v = numbers(s, a, 3);
  return scale * Vector3d(v[0], v[1], v[2]);
}

// What expressions see of the dataset: marker frames on bodies, VARIABLEs, the units.
ExpressionContext Reader::expressionContext(const Statement& s) {
  ExpressionContext c;
  c.time = units_.time;
  c.length = units_.length;
  c.marker = [this, &s](long long id) {
    const auto it = markers_.find(id);
    if (it == markers_.end())
      throw DatasetError{
          s.line, where(s) + ": marker " + std::to_string(id) + " in its FUNCTION names no MARKER"};
    return frameOnBody(it->second);
  };
  c.variable = [this, &s](long long id, bool& usedVelocities) {
    return variableText(s, id, usedVelocities);
  };
  return c;
}

// A statement's FUNCTION argument (the text and its line), or throws naming the statement.
const Argument& Reader::functionOf(const Statement& s) {
  for (const Argument& a : s.arguments)
    if (matchKeyword(a.key, kFunction) == "FUNCTION" && a.expression) return a;
  throw DatasetError{s.line, where(s) + ": FUNCTION is missing"};
}

// VARIABLE/id: kept as written and translated when an expression uses it (VARVAL); one nobody
// uses is an output channel, like a REQUEST.
void Reader::variable(const Statement& s) {
  if (!s.id) throw DatasetError{s.line, "VARIABLE/ needs an id"};
  static constexpr const char* kKeys[] = {"FUNCTION", "IC"};
  for (const Argument& a : s.arguments)
    if (matchKeyword(a.key, kKeys).empty())
      throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
  if (!variables_.emplace(*s.id, &s).second)
    throw DatasetError{s.line, where(s) + " is defined twice"};
}

std::string Reader::variableText(const Statement& user, long long id, bool& usedVelocities) {
  if (const auto done = translated_.find(id); done != translated_.end()) {
    usedVelocities = usedVelocities || done->second.second;
    return done->second.first;
  }
  const auto it = variables_.find(id);
  if (it == variables_.end())
    throw DatasetError{user.line,
                       where(user) + ": VARVAL(" + std::to_string(id) + ") names no VARIABLE"};
  if (!translating_.insert(id).second)
    throw DatasetError{it->second->line, where(*it->second) + " uses itself through VARVAL"};
  const Argument& f = functionOf(*it->second);
  ExpressionContext c = expressionContext(*it->second);
  std::string text = translateExpression(f.values.front(), f.line, c);
  translating_.erase(id);
  usedVelocities = usedVelocities || c.usedVelocities;
  translated_[id] = {text, c.usedVelocities};
  return text;
}

// A remark on what was read that changes nothing of the mechanism: a warning.
void Reader::note(const Statement& s, const std::string& message) {
  diagnostics_.push_back({Severity::Warning, "line " + std::to_string(s.line), "", message});
}

// INTEGRATOR: the dynamics' integrator where Reuleaux has its equivalent: the BDF family
// (GSTIFF, WSTIFF, CONSTANT_BDF, HASTIFF, with any formulation) is `bdf`, HHT is `hht` with
// error-controlled steps and its ALPHA, RKF45 is `corrected-rk45`; ERROR is the tolerance.
// Settings without an equivalent (NEWMARK, ABAM, step limits, corrector options) are warnings.
void Reader::integrator(const Statement& s) {
  static constexpr const char* kKeys[] = {
      "GSTIFF", "WSTIFF", "CONSTANT_BDF", "HASTIFF", "HHT",     "NEWMARK",     "RKF45",    "ABAM",
      "I3",     "SI2",    "SI1",          "ERROR",   "ALPHA",   "BETA",        "GAMMA",    "HINIT",
      "HMAX",   "HMIN",   "KMAX",         "MAXIT",   "PATTERN", "INTERPOLATE", "CORRECTOR"};
  AnalysisSpec& a = *spec_.analysis;
  for (const Argument& arg : s.arguments) {
    const std::string key = matchKeyword(arg.key, kKeys);
    if (key == "GSTIFF" || key == "WSTIFF" || key == "CONSTANT_BDF" || key == "HASTIFF")
      a.integrator = "bdf";
    else if (key == "HHT")
      a.integrator = "hht", a.variableStep = true;
    else if (key == "RKF45")
      a.integrator = "corrected-rk45";
    else if (key == "I3" || key == "SI2" || key == "SI1")
      continue;  // the formulation: Reuleaux's integrators choose their own
    else if (key == "ERROR") {
      const double error = numbers(s, arg, 1)[0];
      if (!(error > 0) || !std::isfinite(error))
        throw DatasetError{arg.line, where(s) + ": ERROR must be a positive number"};
      a.tolerance = error;
    } else if (key == "ALPHA") {
      const double alpha = numbers(s, arg, 1)[0];
      if (!hhtAlphaInRange(alpha))
        throw DatasetError{arg.line, where(s) + ": ALPHA must lie in [-1/3, 0]"};
      a.hhtAlpha = alpha;
    } else if (key.empty())
      throw DatasetError{arg.line, where(s) + ": unknown argument " + arg.key};
    else
      note(s, where(s) + ": " + key + " has no equivalent in Reuleaux's integrators: not used");
  }
}

}  // namespace rlx::adams

namespace rlx {

LoadResult readAdams(std::string_view text, const std::string& source, AdamsImport mode) {
  LoadResult result;
  Diagnostics read;  // the reader's, "line N", kept when a statement ends the reading
  std::optional<Spec> spec;
  try {
    const adams::Text statements = adams::readText(text);
    adams::Reader reader(statements, mode, read);
    spec = reader.read();
  } catch (const adams::DatasetError& e) {
    read.push_back({Severity::Error, "line " + std::to_string(e.line), "", e.message});
  } catch (const std::exception& e) {  // a reader's bug must not end the program
    read.push_back({Severity::Error, "line 1", "", std::string("cannot be read: ") + e.what()});
  }
  for (Diagnostic d : read) {
    d.element = source + ":" + d.element.substr(5);  // "line N" -> "source:N"
    result.diagnostics.push_back(d);
  }
  if (spec && !hasErrors(result.diagnostics)) result.spec = std::move(spec);
  return result;
}

}  // namespace rlx
