// libFuzzer's entry point for one target, chosen when compiled: -DREULEAUX_FUZZ_TARGET="rlx".
#include "fuzz_targets.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const rlx::fuzz::Target target = rlx::fuzz::targetNamed(REULEAUX_FUZZ_TARGET);
  rlx::fuzz::require(target != nullptr, "REULEAUX_FUZZ_TARGET names a target");
  target(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
