#pragma once
// Second derivatives of planar constraint rows for closed-form iteration matrices
// (solve/planar_stiffness.h), delivered as 3x3 blocks between two bodies. A point pair
// d = r2 + A2 s2 - r1 - A1 s1 has D = dd/dq = [-I, -R p1 | I, R p2] (2 x 6 over the two bodies,
// p_i = A_i s_i, R the rotation by +90 degrees) and second derivatives d2d/dphi1^2 = p1,
// d2d/dphi2^2 = -p2, all others zero. The Hessian of a projection u^T d, u = A1 n, is
// (R u)^T D in row and column phi1, plus u . d2d - u . d at (phi1, phi1).

#include "joints/joint.h"
#include "joints/planar.h"

#include <Eigen/Dense>

namespace rlx {

// Receives the blocks: `add` adds to the rows of body rowBody and the columns of colBody. Which
// blocks are added depends on the model only (zero blocks included), never on the state: one
// evaluation with a recording sink finds the pattern.
class StiffnessSink {
 public:
  virtual ~StiffnessSink() = default;
  virtual void add(int rowBody, int colBody, const Eigen::Matrix3d& block) = 0;
};

namespace planar {

using Mat6 = Eigen::Matrix<double, 6, 6>;            // over [body1; body2]
using PairJacobian = Eigen::Matrix<double, 2, 6>;    // of a point pair over [body1; body2]

PairJacobian jacobianOf(const PointPair& pair);

// Hessian of u^T d, u = A1 n, over [body1; body2].
Mat6 projectionHessian(const Body& b1, const Vec2& n, const PointPair& pair);

// Adds the four 3x3 blocks of a 6x6 matrix over [body1; body2] (ground's left out).
void addPair(StiffnessSink& sink, int body1, int body2, const Mat6& H);

// Adds value at (phi, phi) of a body.
void addAngle(StiffnessSink& sink, int body, double value);

}  // namespace planar
}  // namespace rlx
