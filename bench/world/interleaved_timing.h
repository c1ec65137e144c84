// Times several libraries on the same query set with their passes
// interleaved: each gets its untimed warm-up pass (which records its
// answers), then round p runs timed pass p of every library in the order
// they were added. A swing in machine load (the benchmark machine is shared)
// then hits all of them alike instead of whichever ran during it.
#ifndef COLLIDE_BENCH_WORLD_INTERLEAVED_TIMING_H_
#define COLLIDE_BENCH_WORLD_INTERLEAVED_TIMING_H_

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "scenes.h"
#include "timing.h"

namespace collide_bench {

class InterleavedTiming {
 public:
  // n queries per pass, `passes` timed passes per library.
  InterleavedTiming(size_t n, int passes) : n_(n), passes_(passes) {}

  // Adds a library: query(i) -> WorldHit for i in [0, n). query must stay
  // valid until Run returns. Returns its index for timing() and results().
  // Only whole passes go through std::function; inside a pass query is
  // called directly, as in TimeQueries.
  template <typename Query>
  size_t Add(Query query) {
    Library library;
    library.record = [n = n_, query](std::vector<WorldHit>& results) mutable {
      RecordResults(n, query, results);
    };
    library.pass = [n = n_, query](uint64_t* sink) mutable {
      return TimePass(n, query, sink);
    };
    libraries_.push_back(std::move(library));
    return libraries_.size() - 1;
  }

  // Every library's warm-up pass, then the interleaved timed rounds.
  void Run();

  const Timing& timing(size_t library) const {
    return libraries_[library].timing;
  }
  const std::vector<WorldHit>& results(size_t library) const {
    return libraries_[library].results;
  }

 private:
  struct Library {
    std::function<void(std::vector<WorldHit>&)> record;
    std::function<double(uint64_t*)> pass;
    std::vector<WorldHit> results;
    std::vector<double> ns;
    Timing timing;
  };

  size_t n_;
  int passes_;
  std::vector<Library> libraries_;
};

}  // namespace collide_bench

#endif  // COLLIDE_BENCH_WORLD_INTERLEAVED_TIMING_H_
