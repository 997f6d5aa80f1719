#include "solve/integrators/rolling_disk_rows.h"

#include "joints/joints.h"
#include "solve/equations/spatial_constraints.h"

namespace rlx {
namespace {

// The direction w of one body (zero for ground).
Eigen::Matrix<double, 6, 1> bodyPart(const Model& model, const Eigen::VectorXd& w, int body) {
  if (body == kGround) return Eigen::Matrix<double, 6, 1>::Zero();
  return w.segment<6>(model.bodies[static_cast<std::size_t>(body)].v);
}

}  // namespace

void rollingDiskConvective(const Model& model, const State& state, const Eigen::VectorXd& w,
                           Eigen::VectorXd& out) {
  for (const Joint& joint : model.joints) {
    if (joint.velocityRow < 0) continue;
    out.segment<2>(joint.velocityRow) = rollingDiskSlipConvective(
        joint, spatialBody(model, state, joint.body1), spatialBody(model, state, joint.body2),
        bodyPart(model, w, joint.body1), bodyPart(model, w, joint.body2));
  }
}

}  // namespace rlx
