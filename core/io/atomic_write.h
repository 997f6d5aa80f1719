#pragma once
// Writing a file so that a failure at any point (disk full, permission lost, the process killed)
// leaves the previous file as it was.

#include <string>
#include <string_view>

namespace rlx {

// Writes `text` to a new temporary file beside `path`, syncs it, gives it the permissions of the
// file it replaces and renames it over `path` (a symbolic link keeps pointing at the file it
// names, which is the one replaced). On failure the temporary file is removed and *error reads
// `cannot save "<path>": <OS reason>`, followed by `; the previous file is kept` when `path`
// existed. A process killed before the rename leaves `.<name>.<pid>.<n>.tmp` beside the file;
// the next save of the file removes such files whose process no longer runs.
bool writeFileAtomically(const std::string& path, std::string_view text, std::string* error);

}  // namespace rlx
