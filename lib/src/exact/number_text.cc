#include "collide/number_text.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace collide {

std::string NumberText(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // 24 characters hold the longest shortest form: a sign, 17 digits, the
  // point and "e-324"; fixed notation below 1e17 needs at most 23
  // ("-0.00012345678901234567").
  char text[32];
  const double magnitude = std::abs(value);
  const bool fixed =
      magnitude == 0.0 || (magnitude >= 1e-4 && magnitude < 1e17);
  const std::to_chars_result result = std::to_chars(
      text, text + sizeof(text), value,
      fixed ? std::chars_format::fixed : std::chars_format::scientific);
  return std::string(text, result.ptr);
}

}  // namespace collide
