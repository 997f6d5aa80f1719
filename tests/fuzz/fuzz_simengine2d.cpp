// Fuzz target "simengine2d": the simEngine2D .adm/.acf import, compile and assembly. The input
// is the .adm text, then optionally kAcfSeparator and the .acf text.
#include "fuzz_targets.h"

#include "io/model_file.h"

#include <optional>

namespace rlx::fuzz {

void simEngine2DInput(std::string_view input) {
  std::string_view adm = input;
  std::optional<std::string_view> acf;
  if (const size_t at = input.find(kAcfSeparator); at != std::string_view::npos) {
    adm = input.substr(0, at);
    acf = input.substr(at + kAcfSeparator.size());
  }
  const LoadResult loaded = readSimEngine2D(adm, acf, "fuzz.adm");
  require(loaded.spec.has_value() != hasErrors(loaded.diagnostics),
          "readSimEngine2D returns a spec exactly when it reports no error");
  if (!loaded.spec) return;
  compileAndAssemble(*loaded.spec);
}

}  // namespace rlx::fuzz
