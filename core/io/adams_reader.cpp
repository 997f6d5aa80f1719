// readAdams: a dataset's statements -> a 3-D Spec in SI (docs/adams-datasets.md). Parts and
// markers first (a statement may name a marker defined further down), then the elements that
// join them. Each body's frame is its part's CM marker: the centre of mass and the axes of the
// inertia; a joint's body2 is its I marker's part and body1 its J marker's, with points and axes
// per body, so that assembly closes whatever the dataset leaves open, as Adams does.
#include "expr/node.h"
#include "io/adams_expression.h"
#include "io/adams_measures.h"
#include "io/adams_text.h"
#include "io/adams_units.h"
#include "io/identifiers.h"
#include "io/model_file.h"
#include "joints/rotation.h"

#include <Eigen/Dense>

#include <map>
#include <numbers>
#include <set>

namespace rlx {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using namespace adams;

struct Placement {
  Vector3d origin = Vector3d::Zero();
  Matrix3d axes = Matrix3d::Identity();  // columns: x, y, z in the parent's axes
  Vector3d point(const Vector3d& local) const { return origin + axes * local; }
};

struct Part {
  std::string name;
  bool ground = false;
  Placement bcs;  // the body coordinate system in ground
  std::optional<long long> cm, im;
  std::optional<double> mass;
  std::vector<double> ip;
  Vector3d velocity = Vector3d::Zero();  // of the CM marker, ground axes (SI)
  Vector3d angular = Vector3d::Zero();   // about the CM marker's axes (SI)
  std::vector<std::string> hold;         // EXACT, as Reuleaux's held inputs
  const Statement* statement = nullptr;
};

struct Marker {
  long long part = 0;
  Placement local;  // in its part's BCS
  bool floating = false;
  const Statement* statement = nullptr;
};

std::string where(const Statement& s) {
  return s.name + (s.id ? "/" + std::to_string(*s.id) : "/");
}

class Reader {
 public:
  // Diagnostics go to `diagnostics` (kept when a later statement ends the reading).
  Reader(const Text& text, AdamsImport mode, Diagnostics& diagnostics)
      : text_(text),
        skipUnsupported_(mode == AdamsImport::SkipUnsupported),
        diagnostics_(diagnostics) {}

  Spec read() {
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
      else if (k == "VFORCE" || k == "VTORQUE")
        attempt(s, [&] { vectorForce(s, k == "VTORQUE"); });
      else if (k == "MOTION" || k == "COUPLER" || k == "UNITS" || k == "PART" || k == "MARKER" ||
               k == "VARIABLE")
        continue;  // motions and couplers below, once every joint is known
      else if (k == "GRAPHICS" || k == "REQUEST" || k == "OUTPUT" || k == "RESULTS")
        continue;
      else if (k.empty())
        diagnostics_.push_back({Severity::Error, "line " + std::to_string(s.line), "",
                                where(s) + " is not an Adams/Solver statement"});
      else
        attempt(s, [&] { throw Unsupported{{s.line, where(s) + " is not read yet"}}; });
    }
    for (const Statement& s : text_.statements) {
      if (kind(s) == "MOTION") attempt(s, [&] { motion(s); });
      if (kind(s) == "COUPLER") attempt(s, [&] { coupler(s); });
    }
    spec_.description =
        "Imported from an Adams/Solver dataset (units: " + units_.description + ").";
    return spec_;
  }

 private:
  // The name Adams/View wrote made an identifier ("SPRING.force" -> SPRING_force), else kind_id;
  // unique across the model.
  std::string nameOf(const Statement& s, const char* kind) {
    const std::string written = toIdentifier(s.viewName);
    return names_.claim(written.empty() ? std::string(kind) + "_" + std::to_string(s.id.value_or(0))
                                        : written);
  }

