#include "solve/integrators/singular_configuration.h"

#include "solve/equations/constraints.h"
#include "solve/linalg/dependent_rows.h"
#include "solve/linalg/sparse_qr.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>

namespace rlx {
namespace {

constexpr double kShare = 0.1;  // of the largest share: the rows named

// The active rows of Phi_q, each scaled to unit length.
SparseMatrix unitActiveRows(const Workspace& ws, const std::vector<Eigen::Index>& rows) {
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double norm = ws.Phi_q.row(rows[k]).norm();
    for (SparseMatrix::InnerIterator it(ws.Phi_q, rows[k]); it; ++it)
      entries.emplace_back(static_cast<int>(k), static_cast<int>(it.col()),
                           norm > 0 ? it.value() / norm : it.value());
  }
  SparseMatrix A(static_cast<Eigen::Index>(rows.size()), ws.Phi_q.cols());
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

// sigma_min / sigma_1 in `ratio` and, when `named`, the nearly dependent rows (below).
std::vector<Eigen::Index> measure(const Model& model, Workspace& ws, const State& at, double& ratio,
                                  bool named) {
  ratio = 1.0;
  const std::vector<Eigen::Index> rows = activeRows(ws);
  if (rows.empty()) return {};
  evaluateConstraintDerivatives(model, at, ws);
  const Eigen::Index m = static_cast<Eigen::Index>(rows.size());
  Eigen::VectorXd share = Eigen::VectorXd::Zero(m);
  const auto dense = [&](const auto& svd) {
    const Eigen::VectorXd& sigma = svd.singularValues();
    ratio = sigma(sigma.size() - 1) / sigma(0);
    for (Eigen::Index i = 0; i < sigma.size(); ++i)
      if (sigma(i) <= kNearlySingular * sigma(0))
        share = share.cwiseMax(svd.matrixU().col(i).cwiseAbs());
  };
  if (model.nv < kSparseFromVelocities) {
    dense(Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::MatrixXd(unitActiveRows(ws, rows)),
                                            Eigen::ComputeThinU));
  } else if (model.nv < kDenseSvdVelocities) {
    dense(Eigen::BDCSVD<Eigen::MatrixXd>(Eigen::MatrixXd(unitActiveRows(ws, rows)),
                                         Eigen::ComputeThinU));
  } else {
    const SparseMatrix A = unitActiveRows(ws, rows);
    Eigen::VectorXd smallest;
    ratio = SparseRowQR(A, 0.0).singularValueRatio(&smallest);
    if (!named || !(ratio < kNearlySingular)) return {};
    share = smallest.cwiseAbs();
    const SparseRowQR qr(A, kNearlySingular);
    const SparseMatrix null = qr.leftNullSpace();
    for (Eigen::Index k = 0; k < null.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(null, k); it; ++it)
        share(it.row()) = std::max(share(it.row()), std::abs(it.value()));
  }
  std::vector<Eigen::Index> dependent;
  for (Eigen::Index k = 0; k < m; ++k)
    if (share(k) > kShare * share.maxCoeff())
      dependent.push_back(rows[static_cast<std::size_t>(k)]);
  return dependent;
}

}  // namespace

std::vector<Eigen::Index> nearlyDependentRows(const Model& model, Workspace& ws, const State& at,
                                              double& ratio) {
  return measure(model, ws, at, ratio, true);
}

double singularValueRatio(const Model& model, Workspace& ws, const State& at) {
  double ratio = 1.0;
  measure(model, ws, at, ratio, false);
  return ratio;
}

bool nearlySingular(const Model& model, Workspace& ws, const State& at) {
  return singularValueRatio(model, ws, at) < kNearlySingular;
}

}  // namespace rlx
