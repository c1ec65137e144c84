#include "interleaved_timing.h"

namespace collide_bench {

void InterleavedTiming::Run() {
  for (Library& library : libraries_) library.record(library.results);
  uint64_t sink = 0;
  for (int p = 0; p < passes_; ++p) {
    for (Library& library : libraries_) {
      library.ns.push_back(library.pass(&sink));
    }
  }
  g_timing_sink = g_timing_sink + sink;
  for (Library& library : libraries_) {
    library.timing = Summarize(library.ns);
  }
}

}  // namespace collide_bench