  static std::string kind(const Statement& s) {
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
  void unsupported(const Unsupported& u) {
    diagnostics_.push_back({skipUnsupported_ ? Severity::Warning : Severity::Error,
                            "line " + std::to_string(u.line), "",
                            skipUnsupported_ ? u.message + " (skipped)" : u.message});
  }

  // Reads a statement; one the importer does not import is refused or skipped, and remembered
  // (a MOTION on a skipped JOINT is skipped too).
  template <class Read>
  void attempt(const Statement& s, Read read) {
    try {
      read();
    } catch (const Unsupported& u) {
      const std::string name = where(s);
      unsupported(u.message.starts_with(name) ? u : Unsupported{{u.line, name + ": " + u.message}});
      if (s.id) skipped_.insert({kind(s), *s.id});
    }
  }

  // One argument's values as numbers, `count` of them (any count when 0).
  std::vector<double> numbers(const Statement& s, const Argument& a, std::size_t count) {
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

  long long id(const Statement& s, const Argument& a) {
    const std::optional<long long> x =
        a.values.size() == 1 ? identifier(a.values[0]) : std::nullopt;
    if (!x) throw DatasetError{a.line, where(s) + ": " + a.key + " must be one id"};
    return *x;
  }

  Vector3d vector3(const Statement& s, const Argument& a, double scale) {
    const std::vector<double> v = numbers(s, a, 3);
    return scale * Vector3d(v[0], v[1], v[2]);
  }

  // The arguments that place a frame: QG/QP, REULER, XG/XP, ZG/ZP (null when absent).
  struct PlacementArguments {
    const Argument *q = nullptr, *euler = nullptr, *x = nullptr, *z = nullptr;
  };

  // The frame's placement in its parent's axes: origin q, axes from REULER (body-fixed 3-1-3) or
  // from a point z on the z axis and a point x in the x-z plane.
  Placement placement(const Statement& s, const PlacementArguments& p) {
    Placement out;
    if (p.q) out.origin = vector3(s, *p.q, units_.length);
    if (p.euler) {
      out.axes = rotation::fromEuler313(vector3(s, *p.euler, 1.0));
    } else if (p.z && p.x) {
      const Vector3d ez = (vector3(s, *p.z, units_.length) - out.origin).normalized();
      const Vector3d toX = vector3(s, *p.x, units_.length) - out.origin;
      const Vector3d ex = (toX - toX.dot(ez) * ez).normalized();
      if (!ez.allFinite() || !ex.allFinite())
        throw DatasetError{p.z->line,
                           where(s) + ": the z and x points do not span a plane with the origin"};
      out.axes << ex, ez.cross(ex), ez;
    } else if (p.z || p.x) {
      throw Unsupported{
          {(p.z ? p.z : p.x)->line,
           where(s) + ": give both the z and the x point (one alone is not read yet), or REULER"}};
    }
    return out;
  }

  void part(const Statement& s) {
    static constexpr const char* kKeys[] = {
        "GROUND", "MASS", "CM", "IM", "IP", "QG",    "REULER", "XG",       "ZG", "VX",
        "VY",     "VZ",   "WX", "WY", "WZ", "EXACT", "PLANAR", "MATERIAL", "VM", "WM"};
    if (!s.id) throw DatasetError{s.line, "PART/ needs an id"};
    Part p;
    p.statement = &s;
    PlacementArguments placed;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "GROUND")
        p.ground = true;
      else if (key == "MASS")
        p.mass = numbers(s, a, 1)[0] * units_.mass;
      else if (key == "CM")
        p.cm = id(s, a);
      else if (key == "IM")
        p.im = id(s, a);
      else if (key == "IP")
        p.ip = numbers(s, a, 0);
      else if (key == "QG")
        placed.q = &a;
      else if (key == "REULER")
        placed.euler = &a;
      else if (key == "XG")
        placed.x = &a;
      else if (key == "ZG")
        placed.z = &a;
      else if (key == "VX" || key == "VY" || key == "VZ")
        p.velocity(key[1] - 'X') = numbers(s, a, 1)[0] * units_.length / units_.time;
      else if (key == "WX" || key == "WY" || key == "WZ")
        p.angular(key[1] - 'X') = numbers(s, a, 1)[0] / units_.time;
      else if (key == "EXACT")
        p.hold = exact(s, a);
      else if (key.empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
      else
        unsupported({{a.line, where(s) + ": " + key + " is not read yet"}});
    }
    if (p.ip.size() != 0 && p.ip.size() != 3 && p.ip.size() != 6)
      throw DatasetError{s.line, where(s) + ": IP must have 3 or 6 numbers"};
    p.name = p.ground ? "ground" : nameOf(s, "part");
    p.bcs = placement(s, placed);
    if (!parts_.emplace(*s.id, p).second)
      throw DatasetError{s.line, where(s) + " is defined twice"};
  }

  // EXACT = X:Y:Z:PSI:THETA:PHI (any of them) as held inputs: x, y, z of the centre of mass,
  // and the orientation when all three angles are held.
  std::vector<std::string> exact(const Statement& s, const Argument& a) {
    static constexpr const char* kCoordinates[] = {"X", "Y", "Z", "PSI", "THETA", "PHI"};
    std::vector<std::string> hold, written;
    for (const std::string& value : a.values)  // X:Y:PSI is one value of the text layer
      for (std::size_t from = 0, colon = 0; colon != std::string::npos; from = colon + 1) {
        colon = value.find(':', from);
        written.push_back(value.substr(from, colon == std::string::npos ? colon : colon - from));
      }
    int angles = 0;
    for (const std::string& v : written) {
      const std::string c = matchKeyword(v, kCoordinates);
      if (c.empty())
        throw DatasetError{a.line, where(s) + ": EXACT holds X Y Z PSI THETA PHI, got " + v};
      if (c.size() == 1)
        hold.push_back(std::string(1, static_cast<char>(c[0] - 'X' + 'x')));
      else
        ++angles;
    }
    if (angles == 3) hold.push_back("orientation");
    if (angles != 0 && angles != 3)
      unsupported({{a.line, where(s) + ": EXACT holds some of PSI, THETA and PHI; Reuleaux holds "
                                       "the whole orientation or none (not read)"}});
    return hold;
  }

  void marker(const Statement& s) {
    static constexpr const char* kKeys[] = {
        "PART",  "QP",         "REULER",    "XP",      "ZP",    "FLOATING", "RM",
        "USEXP", "POINT_MASS", "FLEX_BODY", "NODE_ID", "CURVE", "SURFACE",  "VELOCITY"};
    if (!s.id) throw DatasetError{s.line, "MARKER/ needs an id"};
    Marker m;
    m.statement = &s;
    bool onPart = false;
    PlacementArguments placed;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "PART")
        m.part = id(s, a), onPart = true;
      else if (key == "QP")
        placed.q = &a;
      else if (key == "REULER")
        placed.euler = &a;
      else if (key == "XP")
        placed.x = &a;
      else if (key == "ZP")
        placed.z = &a;
      else if (key == "FLOATING")
        m.floating = true;
      else if (key.empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
      else
        unsupported({{a.line, where(s) + ": " + key + " is not read yet"}});
    }
    if (!onPart) throw DatasetError{s.line, where(s) + ": PART is missing"};
    m.local = placement(s, placed);
    if (!markers_.emplace(*s.id, m).second)
      throw DatasetError{s.line, where(s) + " is defined twice"};
  }

