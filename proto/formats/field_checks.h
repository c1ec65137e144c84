// The value checks every conversion of caller input shares (proto_convert.h
// for the per-query form, packed_convert.h for the packed one), so both
// forms refuse exactly the same values with the same words; only the field
// path differs ("queries[3].ray_cast.origin.x must be finite",
// "packed_rays.origin_x[3] must be finite").
#ifndef COLLIDE_FORMATS_FIELD_CHECKS_H_
#define COLLIDE_FORMATS_FIELD_CHECKS_H_

#include <cmath>
#include <string>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "collide/vec2.h"

namespace collide::formats {

// The least magnitude besides 0 that the service takes for a coordinate,
// length, distance or fraction, for queries and levels alike. From it to
// kMaxCoordinate the products of four input differences stay in double's
// normal range, where the core's double filters bound their rounding
// relatively; a scene drawn far below it (a level at 2^-1000) has squares
// that underflow, and its answers are not exact (README, "The range where
// every answer is exact"). lib/ itself (IsValid, Level::Create) takes the
// whole double range: a subnormal tilt of a motion at ordinary scale is
// still decided exactly there.
inline constexpr double kMinCoordinate = 1e-60;

// 0, or finite with a magnitude in [kMinCoordinate, kMaxCoordinate]: a
// number the service takes for a coordinate, length, distance or fraction.
// False for NaN and infinities.
inline bool InExactRange(double value) {
  const double magnitude = std::abs(value);
  return (magnitude >= kMinCoordinate && magnitude <= kMaxCoordinate) ||
         value == 0.0;
}

// A field path built only when an error names it, so that validating good
// input allocates nothing: a chain of segments living on the caller's stack.
class FieldPath {
 public:
  FieldPath(absl::string_view root) : root_(root) {}   // NOLINT: implicit
  FieldPath(const char* root) : root_(root) {}         // NOLINT: implicit
  FieldPath(const std::string& root) : root_(root) {}  // NOLINT: implicit
  // parent + name, name starting with '.'.
  FieldPath(const FieldPath& parent, absl::string_view name)
      : parent_(&parent), root_(name) {}
  // parent + "[index]".
  FieldPath(const FieldPath& parent, int index)
      : parent_(&parent), index_(index) {}

  std::string ToString() const;

 private:
  const FieldPath* parent_ = nullptr;
  absl::string_view root_;
  int index_ = -1;
};

// INVALID_ARGUMENT "{field} must be finite", "... must be within +-1e60,
// got {value}" or "... must be 0 or at least 1e-60 in magnitude, got
// {value}" for a value CheckInRange refuses.
absl::Status OutOfRangeError(double value, const FieldPath& field);

// OK when `value` is 0 or finite with a magnitude in [kMinCoordinate,
// kMaxCoordinate] (1e-60 to 1e60: products of four lengths neither overflow
// nor leave double's normal range, so the core's answers are exact); else
// OutOfRangeError. For every coordinate, length, distance and fraction.
// Inline: the OK path is two compares (false for NaN and infinities).
inline absl::Status CheckInRange(double value, const FieldPath& field) {
  if (ABSL_PREDICT_TRUE(InExactRange(value))) return absl::OkStatus();
  return OutOfRangeError(value, field);
}

// An angle: finite and within +-1e60 (no least magnitude: an angle is not
// a length, and a tiny one only rounds the vertices it turns).
absl::Status CheckAngle(double value, const FieldPath& field);

// CheckInRange, then INVALID_ARGUMENT "{field} must be >= 0, got {value}"
// for a negative value (radii, skins, distances).
absl::Status CheckNonNegative(double value, const FieldPath& field);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_FIELD_CHECKS_H_
