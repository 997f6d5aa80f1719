#include "results/results.h"

#include "joints/family.h"

#include <cmath>

namespace rlx {

std::string impactNote(const Model& model, const Impact& impact) {
  const Force& stop = model.forces[static_cast<std::size_t>(impact.force)];
  const bool angle = coordinateIsAngle(model.joints[static_cast<std::size_t>(stop.joint)].type);
  const std::string length = angle ? " rad" : " m", speed = angle ? " rad/s" : " m/s";
  std::string note = stop.name + ": " + (impact.upper ? "upper" : "lower") + " bound hit at t = " +
                     numberText(impact.start, 4) + " s at " + numberText(impact.approachSpeed, 4) + speed;
  if (std::isfinite(impact.end))
    note += ", left at t = " + numberText(impact.end, 4) + " s at " + numberText(impact.reboundSpeed, 4) +
            speed + " (ratio " + numberText(impact.reboundSpeed / impact.approachSpeed, 4) + ")";
  else
    note += ", still in contact at the end";
  return note + "; " + numberText(impact.energyLost, 4) + " J lost, " +
         numberText(impact.maxPenetration, 4) + length + " deep";
}

}  // namespace rlx