  const Marker& markerAt(const Statement& s, const Argument& a) {
    const long long m = id(s, a);
    const auto it = markers_.find(m);
    if (it == markers_.end())
      throw DatasetError{a.line,
                         where(s) + ": " + a.key + " = " + std::to_string(m) + " names no MARKER"};
    if (it->second.floating != (a.key == "JFLOAT"))
      throw DatasetError{a.line, where(s) + ": " + a.key + " = " + std::to_string(m) +
                                     (it->second.floating ? " is a FLOATING marker"
                                                          : " must be a FLOATING marker")};
    return it->second;
  }

  const Part& partOf(const Marker& m) {
    const auto it = parts_.find(m.part);
    if (it == parts_.end())
      throw DatasetError{m.statement->line, where(*m.statement) + ": PART = " +
                                                std::to_string(m.part) + " names no PART"};
    return it->second;
  }

  // A marker's frame in ground.
  Placement global(const Marker& m) {
    const Placement& bcs = partOf(m).bcs;
    return {bcs.point(m.local.origin), bcs.axes * m.local.axes};
  }

  // The body frame of a part: its CM marker's frame in ground (the BCS when it has no CM).
  Placement bodyFrame(const Part& p) {
    if (p.ground || !p.cm) return p.ground ? Placement{} : p.bcs;
    const auto it = markers_.find(*p.cm);
    if (it == markers_.end())
      throw DatasetError{p.statement->line, where(*p.statement) + ": CM = " +
                                                std::to_string(*p.cm) + " names no MARKER"};
    if (it->second.part != *p.statement->id)
      throw DatasetError{p.statement->line, where(*p.statement) + ": its CM marker " +
                                                std::to_string(*p.cm) + " is on another part"};
    return global(it->second);
  }

  void bodies() {
    int grounds = 0;
    for (auto& [id, p] : parts_) {
      if (p.ground) {
        ++grounds;
        continue;
      }
      BodySpec b;
      b.name = p.name;
      const Placement frame = bodyFrame(p);
      b.position = {frame.origin.x(), frame.origin.y(), frame.origin.z()};
      const Eigen::Quaterniond q = rotation::fromMatrix(frame.axes);
      b.quaternion = std::vector<Number>{q.w(), q.x(), q.y(), q.z()};
      if (!p.mass)
        throw Unsupported{{p.statement->line, where(*p.statement) + ": MASS is missing (a massless "
                                                                    "part is not read yet)"}};
      b.mass = *p.mass;
      if (!p.velocity.isZero(0)) b.velocity = vector(p.velocity);
      if (!p.angular.isZero(0)) b.angularVelocity = vector(frame.axes * p.angular);
      b.hold = p.hold;
      // IP about the IM marker (else the CM) in its axes, products as Adams writes them
      // (+integral of x y dm): the tensor's off-diagonal entries are their negatives.
      if (!p.ip.empty()) {
        Matrix3d I = Matrix3d::Zero();
        I.diagonal() << p.ip[0], p.ip[1], p.ip[2];
        if (p.ip.size() == 6) {
          I(0, 1) = I(1, 0) = -p.ip[3];
          I(0, 2) = I(2, 0) = -p.ip[4];
          I(1, 2) = I(2, 1) = -p.ip[5];
        }
        if (p.im && p.im != p.cm) {
          const auto im = markers_.find(*p.im);
          if (im == markers_.end())
            throw DatasetError{p.statement->line, where(*p.statement) + ": IM = " +
                                                      std::to_string(*p.im) + " names no MARKER"};
          const Matrix3d toBody = frame.axes.transpose() * global(im->second).axes;
          I = toBody * I * toBody.transpose();
        }
        I *= units_.inertia();
        b.inertia = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
      }
      bodyFrames_[id] = frame;
      spec_.bodies.push_back(b);
    }
    if (grounds != 1)
      throw DatasetError{1, grounds == 0 ? "the dataset has no PART with GROUND"
                                         : "the dataset has more than one PART with GROUND"};
  }

  void gravity(const Statement& s) {
    Vector3d g = Vector3d::Zero();
    for (const Argument& a : s.arguments) {
      static constexpr const char* kKeys[] = {"IGRAV", "JGRAV", "KGRAV"};
      const std::string key = matchKeyword(a.key, kKeys);
      if (key.empty()) throw DatasetError{a.line, "ACCGRAV: unknown argument " + a.key};
      g(key[0] - 'I') = numbers(s, a, 1)[0] * units_.acceleration();
    }
    spec_.gravity = Vector{g.x(), g.y(), g.z()};
  }

