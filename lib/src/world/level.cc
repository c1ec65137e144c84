#include "collide/level.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "collide/number_text.h"
#include "collide/shapes.h"
#include "collide/spatial_hash.h"
#include "collide/vec2.h"
#include "sweep/axis_box.h"

namespace collide {
namespace {

absl::Status CheckFinite(double value, const std::string& field) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(absl::StrCat(field, " must be finite"));
  }
  if (std::abs(value) > kMaxCoordinate) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " must be within +-1e60, got ", NumberText(value)));
  }
  return absl::OkStatus();
}

absl::Status CheckFinite(Vec2 value, const std::string& field) {
  if (absl::Status s = CheckFinite(value.x, field + ".x"); !s.ok()) return s;
  return CheckFinite(value.y, field + ".y");
}

absl::Status CheckRadius(double radius, const std::string& field) {
  if (absl::Status s = CheckFinite(radius, field); !s.ok()) return s;
  if (radius >= 0.0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, " must be >= 0, got ", NumberText(radius)));
}

absl::Status CheckVertices(absl::Span<const Vec2> vertices, size_t minimum,
                           const std::string& field) {
  if (vertices.size() < minimum) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " must hold at least ", minimum, " vertices, got ",
                     vertices.size()));
  }
  for (size_t i = 0; i < vertices.size(); ++i) {
    if (absl::Status s =
            CheckFinite(vertices[i], absl::StrCat(field, "[", i, "]"));
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

Aabb BoundsOf(absl::Span<const Vec2> points, double radius) {
  Aabb box{points[0], points[0]};
  for (const Vec2 p : points) {
    box.lower = {std::min(box.lower.x, p.x), std::min(box.lower.y, p.y)};
    box.upper = {std::max(box.upper.x, p.x), std::max(box.upper.y, p.y)};
  }
  box.lower = box.lower - Vec2{radius, radius};
  box.upper = box.upper + Vec2{radius, radius};
  return box;
}

Aabb Union(Aabb a, Aabb b) {
  return {{std::min(a.lower.x, b.lower.x), std::min(a.lower.y, b.lower.y)},
          {std::max(a.upper.x, b.upper.x), std::max(a.upper.y, b.upper.y)}};
}

// For each shape, the index of an earlier shape with the same id, or -1.
std::vector<int32_t> EarlierDuplicates(absl::Span<const ShapeDesc> shapes) {
  std::vector<std::pair<uint64_t, int32_t>> sorted(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    sorted[i] = {shapes[i].id, static_cast<int32_t>(i)};
  }
  std::sort(sorted.begin(), sorted.end());
  std::vector<int32_t> earlier(shapes.size(), -1);
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i].first == sorted[i - 1].first) {
      // The group's first (smallest) index is the one others duplicate.
      earlier[sorted[i].second] = earlier[sorted[i - 1].second] >= 0
                                      ? earlier[sorted[i - 1].second]
                                      : sorted[i - 1].second;
    }
  }
  return earlier;
}

// The geometry's name as level files spell it.
const char* GeometryName(const ShapeGeometry& geometry) {
  constexpr const char* kNames[] = {"segment", "polyline", "polygon",
                                    "circle",  "box",      "capsule"};
  return kNames[geometry.index()];
}

}  // namespace

// Collects validated shapes into a level's arrays; one method per kind.
class LevelBuilder {
 public:
  explicit LevelBuilder(Level& level) : level_(level) {}

