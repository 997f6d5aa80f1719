#pragma once
// The fuzz targets: each takes one input and runs it through a reader and everything that
// follows it when a user opens a file. Every input, good or bad, must return normally; a crash,
// a hang, a sanitizer report or a failed `require` (which aborts with a message) is a finding.
// libfuzzer_entry.cpp hands a target to libFuzzer (clang, REULEAUX_FUZZ=ON); replay_main.cpp
// runs saved inputs through the same functions in the normal build (tst_fuzz_regressions).

#include "model/spec.h"

#include <string_view>

namespace rlx::fuzz {

using Target = void (*)(std::string_view input);

// .rlx text -> readRlx -> writeRlx round trip -> compile -> assemble.
void rlxInput(std::string_view input);
// Expression text -> parse -> toString round trip -> bind -> differentiate -> evaluate.
void expressionInput(std::string_view input);
// .adm text, optionally kAcfSeparator and .acf text -> readSimEngine2D -> compile -> assemble.
void simEngine2DInput(std::string_view input);
inline constexpr std::string_view kAcfSeparator = "\n#acf\n";
// Adams dataset text -> readAdams -> writeRlx and readRlx -> compile -> assemble.
void adamsInput(std::string_view input);

// The target called `name` ("rlx", "expression", "simengine2d", "adams"), or nullptr.
Target targetNamed(std::string_view name);

// A property every input must keep; when it does not, prints `what` and aborts.
void require(bool condition, const char* what);

// What "open file" does with a spec that was read: compile it and, when it compiles, assemble
// it at t = 0. Failures must come with a message.
void compileAndAssemble(const Spec& spec);

}  // namespace rlx::fuzz
