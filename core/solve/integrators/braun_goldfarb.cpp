#include "solve/integrators/braun_goldfarb.h"

#include "model/function.h"
#include "solve/equations/constraints.h"
#include "solve/equations/forces.h"
#include "solve/equations/spatial_constraints.h"
#include "solve/equations/spatial_forces.h"
#include "solve/equations/user_constraints.h"
#include "solve/integrators/rolling_disk_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rlx {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kMuFraction = 2.5e-3;  // mu0^2 as a fraction of 2 T_typ

// x_b <- F_b x_b (or F_b^T x_b) per body block of D entries (D = bodyDofs: 3 planar, 6 spatial).
template <int D>
void multiplyBlocks(const Model& model, const std::vector<Eigen::Matrix<double, 6, 6>>& F,
                    bool transpose, Eigen::Ref<Eigen::VectorXd> x) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    auto segment = x.segment<D>(model.bodies[i].v);
    const Eigen::Matrix<double, D, 1> old = segment;
    const Eigen::Matrix<double, D, D> f = F[i].topLeftCorner<D, D>();
    if (transpose)
      segment.noalias() = f.transpose() * old;
    else
      segment.noalias() = f * old;
  }
}

void multiplyBlocks(const Model& model, const std::vector<Eigen::Matrix<double, 6, 6>>& F,
                    bool transpose, Eigen::Ref<Eigen::VectorXd> x) {
  if (model.bodyDofs() == 3) return multiplyBlocks<3>(model, F, transpose, x);
  multiplyBlocks<6>(model, F, transpose, x);
}

// C = A T L^-T per body block (T: a spatial body's rotation on its angular columns).
template <int D>
void constraintMatrix(const Model& model, const std::vector<Eigen::Matrix<double, 6, 6>>& Linv,
                      const std::vector<Eigen::Matrix3d>& turn, const Eigen::MatrixXd& A,
                      Eigen::MatrixXd& C) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    Eigen::Matrix<double, D, D> right = Linv[i].topLeftCorner<D, D>().transpose();
    if constexpr (D == 6) right.template bottomRows<3>() = turn[i] * right.template bottomRows<3>();
    C.middleCols<D>(model.bodies[i].v).noalias() = A.middleCols<D>(model.bodies[i].v) * right;
  }
}

}  // namespace

CorrectedEquation::CorrectedEquation(const Model& model, bool sparse,
                                     const CorrectionGains& gains)
    : model_(model),
      gains_(gains),
      ws_(model),
      scratch_(model),
      L_(model.bodies.size(), Eigen::Matrix<double, 6, 6>::Zero()),
      Linv_(model.bodies.size(), Eigen::Matrix<double, 6, 6>::Zero()),
      pinv_(sparse ? 0 : model.nh + model.nn, sparse ? 0 : model.nv),
      sparse_(sparse),
      correction_(sparse ? model.nv : 0),
      Qn_(model.nv),
      a_(model.nv),
      Ra_(model.nv),
      rhs_(model.nh + model.nn),
      rhsQ_(model.nh),
      y_(model.nv),
      s_(model.nv),
      w_(model.nv),
      Av_(model.nh + model.nn),
      Aa_(model.nh + model.nn),
      Mv_(model.nv),
      work_(model.nv),
      gyroscopic_(model.nv),
      nonholonomic_(model.nh + model.nn),
      turn_(model.bodies.size(), Eigen::Matrix3d::Identity()),
      rootMass_(model.nv),
      rootMassInv_(model.nv),
      mass_(model.nv) {
  // The mass matrix in body axes (planar: the mass matrix itself).
  const State start{0.0, model.q0, model.v0};
  evaluateMassMatrix(model_, start, ws_);
  if (model.dimension == 3)
    for (const Body& b : model.bodies) setBlock(ws_.M, b.v + 3, b.v + 3, b.inertia);
  mass_ = Eigen::VectorXd(ws_.M.diagonal());
  // The dense pseudoinverse's matrices (large models never form them).
  if (!sparse_) {
    C_.resize(model.nh + model.nn, model.nv);
    Ct_.setZero(model.nv, model.nh + model.nn);
  }
  // Every row active until told otherwise.
  setActiveRows(std::vector<bool>(static_cast<std::size_t>(model.nh + model.nn), true));
}