  absl::Status Add(int32_t index, const ShapeDesc& desc) {
    const std::string field = absl::StrCat("shapes[", index, "]");
    Level::ShapeRecord record;
    record.id = desc.id;
    record.category_bits = desc.category_bits;
    record.mask_bits = desc.mask_bits;
    record.group = desc.group;
    record.one_sided = desc.one_sided;
    record.user_data = desc.user_data;
    if (desc.one_sided && !std::holds_alternative<Segment>(desc.geometry) &&
        !std::holds_alternative<PolylineDesc>(desc.geometry)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".one_sided needs a segment or polyline, got a ",
                       GeometryName(desc.geometry)));
    }
    record.primitive = static_cast<int32_t>(level_.primitives_.size());
    absl::Status status = std::visit(
        [&](const auto& geometry) {
          return AddGeometry(index, field, geometry, record);
        },
        desc.geometry);
    if (!status.ok()) return status;
    level_.shapes_.push_back(record);
    return absl::OkStatus();
  }

  std::vector<Aabb>& primitive_bounds() { return primitive_bounds_; }
  std::vector<Aabb>& solid_bounds() { return solid_bounds_; }

 private:
  void AddPrimitive(const Level::Primitive& primitive, Aabb bounds) {
    level_.primitives_.push_back(primitive);
    primitive_bounds_.push_back(bounds);
  }

  absl::Status AddGeometry(int32_t index, const std::string& field,
                           const Segment& segment, Level::ShapeRecord& record) {
    if (absl::Status s = CheckFinite(segment.p1, field + ".segment.p1");
        !s.ok())
      return s;
    if (absl::Status s = CheckFinite(segment.p2, field + ".segment.p2");
        !s.ok())
      return s;
    record.kind = ShapeKind::kSegment;
    const Vec2 points[] = {segment.p1, segment.p2};
    AddPrimitive({.a = segment.p1,
                  .b = segment.p2,
                  .shape = index,
                  .kind = Level::PrimitiveKind::kSegment,
                  .one_sided = record.one_sided},
                 BoundsOf(points, 0.0));
    return absl::OkStatus();
  }

  absl::Status AddGeometry(int32_t index, const std::string& field,
                           const Circle& circle, Level::ShapeRecord& record) {
    if (absl::Status s = CheckFinite(circle.center, field + ".circle.center");
        !s.ok())
      return s;
    if (absl::Status s = CheckRadius(circle.radius, field + ".circle.radius");
        !s.ok())
      return s;
    record.kind = ShapeKind::kCircle;
    const Vec2 points[] = {circle.center};
    AddPrimitive({.a = circle.center,
                  .b = circle.center,
                  .radius = circle.radius,
                  .shape = index,
                  .kind = Level::PrimitiveKind::kCircle},
                 BoundsOf(points, circle.radius));
    return absl::OkStatus();
  }

  absl::Status AddGeometry(int32_t index, const std::string& field,
                           const Capsule& capsule, Level::ShapeRecord& record) {
    if (absl::Status s = CheckFinite(capsule.p1, field + ".capsule.p1");
        !s.ok())
      return s;
    if (absl::Status s = CheckFinite(capsule.p2, field + ".capsule.p2");
        !s.ok())
      return s;
    if (absl::Status s = CheckRadius(capsule.radius, field + ".capsule.radius");
        !s.ok())
      return s;
    record.kind = ShapeKind::kCapsule;
    const Vec2 points[] = {capsule.p1, capsule.p2};
    AddPrimitive({.a = capsule.p1,
                  .b = capsule.p2,
                  .radius = capsule.radius,
                  .shape = index,
                  .kind = Level::PrimitiveKind::kCapsule},
                 BoundsOf(points, capsule.radius));
    return absl::OkStatus();
  }

  absl::Status AddGeometry(int32_t index, const std::string& field,
                           const BoxDesc& box, Level::ShapeRecord& record) {
    if (absl::Status s = CheckFinite(box.center, field + ".box.center");
        !s.ok())
      return s;
    if (absl::Status s =
            CheckFinite(box.half_extents, field + ".box.half_extents");
        !s.ok())
      return s;
    if (!(box.half_extents.x > 0.0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".box.half_extents.x must be > 0, got ",
                       NumberText(box.half_extents.x)));
    }
    if (!(box.half_extents.y > 0.0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".box.half_extents.y must be > 0, got ",
                       NumberText(box.half_extents.y)));
    }
    if (absl::Status s = CheckFinite(box.angle, field + ".box.angle"); !s.ok())
      return s;
    absl::StatusOr<ConvexPolygon> polygon =
        MakeBox(box.center, box.half_extents, box.angle);
    if (!polygon.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".box: ", polygon.status().message()));
    }
    AddConvex(index, *polygon, record);
    return absl::OkStatus();
  }

  absl::Status AddGeometry(int32_t index, const std::string& field,
                           const PolylineDesc& polyline,
                           Level::ShapeRecord& record) {
    const absl::Span<const Vec2> v = polyline.vertices;
    if (absl::Status s = CheckVertices(v, polyline.closed ? 3 : 2,
                                       field + ".polyline.vertices");
        !s.ok()) {
      return s;
    }
    record.kind = ShapeKind::kPolyline;
    record.closed = polyline.closed;
    record.vertex_begin = static_cast<int32_t>(level_.vertices_.size());
    record.vertex_count = static_cast<int32_t>(v.size());
    level_.vertices_.insert(level_.vertices_.end(), v.begin(), v.end());
    const size_t n = v.size();
    const size_t segments = polyline.closed ? n : n - 1;
    for (size_t i = 0; i < segments; ++i) {
      const Vec2 points[] = {v[i], v[(i + 1) % n]};
      AddPrimitive({.a = points[0],
                    .b = points[1],
                    .shape = index,
                    .part = static_cast<int32_t>(i),
                    .kind = Level::PrimitiveKind::kPolylineEdge,
                    .one_sided = record.one_sided},
                   BoundsOf(points, 0.0));
    }
    return absl::OkStatus();
  }

  absl::Status AddGeometry(int32_t index, const std::string& field,
                           const PolygonDesc& polygon,
                           Level::ShapeRecord& record) {
    const absl::Span<const Vec2> v = polygon.vertices;
    if (absl::Status s = CheckVertices(v, 3, field + ".polygon.vertices");
        !s.ok()) {
      return s;
    }
    if (v.size() <= static_cast<size_t>(kMaxPolygonVertices)) {
      absl::StatusOr<ConvexPolygon> convex = MakeConvexPolygon(v);
      if (convex.ok()) {
        AddConvex(index, *convex, record);
        return absl::OkStatus();
      }
    }
    absl::StatusOr<ConcavePolygon> concave = MakeConcavePolygon(v);
    if (!concave.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".polygon: ", concave.status().message()));
    }
    record.kind = ShapeKind::kConcavePolygon;
    record.orientation = concave->orientation;
    record.vertex_begin = static_cast<int32_t>(level_.vertices_.size());
    record.vertex_count = static_cast<int32_t>(v.size());
    level_.vertices_.insert(level_.vertices_.end(), v.begin(), v.end());
    const size_t n = v.size();
    for (size_t i = 0; i < n; ++i) {
      const Vec2 points[] = {v[i], v[(i + 1) % n]};
      AddPrimitive({.a = points[0],
                    .b = points[1],
                    .shape = index,
                    .part = static_cast<int32_t>(i),
                    .kind = Level::PrimitiveKind::kConcaveEdge},
                   BoundsOf(points, 0.0));
    }
    level_.solid_shapes_.push_back(index);
    solid_bounds_.push_back(BoundsOf(v, 0.0));
    return absl::OkStatus();
  }

  void AddConvex(int32_t index, const ConvexPolygon& polygon,
                 Level::ShapeRecord& record) {
    record.kind = ShapeKind::kConvexPolygon;
    const auto number = static_cast<int32_t>(level_.convex_polygons_.size());
    level_.convex_polygons_.push_back(polygon);
    const Aabb bounds =
        BoundsOf(absl::MakeConstSpan(polygon.vertices.data(),
                                     static_cast<size_t>(polygon.count)),
                 0.0);
    AddPrimitive({.a = bounds.lower,
                  .b = bounds.upper,
                  .shape = index,
                  .polygon = number,
                  .kind = Level::PrimitiveKind::kConvexPolygon,
                  .box_start = static_cast<int8_t>(
                      internal::AxisBoxStart(polygon, bounds))},
                 bounds);
  }

  Level& level_;
  std::vector<Aabb> primitive_bounds_;
  std::vector<Aabb> solid_bounds_;
};