  // A marker's frame in its body's (in ground for a ground marker), with the body's name.
  MarkerFrame frameOnBody(const Marker& m) {
    const Placement g = global(m);
    const Part& p = partOf(m);
    const Placement body = p.ground ? Placement{} : bodyFrames_.at(m.part);
    return {p.ground ? "" : p.name, body.axes.transpose() * (g.origin - body.origin),
            body.axes.transpose() * g.axes};
  }
  static Vector vector(const Vector3d& v) { return {v.x(), v.y(), v.z()}; }
  Vector pointOnBody(const Marker& m) { return vector(frameOnBody(m).origin); }
  Vector axisOnBody(const Marker& m) { return vector(frameOnBody(m).axes.col(2)); }

  // What expressions see of the dataset: marker frames on bodies, VARIABLEs, the units.
  ExpressionContext expressionContext(const Statement& s) {
    ExpressionContext c;
    c.time = units_.time;
    c.length = units_.length;
    c.marker = [this, &s](long long id) {
      const auto it = markers_.find(id);
      if (it == markers_.end())
        throw DatasetError{s.line, where(s) + ": marker " + std::to_string(id) +
                                       " in its FUNCTION names no MARKER"};
      return frameOnBody(it->second);
    };
    c.variable = [this, &s](long long id, bool& usedVelocities) {
      return variableText(s, id, usedVelocities);
    };
    return c;
  }

  static constexpr const char* kFunction[] = {"FUNCTION"};

  // A statement's FUNCTION argument (the text and its line), or throws naming the statement.
  static const Argument& functionOf(const Statement& s) {
    for (const Argument& a : s.arguments)
      if (matchKeyword(a.key, kFunction) == "FUNCTION" && a.expression) return a;
    throw DatasetError{s.line, where(s) + ": FUNCTION is missing"};
  }

  // VARIABLE/id: kept as written and translated when an expression uses it (VARVAL); one nobody
  // uses is an output channel, like a REQUEST.
  void variable(const Statement& s) {
    if (!s.id) throw DatasetError{s.line, "VARIABLE/ needs an id"};
    static constexpr const char* kKeys[] = {"FUNCTION", "IC"};
    for (const Argument& a : s.arguments)
      if (matchKeyword(a.key, kKeys).empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    if (!variables_.emplace(*s.id, &s).second)
      throw DatasetError{s.line, where(s) + " is defined twice"};
  }

  std::string variableText(const Statement& user, long long id, bool& usedVelocities) {
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

  // I and J of a joint or a primitive: the JointSpec with its bodies, points and z axes.
  JointSpec between(const Statement& s, const Marker*& iMarker, const Marker*& jMarker) {
    const Argument *i = nullptr, *j = nullptr;
    for (const Argument& a : s.arguments) {
      if (a.key == "I") i = &a;
      if (a.key == "J") j = &a;
    }
    if (!i || !j) throw DatasetError{s.line, where(s) + ": needs both I and J markers"};
    iMarker = &markerAt(s, *i);
    jMarker = &markerAt(s, *j);
    JointSpec js;
    js.body2 = partOf(*iMarker).name;
    js.body1 = partOf(*jMarker).name;
    if (js.body1 == js.body2)
      throw DatasetError{s.line, where(s) + ": I and J are on the same part (" + js.body1 + ")"};
    js.point1 = pointOnBody(*jMarker);
    js.point2 = pointOnBody(*iMarker);
    js.axis1 = axisOnBody(*jMarker);
    js.axis2 = axisOnBody(*iMarker);
    return js;
  }

  void joint(const Statement& s) {
    static constexpr const char* kTypes[] = {"REVOLUTE",
                                             "TRANSLATIONAL",
                                             "TRANSLATION",
                                             "CYLINDRICAL",
                                             "SPHERICAL",
                                             "FIXED",
                                             "UNIVERSAL",
                                             "HOOKE",
                                             "PLANAR",
                                             "CONVEL",
                                             "RACKPIN",
                                             "SCREW",
                                             "I",
                                             "J",
                                             "IC",
                                             "PD",
                                             "PITCH",
                                             "ICTRAN",
                                             "ICROT",
                                             "DELTA_V",
                                             "MAXIMUM_DEFORMATION",
                                             "MU_DYN_ROT",
                                             "MU_STAT_ROT",
                                             "FRICTION"};
    std::string type;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kTypes);
      if (key.empty()) throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
      if (key == "I" || key == "J") continue;
      if (a.assignment || key == "IC")
        throw Unsupported{{a.line, where(s) + ": " + key + " is not read yet"}};
      type = key;
    }
    const Marker *i = nullptr, *j = nullptr;
    JointSpec js = between(s, i, j);
    js.name = nameOf(s, "joint");
    if (type == "REVOLUTE")
      js.type = JointType::Revolute;
    else if (type == "TRANSLATIONAL" || type == "TRANSLATION")
      js.type = JointType::Translational;
    else if (type == "CYLINDRICAL")
      js.type = JointType::Cylindrical;
    else if (type == "SPHERICAL")
      js.type = JointType::Spherical;
    else if (type == "FIXED")
      js.type = JointType::Fixed;
    else if (type == "PLANAR")
      js.type = JointType::Planar;
    else if (type == "HOOKE") {
      // The cross pins are I's x axis and J's y axis (Adams keeps them perpendicular).
      js.type = JointType::Universal;
      js.axis1 = vector(frameOnBody(*j).axes.col(1));
      js.axis2 = vector(frameOnBody(*i).axes.col(0));
    } else if (type.empty())
      throw DatasetError{s.line, where(s) + ": the joint's type is missing"};
    else
      throw Unsupported{{s.line, where(s) + ": " + type + " joints are not read yet"}};
    // Spherical and fixed joints hold points (and the fixed one the file's relative orientation).
    if (js.type == JointType::Spherical || js.type == JointType::Fixed)
      js.axis1.reset(), js.axis2.reset();
    spec_.joints.push_back(js);
    jointStatements_[*s.id] = {spec_.joints.size() - 1, i, j};
  }

