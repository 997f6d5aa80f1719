#pragma once
// A compiled joint: what the joint families (joints/family.h) evaluate. Points and axes are in
// body coordinates as 3-vectors (z = 0 in 2-D); compile() fills every field.

#include "joints/joint_type.h"

#include <Eigen/Dense>

#include <array>
#include <memory>
#include <string>

namespace rlx {

class Curve;

constexpr int kGround = -1;
constexpr int kMaxFamilyNumbers = 3;

struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  int body1 = kGround, body2 = kGround;
  Eigen::Vector3d s1 = Eigen::Vector3d::Zero(), s2 = Eigen::Vector3d::Zero();  // points, body coords
  Eigen::Vector3d a1 = Eigen::Vector3d::UnitZ(), a2 = Eigen::Vector3d::UnitZ();  // unit axes, body coords
  // Spatial joint frames in body coordinates, columns (x, y, z = axis): they coincide in the
  // file's configuration (universal: z1 = axis1, z2 = axis2, crossed).
  Eigen::Matrix3d frame1 = Eigen::Matrix3d::Identity(), frame2 = Eigen::Matrix3d::Identity();
  double length = 0.0;  // distance
  double radius = 0.0;  // rolling_disk
  std::array<double, kMaxFamilyNumbers> numbers{};  // the family's own (joints/family.h)
  std::array<std::shared_ptr<const Curve>, 2> curves;  // cams: curve1 (body1), curve2 (body2)
  // Rolling families (gear, rack_pinion, screw): the value of the rolling relation in the file's
  // configuration (the teeth's phase), the side of the line the pinion is on (+1 or -1) and the
  // period the relation is known modulo (a 3-D gear's, from its tooth ratio).
  double phase = 0.0;
  double side = 1.0;
  double period = 0.0;
  double q0 = 0.0;      // value of the raw joint coordinate in the file's configuration (J.q = raw - q0)
  double angle0 = 0.0;  // relative rotation phi2 - phi1 in the file's configuration (2-D locks)
  int row = 0;          // first row in Phi
  int rows = 0;         // number of equations
  int motion = -1;      // the motion driving this joint, if any
  int velocityRow = -1; // rolling_disk: the first of its two nonholonomic rows (>= nh)
};

}  // namespace rlx
