#pragma once
// Reading and writing model files. A .rlx file is JSON with a "reuleaux" key (format:
// shared/specs/model-format.md); a simEngine2D .adm file is JSON with "bodies" that carry "id"
// and "jbar"; an Adams/Solver dataset (.adm too) is text, a title line and statements. The readers
// check structure only (JSON syntax with line and column, unknown keys, types, vector lengths, the
// format version); compile() checks meaning.

#include "model/diagnostic.h"
#include "model/spec.h"

#include <optional>
#include <string>
#include <string_view>

namespace rlx {

struct LoadResult {
  std::optional<Spec> spec;  // empty when there is an error
  Diagnostics diagnostics;
};

// .rlx text -> Spec. `source` names the file in diagnostics.
LoadResult readRlx(std::string_view text, const std::string& source);

// Spec -> .rlx text (pretty-printed JSON, ends with a newline). read(write(s)) == s.
std::string writeRlx(const Spec& spec);

// simEngine2D .adm text (and optionally the .acf analysis text) -> Spec.
LoadResult readSimEngine2D(std::string_view admText, std::optional<std::string_view> acfText,
                           const std::string& source);

// What to do with the statements and arguments of an Adams dataset that are not imported (user
// subroutines, statements not read yet): refuse the dataset naming each, or import the rest with
// a warning per skipped one.
enum class AdamsImport { Strict, SkipUnsupported };

// Adams/Solver dataset text -> a 3-D Spec in SI (io/adams_reader.cpp, docs/adams-datasets.md);
// diagnostics name the line ("source:12") and the statement.
LoadResult readAdams(std::string_view text, const std::string& source,
                     AdamsImport mode = AdamsImport::Strict);

struct AdamsWriteResult {
  std::optional<std::string> text;  // empty when an element cannot be written
  Diagnostics diagnostics;          // compile's, each element refused, warnings
};

// Spec -> Adams/Solver dataset text in SI (io/adams_writer.cpp, docs/adams-datasets.md): the spec
// is compiled first; an element Adams has no statement for is refused by name.
AdamsWriteResult writeAdams(const Spec& spec);

// Reads a model file of any of these formats, recognised by content. For a simEngine2D model the
// analysis comes from `acfPath` or, when empty, from a same-named .acf beside the .adm.
LoadResult loadModelFile(const std::string& path, const std::string& acfPath = {},
                         AdamsImport adams = AdamsImport::Strict);

// Writes atomically (writeFileAtomically, io/atomic_write.h): a failed save or a crash never
// leaves a half-written model. Returns false and sets *error on failure.
bool saveRlxFile(const Spec& spec, const std::string& path, std::string* error);

}  // namespace rlx
