#pragma once
// Translation of simEngine2D function strings into the model expression language. simEngine2D
// evaluates a function string as a MATLAB expression of the symbolic time `t`
// (`f = sym(eval(funStr))` in MBconstraint.m), so the input is scalar MATLAB arithmetic:
//
//   MATLAB                                   model language
//   + - * / ^   .* ./ .^                     + - * / ^
//   a\b  a.\b (left division)                b/a
//   a^b^c = (a^b)^c (left associative)       (a^b)^c
//   2^-1 (signed exponent)                   2^-1
//   t  pi  eps                               t  pi  2.220446049250313e-16
//   sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs sign min max
//                                            the same function
//   power(a,b) realpow(a,b)                  pow(a, b)
//   realsqrt(x)  reallog(x)                  sqrt(x)  log(x)
//   sind(x) cosd(x) tand(x)                  sin(x*deg) ...
//   asind(x) acosd(x) atand(x) atan2d(y,x)   asin(x)/deg ...
//   sec(x) csc(x) cot(x)                     1/cos(x) 1/sin(x) 1/tan(x)
//   log2(x)  hypot(a,b)                      log(x)/log(2)  sqrt(a^2 + b^2)
//
// The output is normalized: no spaces, only the parentheses the precedence needs, numbers in a
// form the model language reads ("0.5" for ".5"). Anything else -- another name (`x`, `e`,
// `NONE`), complex or non-finite numbers (`1i`, `Inf`, `NaN`), strings, matrices, comparisons,
// transposes, a wrong number of arguments -- is an error that gives the 1-based column.

#include <optional>
#include <string>
#include <string_view>

namespace rlx {

// Returns the translated expression, or nullopt and sets *error
// (e.g. "column 9: unknown name 'x': a simEngine2D function depends on t only").
std::optional<std::string> translateMatlabExpression(std::string_view matlab, std::string* error);

}  // namespace rlx
