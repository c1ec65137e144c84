// Level: the static geometry a query service holds, built once from shape
// descriptions into flat arrays plus a spatial hash, then immutable. A built
// level keeps no mutable state (no caches), so any number of threads may
// query one level at once without locks; every query's scratch state lives
// in the query's own stack frame. Coordinates are level units.
#ifndef COLLIDE_LEVEL_H_
#define COLLIDE_LEVEL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "collide/shapes.h"
#include "collide/spatial_hash.h"
#include "collide/vec2.h"

namespace collide {

// A chain of segments through `vertices` (at least 2 points; at least 3 when
// closed). closed adds the segment from the last vertex back to the first.
// Repeated consecutive vertices are allowed (a zero-length segment is a
// point). Features: edge i is the segment vertices[i] -> vertices[i + 1]
// (the closing segment is edge count-1), vertex j is vertices[j].
struct PolylineDesc {
  absl::Span<const Vec2> vertices;
  bool closed = false;
};

// A solid simple polygon in either winding (any vertex count >= 3, non-zero
// area, no crossing or touching edges). A convex one of at most
// kMaxPolygonVertices vertices is stored as a ConvexPolygon (MakeConvexPolygon
// reverses clockwise input, so its features then count from the reversed
// order); any other is stored as a ConcavePolygon over a copy of the
// vertices in the order given, with the semantics of the ConcavePolygon
// casts in toi.h (solid: starting inside is an initial overlap).
struct PolygonDesc {
  absl::Span<const Vec2> vertices;
};

// A solid rectangle: half_extents > 0, rotated by angle radians
// counter-clockwise about center. Stored as the ConvexPolygon of MakeBox.
struct BoxDesc {
  Vec2 center;
  Vec2 half_extents;
  double angle = 0.0;
};

// The geometry of one level shape. Spans in it are read only during
// Level::Create, which copies what it keeps.
using ShapeGeometry =
    std::variant<Segment, PolylineDesc, PolygonDesc, Circle, BoxDesc, Capsule>;

// One shape of a level as the caller describes it.
struct ShapeDesc {
  // The caller's name for the shape, unique within the level; queries
  // report it, and ties between shapes break on it (smallest first).
  uint64_t id = 0;
  // Which categories the shape belongs to; a query's QueryFilter::mask_bits
  // must share a bit with these for the shape to count.
  uint64_t category_bits = 1;
  // Opaque to collide; returned with every result naming the shape.
  uint64_t user_data = 0;
  ShapeGeometry geometry;
  // Which query categories the shape blocks: a query's
  // QueryFilter::category_bits must share a bit with these for the shape to
  // count. The default blocks every query.
  uint64_t mask_bits = ~uint64_t{0};
  // Box2D's group index against the query's QueryFilter::group: when both
  // are the same nonzero value, a positive group always counts and a
  // negative one never does, whatever the bits (see QueryFilter). 0: no
  // group.
  int32_t group = 0;
  // Segments and polylines only (InvalidArgumentError otherwise): the shape
  // blocks only what moves into it from its front, the left of p1 -> p2
  // (of each polyline segment's vertices[i] -> vertices[i + 1]); see
  // query.h for what each query kind does with it.
  bool one_sided = false;
};

struct LevelOptions {
  // Side of the spatial hash's finest square cells in level units; 0 picks
  // one from the geometry (see SpatialHash::Build). A given size must be
  // finite and > 0 (InvalidArgumentError), and give a grid within the
  // hash's cell limit (ResourceExhaustedError): the hash's memory is
  // bounded by the shapes' parts whatever the size.
  double cell_size = 0.0;
};

// How a level stores a shape (ShapeDesc boxes become kConvexPolygon, and
// polygons kConvexPolygon or kConcavePolygon).
enum class ShapeKind : uint8_t {
  kSegment,
  kPolyline,
  kConvexPolygon,
  kConcavePolygon,
  kCircle,
  kCapsule,
};

// An immutable level. Cheap to move, not copyable (build one and share it
// by const reference or shared_ptr<const Level>).
class Level {
 public:
  // Validates `shapes` and builds the level. Errors are InvalidArgumentError
  // naming the shape and field, e.g. "shapes[12].polygon.vertices[3].x must
  // be finite", "shapes[4].id 17 duplicates shapes[2].id",
  // "shapes[3].circle.radius must be >= 0". An empty level is valid (every
  // query misses).
  static absl::StatusOr<Level> Create(absl::Span<const ShapeDesc> shapes,
                                      const LevelOptions& options = {});

