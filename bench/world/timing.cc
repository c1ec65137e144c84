#include "timing.h"

#include <malloc.h>

namespace collide_bench {

size_t HeapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

}  // namespace collide_bench