void CorrectedEquation::setActiveRows(const std::vector<bool>& active) {
  active_ = active;
  if (!sparse_) return;
  std::vector<Eigen::Index> rows = activeRows(active);
  if (sparseAll_ && sparseAll_->rows() == rows) return;  // set up for these rows already
  std::vector<Eigen::Index> holonomic(rows.begin(),
                                      std::lower_bound(rows.begin(), rows.end(), model_.nh));
  const bool nonholonomic = holonomic.size() < rows.size();
  sparseAll_ = std::make_unique<MassPseudoinverse>(ws_, std::move(rows), model_.bodyDofs());
  sparseHolonomic_ = nonholonomic ? std::make_unique<MassPseudoinverse>(ws_, std::move(holonomic),
                                                                         model_.bodyDofs())
                                  : nullptr;
  if (!sparseAll_->applies()) {
    sparseAll_.reset();
    sparseHolonomic_.reset();
  }
}

void CorrectedEquation::toGlobal(Eigen::Ref<Eigen::VectorXd> x) const {
  if (model_.dimension != 3) return;
  for (std::size_t i = 0; i < model_.bodies.size(); ++i)
    x.segment<3>(model_.bodies[i].v + 3) = turn_[i] * x.segment<3>(model_.bodies[i].v + 3);
}

void CorrectedEquation::toBody(Eigen::Ref<Eigen::VectorXd> x) const {
  if (model_.dimension != 3) return;
  for (std::size_t i = 0; i < model_.bodies.size(); ++i)
    x.segment<3>(model_.bodies[i].v + 3) =
        turn_[i].transpose() * x.segment<3>(model_.bodies[i].v + 3);
}

bool CorrectedEquation::factorMassMatrix(std::string& body) {
  const int d = model_.bodyDofs();
  for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
    const Body& b = model_.bodies[i];
    const Eigen::MatrixXd block = denseBlock(ws_.M, b.v, b.v, d, d);
    const Eigen::LLT<Eigen::MatrixXd> llt(block);
    const double scale = block.diagonal().cwiseAbs().maxCoeff();
    // A block is usable when its Cholesky factor exists and no pivot is negligible.
    if (llt.info() != Eigen::Success || !(scale > 0) ||
        llt.matrixLLT().diagonal().minCoeff() <= std::sqrt(d * kEps * scale)) {
      body = b.name;
      return false;
    }
    L_[i].topLeftCorner(d, d) = llt.matrixL();
    Linv_[i].topLeftCorner(d, d) = llt.matrixL().solve(Eigen::MatrixXd::Identity(d, d));
    rootMass_.segment(b.v, d) = L_[i].diagonal().head(d);
    rootMassInv_.segment(b.v, d) = Linv_[i].diagonal().head(d);
  }
  // Planar bodies: M and so R are diagonal; R^-1 acts entry by entry. Without user constraints
  // the rows are planar joints and motions, written straight into C^T.
  diagonal_ = model_.dimension == 2;
  planarRows_ = diagonal_ && model_.constraints.empty();
  return true;
}

bool CorrectedEquation::setStart(const State& start, bool energyCorrection) {
  E0_ = kineticEnergy(model_, start) + potentialEnergy(model_, start);
  double gravityPotential = 0.0, gravityScale = 0.0;
  const double L = modelSize(model_, start.q);
  for (const Body& b : model_.bodies) {
    gravityPotential -=
        b.mass * model_.gravity.head(model_.dimension).dot(start.q.segment(b.q, model_.dimension));
    gravityScale += b.mass * model_.gravity.norm() * L;
  }
  const double springs = potentialEnergy(model_, start) - gravityPotential;
  const double typical = std::max(kineticEnergy(model_, start) + springs, gravityScale);
  mu0Squared_ = kMuFraction * 2.0 * typical;
  const bool constraintWork = std::any_of(model_.constraints.begin(), model_.constraints.end(),
                                          [](const UserConstraint& c) { return c.doesWork; });
  energyOn_ = energyCorrection && model_.motions.empty() && !constraintWork;
  return energyOn_;
}

void CorrectedEquation::solveR(Eigen::VectorXd& x) const {
  if (diagonal_) {
    x.array() *= rootMassInv_.array();
    return;
  }
  multiplyBlocks(model_, Linv_, true, x);
  toGlobal(x);
}

