#pragma once
// The nonconservative work: the integral of the power sampled at a run's accepted steps.
//
// Over each new step, the integral of the cubic through the last four samples (two-point
// Gauss-Legendre, exact for a cubic): fourth order on a smooth power, so that energy - work shows
// the integrator's own error and not the quadrature's (a driven pendulum at h = 1e-3 s: 3.2e-5 J
// with the trapezoidal rule, whichever the integrator). An older sample is used only while the gap
// it adds is at least a quarter of the new step: samples bunched before a long step would weigh
// the noise of the power (Newton's tolerance on the multipliers) by the cube of the gaps' ratio.
// The run's first steps, which have fewer samples (trapezoidal rule, then the quadratic's), are
// integrated again with each new sample up to the fourth, while the gaps are within a factor of
// four of each other: the first step would otherwise keep the trapezoidal rule's error (1e-8 J at
// h = 1e-3 s on a driven slider-crank).

#include <array>

namespace rlx {

class WorkIntegral {
 public:
  // The power at time t, after the last sample's time (a sample at the same time replaces it).
  void add(double t, double power);
  double value() const { return work_; }

 private:
  static constexpr int kSamples = 4;
  // The integral from sample `from` to the newest of the interpolant through samples first ...
  double integral(int first, int from) const;

  std::array<double, kSamples> t_{}, power_{};  // the newest last
  int count_ = 0;
  bool starting_ = true;  // the run's first steps are integrated again with each new sample
  double work_ = 0.0;
};

}  // namespace rlx