absl::StatusOr<Level> Level::Create(absl::Span<const ShapeDesc> shapes,
                                    const LevelOptions& options) {
  Level level;
  LevelBuilder builder(level);
  const std::vector<int32_t> earlier = EarlierDuplicates(shapes);
  level.shapes_.reserve(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto index = static_cast<int32_t>(i);
    if (absl::Status s = builder.Add(index, shapes[i]); !s.ok()) return s;
    if (earlier[i] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shapes[", i, "].id ", shapes[i].id,
                       " duplicates shapes[", earlier[i], "].id"));
    }
  }
  for (const ShapeDesc& shape : shapes) {
    level.common_category_bits_ &= shape.category_bits;
    level.no_empty_categories_ &= shape.category_bits != 0;
    level.common_mask_bits_ &= shape.mask_bits;
    level.no_empty_masks_ &= shape.mask_bits != 0;
    level.has_negative_group_ |= shape.group < 0;
    level.has_one_sided_ |= shape.one_sided;
  }
  level.ids_.resize(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    level.ids_[i] = {shapes[i].id, static_cast<int32_t>(i)};
  }
  std::sort(level.ids_.begin(), level.ids_.end());

  std::vector<Aabb>& bounds = builder.primitive_bounds();
  if (!bounds.empty()) {
    level.bounds_ = bounds[0];
    for (const Aabb& box : bounds) level.bounds_ = Union(level.bounds_, box);
  }
  level.SortPrimitivesAlongZOrder(bounds);
  level.PackConvexEdges();
  absl::StatusOr<SpatialHash> hash =
      SpatialHash::Build(bounds, {.cell_size = options.cell_size});
  if (!hash.ok()) return hash.status();
  level.hash_ = *std::move(hash);
  absl::StatusOr<SpatialHash> solids =
      SpatialHash::Build(builder.solid_bounds());
  if (!solids.ok()) return solids.status();
  level.solids_ = *std::move(solids);
  level.FillCellEntries(bounds);
  level.primitives_.shrink_to_fit();
  level.convex_polygons_.shrink_to_fit();
  level.vertices_.shrink_to_fit();
  level.solid_shapes_.shrink_to_fit();
  return level;
}

