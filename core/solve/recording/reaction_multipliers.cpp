#include "solve/recording/reaction_multipliers.h"

#include "solve/equations/constraints.h"
#include "solve/equations/reactions.h"
#include "solve/linalg/sparse_qr.h"

#include <vector>

namespace rlx {
namespace {

// Adds the generalized force of `force` at `point` (global) on `body` to g: the force and its
// moment about the centre of mass (planar: fx, fy, tz; spatial: f, n in global axes).
void addPointForce(const Model& model, const State& state, int body, const Eigen::Vector3d& point,
                   const Eigen::Vector3d& force, Eigen::VectorXd& g) {
  if (body == kGround) return;
  const Body& b = model.bodies[static_cast<std::size_t>(body)];
  Eigen::Vector3d arm = point;
  arm.head(model.dimension) -= state.q.segment(b.q, model.dimension);
  const Eigen::Vector3d moment = arm.cross(force);
  if (model.dimension == 2) {
    g.segment<2>(b.v) += force.head<2>();
    g(b.v + 2) += moment.z();
  } else {
    g.segment<3>(b.v) += force;
    g.segment<3>(b.v + 3) += moment;
  }
}

}  // namespace

void loadReactionMultipliers(const Model& model, const State& state, const Eigen::VectorXd& lambda,
                             Workspace& ws) {
  evaluateConstraintDerivatives(model, state, ws);
  ws.lambda = lambda;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(model.nv);
  std::vector<bool> carries(static_cast<std::size_t>(ws.Phi_q.rows()), true);
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    if (!separates(model, static_cast<int>(j))) continue;
    const Joint& joint = model.joints[j];
    for (int r = joint.row; r < joint.row + joint.rows; ++r)
      carries[static_cast<std::size_t>(r)] = false;
    const Separation s = separatingForce(model, state, ws, static_cast<int>(j));
    addPointForce(model, state, joint.body2, s.point, s.force, g);
    addPointForce(model, state, joint.body1, s.point, -s.force, g);
  }
  if (g.isZero(0.0)) return;
  for (const Motion& m : model.motions) carries[static_cast<std::size_t>(m.row)] = false;

  // Phi_q's carrying rows, transposed: A dlambda = g over them.
  std::vector<Eigen::Index> rows;
  for (std::size_t r = 0; r < carries.size(); ++r)
    if (carries[r]) rows.push_back(static_cast<Eigen::Index>(r));
  if (rows.empty()) return;
  SparseMatrix select(static_cast<Eigen::Index>(rows.size()), ws.Phi_q.rows());
  for (std::size_t k = 0; k < rows.size(); ++k)
    select.insert(static_cast<Eigen::Index>(k), rows[k]) = 1.0;
  const SparseMatrix A = SparseMatrix((select * ws.Phi_q).transpose());
  const Eigen::VectorXd share = minimumNormSolution(A, g, model.nv >= kSparseFromVelocities);
  for (std::size_t k = 0; k < rows.size(); ++k)
    ws.lambda(rows[k]) += share(static_cast<Eigen::Index>(k));
}

}  // namespace rlx
