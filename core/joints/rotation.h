#pragma once
// Rotations of spatial bodies: unit quaternions (w, x, y, z), rotation matrices (body -> global)
// and 3-1-3 body-fixed Euler angles (psi, theta, phi) in the ADAMS convention
//   R = Rz(psi) Rx(theta) Rz(phi).
// The exponential map advances an orientation by a rotation vector given in global axes:
//   q <- exp(theta / 2) (x) q,   exp(theta / 2) = (cos(|theta| / 2), sin(|theta| / 2) theta /
//   |theta|).

#include <Eigen/Dense>
#include <Eigen/Geometry>

namespace rlx::rotation {

// The rotation matrix of 3-1-3 Euler angles.
Eigen::Matrix3d fromEuler313(const Eigen::Vector3d& angles);

// The 3-1-3 Euler angles of a rotation matrix, theta in [0, pi]. Near theta = 0 (and pi) only
// psi + phi (psi - phi) is defined: it is computed from the well-conditioned entries, and at
// theta = 0 exactly the whole rotation is reported as psi.
Eigen::Vector3d toEuler313(const Eigen::Matrix3d& R);

// The unit quaternion of a rotation matrix (w >= 0) and back.
Eigen::Quaterniond fromMatrix(const Eigen::Matrix3d& R);

// Quaternion stored as (w, x, y, z) in a coordinate vector.
Eigen::Quaterniond fromCoordinates(const Eigen::Ref<const Eigen::VectorXd>& wxyz);
void toCoordinates(const Eigen::Quaterniond& q, Eigen::Ref<Eigen::VectorXd> wxyz);

// exp(theta / 2) as a unit quaternion (accurate for small |theta|).
Eigen::Quaterniond exponential(const Eigen::Vector3d& theta);

// The rotation vector of a unit quaternion (inverse of exponential, |result| <= pi).
Eigen::Vector3d logarithm(const Eigen::Quaterniond& q);

// [a]x, the cross-product matrix: [a]x b = a x b.
Eigen::Matrix3d skew(const Eigen::Vector3d& a);

}  // namespace rlx::rotation