  // A patched level: `base`'s shapes without those whose ids are in
  // `removed_ids`, plus `added`, answering every query of query.h and
  // validate.h bitwise as Level::Create of those shapes would (results do
  // not depend on shape order or cell size). It shares `base` (kept alive
  // here) and builds only `added` into a level of its own, so its cost is
  // that of `added` plus one bit per base shape, whatever base's size; the
  // removed shapes are skipped by a bit test in the query paths. Errors
  // (InvalidArgumentError): base is null or itself patched ("base ..."),
  // an id of removed_ids not in base or repeated ("removed_ids[2] 17 ..."),
  // an added shape invalid as in Create ("shapes[i]..." indexing `added`)
  // or with the id of a base shape not removed ("shapes[1].id 9 is a
  // base shape not removed"). To patch a patched level again, patch its
  // base() with the accumulated removals and additions.
  static absl::StatusOr<Level> Patch(std::shared_ptr<const Level> base,
                                     absl::Span<const uint64_t> removed_ids,
                                     absl::Span<const ShapeDesc> added,
                                     const LevelOptions& options = {});

  Level(Level&&) = default;
  Level& operator=(Level&&) = default;
  Level(const Level&) = delete;
  Level& operator=(const Level&) = delete;

  // The level a patched level builds on, or null for a level from Create.
  // A patched level's shape accessors below (shape_count, id, kind,
  // FindShape, the geometry, primitives and hashes) describe its own layer
  // only, the `added` shapes of Patch; base() holds the rest, less the
  // shapes RemovedFromBase. The queries of query.h handle both layers.
  const Level* base() const { return base_.get(); }
  // Bit i set: base() shape i is not part of this level (64 shapes to a
  // word, shape i in bit i % 64 of word i / 64). Empty without a base.
  absl::Span<const uint64_t> removed_from_base() const {
    return removed_from_base_;
  }
  // The shapes this level answers for, base layer included.
  int total_shape_count() const {
    return shape_count() + (base_ == nullptr ? 0 : base_->shape_count()) -
           removed_count_;
  }

  // Number of shapes, in the order given to Create (shape index 0..n-1).
  int shape_count() const { return static_cast<int>(shapes_.size()); }
  uint64_t id(int shape) const { return shapes_[shape].id; }
  uint64_t category_bits(int shape) const {
    return shapes_[shape].category_bits;
  }
  uint64_t mask_bits(int shape) const { return shapes_[shape].mask_bits; }
  int32_t group(int shape) const { return shapes_[shape].group; }
  bool one_sided(int shape) const { return shapes_[shape].one_sided; }
  uint64_t user_data(int shape) const { return shapes_[shape].user_data; }
  ShapeKind kind(int shape) const { return shapes_[shape].kind; }
  // Whether a query of these mask bits, category bits and group counts
  // every shape (see QueryFilter), by a quick test that may answer false
  // when it is true (queries then skip asking per shape).
  bool EveryShapePasses(uint64_t mask_bits, uint64_t category_bits,
                        int32_t group) const {
    return ((common_category_bits_ & mask_bits) != 0 ||
            (mask_bits == ~uint64_t{0} && no_empty_categories_)) &&
           ((common_mask_bits_ & category_bits) != 0 ||
            (category_bits == ~uint64_t{0} && no_empty_masks_)) &&
           (group >= 0 || !has_negative_group_);
  }
  // Whether any shape is one-sided.
  bool has_one_sided() const { return has_one_sided_; }
  // A hint with no effect on results: starts loading shape's record (id,
  // category, user data) into the cache, so a query that will report the
  // shape need not wait for it at the end.
  void PrefetchShape(int shape) const { __builtin_prefetch(&shapes_[shape]); }
  // The shape index of caller id `id`, or nullopt. O(log n).
  std::optional<int> FindShape(uint64_t id) const;

