// FuzzInput: reads the values a fuzz target needs from the fuzzer's bytes,
// front to back, without ever failing: once the bytes run out every Take*
// returns zero (or false), so each input decodes to some value and the
// fuzzer's mutations map to nearby values.
//
// Doubles are biased towards the degenerate cases geometry code gets wrong
// (zero, small integers, dyadic fractions, exact repeats and negations of
// earlier values, 1e9 offsets, one ulp away from an earlier value, the
// extremes, subnormals included) and are always finite and within
// +-kMaxCoordinate, the range the wire contract and lib/ accept.
#ifndef COLLIDE_TESTS_FUZZ_FUZZ_INPUT_H_
#define COLLIDE_TESTS_FUZZ_FUZZ_INPUT_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "collide/vec2.h"

namespace collide::fuzz {

class FuzzInput {
 public:
  // Views `size` bytes at `data`, which must outlive this object.
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  // Whether every byte has been read.
  bool empty() const { return size_ == 0; }

  // The next byte, 0 once the input is exhausted.
  uint8_t TakeByte();
  // The next byte's low bit.
  bool TakeBool() { return (TakeByte() & 1) != 0; }
  // An integer in [lo, hi] (lo <= hi, hi - lo < 2^16) from up to two bytes.
  int TakeInt(int lo, int hi);
  // Eight bytes little-endian (missing bytes read as 0).
  uint64_t TakeUint64();
  // A finite double in [-kMaxCoordinate, kMaxCoordinate], biased towards
  // degenerate values (see the file comment). Remembered for later repeats.
  double TakeDouble();
  // TakeDouble's magnitude: a finite double in [0, kMaxCoordinate].
  double TakeNonNegative();
  // Two TakeDouble()s.
  Vec2 TakeVec2() {
    const double x = TakeDouble();
    return Vec2{x, TakeDouble()};
  }

 private:
  // The last values TakeDouble returned, for exact repeats.
  static constexpr int kHistory = 16;

  // A value remembered earlier (0 if none yet), chosen by the next byte.
  double Earlier();
  double Remember(double value);

  const uint8_t* data_;
  size_t size_;
  std::array<double, kHistory> history_{};
  int history_count_ = 0;
};

}  // namespace collide::fuzz

#endif  // COLLIDE_TESTS_FUZZ_FUZZ_INPUT_H_
