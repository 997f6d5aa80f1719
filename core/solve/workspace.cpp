#include "solve/workspace.h"

namespace rlx {

Workspace::Workspace(const Model& model)
    : slotValues(Eigen::VectorXd::Zero(1 + static_cast<Eigen::Index>(model.measures.size()))),
      Phi(Eigen::VectorXd::Zero(model.nh)),
      Phi_q(Eigen::MatrixXd::Zero(model.nh + model.nn, model.nv)),
      nu(Eigen::VectorXd::Zero(model.nh + model.nn)),
      gamma(Eigen::VectorXd::Zero(model.nh + model.nn)),
      M(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      Q(Eigen::VectorXd::Zero(model.nv)),
      Qn(Eigen::VectorXd::Zero(model.nv)),
      vdot(Eigen::VectorXd::Zero(model.nv)),
      lambda(Eigen::VectorXd::Zero(model.nh + model.nn)),
      active(static_cast<std::size_t>(model.nh + model.nn), true) {}

}  // namespace rlx
