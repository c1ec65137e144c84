// Internal: the walk over the grid cells a moving box sweeps, shared by
// SpatialHash::VisitSweep and the world casts (world/cast.cc). It is a template
// so that each caller's per-cell work is inlined into the walk: a cast
// visits tens of cells, and an indirect call per candidate cost as much as
// the candidate's own rejection test.
#ifndef COLLIDE_LIB_SRC_WORLD_SWEPT_CELLS_H_
#define COLLIDE_LIB_SRC_WORLD_SWEPT_CELLS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "absl/base/attributes.h"
#include "collide/spatial_hash.h"
#include "collide/vec2.h"

namespace collide::internal {

// Walks widen the query by this share of the coordinates' scale, so that a
// rounding difference between where an item's box was filed and where the
// walk computes a cell boundary can never drop an item (walks are
// conservative; the exact test is the caller's). It also absorbs the
// rounding of the walk's products by reciprocals in place of divisions.
inline constexpr double kWalkMarginShare = 1e-9;

inline double WalkMaxAbs(Vec2 v) {
  return std::max(std::abs(v.x), std::abs(v.y));
}

// floor((v - origin) / cell_size) clamped to [-1, count]: -1 and count mean
// "before" and "after" the grid. Computed with the reciprocal of the cell
// size, which the walk's margin covers.
inline int32_t WalkCellIndex(double v, double origin, double inverse_size,
                             int32_t count) {
  const double c = (v - origin) * inverse_size;
  if (!(c > -1.0)) return -1;  // also catches NaN
  if (c >= static_cast<double>(count)) return count;
  const auto i = static_cast<int32_t>(c);      // truncates towards zero
  return c < static_cast<double>(i) ? -1 : i;  // c in (-1, 0)
}

// One column of a walk (a row of the grid when the motion is mostly
// vertical: "columns" run along the motion's major axis u, "rows" along the
// other axis v). The walk meets cells u, v0..v1 of it, clipped to the grid.
struct SweptColumn {
  bool major_x = true;  // u is x (columns) or y (rows)
  int32_t u = 0;
  int32_t v0 = 0;
  int32_t v1 = -1;
  // The grid cell index (y * columns + x) of (u, v) is base + v * stride.
  int64_t base = 0;
  int64_t stride = 1;

  int64_t Cell(int32_t v) const { return base + v * stride; }
};

// The cells swept by `box` translated by t * translation for t in [0,
// max_fraction], column by column along the motion's major axis, i.e. in
// order of the time the swept box first reaches each column: a 2D DDA of
// the box's path. Zero motion gives the box's own cells, column by column
// in x. Use: `while (walk.Next(limit, column)) { ... }`, limit (>= 0) being
// the fraction after which the caller needs nothing more: the walk ends as
// soon as the next column starts after it. The box is widened by a margin
// (kWalkMarginShare of the coordinates' scale), so the walk is
// conservative: it may list cells the box only nearly reaches.
//
// Per column everything is linear in the column index c, in cell units, so
// a step costs a few products: the box enters column c at t_raw(c) = enter0
// + c * enter_step and leaves it t_width later; over that interval (clamped
// to [0, max_fraction]) its lower side spans v from the earlier time when
// rising (the later when falling), and its upper side conversely, which
// makes each row bound a line in c clamped at the motion's start or end.
// The rounding of these few operations is far below the margin.
class SweptColumns {
 public:
  SweptColumns(const GridSpec& grid, Aabb box, Vec2 translation,
               double max_fraction)
      : SweptColumns(grid, 1.0 / grid.cell_size, box, translation,
                     {1.0 / translation.x, 1.0 / translation.y}, max_fraction) {
  }