void CorrectedEquation::convectiveTerm(Eigen::VectorXd& qdot, Eigen::VectorXd& b_nu) {
  // Holonomic rows: gamma at the corrected rate, -B(qdot, qdot) plus the time terms (motions'
  // f''(t), time-dependent user rows): the point's velocity is swapped with qdot meanwhile.
  std::swap(at_.v, qdot);
  if (model_.dimension == 2 && model_.constraints.empty()) {
    evaluatePlanarGamma(model_, at_, b_nu);
  } else {
    evaluateConstraintDerivatives(model_, at_, scratch_);
    b_nu = scratch_.gamma;
  }
  std::swap(at_.v, qdot);
  if (!model_.nn) return;
  // Nonholonomic rows (rolling disks' no-slip rows, nonholonomic user rows): -(A v)_q qdot at
  // the state's own v, exactly.
  nonholonomic_ = b_nu;
  rollingDiskConvective(model_, at_, qdot, nonholonomic_);
  if (!model_.constraints.empty())
    userConstraintConvective(model_, at_, qdot, scratch_, nonholonomic_);
  b_nu.tail(model_.nn) = nonholonomic_.tail(model_.nn);
}

void CorrectedEquation::formConstraintMatrix() {
  const SparseMatrix& A = ws_.Phi_q;
  if (!diagonal_) {
    denseA_ = A;
    if (model_.dimension == 2)
      constraintMatrix<3>(model_, Linv_, turn_, denseA_, C_);
    else
      constraintMatrix<6>(model_, Linv_, turn_, denseA_, C_);
    return;
  }
  // Diagonal R: C^T, (C^T)_ji = A_ij / R_jj, straight from the sparse rows.
  Ct_.setZero();
  const int* outer = A.outerIndexPtr();
  const int* columns = A.innerIndexPtr();
  const double* values = A.valuePtr();
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (int k = outer[i]; k < outer[i + 1]; ++k)
      Ct_(columns[k], i) = values[k] * rootMassInv_(columns[k]);
}

void CorrectedEquation::evaluateConstraintRows(const Eigen::VectorXd& v) {
  if (!planarRows_) {
    evaluateConstraints(model_, at_, ws_);
    formConstraintMatrix();
    multiplyConstraints(v, a_);
    return;
  }
  // Planar rows: C^T straight from the joints; A v = C (R v) and A a = C (R a), column by column.
  evaluatePlanarConstraintsTransposed(model_, at_, rootMassInv_, ws_, Ct_);
  const Eigen::Index n = Ct_.rows();
  for (Eigen::Index i = 0; i < Ct_.cols(); ++i) {
    const double* column = Ct_.data() + i * n;
    double sv = 0.0, sa = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) {
      sv += column[j] * s_(j);
      sa += column[j] * Ra_(j);
    }
    Av_(i) = sv;
    Aa_(i) = sa;
  }
}

void CorrectedEquation::multiplyConstraints(const Eigen::VectorXd& v, const Eigen::VectorXd& a) {
  // Av_ = A v and Aa_ = A a in one pass over the rows (each row's sum in column order).
  const SparseMatrix& A = ws_.Phi_q;
  const int* outer = A.outerIndexPtr();
  const int* columns = A.innerIndexPtr();
  const double* values = A.valuePtr();
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    double sv = 0.0, sa = 0.0;
    for (int k = outer[i]; k < outer[i + 1]; ++k) {
      sv += values[k] * v(columns[k]);
      sa += values[k] * a(columns[k]);
    }
    Av_(i) = sv;
    Aa_(i) = sa;
  }
}

SparseMatrix CorrectedEquation::sparseConstraintMatrix() const {
  // C = A R^-1 with the point's Phi_q (correctSparse evaluated it): planar R^-1 diagonal, spatial
  // per body T L_b^-T (T: the rotation on the angular rows).
  if (diagonal_) {
    SparseMatrix C = ws_.Phi_q;
    for (Eigen::Index i = 0; i < C.outerSize(); ++i)
      for (SparseMatrix::InnerIterator it(C, i); it; ++it) it.valueRef() *= rootMassInv_(it.col());
    return C;
  }
  const int d = model_.bodyDofs();
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t i = 0; i < model_.bodies.size(); ++i) {
    Eigen::MatrixXd right = Linv_[i].topLeftCorner(d, d).transpose();
    if (d == 6) right.bottomRows(3) = turn_[i] * right.bottomRows(3);
    const int first = model_.bodies[i].v;
    for (int r = 0; r < d; ++r)
      for (int c = 0; c < d; ++c)
        if (right(r, c) != 0.0) entries.emplace_back(first + r, first + c, right(r, c));
  }
  SparseMatrix Rinv(model_.nv, model_.nv);
  Rinv.setFromTriplets(entries.begin(), entries.end());
  return ws_.Phi_q * Rinv;
}

