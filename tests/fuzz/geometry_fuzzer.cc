// Fuzz target: lib/'s geometry entry points with doubles decoded from bytes
// (FuzzInput: finite, within the accepted range +-kMaxCoordinate,
// subnormals included, biased towards degenerate values). The first byte picks
// the family:
//   0  TOI: a ray, circle, capsule or polygon cast against each static
//      obstacle kind (toi.h);
//   1  TOI against a moving obstacle (Moving<...>);
//   2  a ray against a DeformingSegment;
//   3  static tests (intersect.h);
//   4  level queries (query.h, validate.h) on a small fuzzed level;
//   5  CastPair (validate.h).
// Each lib/ call is preceded by the IsValid(...) checks its preconditions
// name; results are checked against the contract (fraction in range,
// finite point, a unit normal, overlap only at fraction 0, list sizes).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "collide/intersect.h"
#include "collide/level.h"
#include "collide/query.h"
#include "collide/shapes.h"
#include "collide/toi.h"
#include "collide/validate.h"
#include "collide/vec2.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/fuzz_shapes.h"

namespace collide::fuzz {
namespace {

bool IsUnit(Vec2 v) { return std::abs(Length(v) - 1.0) <= 1e-6; }

// The contract every TOI result keeps (toi.h), degenerate contacts (a zero
// radius circle or a ray meeting a vertex exactly, a touching start on a
// point, a square that underflows) included.
void CheckHit(const std::optional<Hit>& hit, const CastOptions& options) {
  if (!hit) return;
  const bool in_range =
      hit->fraction >= 0.0 && hit->fraction <= options.max_fraction;
  const bool finite = IsFinite(hit->point) && std::isfinite(hit->depth);
  const bool unit_normal = IsUnit(hit->normal);
  const bool depth_ok = hit->depth >= 0.0;
  const bool overlap_at_zero =
      hit->status != HitStatus::kInitialOverlap || hit->fraction == 0.0;
  if (!(in_range && finite && unit_normal && depth_ok && overlap_at_zero)) {
    // What the failed check saw, for the report.
    std::fprintf(stderr,
                 "hit: fraction %.17g point (%.17g, %.17g) normal (%.17g, "
                 "%.17g) depth %.17g feature %d/%d status %d\n",
                 hit->fraction, hit->point.x, hit->point.y, hit->normal.x,
                 hit->normal.y, hit->depth, static_cast<int>(hit->feature.type),
                 hit->feature.index, static_cast<int>(hit->status));
  }
  FUZZ_CHECK(in_range);
  FUZZ_CHECK(finite);
  FUZZ_CHECK(unit_normal);
  FUZZ_CHECK(depth_ok);
  FUZZ_CHECK(overlap_at_zero);
}

// One name for the four cast families, so that a generic lambda can ask
// whether lib/ has an overload for a (mover, target) pair.
template <typename T>
requires requires(const RayInput& m, const T& t, const CastOptions& o) {
  CastRay(m, t, o);
}
std::optional<Hit> Cast(const RayInput& m, const T& t, const CastOptions& o) {
  return CastRay(m, t, o);
}
template <typename T>
requires requires(const CircleCast& m, const T& t, const CastOptions& o) {
  CastCircle(m, t, o);
}
std::optional<Hit> Cast(const CircleCast& m, const T& t, const CastOptions& o) {
  return CastCircle(m, t, o);
}
template <typename T>
requires requires(const CapsuleCast& m, const T& t, const CastOptions& o) {
  CastCapsule(m, t, o);
}
std::optional<Hit> Cast(const CapsuleCast& m, const T& t,
                        const CastOptions& o) {
  return CastCapsule(m, t, o);
}
template <typename T>
requires requires(const PolygonCast& m, const T& t, const CastOptions& o) {
  CastPolygon(m, t, o);
}
std::optional<Hit> Cast(const PolygonCast& m, const T& t,
                        const CastOptions& o) {
  return CastPolygon(m, t, o);
}

void FuzzCast(FuzzInput& in, bool moving_obstacle) {
  VertexStorage storage;
  const std::optional<Mover> mover = TakeMover(in);
  if (!mover) return;
  const std::optional<Obstacle> obstacle = TakeObstacle(in, storage);
  if (!obstacle) return;
  const Vec2 obstacle_translation = moving_obstacle ? in.TakeVec2() : Vec2{};
  const CastOptions options = TakeCastOptions(in);
  if (!IsValid(options)) return;
  std::visit(
      [&](const auto& m, const auto& target) {
        if (!IsValid(m) || !IsValid(target)) return;
        if (moving_obstacle) {
          using Target = std::decay_t<decltype(target)>;
          const Moving<Target> moving{target, obstacle_translation};
          if (!IsValid(obstacle_translation)) return;
          if constexpr (requires { Cast(m, moving, options); }) {
            CheckHit(Cast(m, moving, options), options);
          }
        } else if constexpr (requires { Cast(m, target, options); }) {
          CheckHit(Cast(m, target, options), options);
        }
      },
      *mover, *obstacle);
}

void FuzzDeforming(FuzzInput& in) {
  const Vec2 origin = in.TakeVec2();
  const RayInput ray{origin, in.TakeVec2()};
  const Vec2 p1 = in.TakeVec2();
  const Vec2 p2 = in.TakeVec2();
  const Vec2 q1 = in.TakeVec2();
  const DeformingSegment segment{{p1, p2}, {q1, in.TakeVec2()}};
  CastOptions options = TakeCastOptions(in);
  options.target_distance = 0.0;  // DeformingSegment takes no skin
  if (!IsValid(ray) || !IsValid(segment) || !IsValid(options)) return;
  CheckHit(CastRay(ray, segment, options), options);
}

void FuzzIntersect(FuzzInput& in) {
  VertexStorage storage;
  switch (in.TakeByte() % 4) {
    case 0: {
      const Vec2 a1 = in.TakeVec2();
      const Vec2 a2 = in.TakeVec2();
      const Vec2 b1 = in.TakeVec2();
      const Segment a{a1, a2};
      const Segment b{b1, in.TakeVec2()};
      if (!IsValid(a) || !IsValid(b)) return;
      if (const auto crossing = IntersectSegments(a, b)) {
        FUZZ_CHECK(crossing->fraction_a >= 0.0 && crossing->fraction_a <= 1.0);
        FUZZ_CHECK(crossing->fraction_b >= 0.0 && crossing->fraction_b <= 1.0);
        FUZZ_CHECK(IsFinite(crossing->start) && IsFinite(crossing->end));
      }
      return;
    }
    case 1: {
      const Vec2 p1 = in.TakeVec2();
      const Vec2 p2 = in.TakeVec2();
      const Vec2 center = in.TakeVec2();
      const Circle circle{center, in.TakeNonNegative()};
      const Segment segment{p1, p2};
      if (!IsValid(segment) || !IsValid(circle)) return;
      const bool line = in.TakeBool();
      if (line && p1 == p2) return;  // a line needs two distinct points
      const CircleCrossings crossings =
          line ? IntersectLineCircle(segment, circle)
               : IntersectSegmentCircle(segment, circle);
      FUZZ_CHECK(crossings.count >= 0 && crossings.count <= 2);
      for (int i = 0; i < crossings.count; ++i) {
        FUZZ_CHECK(IsFinite(crossings.points[static_cast<size_t>(i)]));
        if (!line) {
          const double f = crossings.fractions[static_cast<size_t>(i)];
          FUZZ_CHECK(f >= 0.0 && f <= 1.0);
        }
      }
      return;
    }
    case 2: {
      const std::optional<Obstacle> shape = TakeObstacle(in, storage);
      const Vec2 point = in.TakeVec2();
      if (!shape || !IsValid(point)) return;
      if (const auto* convex = std::get_if<ConvexPolygon>(&*shape)) {
        if (IsValid(*convex)) (void)ContainsPoint(*convex, point);
      } else if (const auto* concave = std::get_if<ConcavePolygon>(&*shape)) {
        if (IsValid(*concave)) (void)ContainsPoint(*concave, point);
      }
      return;
    }
    default: {
      const std::optional<Obstacle> a = TakeObstacle(in, storage);
      if (!a) return;
      const std::optional<Obstacle> b = TakeObstacle(in, storage);
      if (!b) return;
      std::visit(
          [](const auto& x, const auto& y) {
            if (!IsValid(x) || !IsValid(y)) return;
            if constexpr (requires { Overlaps(x, y); }) {
              (void)Overlaps(x, y);
            } else {
              (void)Overlaps(y, x);
            }
          },
          *a, *b);
      return;
    }
  }
}

void CheckList(ListResult result, size_t capacity) {
  FUZZ_CHECK(result.count >= 0 &&
             static_cast<size_t>(result.count) <= capacity);
}

void FuzzLevelQuery(FuzzInput& in, const Level& level) {
  std::vector<uint64_t> ignore_ids;
  const QueryFilter filter = TakeFilter(in, ignore_ids);
  const CastOptions options = TakeCastOptions(in);
  if (!IsValid(options)) return;
  std::array<WorldHit, 8> hit_storage;
  std::array<ShapeRef, 8> ref_storage;
  const absl::Span<WorldHit> hits = absl::MakeSpan(hit_storage);
  const absl::Span<ShapeRef> refs = absl::MakeSpan(ref_storage);
  const uint8_t kind = in.TakeByte();
  switch (kind % 6) {
    case 0:  // closest and all-hits casts
    case 1: {
      const std::optional<Mover> mover = TakeMover(in);
      if (!mover) return;
      const bool all = kind % 6 == 1;
      std::visit(
          [&](const auto& m) {
            if (!IsValid(m)) return;
            using M = std::decay_t<decltype(m)>;
            std::optional<WorldHit> hit;
            ListResult list;
            if constexpr (std::is_same_v<M, RayInput>) {
              all ? (void)(list = CastRayAll(m, level, hits, filter, options))
                  : (void)(hit = CastRay(m, level, filter, options));
            } else if constexpr (std::is_same_v<M, CircleCast>) {
              all ? (void)(list =
                               CastCircleAll(m, level, hits, filter, options))
                  : (void)(hit = CastCircle(m, level, filter, options));
            } else if constexpr (std::is_same_v<M, CapsuleCast>) {
              all ? (void)(list =
                               CastCapsuleAll(m, level, hits, filter, options))
                  : (void)(hit = CastCapsule(m, level, filter, options));
            } else {
              all ? (void)(list =
                               CastPolygonAll(m, level, hits, filter, options))
                  : (void)(hit = CastPolygon(m, level, filter, options));
            }
            if (hit) CheckHit(hit->hit, options);
            CheckList(list, hits.size());
            for (int i = 0; i < list.count; ++i) {
              CheckHit(hits[static_cast<size_t>(i)].hit, options);
            }
          },
          *mover);
      return;
    }
    case 2: {  // overlaps
      const std::optional<BodyShape> shape = TakeBodyShape(in);
      if (!shape || !IsValid(*shape)) return;
      const ListResult list = std::visit(
          [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Circle>) {
              return OverlapCircle(s, level, refs, filter);
            } else if constexpr (std::is_same_v<S, Capsule>) {
              return OverlapCapsule(s, level, refs, filter);
            } else {
              return OverlapPolygon(s, level, refs, filter);
            }
          },
          *shape);
      CheckList(list, refs.size());
      return;
    }
    case 3: {  // closest point
      const Vec2 point = in.TakeVec2();
      // No bound half the time (the server's default).
      const double max_distance = in.TakeBool()
                                      ? std::numeric_limits<double>::infinity()
                                      : in.TakeNonNegative();
      if (!IsValid(point)) return;
      if (const auto closest =
              ClosestPoint(point, level, max_distance, filter)) {
        FUZZ_CHECK(closest->distance >= 0.0 &&
                   closest->distance <= max_distance);
        FUZZ_CHECK(IsFinite(closest->point));
      }
      return;
    }
    case 4: {  // move validation
      const std::optional<BodyShape> mover = TakeBodyShape(in);
      if (!mover) return;
      const MoveClaim claim{*mover, in.TakeVec2()};
      MoveOptions move_options;
      move_options.skin = in.TakeBool() ? 0.0 : in.TakeNonNegative();
      move_options.max_slide_iterations = in.TakeInt(0, kMaxSlideIterations);
      move_options.max_exit_iterations = in.TakeInt(0, kMaxExitIterations);
      if (!IsValid(claim) || !IsValid(move_options)) return;
      const MoveValidation validation =
          ValidateMove(claim, level, filter, move_options);
      FUZZ_CHECK(validation.safe_fraction >= 0.0 &&
                 validation.safe_fraction <= 1.0);
      FUZZ_CHECK(IsFinite(validation.safe_translation));
      return;
    }
    default: {  // hit validation
      const Vec2 origin = in.TakeVec2();
      const Vec2 translation = in.TakeVec2();
      const Shot shot{origin, translation, in.TakeNonNegative()};
      std::vector<ShotTarget> targets;
      const int count = in.TakeInt(0, 4);
      for (int i = 0; i < count; ++i) {
        std::optional<BodyShape> hitbox = TakeBodyShape(in);
        if (!hitbox) return;
        targets.push_back(
            ShotTarget{static_cast<uint64_t>(i), *hitbox, in.TakeVec2()});
        if (!IsValid(targets.back())) return;
      }
      if (!IsValid(shot)) return;
      if (const auto hit = ValidateShot(shot, level, targets, filter)) {
        CheckHit(hit->hit, kDefaultCastOptions);
        if (hit->kind == ShotHitKind::kTarget) {
          FUZZ_CHECK(hit->target_index >= 0 && hit->target_index < count);
        }
      }
      return;
    }
  }
}

void FuzzLevel(FuzzInput& in) {
  VertexStorage storage;
  const std::optional<Level> level = TakeLevel(in, storage);
  if (!level) return;
  // Several queries per level: building it costs more than a query.
  for (int i = 0; i < 8 && !in.empty(); ++i) FuzzLevelQuery(in, *level);
}

void FuzzCastPair(FuzzInput& in) {
  const std::optional<MovingShape> a = TakeMovingShape(in);
  if (!a) return;
  const std::optional<MovingShape> b = TakeMovingShape(in);
  if (!b) return;
  const CastOptions options = TakeCastOptions(in);
  if (!IsValid(*a) || !IsValid(*b) || !IsValid(options)) return;
  CheckHit(CastPair(*a, *b, options), options);
}

}  // namespace
}  // namespace collide::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  collide::fuzz::FuzzInput in(data, size);
  switch (in.TakeByte() % 6) {
    case 0:
      collide::fuzz::FuzzCast(in, /*moving_obstacle=*/false);
      break;
    case 1:
      collide::fuzz::FuzzCast(in, /*moving_obstacle=*/true);
      break;
    case 2:
      collide::fuzz::FuzzDeforming(in);
      break;
    case 3:
      collide::fuzz::FuzzIntersect(in);
      break;
    case 4:
      collide::fuzz::FuzzLevel(in);
      break;
    default:
      collide::fuzz::FuzzCastPair(in);
      break;
  }
  return 0;
}
