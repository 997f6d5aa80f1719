#pragma once
// The joint families' table. A family's file (revolute.cpp, rolling_disk.cpp, ...) holds every
// part of it and exports one JointFamily record: its name, its coordinate, the points, axes and
// numbers compile reads, and per dimension its rows and their names, Phi, Phi_q, gamma, its
// coordinate, its closed-form stiffness (2-D), its reaction point (3-D) and the symbol the viewport
// draws. A family without a record for a dimension does not exist there. family.cpp maps every
// JointType to its record with one switch (no default: -Werror=switch checks it is complete).

#include "joints/joint.h"
#include "joints/planar.h"
#include "joints/planar_hessian.h"
#include "joints/spatial.h"

#include <Eigen/Dense>

#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rlx {

constexpr int kMaxJointRows = 6;

struct JointEval {
  int rows = 0;
  Eigen::Matrix<double, kMaxJointRows, 1> Phi, gamma;
  Eigen::Matrix<double, kMaxJointRows, 6> J1, J2;  // planar: the first 3 columns
};

// The joint coordinate J.q: none, a relative rotation, or a travel. A family with a coordinate
// can be driven by a motion and loaded by a torsion_spring or joint_force.
enum class JointCoordinate { None, Angle, Travel };

// The points compile reads (at, or point1 and point2): always both; both when any is given (a
// family between axes alone); body1's when point1 or at is given (a rolling disk's plane); or
// point1 and point2 only, each the body's origin when not given (a gear's centres).
enum class JointPoints { Both, WhenGiven, Body1WhenGiven, OwnOrigins };

// A number a family reads from the file besides length and radius (a gear's pitch radii, a
// screw's pitch), kept in Joint::numbers in the family's order: its key in files, what it is
// (for messages), its value when absent (NaN: required) and the values it may take (AcuteAngle:
// 0 up to, not including, 90 degrees, in radians).
enum class NumberRule { Positive, NonZero, AcuteAngle };
inline constexpr double kRequired = std::numeric_limits<double>::quiet_NaN();  // no default
struct FamilyNumber {
  const char* key = "";
  const char* meaning = "";
  double fallback = 0.0;
  NumberRule rule = NumberRule::Positive;
};
// The gearing families' (gear, internal_gear, rack_pinion): 20 degrees unless given.
inline constexpr FamilyNumber kPressureAngle{.key = "pressure_angle",
                                             .meaning = "the teeth's pressure angle",
                                             .fallback = std::numbers::pi / 9,
                                             .rule = NumberRule::AcuteAngle};

// The curves compile reads (joints/curve.h): none, curve2 (on body2), or curve1 and curve2.
enum class JointCurves { None, Curve2, Both };

// The axes compile reads in 3-D and how it builds frame1 and frame2 (model/compile_spatial.cpp):
//   None          no axis; both frames the identity
//   Axis          axis (global) or axis1 required, axis2 optional; frame2 = frame1 in the file
//   OneAxis       axis or axis1 required, no axis2 (a rack's line, two gears' common axis);
//                 frame2 = frame1 in the file
//   OptionalAxis  axis or axis1 if given; frame2 = frame1 in the file
//   CrossAxes     axis1 and axis2 required, each body's frame around its own axis
//   PlaneAndDisk  axis or axis1 the plane's normal (default z), axis2 required (the disk's)
enum class SpatialAxes { None, Axis, OneAxis, OptionalAxis, CrossAxes, PlaneAndDisk };

// What the viewport draws (ui/viewport/scene_joints.cpp), per dimension.
enum class PlanarSymbol { Pin, Slider, PointOnLine, Weld, Tie, Gear, Rack, Cam };
// clang-format off
enum class SpatialSymbol {
  Hinge, Sleeve, Slider, PointOnLine, Ball, Cross, PointOnPlane, PlanarBlock, AxisPair, Weld, Tie,
  RollingContact, Screw, Rack, Gear
};
// clang-format on

using PlanarRows = void (*)(const Joint&, const planar::Body&, const planar::Body&, JointEval&);
using PlanarCoordinate = planar::Scalar (*)(const Joint&, const planar::Body&, const planar::Body&);
using SpatialRows = void (*)(const Joint&, const spatial::Body&, const spatial::Body&, JointEval&);
using SpatialCoordinate = spatial::Scalar (*)(const Joint&, const spatial::Body&,
                                              const spatial::Body&);

