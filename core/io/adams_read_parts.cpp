// Parts and markers of a dataset: their frames in ground, each body's frame its CM marker's
// (the centre of mass and the inertia's axes), inertia with Adams' sign of the products.
#include "io/adams_reader.h"
#include "joints/rotation.h"

#include <cmath>
#include <map>
#include <optional>

namespace rlx::adams {

// The frame's placement in its parent's axes: origin q, axes from REULER (body-fixed 3-1-3) or
// from a point z on the z axis and a point x in the x-z plane.
Placement Reader::placement(const Statement& s, const PlacementArguments& p) {
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

void Reader::part(const Statement& s) {
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
  if (!parts_.emplace(*s.id, p).second) throw DatasetError{s.line, where(s) + " is defined twice"};
}

// EXACT = X:Y:Z:PSI:THETA:PHI (any of them) as held inputs: x, y, z of the centre of mass,
// and the orientation when all three angles are held.
std::vector<std::string> Reader::exact(const Statement& s, const Argument& a) {
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

void Reader::marker(const Statement& s) {
  static constexpr const char* kKeys[] = {"PART",     "QP",    "REULER",  "XP",         "ZP",
                                          "FLOATING", "RM",    "USEXP",   "POINT_MASS", "FLEX_BODY",
                                          "NODE_ID",  "CURVE", "SURFACE", "VELOCITY"};
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

const Marker& Reader::markerAt(const Statement& s, const Argument& a) {
  const long long m = id(s, a);
  const auto it = markers_.find(m);
  if (it == markers_.end())
    throw DatasetError{a.line,
                       where(s) + ": " + a.key + " = " + std::to_string(m) + " names no MARKER"};
  if (it->second.floating != (a.key == "JFLOAT"))
    throw DatasetError{
        a.line, where(s) + ": " + a.key + " = " + std::to_string(m) +
                    (it->second.floating ? " is a FLOATING marker" : " must be a FLOATING marker")};
  return it->second;
}

const Part& Reader::partOf(const Marker& m) {
  const auto it = parts_.find(m.part);
  if (it == parts_.end())
    throw DatasetError{m.statement->line, where(*m.statement) + ": PART = " +
                                              std::to_string(m.part) + " names no PART"};
  return it->second;
}

// A marker's frame in ground.
Placement Reader::global(const Marker& m) {
  const Placement& bcs = partOf(m).bcs;
  return {bcs.point(m.local.origin), bcs.axes * m.local.axes};
}

// The body frame of a part: its CM marker's frame in ground (the BCS when it has no CM).
Placement Reader::bodyFrame(const Part& p) {
  if (p.ground || !p.cm) return p.ground ? Placement{} : p.bcs;
  const auto it = markers_.find(*p.cm);
  if (it == markers_.end())
    throw DatasetError{p.statement->line, where(*p.statement) + ": CM = " + std::to_string(*p.cm) +
                                              " names no MARKER"};
  if (it->second.part != *p.statement->id)
    throw DatasetError{p.statement->line, where(*p.statement) + ": its CM marker " +
                                              std::to_string(*p.cm) + " is on another part"};
  return global(it->second);
}

void Reader::bodies() {
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

void Reader::gravity(const Statement& s) {
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
MarkerFrame Reader::frameOnBody(const Marker& m) {
  const Placement g = global(m);
  const Part& p = partOf(m);
  const Placement body = p.ground ? Placement{} : bodyFrames_.at(m.part);
  return {p.ground ? "" : p.name, body.axes.transpose() * (g.origin - body.origin),
          body.axes.transpose() * g.axes};
}

// GRAPHICS: drawing only. The first CYLINDER (or FRUSTUM with equal radii), BOX or spherical
// ELLIPSOID of a part that is centred on its centre of mass, with a box's edges along the body's
// axes, becomes its shape (Reuleaux draws one shape per body, centred there); the rest are
// skipped, and a GRAPHICS statement that cannot be read is skipped with a warning, never an error.
void Reader::graphics(const Statement& s) {
  const Argument* at = nullptr;
  for (const Argument& a : s.arguments)
    if (a.key == "CM" || a.key == "CORNER") at = &a;
  if (!at) return;  // outlines, arcs, force graphics: nothing Reuleaux draws on a body
  try {
    const Marker& m = markerAt(s, *at);
    const Part& p = partOf(m);
    if (p.ground) return;
    for (BodySpec& b : spec_.bodies)
      if (b.name == p.name && b.shape.type.empty())
        if (auto shape = shapeOf(s, bodyFrames_.at(m.part))) b.shape = std::move(*shape);
  } catch (const DatasetError& e) {
    diagnostics_.push_back({Severity::Warning, "line " + std::to_string(e.line), "",
                            e.message + " (drawing only: skipped)"});
  }
}

// The shape of one GRAPHICS statement in the body's frame, when it fits (see graphics).
std::optional<ShapeSpec> Reader::shapeOf(const Statement& s, const Placement& body) {
  static constexpr const char* kKeys[] = {"CYLINDER", "FRUSTUM", "BOX",    "ELLIPSOID", "CM",
                                          "CORNER",   "LENGTH",  "RADIUS", "TOP",       "BOTTOM",
                                          "X",        "Y",       "Z",      "XSCALE",    "YSCALE",
                                          "ZSCALE",   "SIDES",   "SEG",    "RANGLE"};
  std::string type;
  std::map<std::string, double> value;  // lengths in SI
  const Argument* at = nullptr;
  for (const Argument& a : s.arguments) {
    const std::string key = matchKeyword(a.key, kKeys);
    if (key == "CYLINDER" || key == "FRUSTUM" || key == "BOX" || key == "ELLIPSOID")
      type = key;
    else if (key == "CM" || key == "CORNER")
      at = &a;
    else if (!key.empty() && a.assignment && a.values.size() == 1) {
      value[key] = numbers(s, a, 1)[0] * units_.length;
      if (!std::isfinite(value[key])) return std::nullopt;
    }
  }
  const auto get = [&](const char* key) { return value.count(key) ? value.at(key) : 0.0; };
  const Placement m = global(markerAt(s, *at));
  const Matrix3d axes = body.axes.transpose() * m.axes;  // the marker's axes in the body's
  const auto centredAt = [&](const Vector3d& centre, double size) {
    return (centre - body.origin).norm() <= 1e-9 * (1 + size + body.origin.norm());
  };
  ShapeSpec shape;
  if (type == "CYLINDER" || (type == "FRUSTUM" && get("TOP") == get("BOTTOM"))) {
    const double length = get("LENGTH"), radius = get(type == "CYLINDER" ? "RADIUS" : "TOP");
    if (length == 0 || radius <= 0 || !centredAt(m.point(Vector3d(0, 0, length / 2)), length))
      return std::nullopt;
    shape.type = "cylinder";
    shape.radius = radius;
    shape.length = std::abs(length);
    shape.axis =
        vector(axes.col(2).unaryExpr([](double x) { return std::abs(x) < 1e-12 ? 0.0 : x; }));
  } else if (type == "ELLIPSOID") {
    const double r = get("XSCALE");
    if (r <= 0 || get("YSCALE") != r || get("ZSCALE") != r || !centredAt(m.origin, r))
      return std::nullopt;
    shape.type = "sphere";
    shape.radius = r;
  } else if (type == "BOX") {
    const Vector3d extent(get("X"), get("Y"), get("Z"));
    if (!centredAt(m.point(extent / 2), extent.norm())) return std::nullopt;
    // Each of the marker's axes is one of the body's, either way round.
    Vector3d size = Vector3d::Zero();
    for (int k = 0; k < 3; ++k) {
      Eigen::Index row = 0;
      if (std::abs(axes.col(k).cwiseAbs().maxCoeff(&row) - 1) > 1e-9) return std::nullopt;
      size(row) = std::abs(extent(k));
    }
    if ((size.array() <= 0).any()) return std::nullopt;
    shape.type = "box";
    shape.size = vector(size);
  } else {
    return std::nullopt;
  }
  return shape;
}

}  // namespace rlx::adams
