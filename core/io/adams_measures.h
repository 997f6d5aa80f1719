#pragma once
// Adams' measures of markers (DX ... WZ, AX AY AZ) as Reuleaux expressions of the bodies'
// positions, rotation matrices and velocities (B.x ... B.R33, B.vx ... B.wz), so that they get
// exact derivatives like every other expression (docs/adams-datasets.md, "Measures").

#include "io/adams_expression.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace rlx::adams {

// True for the names measureExpression translates.
bool isMarkerMeasure(const std::string& name);

// The measure `name` of the markers `ids` (0 for an argument left to its default: ground) in the
// dataset's units. An empty optional with `problem` set when the arguments do not fit.
std::optional<std::string> measureExpression(const std::string& name,
                                             const std::vector<long long>& ids,
                                             ExpressionContext& context, std::string& problem);

// Axis `column` (x y z as 0 1 2) of a marker in ground axes, as three expressions.
std::array<std::string, 3> markerAxis(const MarkerFrame& marker, int column);

}  // namespace rlx::adams
