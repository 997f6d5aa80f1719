#pragma once
// The joint families. Each family lives in one file (revolute.cpp, translational.cpp, ...) and
// supplies, at the poses of its two bodies, its equations Phi (rows), their derivative blocks with
// respect to each body's velocities, and gamma; and, where the joint has one, its coordinate
// (J.q: relative rotation or travel, zero in the file's configuration). Reactions need nothing
// joint-specific beyond the point where they act (reactionPoint): see solve/reactions.h.
//
// Planar equations (p_i = A_i s_i, d = r2 + p2 - r1 - p1, u_i = A_i a_i, n_i = R u_i):
//   revolute       d = 0                                           (2)
//   translational  n1 . d = 0,  phi2 - phi1 - angle0 = 0           (2)
//   fixed          d = 0,       phi2 - phi1 - angle0 = 0           (3)
//   distance       (d . d - L^2) / (2 L) = 0                       (1)
//   point_on_line  n1 . d = 0                                      (1)

#include "joints/planar.h"
#include "model/model.h"

#include <Eigen/Dense>

namespace rlx {

constexpr int kMaxJointRows = 6;

struct JointEval {
  int rows = 0;
  Eigen::Matrix<double, kMaxJointRows, 1> Phi, gamma;
  Eigen::Matrix<double, kMaxJointRows, 6> J1, J2;  // planar: the first 3 columns
};

// Whether the joint type has a coordinate J.q (and so can be driven by a motion).
bool hasCoordinate(JointType type);

// Number of equations of a joint type in a dimension; 0 if the type does not exist there.
int jointRows(JointType type, int dimension);

// Name of equation `row` of a joint type, for messages and results ("x", "normal", "angle").
const char* jointRowName(JointType type, int row, int dimension);

void evaluatePlanarJoint(const Joint& joint, const planar::Body& b1, const planar::Body& b2,
                         JointEval& out);

// The joint coordinate J.q (minus its offset q0). Requires hasCoordinate(joint.type).
planar::Scalar planarJointCoordinate(const Joint& joint, const planar::Body& b1,
                                     const planar::Body& b2);

// Families (one file each).
void planarRevolute(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarTranslational(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarFixed(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarDistance(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
void planarPointOnLine(const Joint& joint, const planar::Body& b1, const planar::Body& b2, JointEval& out);
planar::Scalar planarRevoluteAngle(const Joint& joint, const planar::Body& b1, const planar::Body& b2);
planar::Scalar planarTravel(const Joint& joint, const planar::Body& b1, const planar::Body& b2);

}  // namespace rlx
