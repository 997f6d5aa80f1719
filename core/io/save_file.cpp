#include "io/atomic_write.h"
#include "io/model_file.h"

namespace rlx {

bool saveRlxFile(const Spec& spec, const std::string& path, std::string* error) {
  return writeFileAtomically(path, writeRlx(spec), error);
}

}  // namespace rlx
