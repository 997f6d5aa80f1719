#include "output/csv.h"

#include "joints/rotation.h"
#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/equations/user_constraints.h"
#include "solve/recording/reaction_multipliers.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <limits>

namespace rlx {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Column suffixes of a body and of a joint, per dimension.
const std::vector<std::string>& bodySuffixes(int dimension) {
  static const std::vector<std::string> planar{"x",     "y",  "angle", "vx",   "vy",
                                               "omega", "ax", "ay",    "alpha"};
  static const std::vector<std::string> spatial{
      "x",  "y",  "z",  "qw", "qx", "qy", "qz", "psi", "theta", "phi", "vx",
      "vy", "vz", "wx", "wy", "wz", "ax", "ay", "az",  "alx",   "aly", "alz"};
  return dimension == 2 ? planar : spatial;
}

const std::vector<std::string>& jointSuffixes(int dimension) {
  static const std::vector<std::string> planar{"fx", "fy", "tz"};
  static const std::vector<std::string> spatial{"fx", "fy", "fz", "tx", "ty", "tz"};
  return dimension == 2 ? planar : spatial;
}

// An entry of a vector that may be missing (a frame without accelerations): NaN then.
double entry(const Eigen::VectorXd& x, int i) {
  return i < x.size() ? x(i) : kNaN;
}

// Pose, velocity and acceleration of one body.
void appendBody(const Model& model, const Body& b, const Frame& frame, std::vector<double>& out) {
  const Eigen::VectorXd& q = frame.state.q;
  const Eigen::VectorXd& v = frame.state.v;
  if (model.dimension == 2) {
    for (int i = 0; i < 3; ++i) out.push_back(q(b.q + i));
    for (int i = 0; i < 3; ++i) out.push_back(v(b.v + i));
    for (int i = 0; i < 3; ++i) out.push_back(entry(frame.vdot, b.v + i));
    return;
  }
  for (int i = 0; i < 7; ++i) out.push_back(q(b.q + i));
  const Eigen::Quaterniond orientation(q(b.q + 3), q(b.q + 4), q(b.q + 5), q(b.q + 6));
  const Eigen::Vector3d angles = rotation::toEuler313(orientation.normalized().toRotationMatrix());
  for (int i = 0; i < 3; ++i) out.push_back(angles(i));
  for (int i = 0; i < 6; ++i) out.push_back(v(b.v + i));
  for (int i = 0; i < 6; ++i) out.push_back(entry(frame.vdot, b.v + i));
}

}  // namespace

std::vector<std::string> resultColumns(const Model& model) {
  std::vector<std::string> names{"t"};
  for (const Body& b : model.bodies)
    for (const std::string& s : bodySuffixes(model.dimension)) names.push_back(b.name + "." + s);
  for (const Joint& j : model.joints)
    for (const std::string& s : jointSuffixes(model.dimension)) names.push_back(j.name + "." + s);
  for (const Motion& m : model.motions) names.push_back(m.name + ".effort");
  for (const UserConstraint& c : model.constraints)
    for (const int b : c.bodies)
      for (const std::string& s : jointSuffixes(model.dimension))
        names.push_back(c.name + "." + model.bodies[static_cast<std::size_t>(b)].name + "." + s);
  for (const char* s : {"kinetic", "potential", "energy", "work_nonconservative",
                        "constraint_error", "velocity_constraint_error"})
    names.emplace_back(s);
  return names;
}

std::vector<double> frameValues(const Model& model, const Frame& frame, Workspace& ws) {
  std::vector<double> out{frame.state.t};
  for (const Body& b : model.bodies) appendBody(model, b, frame, out);

  // Reactions and efforts from the frame's multipliers (NaN when the frame has none).
  const bool haveLambda = frame.lambda.size() == model.nh + model.nn;
  if (haveLambda && model.nh + model.nn > 0)
    loadReactionMultipliers(model, frame.state, frame.lambda, ws);
  const int n = model.dimension == 2 ? 2 : 3;
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    if (!haveLambda) {
      out.insert(out.end(), jointSuffixes(model.dimension).size(), kNaN);
      continue;
    }
    const Reaction r = jointReaction(model, frame.state, ws, static_cast<int>(j));
    for (int i = 0; i < n; ++i) out.push_back(r.force(i));
    if (model.dimension == 2)
      out.push_back(r.torque.z());
    else
      for (int i = 0; i < 3; ++i) out.push_back(r.torque(i));
  }
  for (std::size_t m = 0; m < model.motions.size(); ++m)
    out.push_back(haveLambda ? motionEffort(model, ws, static_cast<int>(m)) : kNaN);
  // User constraints: force and torque about the centre of mass on each body they involve.
  for (std::size_t c = 0; c < model.constraints.size(); ++c) {
    const std::size_t width =
        model.constraints[c].bodies.size() * jointSuffixes(model.dimension).size();
    if (!haveLambda) {
      out.insert(out.end(), width, kNaN);
      continue;
    }
    for (const Reaction& r : userConstraintReactions(model, ws, static_cast<int>(c))) {
      for (int i = 0; i < n; ++i) out.push_back(r.force(i));
      if (model.dimension == 2)
        out.push_back(r.torque.z());
      else
        for (int i = 0; i < 3; ++i) out.push_back(r.torque(i));
    }
  }

  // Energies and constraint errors.
  out.push_back(frame.kinetic);
  out.push_back(frame.potential);
  out.push_back(frame.kinetic + frame.potential);
  out.push_back(frame.workNonconservative);
  out.push_back(frame.constraintError);
  out.push_back(frame.velocityConstraintError);
  return out;
}

std::string formatNumber(double value) {
  // to_chars writes as printf's "%.17g" does in the C locale, whatever the process's locale (the
  // desktop application takes LC_NUMERIC from the environment: "0,5" in German).
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
  return std::string(buffer, end.ptr);
}

bool writeCsv(std::ostream& out, const Model& model, const Results& results) {
  const std::vector<std::string> columns = resultColumns(model);
  for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << columns[i];
  out << '\n';
  Workspace ws(model);
  for (const Frame& frame : results.frames) {
    const std::vector<double> values = frameValues(model, frame, ws);
    std::string row;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) row += ',';
      row += formatNumber(values[i]);
    }
    out << row << '\n';
  }
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace rlx
