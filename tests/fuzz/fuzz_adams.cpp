// Fuzz target "adams": the Adams dataset reader (text, units, statements, expressions), the
// .rlx writer's round trip of what it read, the dataset writer's (what it writes of an imported
// model reads back), compile and assembly.
#include "fuzz_targets.h"

#include "io/model_file.h"

namespace rlx::fuzz {

void adamsInput(std::string_view input) {
  const LoadResult loaded = readAdams(input, "fuzz.adm");
  require(loaded.spec.has_value() != hasErrors(loaded.diagnostics),
          "readAdams returns a spec exactly when it reports no error");
  if (!loaded.spec) return;
  // An imported model is saved as .rlx: what was read must write and read back.
  const std::string written = writeRlx(*loaded.spec);
  require(readRlx(written, "fuzz-written.rlx").spec.has_value(),
          "readRlx reads what writeRlx wrote of a dataset");
  // Written back as a dataset (when it compiles and every element has a statement): it reads.
  const AdamsWriteResult dataset = writeAdams(*loaded.spec);
  require(!dataset.text || readAdams(*dataset.text, "fuzz-written.adm").spec.has_value(),
          "readAdams reads what writeAdams wrote of a dataset");
  compileAndAssemble(*loaded.spec);
}

}  // namespace rlx::fuzz
