// The Adams dataset reader's state and steps (docs/adams-datasets.md): adams_reader.cpp runs them
// (parts and markers first, since a statement may name a marker defined further down, then the
// elements that join them); adams_read_parts.cpp places parts and markers, adams_read_joints.cpp
// reads joints, primitives, motions and couplers, adams_read_forces.cpp the force elements and
// user constraints. Internal to core/io.
#pragma once

#include "io/adams_expression.h"
#include "io/adams_text.h"
#include "io/adams_units.h"
#include "io/identifiers.h"
#include "io/model_file.h"

#include <Eigen/Dense>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rlx::adams {

using Eigen::Matrix3d;
using Eigen::Vector3d;

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

inline std::string where(const Statement& s) {
  return s.name + (s.id ? "/" + std::to_string(*s.id) : "/");
}

class Reader {
 public:
  // Diagnostics go to `diagnostics` (kept when a later statement ends the reading).
  Reader(const Text& text, AdamsImport mode, Diagnostics& diagnostics)
      : text_(text),
        skipUnsupported_(mode == AdamsImport::SkipUnsupported),
        diagnostics_(diagnostics) {}

  Spec read();

 private:
  // The name Adams/View wrote made an identifier ("SPRING.force" -> SPRING_force), else kind_id;
  // unique across the model.
  std::string nameOf(const Statement& s, const char* kind);

  static std::string kind(const Statement& s);

  // What is not imported: an error, or a warning when the user asked to skip it.
  void unsupported(const Unsupported& u);

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
  std::vector<double> numbers(const Statement& s, const Argument& a, std::size_t count);

  long long id(const Statement& s, const Argument& a);

  Vector3d vector3(const Statement& s, const Argument& a, double scale);

  // The arguments that place a frame: QG/QP, REULER, XG/XP, ZG/ZP (null when absent).
  struct PlacementArguments {
    const Argument *q = nullptr, *euler = nullptr, *x = nullptr, *z = nullptr;
  };

  // The frame's placement in its parent's axes: origin q, axes from REULER (body-fixed 3-1-3) or
  // from a point z on the z axis and a point x in the x-z plane.
  Placement placement(const Statement& s, const PlacementArguments& p);

  void part(const Statement& s);

  // EXACT = X:Y:Z:PSI:THETA:PHI (any of them) as held inputs: x, y, z of the centre of mass,
  // and the orientation when all three angles are held.
  std::vector<std::string> exact(const Statement& s, const Argument& a);

  void marker(const Statement& s);

  const Marker& markerAt(const Statement& s, const Argument& a);

  const Part& partOf(const Marker& m);

  // A marker's frame in ground.
  Placement global(const Marker& m);

  // The body frame of a part: its CM marker's frame in ground (the BCS when it has no CM).
  Placement bodyFrame(const Part& p);

  void bodies();

  void gravity(const Statement& s);
  void integrator(const Statement& s);
  void note(const Statement& s, const std::string& message);
  void graphics(const Statement& s);
  std::optional<ShapeSpec> shapeOf(const Statement& s, const Placement& body);

  // A marker's frame in its body's (in ground for a ground marker), with the body's name.
  MarkerFrame frameOnBody(const Marker& m);
  static Vector vector(const Vector3d& v) { return {v.x(), v.y(), v.z()}; }
  Vector pointOnBody(const Marker& m) { return vector(frameOnBody(m).origin); }
  Vector axisOnBody(const Marker& m) { return vector(frameOnBody(m).axes.col(2)); }

  // What expressions see of the dataset: marker frames on bodies, VARIABLEs, the units.
  ExpressionContext expressionContext(const Statement& s);

  static constexpr const char* kFunction[] = {"FUNCTION"};

  // A statement's FUNCTION argument (the text and its line), or throws naming the statement.
  static const Argument& functionOf(const Statement& s);

  // VARIABLE/id: kept as written and translated when an expression uses it (VARVAL); one nobody
  // uses is an output channel, like a REQUEST.
  void variable(const Statement& s);

  std::string variableText(const Statement& user, long long id, bool& usedVelocities);

  // I and J of a joint or a primitive: the JointSpec with its bodies, points and z axes.
  JointSpec between(const Statement& s, const Marker*& iMarker, const Marker*& jMarker);

  void joint(const Statement& s);

  void screw(const Statement& s, const Marker& i, const Marker& j, double pitch, JointSpec& js);
  void rackPinion(const Statement& s, const Marker& i, const Marker& j, double radius,
                  JointSpec& js);
  void mergeScrews();

  void primitive(const Statement& s);

  // MOTION on a joint's rotation or translation. Adams' function gives the angle from J's x axis
  // to I's about J's z (the travel of I's origin along J's z); Reuleaux's joint coordinate is zero
  // in the file's configuration, so the function less its value there.
  void motion(const Statement& s);

  // Adams' displacement of a joint's I marker from its J marker: the angle from J's x axis to I's
  // about J's z, or the travel of I's origin along J's z, in the file's configuration.
  double displacement(const Marker& i, const Marker& j, bool rotation);

  // COUPLER: SCALES r1 q1 + r2 q2 (+ r3 q3) = 0 of the joints' displacements (TYPE T or R each;
  // a cylindrical joint's R is its angle, Reuleaux's coordinate). Reuleaux's coordinates are zero
  // in the file's configuration, so the dataset's must satisfy the relation there.
  struct JointMarkers {  // a JOINT statement's joint in spec_.joints, and its markers
    std::size_t index;
    const Marker *i, *j;
  };
  const JointMarkers& jointNamed(const Statement& s, const Argument& joints, double written);
  void coupler(const Statement& s);
  void gear(const Statement& s);

  // SFORCE: a force along the line from J to I (TRANSLATIONAL, the default), or along J's z axis
  // at I (ACTIONONLY), or a torque about J's z axis (ROTATIONAL); the function's value acts on I's
  // part and its opposite on J's (not with ACTIONONLY). Parts other than ground get a force or a
  // torque element each, named after the SFORCE (the reaction with "_on_j").
  void sforce(const Statement& s);
  void actionReaction(const Statement& s, const std::string& name,
                      std::pair<long long, long long> ij, bool rotational, bool actionOnly,
                      const std::string& function, int line);

  // SPRINGDAMPER/TRANSLATIONAL: F = -C dr/dt - K (r - LENGTH) + FORCE along the line from J to
  // I, r their distance: a spring_damper with body2 I's part and body1 J's, in SI.
  void springDamper(const Statement& s);
  struct RotationalLaw {
    double stiffness, damping, angle, torque;  // KT CT ANGLE TORQUE as written
  };
  void rotationalSpring(const Statement& s, const std::string& name,
                        std::pair<long long, long long> ij, const RotationalLaw& law);

  // VFORCE, VTORQUE and GFORCE (kind: the statement).
  void vectorForce(const Statement& s, const std::string& kind);

  // GCON: FUNCTION = 0, an equation of positions or, when it measures velocities, of velocities
  // (linear in them, as Adams requires). Its I marker carries the reaction in Adams' output.
  void gcon(const Statement& s);

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
  std::map<long long, JointMarkers> jointStatements_;
};

}  // namespace rlx::adams
