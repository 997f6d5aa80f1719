#pragma once
// The rolling disks' no-slip rows in the Braun-Goldfarb corrected equation: their convective
// term b_nu = -(A v)_q w along the corrected position rate w (joints/rolling_disk.cpp derives it;
// the rows are not a symmetric form, so the polarization of gamma gives only part of it).

#include "model/model.h"

#include <Eigen/Dense>

namespace rlx {

// Sets out(velocityRow + i) = b_nu(w) of each rolling disk's two no-slip rows (out sized nh + nn);
// other rows are left alone. w has the layout of v.
void rollingDiskConvective(const Model& model, const State& state, const Eigen::VectorXd& w,
                           Eigen::VectorXd& out);

}  // namespace rlx