  void primitive(const Statement& s) {
    static constexpr const char* kTypes[] = {
        "ATPOINT", "INLINE", "INPLANE", "ORIENTATION", "PARALLEL_AXES", "PERPENDICULAR", "I", "J"};
    std::string type;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kTypes);
      if (key.empty()) throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
      if (key != "I" && key != "J") type = key;
    }
    const Marker *i = nullptr, *j = nullptr;
    JointSpec js = between(s, i, j);
    js.name = nameOf(s, "jprim");
    if (type == "ATPOINT")
      js.type = JointType::Spherical;
    else if (type == "INLINE")
      js.type = JointType::PointOnLine;
    else if (type == "INPLANE")
      js.type = JointType::PointOnPlane;
    else if (type == "PARALLEL_AXES")
      js.type = JointType::ParallelAxes;
    else if (type == "PERPENDICULAR")
      js.type = JointType::Perpendicular;
    else if (type.empty())
      throw DatasetError{s.line, where(s) + ": the primitive's type is missing"};
    else
      throw Unsupported{{s.line, where(s) + ": " + type + " is not read yet"}};
    // The fields each primitive uses: I's origin on J's point, z line or x-y plane; the z axes.
    if (js.type == JointType::Spherical) js.axis1.reset(), js.axis2.reset();
    if (js.type == JointType::PointOnLine || js.type == JointType::PointOnPlane) js.axis2.reset();
    if (js.type == JointType::ParallelAxes || js.type == JointType::Perpendicular)
      js.point1.reset(), js.point2.reset();
    spec_.joints.push_back(js);
  }

  // MOTION on a joint's rotation or translation. Adams' function gives the angle from J's x axis
  // to I's about J's z (the travel of I's origin along J's z); Reuleaux's joint coordinate is zero
  // in the file's configuration, so the function less its value there.
  void motion(const Statement& s) {
    static constexpr const char* kKeys[] = {"JOINT",
                                            "ROTATION",
                                            "ROTATIONAL",
                                            "TRANSLATION",
                                            "TRANSLATIONAL",
                                            "FUNCTION",
                                            "DISPLACEMENT",
                                            "VELOCITY",
                                            "ACCELERATION",
                                            "I",
                                            "J",
                                            "X",
                                            "Y",
                                            "Z",
                                            "B1",
                                            "B2",
                                            "B3",
                                            "ICDISP",
                                            "ICVEL"};
    std::optional<long long> joint;
    std::string axis, function;
    int functionLine = s.line;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "JOINT")
        joint = id(s, a);
      else if (key == "ROTATION" || key == "ROTATIONAL")
        axis = "ROTATION";
      else if (key == "TRANSLATION" || key == "TRANSLATIONAL")
        axis = "TRANSLATION";
      else if (key == "FUNCTION" && a.assignment)
        function = a.values.front(), functionLine = a.line;
      else if (key == "DISPLACEMENT")
        continue;
      else if (key.empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
      else
        throw Unsupported{{a.line, where(s) + ": " + key + " is not read yet"}};
    }
    if (!joint)
      throw Unsupported{
          {s.line, where(s) + ": JOINT is missing (I and J motions are not read yet)"}};
    if (function.empty()) throw DatasetError{s.line, where(s) + ": FUNCTION is missing"};
    if (skipped_.count({"JOINT", *joint}))
      throw Unsupported{
          {s.line, where(s) + ": its JOINT/" + std::to_string(*joint) + " is not imported"}};
    const auto it = jointStatements_.find(*joint);
    if (it == jointStatements_.end())
      throw DatasetError{
          s.line, where(s) + ": JOINT = " + std::to_string(*joint) + " names no JOINT above it"};
    const auto& [index, i, j] = it->second;
    const JointSpec& js = spec_.joints[index];
    const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical;
    const bool sliding = js.type == JointType::Translational || js.type == JointType::Cylindrical;
    if (axis.empty())
      axis = turning && !sliding ? "ROTATION" : sliding && !turning ? "TRANSLATION" : "";
    if (axis.empty()) throw DatasetError{s.line, where(s) + ": say ROTATION or TRANSLATION"};
    if ((axis == "ROTATION" && !turning) || (axis == "TRANSLATION" && !sliding))
      throw DatasetError{s.line, where(s) + ": joint " + js.name + " has no " +
                                     (axis == "ROTATION" ? "rotation" : "translation")};
    if (js.type == JointType::Cylindrical)
      throw Unsupported{{s.line, where(s) + ": motions of cylindrical joints are not read yet"}};
    const double start = displacement(*i, *j, axis == "ROTATION");
    const double scale = axis == "ROTATION" ? 1.0 : units_.length;
    ExpressionContext context = expressionContext(s);
    const std::string f = translateExpression(function, functionLine, context);
    MotionSpec m;
    m.name = nameOf(s, "motion");
    m.joint = js.name;
    m.function = scale == 1 ? f : expr::numberText(scale) + "*(" + f + ")";
    if (start != 0) m.function += " - (" + expr::numberText(start) + ")";
    spec_.motions.push_back(m);
  }

  // Adams' displacement of a joint's I marker from its J marker: the angle from J's x axis to I's
  // about J's z, or the travel of I's origin along J's z, in the file's configuration.
  double displacement(const Marker& i, const Marker& j, bool rotation) {
    const Placement gi = global(i), gj = global(j);
    if (!rotation) return (gi.origin - gj.origin).dot(gj.axes.col(2));
    const Vector3d xi = gi.axes.col(0), xj = gj.axes.col(0), zj = gj.axes.col(2);
    return std::atan2(xj.cross(xi).dot(zj), xj.dot(xi));
  }

  // COUPLER: SCALES r1 q1 + r2 q2 (+ r3 q3) = 0 of the joints' displacements (TYPE T or R each;
  // a cylindrical joint's R is its angle, Reuleaux's coordinate). Reuleaux's coordinates are zero
  // in the file's configuration, so the dataset's must satisfy the relation there.
  void coupler(const Statement& s) {
    static constexpr const char* kKeys[] = {"JOINTS", "TYPE", "SCALES", "FUNCTION", "ROUTINE"};
    const Argument *joints = nullptr, *types = nullptr, *scales = nullptr;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "JOINTS")
        joints = &a;
      else if (key == "TYPE")
        types = &a;
      else if (key == "SCALES")
        scales = &a;
      else if (key == "FUNCTION" || key == "ROUTINE")
        throw Unsupported{{a.line, where(s) + ": " + key +
                                       " names a user subroutine, which "
                                       "cannot be imported"}};
      else
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    }
    if (!joints || !scales) throw DatasetError{s.line, where(s) + ": needs JOINTS and SCALES"};
    const std::vector<double> ids = numbers(s, *joints, 0);
    std::vector<double> r = numbers(s, *scales, 0);
    if (ids.size() < 2 || ids.size() > 3)
      throw DatasetError{joints->line, where(s) + ": JOINTS names two or three joints"};
    if (r.size() + 1 == ids.size()) r.insert(r.begin(), 1.0);  // r1 defaults to 1
    if (r.size() != ids.size())
      throw DatasetError{scales->line, where(s) + ": SCALES needs one number per joint"};
    std::vector<std::string> type;
    for (const std::string& v : types ? types->values : std::vector<std::string>{})
      for (std::size_t from = 0, colon = 0; colon != std::string::npos; from = colon + 1) {
        colon = v.find(':', from);
        type.push_back(v.substr(from, colon == std::string::npos ? colon : colon - from));
      }
    ConstraintSpec c;
    c.type = ConstraintType::Coupler;
    double sum = 0, scale = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const long long id = static_cast<long long>(ids[k]);
      if (skipped_.count({"JOINT", id}))
        throw Unsupported{
            {s.line, where(s) + ": its JOINT/" + std::to_string(id) + " is not imported"}};
      const auto it = jointStatements_.find(id);
      if (it == jointStatements_.end() || static_cast<double>(id) != ids[k])
        throw DatasetError{joints->line,
                           where(s) + ": JOINTS names no JOINT " + expr::numberText(ids[k])};
      const auto& [index, i, j] = it->second;
      const JointSpec& js = spec_.joints[index];
      const bool turning = js.type == JointType::Revolute || js.type == JointType::Cylindrical;
      const bool sliding = js.type == JointType::Translational;
      const std::string t = k < type.size() ? type[k] : (sliding ? "T" : "R");
      if (!(turning && t == "R") && !(sliding && t == "T"))
        throw Unsupported{
            {s.line, where(s) + ": joint " + js.name + " with TYPE " + t + " is not read yet"}};
      const double unit = sliding ? units_.length : 1.0;
      c.joints.push_back(js.name);
      c.ratios.push_back(r[k] / unit);  // per metre where the dataset's is per its length unit
      const double q = displacement(*i, *j, turning);  // SI
      sum += c.ratios.back().value * q;
      scale = std::max(scale, std::abs(c.ratios.back().value) * std::max(1.0, std::abs(q)));
    }
    if (std::abs(sum) > 1e-9 * scale)
      throw Unsupported{{s.line, where(s) +
                                     ": its joints' displacements in the file do not "
                                     "satisfy it (Adams would move the parts; not read yet)"}};
    c.name = nameOf(s, "coupler");
    spec_.constraints.push_back(c);
  }

  // SFORCE: a force along the line from J to I (TRANSLATIONAL, the default), or along J's z axis
  // at I (ACTIONONLY), or a torque about J's z axis (ROTATIONAL); the function's value acts on I's
  // part and its opposite on J's (not with ACTIONONLY). Parts other than ground get a force or a
  // torque element each, named after the SFORCE (the reaction with "_on_j").
  void sforce(const Statement& s) {
    static constexpr const char* kKeys[] = {"I",           "J",          "TRANSLATIONAL",
                                            "TRANSLATION", "ROTATIONAL", "ROTATION",
                                            "ACTIONONLY",  "FUNCTION",   "ROUTINE"};
    bool rotational = false, actionOnly = false;
    const Argument *i = nullptr, *j = nullptr;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "I")
        i = &a;
      else if (key == "J")
        j = &a;
      else if (key == "ROTATIONAL" || key == "ROTATION")
        rotational = true;
      else if (key == "ACTIONONLY")
        actionOnly = true;
      else if (key == "ROUTINE")
        throw Unsupported{{a.line, where(s) + ": ROUTINE names a user subroutine, which cannot be "
                                              "imported"}};
      else if (key.empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    }
    if (!i || !j) throw DatasetError{s.line, where(s) + ": needs both I and J markers"};
    const Marker& mi = markerAt(s, *i);
    const Marker& mj = markerAt(s, *j);
    const Argument& function = functionOf(s);
    ExpressionContext context = expressionContext(s);
    // The function's value in SI, and the unit vector it acts along in ground axes.
    const double unit = rotational ? units_.force * units_.length : units_.force;
    const std::string value = expr::numberText(unit) + "*(" +
                              translateExpression(function.values.front(), function.line, context) +
                              ")";
    std::array<std::string, 3> direction;
    if (rotational || actionOnly) {
      direction = markerAxis(frameOnBody(mj), 2);
    } else {
      const std::string ids =
          "(" + std::to_string(id(s, *i)) + "," + std::to_string(id(s, *j)) + ")";
      for (int k = 0; k < 3; ++k)
        direction[k] = translateExpression(std::string("D") + "XYZ"[k] + ids + "/DM" + ids,
                                           function.line, context);
    }
    const std::string name = nameOf(s, "sforce");
    const auto apply = [&](const Marker& m, const std::string& suffix, const char* sign) {
      const Part& p = partOf(m);
      if (p.ground) return;
      ForceSpec f;
      f.name = suffix.empty() ? name : names_.claim(name + suffix);
      f.type = rotational ? ForceType::Torque : ForceType::Force;
      f.body = p.name;
      if (!rotational) f.point = pointOnBody(m);
      for (const std::string& d : direction)
        f.vector.push_back(sign + ("(" + value + ")*(" + d + ")"));
      spec_.forces.push_back(f);
    };
    apply(mi, "", "");
    if (!actionOnly) apply(mj, partOf(mi).ground ? "" : "_on_j", "-");
  }

  // SPRINGDAMPER/TRANSLATIONAL: F = -C dr/dt - K (r - LENGTH) + FORCE along the line from J to
  // I, r their distance: a spring_damper with body2 I's part and body1 J's, in SI.
  void springDamper(const Statement& s) {
    static constexpr const char* kKeys[] = {
        "TRANSLATIONAL", "ROTATIONAL", "I",  "J",  "K",     "C",
        "LENGTH",        "FORCE",      "KT", "CT", "ANGLE", "TORQUE"};
    const Argument *i = nullptr, *j = nullptr;
    ForceSpec f;
    f.type = ForceType::SpringDamper;
    f.stiffness = 0.0, f.damping = 0.0, f.freeLength = 0.0, f.preload = 0.0;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      const auto value = [&](double unit) { return Number(numbers(s, a, 1)[0] * unit); };
      if (key == "I")
        i = &a;
      else if (key == "J")
        j = &a;
      else if (key == "K")
        f.stiffness = value(units_.force / units_.length);
      else if (key == "C")
        f.damping = value(units_.force / units_.velocity());
      else if (key == "LENGTH")
        f.freeLength = value(units_.length);
      else if (key == "FORCE")
        f.preload = value(units_.force);
      else if (key == "TRANSLATIONAL")
        continue;
      else if (key.empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
      else
        throw Unsupported{{a.line, where(s) + ": " + key +
                                       " (a rotational spring-damper) is not "
                                       "read yet"}};
    }
    if (!i || !j) throw DatasetError{s.line, where(s) + ": needs both I and J markers"};
    const Marker& mi = markerAt(s, *i);
    const Marker& mj = markerAt(s, *j);
    f.name = nameOf(s, "springdamper");
    f.body2 = partOf(mi).name;
    f.body1 = partOf(mj).name;
    f.point2 = pointOnBody(mi);
    f.point1 = pointOnBody(mj);
    spec_.forces.push_back(f);
  }

  // VFORCE (FX FY FZ) and VTORQUE (TX TY TZ): a vector on I's part at I's origin, its components
  // along RM's axes; the reaction acts on JFLOAT's part, read when that is ground.
  void vectorForce(const Statement& s, bool torque) {
    static constexpr const char* kKeys[] = {"I",  "JFLOAT", "RM", "FX", "FY",
                                            "FZ", "TX",     "TY", "TZ", "ROUTINE"};
    const Argument *i = nullptr, *jfloat = nullptr, *rm = nullptr;
    std::array<const Argument*, 3> components{};
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "I")
        i = &a;
      else if (key == "JFLOAT")
        jfloat = &a;
      else if (key == "RM")
        rm = &a;
      else if (key.size() == 2 && key[0] == (torque ? 'T' : 'F') && a.expression)
        components[static_cast<std::size_t>(key[1] - 'X')] = &a;
      else if (key == "ROUTINE")
        throw Unsupported{{a.line, where(s) + ": ROUTINE names a user subroutine, which cannot be "
                                              "imported"}};
      else
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    }
    if (!i || !jfloat || !rm)
      throw DatasetError{s.line, where(s) + ": needs its I, JFLOAT and RM markers"};
    const Marker& mi = markerAt(s, *i);
    const Marker& mj = markerAt(s, *jfloat);
    const Marker& mr = markerAt(s, *rm);
    if (!partOf(mj).ground)
      throw Unsupported{{jfloat->line, where(s) + ": a JFLOAT on a moving part (the reaction) is "
                                                  "not read yet"}};
    const bool onBody = mr.part == mi.part;
    if (!partOf(mr).ground && !onBody)
      throw Unsupported{{rm->line, where(s) + ": RM on a third part is not read yet"}};
    const Part& p = partOf(mi);
    if (p.ground) return;  // acts on ground only
    ExpressionContext context = expressionContext(s);
    std::array<std::string, 3> value;
    for (std::size_t k = 0; k < 3; ++k)
      value[k] = components[k] ? "(" +
                                     translateExpression(components[k]->values.front(),
                                                         components[k]->line, context) +
                                     ")"
                               : "0";
    // Along RM's axes: in ground's (RM on ground) or in the body's (RM on I's part).
    const Matrix3d axes = onBody ? frameOnBody(mr).axes : global(mr).axes;
    const double unit = torque ? units_.torque() : units_.force;
    ForceSpec f;
    f.name = nameOf(s, torque ? "vtorque" : "vforce");
    f.type = torque ? ForceType::Torque : ForceType::Force;
    f.body = p.name;
    if (!torque) f.point = pointOnBody(mi);
    f.frame = onBody ? "body" : "global";
    for (int r = 0; r < 3; ++r) {
      std::string sum;
      for (int c = 0; c < 3; ++c) {
        const double a = axes(r, c) * unit;
        if (a == 0) continue;
        sum += (sum.empty() ? "" : " + ") + expr::numberText(a) + "*" +
               value[static_cast<std::size_t>(c)];
      }
      f.vector.push_back(sum.empty() ? "0" : sum);
    }
    spec_.forces.push_back(f);
  }

  // GCON: FUNCTION = 0, an equation of positions or, when it measures velocities, of velocities
  // (linear in them, as Adams requires). Its I marker carries the reaction in Adams' output.
  void gcon(const Statement& s) {
    static constexpr const char* kKeys[] = {"I", "FUNCTION"};
    const Argument* i = nullptr;
    for (const Argument& a : s.arguments) {
      const std::string key = matchKeyword(a.key, kKeys);
      if (key == "I")
        i = &a;
      else if (key.empty())
        throw DatasetError{a.line, where(s) + ": unknown argument " + a.key};
    }
    if (!i) throw DatasetError{s.line, where(s) + ": needs its I marker"};
    markerAt(s, *i);
    const Argument& function = functionOf(s);
    ExpressionContext context = expressionContext(s);
    ConstraintSpec c;
    c.name = nameOf(s, "gcon");
    c.equations = {translateExpression(function.values.front(), function.line, context)};
    c.type = context.usedVelocities ? ConstraintType::Nonholonomic : ConstraintType::Holonomic;
    spec_.constraints.push_back(c);
  }

  const Text& text_;
  const bool skipUnsupported_;
  Diagnostics& diagnostics_;
  Units units_;
  Spec spec_;
  std::set<std::pair<std::string, long long>> skipped_;  // statements not imported
  UniqueNames names_;
  std::map<long long, Part> parts_;
  std::map<long long, Marker> markers_;
  std::map<long long, Placement> bodyFrames_;
  std::map<long long, const Statement*> variables_;
  std::set<long long> translating_;  // VARIABLEs being translated (a VARVAL cycle is an error)
  std::map<long long, std::pair<std::string, bool>> translated_;  // text, uses velocities
  struct JointMarkers {
    std::size_t index;
    const Marker *i, *j;
  };
  std::map<long long, JointMarkers> jointStatements_;
};

}  // namespace

LoadResult readAdams(std::string_view text, const std::string& source, AdamsImport mode) {
  LoadResult result;
  Diagnostics read;  // the reader's, "line N", kept when a statement ends the reading
  std::optional<Spec> spec;
  try {
    const Text statements = readText(text);
    Reader reader(statements, mode, read);
    spec = reader.read();
  } catch (const DatasetError& e) {
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
