#pragma once
// An Adams function expression (FUNCTION = ...) as the text of a Reuleaux expression of t: Fortran
// numbers (degrees where they end in D), TIME, PI, DTOR, RTOD, + - * / ** and the intrinsic
// functions both languages share with one meaning (SIN ... ATAN2, SQRT, EXP, LOG, LOG10, ABS,
// MIN, MAX, STEP). Anything else is refused by name.

#include <string>

namespace rlx::adams {

// `time` is the size of the dataset's time unit in seconds: TIME becomes t / time. Throws
// DatasetError at `line` naming what cannot be read.
std::string translateExpression(const std::string& text, int line, double time);

}  // namespace rlx::adams
