// Reading packed answers (PackedCastResults, PackedMoveResults) query by
// query without copying them: a view checks once that every column holds
// one value per query, then Row(i) reads element i of each column.
//
//   absl::StatusOr<PackedCastView> hits =
//       PackedCastView::Read(response.packed_casts(), rays.size());
//   for (int i = 0; i < hits->size(); ++i) {
//     if (!hits->status(i).ok()) continue;          // refused (bad value)
//     const PackedCastRow hit = hits->row(i);
//     if (hit.hit()) Use(hit.fraction(), hit.point(), hit.shape_id());
//   }
#ifndef COLLIDE_CLIENT_LIB_PACKED_RESULTS_H_
#define COLLIDE_CLIENT_LIB_PACKED_RESULTS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace collide::client {

// The status of query `index` in a packed result's `errors` (sorted by
// index): OK when it is not there, else its code and message.
absl::Status PackedQueryStatus(
    const google::protobuf::RepeatedPtrField<v1::PackedQueryError>& errors,
    int index);

// What both views share: `count` rows over `results`' columns.
template <typename Results, typename RowType>
class PackedView {
 public:
  using Row = RowType;
  int size() const { return count_; }
  // 0 <= index < size().
  Row row(int index) const { return Row(results_, index); }
  // OK, or why query `index` was not answered.
  absl::Status status(int index) const {
    return PackedQueryStatus(results_->errors(), index);
  }

 protected:
  PackedView(const Results* results, int count)
      : results_(results), count_(count) {}

 private:
  const Results* results_;
  int count_;
};

// One query's closest hit; every value is 0 on a miss. Reads the integer
// columns the server filled: the varint ones, or the *_fixed ones when the
// batch set fixed_width_results.
class PackedCastRow {
 public:
  PackedCastRow(const v1::PackedCastResults* results, int index)
      : r_(results), i_(index), fixed_(!results->hit_status_fixed().empty()) {}
  // False on a miss (and for a refused query).
  bool hit() const { return status() != v1::HIT_STATUS_UNSPECIFIED; }
  v1::HitStatus status() const {
    return static_cast<v1::HitStatus>(fixed_ ? r_->hit_status_fixed(i_)
                                             : r_->hit_status(i_));
  }
  double fraction() const { return r_->fraction(i_); }
  Vec2 point() const { return {r_->point_x(i_), r_->point_y(i_)}; }
  Vec2 normal() const { return {r_->normal_x(i_), r_->normal_y(i_)}; }
  uint64_t shape_id() const {
    return fixed_ ? r_->shape_id_fixed(i_) : r_->shape_id(i_);
  }
  uint64_t user_data() const {
    return fixed_ ? r_->user_data_fixed(i_) : r_->user_data(i_);
  }
  v1::FeatureType feature_type() const {
    return static_cast<v1::FeatureType>(fixed_ ? r_->feature_type_fixed(i_)
                                               : r_->feature_type(i_));
  }
  int32_t feature_index() const {
    return fixed_ ? r_->feature_index_fixed(i_) : r_->feature_index(i_);
  }
  double depth() const { return r_->depth(i_); }

 private:
  const v1::PackedCastResults* r_;
  int i_;
  bool fixed_;
};

class PackedCastView : public PackedView<v1::PackedCastResults, PackedCastRow> {
 public:
  // A view of `results` (which must outlive it) for `count` queries;
  // INTERNAL naming the column when one holds another number of values
  // (of the integer columns, the set the server filled).
  static absl::StatusOr<PackedCastView> Read(
      const v1::PackedCastResults& results, int count);

 private:
  using PackedView::PackedView;
};

// One query's move validation (MoveValidationResult's scalar fields).
class PackedMoveRow {
 public:
  PackedMoveRow(const v1::PackedMoveResults* results, int index)
      : r_(results), i_(index) {}
  v1::MoveVerdict verdict() const {
    return static_cast<v1::MoveVerdict>(r_->verdict(i_));
  }
  // Whether there is a first hit (not for an allowed move).
  bool has_first_hit() const {
    return r_->first_hit_status(i_) != v1::HIT_STATUS_UNSPECIFIED;
  }
  double first_hit_fraction() const { return r_->first_hit_fraction(i_); }
  Vec2 first_hit_point() const {
    return {r_->first_hit_point_x(i_), r_->first_hit_point_y(i_)};
  }
  Vec2 first_hit_normal() const {
    return {r_->first_hit_normal_x(i_), r_->first_hit_normal_y(i_)};
  }
  uint64_t first_hit_shape_id() const { return r_->first_hit_shape_id(i_); }
  double safe_fraction() const { return r_->safe_fraction(i_); }
  Vec2 safe_translation() const {
    return {r_->safe_translation_x(i_), r_->safe_translation_y(i_)};
  }
  bool claimed_end_reachable() const { return r_->claimed_end_reachable(i_); }
  Vec2 slide_translation() const {
    return {r_->slide_translation_x(i_), r_->slide_translation_y(i_)};
  }
  Vec2 exit_translation() const {
    return {r_->exit_translation_x(i_), r_->exit_translation_y(i_)};
  }
  bool exit_separated() const { return r_->exit_separated(i_); }

 private:
  const v1::PackedMoveResults* r_;
  int i_;
};

class PackedMoveView : public PackedView<v1::PackedMoveResults, PackedMoveRow> {
 public:
  // As PackedCastView::Read.
  static absl::StatusOr<PackedMoveView> Read(
      const v1::PackedMoveResults& results, int count);

 private:
  using PackedView::PackedView;
};

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_PACKED_RESULTS_H_
