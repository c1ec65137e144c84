// What a load test was asked to do, as reports print it.
#ifndef COLLIDE_CLIENT_LOAD_RUN_DESCRIPTION_H_
#define COLLIDE_CLIENT_LOAD_RUN_DESCRIPTION_H_

#include <cstdint>
#include <string>

#include "absl/time/time.h"

namespace collide::client::load {

struct RunDescription {
  std::string target;
  std::string load_balancing;
  std::string level_id;
  int connections = 1;
  int streams_per_connection = 1;
  int window = 1;
  int batch_size = 1;
  // Batches per second over all streams; 0 for a closed loop.
  double rate = 0;
  // Open loop: how the rate changes after the warm-up, e.g. "linear to
  // 2000 batches/s" or "5 steps to 2000 batches/s"; empty: it does not.
  std::string ramp;
  absl::Duration warmup;
  // The measured duration, unless count > 0.
  absl::Duration duration;
  int64_t count = 0;
  // QueryMix::Describe(), with the length and radius ranges; or the file
  // replayed ("replay FILE (N queries)").
  std::string mix;
  uint64_t seed = 0;
  // Batches sent in the packed form (--packed).
  bool packed = false;
  // Packed results in fixed-width columns (--fixed_width).
  bool fixed_width = false;
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_RUN_DESCRIPTION_H_
