#pragma once
// compile(spec) -> Model, or the diagnostics that say why not. Every check of user input that is
// not about JSON syntax happens here (names resolve, masses positive, axes non-zero, expressions
// parse and use known variables, ...), so the GUI and the file reader share one validation.

#include "model/diagnostic.h"
#include "model/model.h"
#include "model/spec.h"

#include <optional>

namespace rlx {

struct CompileResult {
  std::optional<Model> model;  // empty when there is an error
  Diagnostics diagnostics;     // errors and warnings
};

CompileResult compile(const Spec& spec);

}  // namespace rlx