struct PlanarFamily {
  int rows = 0;
  const char* const* rowNames = nullptr;  // one per row
  bool axis = false;                      // reads axis (global) or axis1 (body1)
  PlanarRows evaluate = nullptr;          // Phi, J1 and J2's first 3 columns, gamma
  PlanarRows gamma = nullptr;             // gamma alone
  PlanarCoordinate coordinate = nullptr;  // J.q; nullptr without a coordinate
  // Adds scale * sum_k mu_k d2(Phi_k)/dq2 (mu: the joint's multipliers; joints/planar_hessian.h).
  void (*stiffness)(const Joint&, const planar::Body&, const planar::Body&, const double* mu,
                    double scale, StiffnessSink& sink) = nullptr;
  // d2(J.q)/dq2 over [body1; body2]; nullptr without a coordinate.
  planar::Mat6 (*coordinateHessian)(const Joint&, const planar::Body&, const planar::Body&) = nullptr;
  PlanarSymbol symbol = PlanarSymbol::Pin;
  // Where the reaction acts (global); nullptr: at the joint's point on each body.
  planar::Vec2 (*reactionPoint)(const Joint&, const planar::Body&, const planar::Body&) = nullptr;
  // Checks the file's configuration and keeps what the family needs of it (Joint::phase, side);
  // returns why the joint cannot be built there, or "". nullptr: nothing to check.
  std::string (*prepare)(Joint&, const planar::Body&, const planar::Body&) = nullptr;
  // Teeth cut at a pressure angle alpha push the bodies apart as they drive: the separating force
  // on body2 at the reaction point per newton of the rows' force there, tan(alpha) times the unit
  // vector from the mesh towards body2's side (solve/recording/reaction_multipliers.h). nullptr:
  // none.
  planar::Vec2 (*separation)(const Joint&, const planar::Body&, const planar::Body&) = nullptr;
};

struct SpatialFamily {
  int rows = 0;          // holonomic rows (in Phi) ...
  int velocityRows = 0;  // ... then nonholonomic ones (velocity level, after every holonomic row)
  const char* const* rowNames = nullptr;  // rows + velocityRows
  SpatialAxes axes = SpatialAxes::None;
  SpatialRows evaluate = nullptr;           // every row: Phi (0 for velocity rows), J1, J2, gamma
  SpatialCoordinate coordinate = nullptr;   // J.q; nullptr without a coordinate
  // Where the reaction acts (global); nullptr: at the joint's point on each body.
  spatial::Vec3 (*reactionPoint)(const Joint&, const spatial::Body&, const spatial::Body&) = nullptr;
  SpatialSymbol symbol = SpatialSymbol::Ball;
  std::string (*prepare)(Joint&, const spatial::Body&, const spatial::Body&) = nullptr;  // as planar
  spatial::Vec3 (*separation)(const Joint&, const spatial::Body&,
                              const spatial::Body&) = nullptr;  // as planar
};

struct JointFamily {
  const char* name = "";  // in files: "point_on_line"
  JointCoordinate coordinate = JointCoordinate::None;
  JointPoints points = JointPoints::Both;
  bool length = false;  // reads `length` (default: the distance in the file's configuration)
  bool radius = false;  // reads `radius` (required, positive)
  JointCurves curves = JointCurves::None;
  std::span<const FamilyNumber> numbers{};  // at most kMaxFamilyNumbers
  const PlanarFamily* planar = nullptr;    // nullptr: not in 2-D
  const SpatialFamily* spatial = nullptr;  // nullptr: not in 3-D
};

const JointFamily& jointFamily(JointType type);

// Every joint type, in the enum's order.
const std::vector<JointType>& jointTypes();

// By the file name ("point_on_line").
std::optional<JointType> jointTypeNamed(const std::string& name);

// Whether the family has a coordinate J.q (and so can be driven by a motion).
bool hasCoordinate(JointType type);

// Whether the coordinate is an angle (a motion compares it modulo 2 pi; its effort is a torque).
bool coordinateIsAngle(JointType type);

}  // namespace rlx