  // The same with the reciprocals of the cell size and of the translation's
  // components given (a caster has them already): the divisions are the
  // slowest steps of a walk's setup, and on its critical path. Inlined into
  // the caller: out of line, passing the box and spilling the walk's state
  // cost about 60 instructions of a cast's 900.
  ABSL_ATTRIBUTE_ALWAYS_INLINE SweptColumns(const GridSpec& grid,
                                            double inverse_cell_size, Aabb box,
                                            Vec2 translation,
                                            Vec2 inverse_translation,
                                            double max_fraction) {
    const Vec2 d = max_fraction * translation;
    const double m =
        kWalkMarginShare * (WalkMaxAbs(box.lower) + WalkMaxAbs(box.upper) +
                            WalkMaxAbs(d) + WalkMaxAbs(grid.origin));
    const double s = grid.cell_size;
    const double inverse_s = inverse_cell_size;
    const bool moving = d != Vec2{};
    // At rest, "columns" are x.
    const bool major_x =
        !moving || std::abs(translation.x) >= std::abs(translation.y);
    // Everything below is in (u, v): x and y swapped once when the motion
    // is mostly vertical.
    Vec2 lower = box.lower - Vec2{m, m};
    Vec2 upper = box.upper + Vec2{m, m};
    Vec2 origin = grid.origin;
    int32_t nu = grid.columns;
    int32_t nv = grid.rows;
    if (!major_x) {
      std::swap(lower.x, lower.y);
      std::swap(upper.x, upper.y);
      std::swap(origin.x, origin.y);
      std::swap(translation.x, translation.y);
      std::swap(inverse_translation.x, inverse_translation.y);
      std::swap(nu, nv);
    }
    column_.major_x = major_x;
    column_.stride = major_x ? grid.columns : 1;
    u_stride_ = major_x ? 1 : grid.columns;
    rows_ = static_cast<double>(nv);
    last_row_ = static_cast<double>(nv - 1);
    // The box's sides along v at t = 0, in cell units.
    const double lower_v = (lower.y - origin.y) * inverse_s;
    const double upper_v = (upper.y - origin.y) * inverse_s;
    const double lu = lower.x, hu = upper.x;
    if (!moving) {
      c_ = std::max(WalkCellIndex(lu, origin.x, inverse_s, nu), 0);
      last_ = std::min(WalkCellIndex(hu, origin.x, inverse_s, nu), nu - 1);
      done_ = c_ > last_;
      lower_start_ = lower_floor_ = lower_v;
      upper_start_ = upper_ceiling_ = upper_v;
      return;
    }
    const double du = translation.x;
    const double dv = translation.y;
    step_ = du > 0.0 ? 1 : -1;
    const double inverse_du = inverse_translation.x;
    // Columns from the one holding the box's trailing side at t = 0 to the
    // one holding its leading side at the end.
    if (step_ > 0) {
      c_ = std::max(WalkCellIndex(lu, origin.x, inverse_s, nu), 0);
      last_ = std::min(
          WalkCellIndex(hu + max_fraction * du, origin.x, inverse_s, nu),
          nu - 1);
    } else {
      c_ = std::min(WalkCellIndex(hu, origin.x, inverse_s, nu), nu - 1);
      last_ = std::max(
          WalkCellIndex(lu + max_fraction * du, origin.x, inverse_s, nu), 0);
    }
    done_ = (last_ - c_) * step_ < 0;
    // Moving towards +u the box enters column c when its upper side reaches
    // the column's lower boundary; towards -u, its lower side the upper
    // boundary.
    const double enter0 = step_ > 0 ? (origin.x - hu) * inverse_du
                                    : (origin.x + s - lu) * inverse_du;
    enter0_ = enter0;
    enter_step_ = s * inverse_du;
    const double leave0 = enter0 + (s + (hu - lu)) * std::abs(inverse_du);
    const double rate = dv * inverse_s;
    v_step_ = enter_step_ * rate;
    const bool rising = dv >= 0.0;
    lower_start_ = lower_v + (rising ? enter0 : leave0) * rate;
    upper_start_ = upper_v + (rising ? leave0 : enter0) * rate;
    lower_floor_ = rising ? lower_v : lower_v + max_fraction * rate;
    upper_ceiling_ = rising ? upper_v + max_fraction * rate : upper_v;
  }

  // The time the box enters the column Next returns next (conservatively:
  // within the walk's margin), or +infinity when none is left. No contact
  // in a later column comes before it, so a caller may wait until then with
  // candidates that come after it (at rest, 0: every column is entered at
  // once).
  double NextEnter() const {
    if (done_) return std::numeric_limits<double>::infinity();
    return enter0_ + static_cast<double>(c_) * enter_step_;
  }

  // The next column, if any is left that the box reaches no later than
  // `limit`.
  bool Next(double limit, SweptColumn& column) {
    if (done_) return false;
    const double c = static_cast<double>(c_);
    // Every later column starts later still.
    if (enter0_ + c * enter_step_ > limit) return false;
    const double cv = c * v_step_;
    // Row bounds; a NaN (only from overflowing input) gives every row.
    const double v_lo = std::max(lower_floor_, lower_start_ + cv);
    const double v_hi = std::min(upper_ceiling_, upper_start_ + cv);
    column_.u = c_;
    // Truncation is floor on the clamped, non-negative v_lo; on v_hi it may
    // round a bound in (-1, 0) up to row 0, an extra cell at worst.
    column_.v0 = static_cast<int32_t>(std::min(rows_, std::max(0.0, v_lo)));
    column_.v1 =
        static_cast<int32_t>(std::max(-1.0, std::min(last_row_, v_hi)));
    column_.base = c_ * u_stride_;
    column = column_;
    done_ = c_ == last_;
    c_ += step_;
    return true;
  }

 private:
  SweptColumn column_;
  int64_t u_stride_ = 1;
  int32_t c_ = 0;
  int32_t last_ = -1;
  int32_t step_ = 1;
  bool done_ = true;
  double rows_ = 0.0;
  double last_row_ = 0.0;
  // Column c is entered at enter0_ + c * enter_step_ (all zero at rest).
  double enter0_ = 0.0;
  double enter_step_ = 0.0;
  // Row bounds of column c in cell units: max(lower_floor_, lower_start_ +
  // c * v_step_) and min(upper_ceiling_, upper_start_ + c * v_step_).
  double v_step_ = 0.0;
  double lower_start_ = 0.0;
  double lower_floor_ = 0.0;
  double upper_start_ = 0.0;
  double upper_ceiling_ = 0.0;
};

}  // namespace collide::internal

#endif  // COLLIDE_LIB_SRC_WORLD_SWEPT_CELLS_H_
