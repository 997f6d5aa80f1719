// Fuzz target "rlx": the .rlx reader, the writer's round trip, compile and assembly.
#include "fuzz_targets.h"

#include "io/model_file.h"

namespace rlx::fuzz {

void rlxInput(std::string_view input) {
  const LoadResult loaded = readRlx(input, "fuzz.rlx");
  require(loaded.spec.has_value() != hasErrors(loaded.diagnostics),
          "readRlx returns a spec exactly when it reports no error");
  if (!loaded.spec) return;

  // What the reader accepted, the writer writes so that it reads back the same.
  const std::string written = writeRlx(*loaded.spec);
  const LoadResult reread = readRlx(written, "fuzz-written.rlx");
  require(reread.spec.has_value(), "readRlx reads what writeRlx wrote");
  require(writeRlx(*reread.spec) == written, "write(read(write(spec))) == write(spec)");

  compileAndAssemble(*loaded.spec);
}

}  // namespace rlx::fuzz