  // The stored geometry of a shape; each precondition is kind(shape) ==
  // the matching ShapeKind.
  Segment segment(int shape) const;
  Circle circle(int shape) const;
  Capsule capsule(int shape) const;
  const ConvexPolygon& convex_polygon(int shape) const;
  // A view into the level's own copy of the vertices.
  ConcavePolygon concave_polygon(int shape) const;
  // The polyline's vertices and whether it is closed.
  PolylineDesc polyline(int shape) const;

  // Union of every shape's bounds (all zero for an empty level). A patched
  // level's is the union of its own layer's and its base's, which may still
  // cover where removed shapes were.
  Aabb bounds() const { return bounds_; }
  // The broad phase over primitives (see below).
  const SpatialHash& spatial_hash() const { return hash_; }
  // Heap bytes owned by the level, spatial hash included (and those of its
  // base, which a patched level keeps alive).
  size_t memory_bytes() const;
  // What a level's memory bound depends on.
  struct Size {
    int64_t shapes = 0;
    // Polygons and boxes (each may keep a ConvexPolygon).
    int64_t polygons = 0;
    // Vertices of polylines and polygons (each may start an edge).
    int64_t chain_vertices = 0;
  };
  // An upper bound on memory_bytes() of any level of that size, whatever
  // its coordinates and cell size: kShapeBytes per shape, kPolygonBytes
  // more per polygon or box, kChainVertexBytes per polyline or polygon
  // vertex, and kBaseBytes. Lets a caller refuse a level before building.
  static int64_t MemoryBound(const Size& size);
  static const int64_t kShapeBytes;
  static const int64_t kPolygonBytes;
  static const int64_t kChainVertexBytes;
  static const int64_t kBaseBytes;

  // --- Primitives: what the spatial hash indexes. A segment, circle,
  // capsule or convex polygon shape is one primitive; a polyline is one
  // primitive per segment and a concave polygon one per edge (its interior
  // is found through solids()). Queries use these; most callers need not.
  enum class PrimitiveKind : uint8_t {
    kSegment,        // a, b
    kCircle,         // a = centre, radius
    kCapsule,        // a, b, radius
    kConvexPolygon,  // convex polygon number `polygon`; a, b = its bounds
    kPolylineEdge,   // a, b; part = segment index within the polyline
    kConcaveEdge,    // a, b; part = edge index within the polygon
  };
  // One cache line each, so a candidate's test reads one line.
  struct alignas(64) Primitive {
    Vec2 a;
    Vec2 b;
    double radius = 0.0;
    int32_t shape = 0;
    int32_t part = 0;
    int32_t polygon = 0;  // index into convex_polygons_ for kConvexPolygon
    PrimitiveKind kind = PrimitiveKind::kSegment;
    // kConvexPolygon: its vertex count; for an axis-aligned rectangle the
    // corner of [a, b] (0 to 3, counter-clockwise from the lower left) that
    // is its vertex 0, when its vertices and normals follow from a and b
    // bit for bit; otherwise -1 and its first block in
    // convex_edge_blocks().
    uint8_t vertex_count = 0;
    int8_t box_start = -1;
    // kSegment and kPolylineEdge: the shape is one-sided (ShapeDesc), so
    // the cast tests it without reading the shape's record.
    bool one_sided = false;
    int32_t edge_block = 0;
  };
  absl::Span<const Primitive> primitives() const { return primitives_; }
  // The convex polygons, numbered as Primitive::polygon.
  absl::Span<const ConvexPolygon> convex_polygons() const {
    return convex_polygons_;
  }
  // A packed copy of the convex polygons other than axis-aligned boxes
  // (see Primitive::box_start) for the ray's closed form: vertex i and the
  // outward normal of edge i side by side, four to a block of two cache
  // lines, each polygon from the start of a block (one block up to 4
  // vertices, two up to 8), in primitive order. A quadrilateral then reads
  // two lines, where ConvexPolygon keeps its vertices and normals 128 bytes
  // apart and its count beyond them.
  struct ConvexEdge {
    Vec2 vertex;
    Vec2 normal;
  };
  struct alignas(64) ConvexEdgeBlock {
    ConvexEdge edges[4];
  };
  absl::Span<const ConvexEdgeBlock> convex_edge_blocks() const {
    return convex_edge_blocks_;
  }
  const Primitive& primitive(int32_t index) const { return primitives_[index]; }
  // One entry of the spatial hash with what a cast's first test needs: the
  // primitive's filed box, rounded outwards to float (so it still contains
  // the box), and its index. A walk reads a cell's candidates from these
  // consecutive 20-byte records and rejects most of them without touching
  // primitives() (on levels larger than the cache, those scattered reads
  // were most of a cast's cost).
  struct CellEntry {
    float lower_x = 0.0f;
    float lower_y = 0.0f;
    float upper_x = 0.0f;
    float upper_y = 0.0f;
    int32_t primitive = 0;
  };
  // Parallel to spatial_hash().entries(): cell c of a tier lists
  // cell_entries()[tier.offsets[c] .. tier.offsets[c + 1]).
  absl::Span<const CellEntry> cell_entries() const { return cell_entries_; }
  // A second hash listing, per cell, the concave polygons whose bounds
  // overlap it: the candidates that may contain a query's start point. Its
  // item k is the concave polygon shape solid_shape(k).
  const SpatialHash& solids() const { return solids_; }
  int32_t solid_shape(int32_t item) const { return solid_shapes_[item]; }

