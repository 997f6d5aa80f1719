#pragma once
// Within the scope of a FlushSubnormals, the thread's floating-point unit flushes subnormal
// results (magnitudes below 2.2e-308) to zero and reads subnormal operands as zero (SSE: MXCSR's
// FTZ and DAZ bits; elsewhere nothing changes). Arithmetic on subnormals is about a hundred
// times slower, and physics produces them: the horizontal chain's accelerations decay by a factor
// 0.27 per link from the pivot, below 2.2e-308 past about the 545th link (the 5000-link chain's
// steps took three times as long with them). The analyses set it; the previous mode is restored
// when the scope ends.

namespace rlx {

class FlushSubnormals {
 public:
  FlushSubnormals();
  ~FlushSubnormals();
  FlushSubnormals(const FlushSubnormals&) = delete;
  FlushSubnormals& operator=(const FlushSubnormals&) = delete;

 private:
  unsigned int saved_ = 0;
};

}  // namespace rlx
