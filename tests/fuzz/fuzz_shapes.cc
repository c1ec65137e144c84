#include "tests/fuzz/fuzz_shapes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace collide::fuzz {
namespace {

// Vertices of a regular polygon: exact for 4 sides at angle 0, rounded
// otherwise (near-collinear and near-parallel edges).
std::vector<Vec2> RegularPolygon(Vec2 center, double radius, int sides,
                                 double angle) {
  std::vector<Vec2> vertices;
  for (int i = 0; i < sides; ++i) {
    const double a = angle + 2.0 * std::numbers::pi * i / sides;
    vertices.push_back(center + radius * Vec2{std::cos(a), std::sin(a)});
  }
  return vertices;
}

std::vector<Vec2> TakeVertices(FuzzInput& in, int min_count, int max_count) {
  const int count = in.TakeInt(min_count, max_count);
  std::vector<Vec2> vertices;
  for (int i = 0; i < count; ++i) vertices.push_back(in.TakeVec2());
  return vertices;
}

Segment TakeSegment(FuzzInput& in) {
  const Vec2 p1 = in.TakeVec2();
  return Segment{p1, in.TakeVec2()};
}

Circle TakeCircle(FuzzInput& in) {
  const Vec2 center = in.TakeVec2();
  return Circle{center, in.TakeNonNegative()};
}

Capsule TakeCapsule(FuzzInput& in) {
  const Segment s = TakeSegment(in);
  return Capsule{s.p1, s.p2, in.TakeNonNegative()};
}

template <typename T>
std::optional<T> FromStatusOr(absl::StatusOr<T> value) {
  if (!value.ok()) return std::nullopt;
  return *std::move(value);
}

}  // namespace

std::optional<ConvexPolygon> TakeConvexPolygon(FuzzInput& in) {
  switch (in.TakeByte() % 3) {
    case 0:
      return FromStatusOr(
          MakeConvexPolygon(TakeVertices(in, 3, kMaxPolygonVertices)));
    case 1: {
      const Vec2 center = in.TakeVec2();
      const Vec2 half_extents = in.TakeVec2();
      return FromStatusOr(MakeBox(center, half_extents, in.TakeDouble()));
    }
    default: {
      const Vec2 center = in.TakeVec2();
      const double radius = in.TakeNonNegative();
      const int sides = in.TakeInt(3, kMaxPolygonVertices);
      const double angle = in.TakeBool() ? 0.0 : in.TakeDouble();
      return FromStatusOr(
          MakeConvexPolygon(RegularPolygon(center, radius, sides, angle)));
    }
  }
}

std::optional<ConcavePolygon> TakeConcavePolygon(FuzzInput& in,
                                                 VertexStorage& storage) {
  storage.push_back(TakeVertices(in, 3, 12));
  return FromStatusOr(MakeConcavePolygon(storage.back()));
}

std::optional<Obstacle> TakeObstacle(FuzzInput& in, VertexStorage& storage) {
  switch (in.TakeByte() % 6) {
    case 0:
      return Obstacle{in.TakeVec2()};
    case 1:
      return Obstacle{TakeSegment(in)};
    case 2:
      return Obstacle{TakeCircle(in)};
    case 3:
      return Obstacle{TakeCapsule(in)};
    case 4:
      if (auto polygon = TakeConvexPolygon(in)) return Obstacle{*polygon};
      return std::nullopt;
    default:
      if (auto polygon = TakeConcavePolygon(in, storage)) {
        return Obstacle{*polygon};
      }
      return std::nullopt;
  }
}

std::optional<Mover> TakeMover(FuzzInput& in) {
  switch (in.TakeByte() % 4) {
    case 0: {
      const Vec2 origin = in.TakeVec2();
      return Mover{RayInput{origin, in.TakeVec2()}};
    }
    case 1: {
      const Circle circle = TakeCircle(in);
      return Mover{CircleCast{circle, in.TakeVec2()}};
    }
    case 2: {
      const Capsule capsule = TakeCapsule(in);
      return Mover{CapsuleCast{capsule, in.TakeVec2()}};
    }
    default:
      if (auto polygon = TakeConvexPolygon(in)) {
        return Mover{PolygonCast{*polygon, in.TakeVec2()}};
      }
      return std::nullopt;
  }
}

std::optional<BodyShape> TakeBodyShape(FuzzInput& in) {
  switch (in.TakeByte() % 3) {
    case 0:
      return BodyShape{TakeCircle(in)};
    case 1:
      return BodyShape{TakeCapsule(in)};
    default:
      if (auto polygon = TakeConvexPolygon(in)) return BodyShape{*polygon};
      return std::nullopt;
  }
}

std::optional<MovingShape> TakeMovingShape(FuzzInput& in) {
  PairShape shape;
  switch (in.TakeByte() % 5) {
    case 0:
      shape = in.TakeVec2();
      break;
    case 1:
      shape = TakeSegment(in);
      break;
    case 2:
      shape = TakeCircle(in);
      break;
    case 3:
      shape = TakeCapsule(in);
      break;
    default:
      if (auto polygon = TakeConvexPolygon(in)) {
        shape = *polygon;
      } else {
        return std::nullopt;
      }
  }
  return MovingShape{shape, in.TakeVec2()};
}

CastOptions TakeCastOptions(FuzzInput& in) {
  const uint8_t flags = in.TakeByte();
  CastOptions options;
  if ((flags & 1) != 0) options.max_fraction = in.TakeNonNegative();
  if ((flags & 2) != 0) options.target_distance = in.TakeNonNegative();
  options.stop_at_penetration = (flags & 4) != 0;
  return options;
}

std::optional<Level> TakeLevel(FuzzInput& in, VertexStorage& storage) {
  const int count = in.TakeInt(1, 8);
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < count; ++i) {
    ShapeDesc desc;
    desc.id = in.TakeByte() % 16;
    desc.category_bits = in.TakeByte() % 4;
    desc.user_data = in.TakeByte();
    switch (in.TakeByte() % 6) {
      case 0:
        desc.geometry = TakeSegment(in);
        break;
      case 1:
        storage.push_back(TakeVertices(in, 1, 12));
        desc.geometry = PolylineDesc{storage.back(), in.TakeBool()};
        break;
      case 2:
        storage.push_back(TakeVertices(in, 3, 12));
        desc.geometry = PolygonDesc{storage.back()};
        break;
      case 3:
        desc.geometry = TakeCircle(in);
        break;
      case 4: {
        const Vec2 center = in.TakeVec2();
        const Vec2 half_extents = in.TakeVec2();
        desc.geometry = BoxDesc{center, half_extents, in.TakeDouble()};
        break;
      }
      default:
        desc.geometry = TakeCapsule(in);
        break;
    }
    shapes.push_back(desc);
  }
  LevelOptions options;
  if (in.TakeBool()) options.cell_size = in.TakeNonNegative();
  return FromStatusOr(Level::Create(shapes, options));
}

QueryFilter TakeFilter(FuzzInput& in, std::vector<uint64_t>& ignore_ids) {
  QueryFilter filter;
  const uint8_t flags = in.TakeByte();
  if ((flags & 1) != 0) filter.mask_bits = in.TakeByte() % 4;
  ignore_ids.resize((flags >> 1) % 5);
  for (uint64_t& id : ignore_ids) id = in.TakeByte() % 16;
  filter.ignore_ids = ignore_ids;
  return filter;
}

}  // namespace collide::fuzz
