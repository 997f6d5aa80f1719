#pragma once
// The contact of the cam families (planar): the signed distance between body1's point or curve
// and body2's curve, measured along curve2's normal between the points the contact pairs up,
// with its exact gradient and Hessian over [body1; body2] (x, y, phi each).
//
// point_on_curve: X1 = r1 + A1 s1 and the point X2 = r2 + A2 c2(u2) of curve2 at the foot of
// the normal through X1:  f = T2 . (X1 - X2) = 0,  h = N2 . (X1 - X2),
// curve_on_curve: X1 = r1 + A1 c1(u1) too, and the tangents parallel (the common normal):
//   f = (T2 . (X1 - X2), T1 x T2) = 0,  h = N2 . (X1 - X2),
// T_i the tangents, N2 = R T2 / |T2| (R: +90 degrees). The constraint is Phi = h at u = u(q)
// solving f = 0. At that solution h_u = 0 (the distance is stationary along the curves), so
//   Phi_q = h_q,   Phi_qq = h_qq + h_qu u_q + u_q^T h_uq + u_q^T h_uu u_q,   u_q = -f_u^-1 f_q,
// with h and f evaluated in jets (joints/jet.h) over (q1, q2, u). The curve parameters are not
// state: they follow from the bodies' positions (found by sampling the curves and Newton on f),
// so no massless coordinate enters the mass matrix. f_u is regular while the curves' relative
// curvature at the contact is not zero (a flat face resting on a flat of the cam has no
// contact point).

#include "joints/joint.h"
#include "joints/planar.h"
#include "joints/planar_hessian.h"

namespace rlx {

struct CurveContact {
  double distance = 0.0;
  Eigen::Matrix<double, 6, 1> gradient = Eigen::Matrix<double, 6, 1>::Zero();
  planar::Mat6 hessian = planar::Mat6::Zero();
  double u1 = 0.0, u2 = 0.0;          // the parameters of the contact (u1: curve_on_curve only)
  planar::Vec2 point = planar::Vec2::Zero();  // X2, global
};

CurveContact curveContact(const Joint& joint, const planar::Body& b1, const planar::Body& b2);

}  // namespace rlx
