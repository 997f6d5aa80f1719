#pragma once
// What the assembly's rank-revealing analysis of Phi_q found (solve/assembly/assembly.h): the
// degrees of freedom and the consistent redundant equations it dropped, reported with the results.

#include <string>
#include <vector>

namespace rlx {

struct RedundantEquation {
  int row = 0;
  std::string element;   // the joint (motion, constraint) that owns the equation
  std::string equation;  // the row's name, e.g. "pin2.y"
};

struct Redundancy {
  int rank = 0;                              // rank of Phi_q (holonomic and nonholonomic rows)
  int dof = 0;                               // nv - rank: true degrees of freedom
  int dofGrubler = 0;                        // nv - number of equations
  std::vector<RedundantEquation> redundant;  // consistent redundant equations (dropped)
};

}  // namespace rlx
