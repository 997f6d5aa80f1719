#include "solve/linalg/subnormals.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace rlx {

#if defined(__SSE2__)
namespace {
constexpr unsigned int kFlushToZero = 0x8000;     // MXCSR FTZ
constexpr unsigned int kDenormalsAreZero = 0x40;  // MXCSR DAZ
}  // namespace

FlushSubnormals::FlushSubnormals() : saved_(_mm_getcsr()) {
  _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
}

FlushSubnormals::~FlushSubnormals() { _mm_setcsr(saved_); }
#else
FlushSubnormals::FlushSubnormals() = default;
FlushSubnormals::~FlushSubnormals() = default;
#endif

}  // namespace rlx