void CorrectedEquation::multiplyMass(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  if (diagonal_)
    out = mass_.cwiseProduct(x);
  else
    out.noalias() = ws_.M * x;
}

double CorrectedEquation::velocityCorrection(const RkPoint& y, const RkRate& out) {
  if (!(mu0Squared_ > 0)) return 0.0;  // no typical velocity (at rest, no gravity, no springs)
  work_ = out.qdot - y.v;
  multiplyMass(work_, Mv_);
  return std::sqrt(work_.dot(Mv_) / (mu0Squared_ / kMuFraction));
}

double CorrectedEquation::energyRate(const RkPoint& y, const RkRate& out, double ss) {
  const double Phi_e = 0.5 * ss + potentialEnergy(model_, at_) - E0_ - y.W;
  // b_e = -(dV/dq + dT/dq) qdot + P; a spatial body's dT/dtheta is minus its gyroscopic term g
  // (in Q), so Q_c - 2 g.
  double b_e = (ws_.Q - Qn_).dot(out.qdot) + out.Wdot;
  if (model_.dimension == 3) {
    gyroscopic_.setZero();
    addGyroscopicForces(model_, at_, gyroscopic_);
    b_e -= 2.0 * gyroscopic_.dot(out.qdot);
  }
  return b_e - gains_.ke * Phi_e;
}

bool CorrectedEquation::correctSparse(const RkPoint& y, RkRate& out) {
  const Eigen::Index mq = model_.nh, m = model_.nh + model_.nn, n = model_.nv;
  MassPseudoinverse& all = *sparseAll_;
  MassPseudoinverse& holonomic = sparseHolonomic_ ? *sparseHolonomic_ : all;
  if (!all.factor(ws_) || (&holonomic != &all && !holonomic.factor(ws_))) return false;
  // (17a) qdot = v + R^-1 C_q^+ (nu - A_q v - k_q Phi) on the holonomic rows.
  for (Eigen::Index i = 0; i < m; ++i)
    rhs_(i) = i < mq ? ws_.nu(i) - Av_(i) - gains_.kq * ws_.Phi(i) : 0.0;
  if (!holonomic.apply(rhs_, out.qdot)) return false;
  out.qdot += y.v;
  // (17b) R^-1 y = R^-1 C^+ (b_nu - A a - k_nu (A v - nu)), lambda = -(C C^T)^-1 of the same.
  convectiveTerm(out.qdot, rhs_);
  for (Eigen::Index i = 0; i < m; ++i)
    rhs_(i) = rhs_(i) - Aa_(i) - gains_.kv * (Av_(i) - ws_.nu(i));
  if (!all.apply(rhs_, out.vdot, &out.lambda)) return false;
  out.vdot += a_;  // a + R^-1 y
  // (20) with R^-1 w^T = v - R^-1 C^+ (A v): vdot += c R^-1 w^T.
  if (energyOn_) {
    if (!all.apply(Av_, correction_)) return false;
    correction_ = y.v - correction_;
    multiplyMass(y.v, Mv_);
    multiplyMass(correction_, work_);
    const double ww = correction_.dot(work_), ss = Mv_.dot(y.v);
    if (ww > static_cast<double>(std::max(m, n)) * kEps * std::max(1.0, ss)) {
      const double r = energyRate(y, out, ss) - Mv_.dot(out.vdot);
      out.vdot += (r / (ww + mu0Squared_)) * correction_;
    }
  }
  if (m == 0) out.lambda.resize(0);
  return true;
}

