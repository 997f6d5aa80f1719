#pragma once
// The compiled model: what compile(spec) produces. Immutable; names resolved to dense indices,
// the coordinate vector laid out, numbers evaluated, expressions compiled with their derivatives.
//
// Coordinates. Planar body b: q = (x, y, phi), v = (xdot, ydot, omega), 3 entries each.
// Spatial body b: q = (x, y, z, qw, qx, qy, qz), v = (xdot, ydot, zdot, wx, wy, wz) with the
// angular velocity in global axes. Ground is not in q; its index is kGround.
// Joint points and axes are stored in body coordinates as 3-vectors (z = 0 in 2-D).

#include "expr/expr.h"
#include "joints/joint.h"
#include "model/integrator.h"
#include "model/spec.h"

#include <Eigen/Dense>

#include <limits>
#include <string>
#include <vector>

namespace rlx {

struct Body {
  std::string name;
  int q = 0;  // first index of the body's coordinates in q
  int v = 0;  // first index of the body's velocities in v
  double mass = 1.0;
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the centre of mass, body axes; 2-D: (2,2)
};

// A measure is a scalar function of the state that expressions may use as a variable
// (`crank.x`, `pin.q`): its value, its gradient with respect to v, and its rate.
enum class MeasureKind {
  BodyX, BodyY, BodyZ, BodyAngle,          // positions (planar angle)
  BodyVx, BodyVy, BodyVz, BodyOmega,      // velocities (planar omega = wz)
  BodyWx, BodyWy, BodyWz,                 // spatial angular velocity, global axes
  BodyR,                                  // spatial rotation matrix entry (component = 3*i + j)
  JointQ, JointQd,                        // joint coordinate and its rate
  SpringLength, SpringRate,               // a spring_damper's length and its rate (its `function`)
};

// A velocity measure u = G(q) v (B.vx, J.qd, ...), not a position measure m(q).
bool isVelocityMeasure(MeasureKind kind);

struct Measure {
  MeasureKind kind = MeasureKind::BodyX;
  int body = kGround;   // Body* kinds
  int joint = -1;       // Joint* kinds
  int force = -1;       // Spring* kinds
  int component = 0;    // BodyR
  std::string name;     // as written: "crank.x"
};

// A compiled expression. Slot 0 is time t; slot k >= 1 is measure k - 1 of the model.
// d[i] is the derivative with respect to slot variables[i]; dd[i][j] the second derivative.
struct Function {
  std::string text;                  // as written by the user
  expr::Expr value;
  std::vector<int> variables;        // the slots it depends on (0 = t)
  std::vector<expr::Expr> d;         // first derivatives, one per entry of slots
  std::vector<std::vector<expr::Expr>> dd;  // second derivatives
};

enum class Axis { X, Y, Z, Angle };

struct Motion {
  std::string name;
  int joint = -1;                  // a joint motion ...
  int body = kGround;              // ... or a body coordinate motion
  Axis coordinate = Axis::X;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // body point, body coordinates
  Function function;               // of t only
  int row = 0;
};

struct Force {
  std::string name;
  ForceType type = ForceType::Force;
  int body1 = kGround, body2 = kGround;     // spring_damper; force and torque use body2
  Eigen::Vector3d s1 = Eigen::Vector3d::Zero(), s2 = Eigen::Vector3d::Zero();
  double stiffness = 0, damping = 0, freeLength = 0, preload = 0, freeAngle = 0;
  int joint = -1;                           // torsion_spring, joint_force, limit
  // limit: the coordinate's bounds (infinite when absent) and the contact law's exponent and the
  // penetration at which the damping is full (solve/equations/stop_law.h)
  double lower = -std::numeric_limits<double>::infinity(), upper = std::numeric_limits<double>::infinity();
  double exponent = 1.5, penetration = 1e-3;
  bool bodyFrame = false;                   // force: vector in body2 axes
  bool hasLaw = false;                      // spring_damper with a `function` of length and rate
  std::vector<Function> functions;          // force: components; torque: value(s); joint_force: value; law
};

struct UserConstraint {
  std::string name;
  bool nonholonomic = false;
  std::vector<Function> equations;
  std::vector<int> bodies;  // the bodies its equations involve (ascending), for its reactions
  bool doesWork = false;    // depends on t, or nonholonomic with b != 0: its reaction may do work
  int row = 0;              // first row in Phi_q (holonomic: in Phi too; nonholonomic: >= nh)
  // A 3-D coupler of turning joints: its sum is known modulo this, and Phi is its remainder
  // (0: not wrapped).
  double period = 0.0;
};

struct Model {
  std::string name;
  std::string description;
  int dimension = 2;
  Eigen::Vector3d gravity = Eigen::Vector3d(0, -9.81, 0);
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Motion> motions;
  std::vector<Force> forces;
  std::vector<UserConstraint> constraints;
  std::vector<Measure> measures;  // variables used by expressions (slot k+1 = measures[k])

  int nq = 0;       // size of q
  int nv = 0;       // size of v
  int nh = 0;       // holonomic equations (joints, motions, holonomic user constraints): rows of Phi
  int nn = 0;       // nonholonomic equations (velocity level only)
  std::vector<std::string> rowNames;  // one per row of Phi then the nonholonomic rows: "pin.x"
  std::vector<std::string> rowOwners; // the element each row belongs to: "pin"

  // Initial guess from the file and the inputs the assembly keeps (ADAMS "exact").
  Eigen::VectorXd q0, v0;
  std::vector<bool> holdQ, holdV;  // sized nv: a held position entry is a direction of v

  // Analysis settings with numbers evaluated.
  AnalysisType analysis = AnalysisType::Kinematics;
  double endTime = 1.0, step = 1e-3, outputStep = 1e-3, tolerance = 1e-6;
  Integrator integrator = Integrator::HHT;
  bool variableStep = false, energyCorrection = true;
  double hhtAlpha = -0.1;

  int bodyDofs() const { return dimension == 2 ? 3 : 6; }
};

// A state: time, positions, velocities. Copyable and storable per frame.
struct State {
  double t = 0.0;
  Eigen::VectorXd q, v;
};

}  // namespace rlx