namespace {

// Spreads the low 16 bits of v over the even bits of the result.
uint32_t SpreadBits(uint32_t v) {
  v &= 0xFFFF;
  v = (v | (v << 8)) & 0x00FF00FF;
  v = (v | (v << 4)) & 0x0F0F0F0F;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v;
}

// Position of the box's centre on a Z-order (Morton) curve over `world`,
// quantized to a 65536 x 65536 lattice.
uint32_t ZOrderKey(Aabb box, Aabb world) {
  const auto quantize = [](double value, double lower, double upper) {
    const double extent = upper - lower;
    if (!(extent > 0.0)) return uint32_t{0};
    const double share = std::clamp((value - lower) / extent, 0.0, 1.0);
    return static_cast<uint32_t>(share * 65535.0);
  };
  const uint32_t x =
      quantize(0.5 * (box.lower.x + box.upper.x), world.lower.x, world.upper.x);
  const uint32_t y =
      quantize(0.5 * (box.lower.y + box.upper.y), world.lower.y, world.upper.y);
  return SpreadBits(x) | (SpreadBits(y) << 1);
}

}  // namespace

void Level::SortPrimitivesAlongZOrder(std::vector<Aabb>& bounds) {
  // Primitives near each other in space end up near each other in memory,
  // so the candidates one query meets share cache lines: on levels larger
  // than the cache, those misses are most of a cast's cost. Answers do not
  // depend on this order (ties break on shape id and part, not on index).
  const size_t n = primitives_.size();
  std::vector<std::pair<uint32_t, int32_t>> keyed(n);
  for (size_t i = 0; i < n; ++i) {
    keyed[i] = {ZOrderKey(bounds[i], bounds_), static_cast<int32_t>(i)};
  }
  std::stable_sort(
      keyed.begin(), keyed.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Primitive> primitives(n);
  std::vector<Aabb> sorted_bounds(n);
  std::vector<int32_t> new_index(n);
  for (size_t k = 0; k < n; ++k) {
    const int32_t old = keyed[k].second;
    primitives[k] = primitives_[old];
    sorted_bounds[k] = bounds[old];
    new_index[old] = static_cast<int32_t>(k);
  }
  for (ShapeRecord& record : shapes_) {
    if (record.primitive < static_cast<int32_t>(n)) {
      record.primitive = new_index[record.primitive];
    }
  }
  primitives_ = std::move(primitives);
  bounds = std::move(sorted_bounds);
}

void Level::PackConvexEdges() {
  for (Primitive& p : primitives_) {
    if (p.kind != PrimitiveKind::kConvexPolygon) continue;
    const ConvexPolygon& polygon = convex_polygons_[p.polygon];
    p.vertex_count = static_cast<uint8_t>(polygon.count);
    if (p.box_start >= 0) continue;  // read from its bounds instead
    p.edge_block = static_cast<int32_t>(convex_edge_blocks_.size());
    convex_edge_blocks_.resize(convex_edge_blocks_.size() +
                               (polygon.count + 3) / 4);
    for (int i = 0; i < polygon.count; ++i) {
      convex_edge_blocks_[p.edge_block + i / 4].edges[i % 4] = {
          polygon.vertices[i], polygon.normals[i]};
    }
  }
  convex_edge_blocks_.shrink_to_fit();
}

namespace {

// The float nearest v on the side of `direction` (-inf or +inf): a bound
// that still holds after the conversion. Beyond the float range (levels
// may reach 1e60) it is the largest float or the infinity on that side;
// converting such a double to float directly would be undefined.
float RoundOutwards(double v, float direction) {
  constexpr double kLargest = std::numeric_limits<float>::max();
  if (v > kLargest)
    return direction < 0.0f ? static_cast<float>(kLargest) : direction;
  if (v < -kLargest)
    return direction < 0.0f ? direction : -static_cast<float>(kLargest);
  const auto f = static_cast<float>(v);
  const bool inside = direction < 0.0f ? static_cast<double>(f) <= v
                                       : static_cast<double>(f) >= v;
  return inside ? f : std::nextafter(f, direction);
}

}  // namespace

void Level::FillCellEntries(absl::Span<const Aabb> bounds) {
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  const absl::Span<const int32_t> entries = hash_.entries();
  cell_entries_.resize(entries.size());
  for (size_t k = 0; k < entries.size(); ++k) {
    const int32_t index = entries[k];
    const Aabb& box = bounds[index];
    cell_entries_[k] = {RoundOutwards(box.lower.x, -kInfinity),
                        RoundOutwards(box.lower.y, -kInfinity),
                        RoundOutwards(box.upper.x, kInfinity),
                        RoundOutwards(box.upper.y, kInfinity), index};
  }
}

std::optional<int> Level::FindShape(uint64_t id) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(),
                                   std::pair<uint64_t, int32_t>{id, 0});
  if (it == ids_.end() || it->first != id) return std::nullopt;
  return it->second;
}

