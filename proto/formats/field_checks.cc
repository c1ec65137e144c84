#include "proto/formats/field_checks.h"

#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "collide/number_text.h"
#include "collide/vec2.h"

namespace collide::formats {

std::string FieldPath::ToString() const {
  std::string path = parent_ != nullptr ? parent_->ToString() : std::string();
  if (index_ >= 0) {
    absl::StrAppend(&path, "[", index_, "]");
  } else {
    absl::StrAppend(&path, root_);
  }
  return path;
}

absl::Status OutOfRangeError(double value, const FieldPath& field) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field.ToString(), " must be finite"));
  }
  if (std::abs(value) > kMaxCoordinate) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), " must be within +-1e60, got ", NumberText(value)));
  }
  if (!InExactRange(value)) {
    return absl::InvalidArgumentError(absl::StrCat(
        field.ToString(), " must be 0 or at least 1e-60 in magnitude, got ",
        NumberText(value)));
  }
  return absl::OkStatus();
}

absl::Status CheckAngle(double value, const FieldPath& field) {
  if (std::isfinite(value) && std::abs(value) <= kMaxCoordinate) {
    return absl::OkStatus();
  }
  return OutOfRangeError(value, field);
}

absl::Status CheckNonNegative(double value, const FieldPath& field) {
  if (absl::Status s = CheckInRange(value, field); !s.ok()) return s;
  if (value >= 0.0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field.ToString(), " must be >= 0, got ", NumberText(value)));
}

}  // namespace collide::formats
