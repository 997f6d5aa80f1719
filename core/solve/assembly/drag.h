#pragma once
// Drag assembly: the mechanism follows a grabbed body point as far as its joints allow, and stays
// assembled (ADAMS weighted least-change assembly with one more, heavily weighted objective).
//
// Each step d (a direction of v, q <- q (+) d) solves, at a configuration where Phi = 0,
//   minimize   1/2 mu d^T W d + 1/2 || r + J d ||^2
//   subject to Phi(q, t) + Phi_q d = 0,
// where r = p(q) - target is the grabbed point's miss, J = dp/dv its Jacobian
// (planar: [I, perp(A s)]; spatial: [I, -[R s]x], angular velocity in global axes), W the
// assembly weights (1 for positions, L^2 for angles) and mu = 1/pointWeight at the start.
// With S = W^-1/2 and d = S y, y = y_p + N z: y_p = pinv(Phi_q S)(-Phi) keeps the joints closed,
// N (orthonormal null space of Phi_q S) spans the motions they allow, and
//   (mu I + B^T B) z = -B^T (r + J S y_p),   B = J S N.
// After the step the joints are closed again by least-change Gauss-Newton steps (the assembly's,
// y = y_p). A step is kept when it reduces |r|; mu follows the gain ratio (Levenberg-Marquardt), so
// far targets, where the Gauss-Newton model of |r| is poor, still converge. The least-change term
// damps each step, not the total change: freedoms that do not move the point stay where they are,
// and at convergence the point is exactly at the target when it is reachable, else at the nearest
// reachable place (a local minimum of |p - target| on Phi = 0). Steps longer than maxStep (times
// the model's size) are shortened, so a far jump of the mouse does not flip an assembly branch.
//
// Motions: with releaseMotions (the default) their rows are left out, so a driven joint can be
// wiggled by hand; otherwise they are kept at the state's time. Holds (the file's "hold" lists)
// are not used: the grabbed point is the one input kept. Velocities are left unchanged.

#include "model/model.h"
#include "solve/assembly/assembly.h"
#include "solve/equations/workspace.h"

#include <Eigen/Dense>

namespace rlx {

struct DragTarget {
  int body = kGround;                                // the grabbed body (not ground)
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // grabbed point, body coordinates
  Eigen::Vector3d target = Eigen::Vector3d::Zero();  // where the mouse puts it, global (2-D: z = 0)
};

struct DragOptions {
  double tolerance = 1e-12;    // on ||Phi||_inf and on the step (relative to the model's size)
  int maxIterations = 100;     // steps towards the target, kept or not
  double pointWeight = 1e8;    // 1/mu at the start, relative to the weight of a position
  double maxStep = 0.25;       // longest step, as a fraction of the model's size
  bool releaseMotions = true;  // leave the motion rows out while dragging
};

struct DragReport : AssemblyReport {
  double miss = 0.0;  // |p(q) - target| at the end: 0 when the target was reachable
};

// Moves state.q (in: the current configuration, out: the dragged one). Status Converged when the
// joints close (||Phi||_inf < tolerance) and the steps have become negligible.
DragReport dragAssemble(const Model& model, State& state, Workspace& ws, const DragTarget& target,
                        const DragOptions& options = {});

// Global position of a body point (body coordinates) at q; ground: the point itself.
Eigen::Vector3d bodyPointPosition(const Model& model, const Eigen::VectorXd& q, int body,
                                  const Eigen::Vector3d& point);

// Body coordinates of a global point (the inverse of bodyPointPosition).
Eigen::Vector3d bodyPointLocal(const Model& model, const Eigen::VectorXd& q, int body,
                               const Eigen::Vector3d& global);

}  // namespace rlx