Segment Level::segment(int shape) const {
  const Primitive& p = primitives_[shapes_[shape].primitive];
  return {p.a, p.b};
}

Circle Level::circle(int shape) const {
  const Primitive& p = primitives_[shapes_[shape].primitive];
  return {p.a, p.radius};
}

Capsule Level::capsule(int shape) const {
  const Primitive& p = primitives_[shapes_[shape].primitive];
  return {p.a, p.b, p.radius};
}

const ConvexPolygon& Level::convex_polygon(int shape) const {
  return convex_polygons_[primitives_[shapes_[shape].primitive].polygon];
}

ConcavePolygon Level::concave_polygon(int shape) const {
  const ShapeRecord& r = shapes_[shape];
  return {absl::MakeConstSpan(vertices_.data() + r.vertex_begin,
                              static_cast<size_t>(r.vertex_count)),
          r.orientation};
}

PolylineDesc Level::polyline(int shape) const {
  const ShapeRecord& r = shapes_[shape];
  return {absl::MakeConstSpan(vertices_.data() + r.vertex_begin,
                              static_cast<size_t>(r.vertex_count)),
          r.closed};
}

namespace {

// What one spatial hash item can cost at most (SpatialHash::Build): its
// rectangle and tier, its share of the entries and of the cells.
constexpr int64_t HashItemBytes(int64_t entry_bytes) {
  return static_cast<int64_t>(sizeof(CellRect)) + 1 +
         SpatialHash::kEntriesPerItem * entry_bytes +
         SpatialHash::kCellsPerItem * static_cast<int64_t>(sizeof(int32_t));
}

// A hash's cost beyond its items: the tiers' base cells (the first's
// `first_base`) and base entries, the tier records.
constexpr int64_t HashBaseBytes(int64_t entry_bytes, int64_t first_base) {
  constexpr int64_t kTiers = SpatialHash::kMaxTiers;
  return ((kTiers - 1) * SpatialHash::kCellsBase + first_base + kTiers) *
             static_cast<int64_t>(sizeof(int32_t)) +
         kTiers * SpatialHash::kCellsBase * entry_bytes +
         kTiers * static_cast<int64_t>(sizeof(SpatialHash::Tier));
}

// An entry of the primitives' hash is an index and a Level::CellEntry; of
// the solids' hash, an index.
constexpr int64_t kPrimitiveEntryBytes =
    sizeof(int32_t) + sizeof(Level::CellEntry);
constexpr int64_t kSolidEntryBytes = sizeof(int32_t);

}  // namespace

