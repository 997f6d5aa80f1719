#pragma once
// Braun-Goldfarb constraint- and energy-corrected equation of motion, integrated with explicit
// Runge-Kutta: classical RK4 at the fixed step ("corrected-rk") or adaptive Dormand-Prince 5(4)
// ("corrected-rk45"). The equations (17a), (17b), (20): solve/integrators/braun_goldfarb.h; the
// steppers: solve/integrators/runge_kutta.h; the notes: shared/docs/braun-goldfarb.md and
// docs/integrators-corrected-rk.md.
//
// State y = (q, v, W), W the work of the nonconservative applied forces (the energy law is
// E - E0 - W = 0). corrected-rk45 controls the local error of (q, v): the root-mean-square of
// e_i / (tol (1 + max(|y_n,i|, |y_n+1,i|))) must be <= 1; steps in [minStep, step], the next
// step h min(5, max(0.2, 0.9 err^-1/5)) (no growth right after a rejection). Both land exactly on
// the recorder's next stop. After each accepted step ws.vdot is the corrected acceleration at the
// new state and ws.lambda the minimum-norm multipliers of Phi_q^T lambda = Q - M vdot.
// Failures: Singular (a body's mass block is not positive definite: the method needs M^-1),
// NotFinite (names the element whose forces are not finite at the time), MaxIterations (the error
// control needs a step below minStep), Unsupported (nonholonomic constraints), and for the fixed
// step Singular when a step crossed a singular configuration it does not resolve (a velocity
// correction above 0.1 of the model's typical velocity after it, the joints' equations nearly
// dependent; the joints named, a lock-up when a motion is among them;
// docs/integrators-corrected-rk.md).

#include "solve/integrators/dynamics.h"

namespace rlx {

void integrateCorrectedRK(const Model& model, State& state, Workspace& ws,
                          const DynamicsOptions& options, Recorder& recorder, SolveReport& report);

}  // namespace rlx