 private:
  // 64 bytes: a filter reads one cache line.
  struct ShapeRecord {
    uint64_t id = 0;
    uint64_t category_bits = 0;
    uint64_t mask_bits = 0;
    uint64_t user_data = 0;
    double orientation = 1.0;  // concave polygons
    int32_t primitive = 0;     // a single-primitive shape's primitive
    int32_t vertex_begin = 0;  // polylines, concave polygons: into vertices_
    int32_t vertex_count = 0;
    int32_t group = 0;
    ShapeKind kind = ShapeKind::kSegment;
    bool closed = false;  // polylines
    bool one_sided = false;
  };

  friend class LevelBuilder;

  Level() = default;

  // Reorders primitives_ (and their bounds) along a Z-order curve of the
  // level; see world/level.cc.
  void SortPrimitivesAlongZOrder(std::vector<Aabb>& bounds);
  // Builds convex_edge_blocks_ and the primitives' links to it.
  void PackConvexEdges();
  // Builds cell_entries_ from hash_ and the primitives' filed boxes.
  void FillCellEntries(absl::Span<const Aabb> bounds);

  std::vector<ShapeRecord> shapes_;
  std::vector<Primitive> primitives_;
  std::vector<CellEntry> cell_entries_;
  std::vector<ConvexPolygon> convex_polygons_;
  std::vector<ConvexEdgeBlock> convex_edge_blocks_;
  std::vector<Vec2> vertices_;
  std::vector<int32_t> solid_shapes_;
  // (id, shape index) sorted by id.
  std::vector<std::pair<uint64_t, int32_t>> ids_;
  Aabb bounds_;
  // The bits every shape's category_bits hold, and whether none is zero;
  // the same of mask_bits; whether any shape has a negative group or is
  // one-sided.
  uint64_t common_category_bits_ = ~uint64_t{0};
  bool no_empty_categories_ = true;
  uint64_t common_mask_bits_ = ~uint64_t{0};
  bool no_empty_masks_ = true;
  bool has_negative_group_ = false;
  bool has_one_sided_ = false;
  SpatialHash hash_;
  SpatialHash solids_;
  // Patched levels only (see Patch).
  std::shared_ptr<const Level> base_;
  std::vector<uint64_t> removed_from_base_;
  int removed_count_ = 0;
};

}  // namespace collide

#endif  // COLLIDE_LEVEL_H_