// Every shape makes at most one primitive of its own (with its record and
// id index entry), and every polyline or polygon vertex at most one more
// (an edge); a polygon or box may keep a convex polygon with two packed
// edge blocks, or be a concave polygon: an item of the solids' hash.
const int64_t Level::kShapeBytes =
    sizeof(ShapeRecord) + sizeof(std::pair<uint64_t, int32_t>) +
    sizeof(Primitive) + HashItemBytes(kPrimitiveEntryBytes);
const int64_t Level::kPolygonBytes =
    sizeof(ConvexPolygon) + 2 * sizeof(ConvexEdgeBlock) + sizeof(int32_t) +
    HashItemBytes(kSolidEntryBytes);
const int64_t Level::kChainVertexBytes =
    sizeof(Vec2) + sizeof(Primitive) + HashItemBytes(kPrimitiveEntryBytes);
// The primitives' hash may take a given cell size, the solids' never.
const int64_t Level::kBaseBytes =
    HashBaseBytes(kPrimitiveEntryBytes, SpatialHash::kGivenCellsBase) +
    HashBaseBytes(kSolidEntryBytes, SpatialHash::kCellsBase);

int64_t Level::MemoryBound(const Size& size) {
  return kShapeBytes * size.shapes + kPolygonBytes * size.polygons +
         kChainVertexBytes * size.chain_vertices + kBaseBytes;
}

size_t Level::memory_bytes() const {
  return shapes_.capacity() * sizeof(ShapeRecord) +
         primitives_.capacity() * sizeof(Primitive) +
         cell_entries_.capacity() * sizeof(CellEntry) +
         convex_polygons_.capacity() * sizeof(ConvexPolygon) +
         convex_edge_blocks_.capacity() * sizeof(ConvexEdgeBlock) +
         vertices_.capacity() * sizeof(Vec2) +
         solid_shapes_.capacity() * sizeof(int32_t) +
         ids_.capacity() * sizeof(ids_[0]) + hash_.memory_bytes() +
         solids_.memory_bytes() +
         removed_from_base_.capacity() * sizeof(uint64_t) +
         (base_ == nullptr ? 0 : base_->memory_bytes());
}

}  // namespace collide
