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

// INVALID_ARGUMENT "{field} must be finite" or "... must be within +-1e60,
// got {value}" for a value CheckFinite refuses.
absl::Status NotFiniteError(double value, const FieldPath& field);

// OK when `value` is finite and within the core's coordinate limit
// (kMaxCoordinate: products of four lengths must not overflow); else
// NotFiniteError. Inline: the OK path is one compare (false for NaN and
// infinities).
inline absl::Status CheckFinite(double value, const FieldPath& field) {
  if (ABSL_PREDICT_TRUE(std::abs(value) <= kMaxCoordinate)) {
    return absl::OkStatus();
  }
  return NotFiniteError(value, field);
}

// CheckFinite, then INVALID_ARGUMENT "{field} must be >= 0, got {value}"
// for a negative value (radii, skins, distances).
absl::Status CheckNonNegative(double value, const FieldPath& field);

}  // namespace collide::formats

#endif  // COLLIDE_FORMATS_FIELD_CHECKS_H_
