// splitmix64, the deterministic generator of the benchmark scenes
// (docs/performance.md), shared
// by the randomized tests and the benchmarks so that a failing case or a
// scene reproduces from its seed on any machine (std:: distributions are
// implementation-defined).
#ifndef COLLIDE_TESTS_SUPPORT_SPLITMIX64_H_
#define COLLIDE_TESTS_SUPPORT_SPLITMIX64_H_

#include <cstdint>

namespace collide::testing {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1): the top 53 bits times 2^-53.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  double Uniform(double a, double b) { return a + (b - a) * Uniform(); }
  // Uniform integer in [0, n), n > 0.
  int Below(int n) {
    return static_cast<int>(Next() % static_cast<uint64_t>(n));
  }
  bool Chance(double p) { return Uniform() < p; }

 private:
  uint64_t state_;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_SPLITMIX64_H_