void CorrectedEquation::evaluate(const RkPoint& y, RkRate& out) {
  const Eigen::Index mq = model_.nh, n = model_.nv;
  at_.t = y.t;
  at_.q = y.q;
  at_.v = y.v;
  // Unconstrained acceleration a = M^-1 Q and the nonconservative power.
  evaluateAppliedForces(model_, at_, ws_, &Qn_);
  if (model_.dimension == 3) {
    for (std::size_t i = 0; i < model_.bodies.size(); ++i)
      turn_[i] = bodyRotation(model_, y.q, static_cast<int>(i));
    evaluateMassMatrix(model_, at_, ws_);
  }
  if (diagonal_) {
    // R a = R^-1 Q, a = R^-1 (R a); s = R v.
    for (Eigen::Index i = 0; i < n; ++i) {
      Ra_(i) = rootMassInv_(i) * ws_.Q(i);
      a_(i) = rootMassInv_(i) * Ra_(i);
      s_(i) = rootMass_(i) * y.v(i);
    }
  } else {
    a_ = ws_.Q;
    toBody(a_);
    multiplyBlocks(model_, Linv_, false, a_);
    solveR(a_);
  }
  out.Wdot = Qn_.dot(y.v);
  if (sparse_) {
    // Large models: the normal equations, or near a singular configuration the sparse QR.
    evaluateConstraints(model_, at_, ws_);
    multiplyConstraints(y.v, a_);
    if (sparseAll_ && correctSparse(y, out)) return;
    sparsePinv_.compute(sparseConstraintMatrix(), active_, mq);
    ++rankRevealingEvaluations_;
    return correctWith(sparsePinv_, y, out);
  }
  // Constraints, C = A R^-1 (per body: C_b = A_b L_b^-T) and its pseudoinverse (with that of
  // the holonomic rows C_q).
  evaluateConstraintRows(y.v);
  if (diagonal_)
    pinv_.computeTransposed(Ct_, active_, mq);
  else
    pinv_.compute(C_, active_, mq);
  correctWith(pinv_, y, out);
}

template <typename Pseudoinverse>
void CorrectedEquation::correctWith(Pseudoinverse& pinv, const RkPoint& y, RkRate& out) {
  const Eigen::Index mq = model_.nh, m = model_.nh + model_.nn, n = model_.nv;
  // (17a) qdot = v + R^-1 C_q^+ (nu - A_q v - k_q Phi) on the holonomic rows.
  for (Eigen::Index i = 0; i < mq; ++i) rhsQ_(i) = ws_.nu(i) - Av_(i) - gains_.kq * ws_.Phi(i);
  pinv.applyLeading(rhsQ_, out.qdot);
  solveR(out.qdot);
  out.qdot += y.v;
  // (17b) kinematic part on every row: y = C^+ (b_nu - A a - k_nu (A v - nu)), b_nu with the
  // corrected qdot.
  convectiveTerm(out.qdot, rhs_);
  for (Eigen::Index i = 0; i < m; ++i)
    rhs_(i) = rhs_(i) - Aa_(i) - gains_.kv * (Av_(i) - ws_.nu(i));
  pinv.apply(rhs_, y_, m > 0 ? &out.lambda : nullptr);
  // (20) energy part: z = y + w r / (w w^T + mu0^2), w^T = s - C^+ (A v), s = R v.
  if (energyOn_) {
    multiplyMass(y.v, Mv_);
    if (!diagonal_) {
      s_ = y.v;
      toBody(s_);
      multiplyBlocks(model_, L_, true, s_);
    }
    pinv.apply(Av_, w_);
    for (Eigen::Index i = 0; i < n; ++i) w_(i) = s_(i) - w_(i);
    const double ww = w_.squaredNorm(), ss = s_.squaredNorm();
    if (ww > static_cast<double>(std::max(m, n)) * kEps * std::max(1.0, ss)) {
      // A_e vdot_k = (M v) . (a + R^-1 y) = s . (R a + y).
      work_ = y_;
      solveR(work_);
      const double A_e_vdot = Mv_.dot(a_ + work_);
      const double r = energyRate(y, out, ss) - A_e_vdot;
      const double c = r / (ww + mu0Squared_);
      for (Eigen::Index i = 0; i < n; ++i) y_(i) += c * w_(i);
    }
  }
  // vdot = a + R^-1 z; lambda = -(C^T)^+ z = -(C^T)^+ y = -(C C^T)^+ (b_nu - A a - k_nu (A v - nu))
  // (the energy part of z is in the null space of C).
  out.vdot = y_;
  solveR(out.vdot);
  out.vdot += a_;
  if (m > 0)
    out.lambda = -out.lambda;
  else
    out.lambda.resize(0);
}

}  // namespace rlx
