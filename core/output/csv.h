#pragma once
// Result columns and the CSV results file (shared/specs/cli-and-results.md). The GUI's plots use
// the same columns: resultColumns() names them, frameValues() gives one frame's numbers.
//
// Column order (dimension 2):
//   t,
//   per body B:   B.x B.y B.angle B.vx B.vy B.omega B.ax B.ay B.alpha
//   per joint J:  J.fx J.fy J.tz      (reaction on body2 from body1, global axes, at the joint
//                                       point on body2; see solve/equations/reactions.h)
//   per motion M: M.effort            (generalized force along the motion's coordinate)
//   kinetic potential energy work_nonconservative constraint_error velocity_constraint_error
// Dimension 3: per body B.x B.y B.z B.qw B.qx B.qy B.qz B.psi B.theta B.phi B.vx B.vy B.vz
// B.wx B.wy B.wz B.ax B.ay B.az B.alx B.aly B.alz (3-1-3 Euler angles from the quaternion,
// angular quantities in global axes), per joint J.fx J.fy J.fz J.tx J.ty J.tz.
// Angles are written as stored: the planar angle is continuous, never folded into (-pi, pi].

#include "model/model.h"
#include "results/results.h"
#include "solve/equations/workspace.h"

#include <ostream>
#include <string>
#include <vector>

namespace rlx {

// The names of the columns, in order.
std::vector<std::string> resultColumns(const Model& model);

// One frame's values in the order of resultColumns(). Uses `ws` as scratch: the reactions need
// Phi_q at the frame's state and the frame's multipliers.
std::vector<double> frameValues(const Model& model, const Frame& frame, Workspace& ws);

// A number as written in the results: 17 significant digits ("%.17g"), so that it round-trips.
std::string formatNumber(double value);

// Header row, then one row per frame. Returns false when the stream fails.
bool writeCsv(std::ostream& out, const Model& model, const Results& results);

}  // namespace rlx
