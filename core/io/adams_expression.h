#pragma once
// Adams/Solver function expressions (FUNCTION = ...) as Reuleaux expressions
// (docs/adams-datasets.md, "Expressions").

#include <Eigen/Core>

#include <functional>
#include <string>

namespace rlx::adams {

// A marker as an expression sees it: its part's body (empty for ground) and its frame in the
// body's (in ground for a ground marker): origin in metres, axes as columns.
struct MarkerFrame {
  std::string body;
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
};

// What a translation needs of the dataset. `marker` and `variable` throw adams::DatasetError for
// an id they do not know; `variable` gives a VARIABLE's translated expression (VARVAL).
struct ExpressionContext {
  double time = 1.0, length = 1.0;  // the sizes of the dataset's time and length units in SI
  std::function<MarkerFrame(long long id)> marker;
  std::function<std::string(long long id, bool& usedVelocities)> variable;
  bool usedVelocities = false;  // set when a measure of velocity was translated
};

// The expression in Reuleaux's language, in the dataset's units (TIME is t over the time unit, a
// displacement is metres over the length unit): numbers in radians where they end in D, TIME, PI,
// DTOR, RTOD, arithmetic with **, the intrinsics both languages share, and the measures DX DY DZ
// DM, VX VY VZ VR VM, WX WY WZ WM, AX AY AZ of markers, VARVAL. Throws DatasetError (with `line`)
// for USER(...), the model's force measures and any other name.
std::string translateExpression(const std::string& text, int line, ExpressionContext& context);

}  // namespace rlx::adams
