#include "tests/fuzz/fuzz_input.h"

#include <cmath>
#include <cstring>

namespace collide::fuzz {

uint8_t FuzzInput::TakeByte() {
  if (size_ == 0) return 0;
  const uint8_t byte = *data_;
  ++data_;
  --size_;
  return byte;
}

int FuzzInput::TakeInt(int lo, int hi) {
  const unsigned range = static_cast<unsigned>(hi - lo) + 1u;
  unsigned raw = TakeByte();
  if (range > 256u) raw |= static_cast<unsigned>(TakeByte()) << 8;
  return lo + static_cast<int>(raw % range);
}

uint64_t FuzzInput::TakeUint64() {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value |= static_cast<uint64_t>(TakeByte()) << (8 * i);
  }
  return value;
}

double FuzzInput::Earlier() {
  if (history_count_ == 0) return 0.0;
  const int count = history_count_ < kHistory ? history_count_ : kHistory;
  // Most recent first: byte 0 repeats the value just taken.
  const int back = TakeByte() % count;
  return history_[(history_count_ - 1 - back) % kHistory];
}

double FuzzInput::Remember(double value) {
  // Clamp anything a combination pushed out of range (or made non-finite)
  // back into the accepted range.
  if (!std::isfinite(value)) value = 0.0;
  if (value > kMaxCoordinate) value = kMaxCoordinate;
  if (value < -kMaxCoordinate) value = -kMaxCoordinate;
  history_[history_count_ % kHistory] = value;
  ++history_count_;
  return value;
}

double FuzzInput::TakeDouble() {
  const uint8_t selector = TakeByte();
  // Small integers (-8..8) are the most common choice: exact arithmetic,
  // so tangent, collinear and vertex-aimed cases happen by themselves.
  switch (selector % 16) {
    case 0:
      return Remember(0.0);
    case 1:
    case 2:
    case 3:
    case 4:
      return Remember(static_cast<double>(TakeByte() % 17) - 8.0);
    case 5:  // a dyadic fraction: n / 2^k
      return Remember((static_cast<double>(TakeByte() % 33) - 16.0) /
                      static_cast<double>(1 << (TakeByte() % 11)));
    case 6:
    case 7:  // an exact repeat of an earlier value
      return Remember(Earlier());
    case 8:  // an earlier value negated
      return Remember(-Earlier());
    case 9:  // one ulp away from an earlier value
    {
      const double earlier = Earlier();
      return Remember(std::nextafter(
          earlier, (TakeByte() & 1) != 0 ? kMaxCoordinate : -kMaxCoordinate));
    }
    case 10:  // an earlier value offset by +-1e9 (or a small integer by it)
    {
      const double earlier = Earlier();
      const double offset = (TakeByte() & 1) != 0 ? 1e9 : -1e9;
      return Remember(earlier + offset);
    }
    case 11:  // a sum or difference of two earlier values
    {
      const double a = Earlier();
      const double b = Earlier();
      return Remember((TakeByte() & 1) != 0 ? a + b : a - b);
    }
    case 12:  // extremes of the accepted range and of magnitudes
    {
      static constexpr double kExtremes[] = {
          kMaxCoordinate, -kMaxCoordinate, 1e15, -1e15, 1e-150, -4.9e-324,
          1e18,           -1e18,           1e9,  -1e9,  0.5,    1e-9};
      return Remember(kExtremes[TakeByte() % 12]);
    }
    default:  // any bit pattern (clamped into range)
    {
      const uint64_t bits = TakeUint64();
      double value = 0.0;
      std::memcpy(&value, &bits, sizeof(value));
      return Remember(value);
    }
  }
}

double FuzzInput::TakeNonNegative() { return std::abs(TakeDouble()); }

}  // namespace collide::fuzz
