// The visibility polygon (collide/visibility_polygon.h): its vertices'
// kinds and exactness on hand-made cases, and against Sees on random
// levels: a point inside the polygon by more than the stated error is
// seen, one outside it by more is not.
#include "collide/visibility_polygon.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#include "collide/level.h"
#include "collide/query.h"
#include "collide/visibility.h"
#include "random_level.h"
#include "tests/support/splitmix64.h"

namespace collide {
namespace {

using testing::MakeRandomLevel;
using testing::RandomPoint;
using testing::Scene;
using testing::SplitMix64;
using Kind = PolygonVertexKind;

Level Build(std::vector<ShapeDesc> shapes) {
  auto level = Level::Create(shapes);
  EXPECT_TRUE(level.ok()) << level.status();
  return std::move(*level);
}

ShapeDesc Shape(uint64_t id, ShapeGeometry geometry, uint64_t category = 1) {
  ShapeDesc desc;
  desc.id = id;
  desc.category_bits = category;
  desc.geometry = geometry;
  return desc;
}

std::vector<VisibilityPolygonVertex> Polygon(const Level& level, Vec2 v,
                                             VisibilityPolygonOptions options,
                                             const QueryFilter& filter = {}) {
  VisibilityPolygonScratch scratch;
  std::vector<VisibilityPolygonVertex> out(4096);
  const VisibilityPolygonResult result = VisibilityPolygon(
      level, v, options, absl::MakeSpan(out), scratch, filter);
  EXPECT_EQ(result.status, VisibilityPolygonStatus::kOk);
  out.resize(result.vertex_count);
  return out;
}

bool Has(const std::vector<VisibilityPolygonVertex>& polygon, Vec2 point,
         Kind kind, std::optional<uint64_t> shape) {
  return std::any_of(polygon.begin(), polygon.end(), [&](const auto& vertex) {
    return vertex.point == point && vertex.kind == kind &&
           vertex.shape_id == shape;
  });
}

// Whether p lies inside the polygon (even-odd), and its distance to the
// boundary, in doubles.
struct Where {
  bool inside = false;
  double distance = 0.0;
};
Where Locate(const std::vector<VisibilityPolygonVertex>& polygon, Vec2 p) {
  Where where{false, std::numeric_limits<double>::infinity()};
  const size_t n = polygon.size();
  for (size_t i = 0; i < n; ++i) {
    const Vec2 a = polygon[i].point;
    const Vec2 b = polygon[(i + 1) % n].point;
    if ((a.y > p.y) != (b.y > p.y) &&
        p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)) {
      where.inside = !where.inside;
    }
    const Vec2 d = b - a;
    const double length_squared = Dot(d, d);
    const double s = length_squared > 0.0
                         ? std::clamp(Dot(p - a, d) / length_squared, 0.0, 1.0)
                         : 0.0;
    where.distance = std::min(where.distance, Length(p - (a + s * d)));
  }
  return where;
}

// The vertices come counter-clockwise around v: their angles from +x never
// decrease (equal on a shadow's edge) and stay within one turn.
void ExpectStarShaped(const std::vector<VisibilityPolygonVertex>& polygon,
                      Vec2 v) {
  double previous = -1.0;
  for (const auto& vertex : polygon) {
    if (vertex.point == v) continue;
    // atan2 of a rounded difference: its error grows as the point nears v.
    const double tolerance =
        1e-15 * (std::abs(v.x) + std::abs(v.y)) / Length(vertex.point - v) +
        1e-9;
    double angle = std::atan2(vertex.point.y - v.y, vertex.point.x - v.x);
    if (angle < 0.0) angle += 2.0 * std::numbers::pi;
    if (angle > 2.0 * std::numbers::pi - 1e-9 && previous > 1.0) {
      angle = 2.0 * std::numbers::pi;
    }
    EXPECT_GE(angle, previous - tolerance)
        << vertex.point.x << " " << vertex.point.y;
    previous = std::max(previous, angle);
  }
}

TEST(VisibilityPolygon, EmptyLevelIsTheRangeChords) {
  const Level level = Build({});
  const auto polygon =
      Polygon(level, {3, 4}, {.range = 10, .max_arc_angle = 0.2});
  // At least 2 pi / 0.2 chords, each vertex on the circle.
  EXPECT_GE(polygon.size(), 32u);
  for (const auto& vertex : polygon) {
    EXPECT_EQ(vertex.kind, Kind::kArc);
    EXPECT_FALSE(vertex.shape_id.has_value());
    EXPECT_NEAR(Length(vertex.point - Vec2{3, 4}), 10.0, 1e-12);
  }
  EXPECT_EQ(polygon[0].point.y, 4.0);  // starts at +x
  EXPECT_EQ(polygon[0].point.x, 13.0);
  ExpectStarShaped(polygon, {3, 4});
}

TEST(VisibilityPolygon, BoxCastsAShadowFromItsSilhouetteVertices) {
  const Level level = Build({Shape(7, BoxDesc{{5, 0}, {1, 1}, 0.0})});
  const auto polygon = Polygon(level, {0, 0}, {.range = 20});
  // The silhouette corners (4, -1) and (4, 1), exactly; the near face
  // between them; the shadow's edges reach the range.
  EXPECT_TRUE(Has(polygon, {4, -1}, Kind::kLevelVertex, 7));
  EXPECT_TRUE(Has(polygon, {4, 1}, Kind::kLevelVertex, 7));
  EXPECT_FALSE(Has(polygon, {6, 1}, Kind::kLevelVertex, 7));
  int arc_ends = 0;
  for (const auto& vertex : polygon) {
    if (vertex.kind == Kind::kArcEnd) {
      ++arc_ends;
      EXPECT_NEAR(Length(vertex.point), 20.0, 1e-12);
      EXPECT_NEAR(std::abs(vertex.point.y / vertex.point.x), 0.25, 1e-12);
    }
  }
  EXPECT_EQ(arc_ends, 2);
  ExpectStarShaped(polygon, {0, 0});
  EXPECT_TRUE(Locate(polygon, {3.9, 0}).inside);
  EXPECT_FALSE(Locate(polygon, {10, 0}).inside);
}

TEST(VisibilityPolygon, ShadowEdgeHitsTheNextOccluder) {
  const Level level = Build({Shape(1, Segment{{5, 0}, {5, 5}}),
                             Shape(2, Segment{{10, -10}, {10, 10}})});
  const auto polygon = Polygon(level, {0, 0}, {.range = 50});
  // The ray through the wall's end (5, 0) meets wall 2 at (10, 0), and
  // through (5, 5) at (10, 10): both exact in doubles here.
  EXPECT_TRUE(Has(polygon, {5, 0}, Kind::kLevelVertex, 1));
  EXPECT_TRUE(Has(polygon, {5, 5}, Kind::kLevelVertex, 1));
  EXPECT_TRUE(Has(polygon, {10, 0}, Kind::kRayHit, 2));
  // Wall 2's end (10, 10) lies on the ray through (5, 5) but reaches only
  // its clockwise side: counter-clockwise of it the view runs to the range.
  EXPECT_FALSE(Has(polygon, {10, 10}, Kind::kLevelVertex, 2));
  bool range_at_45 = false;
  for (const auto& vertex : polygon) {
    range_at_45 |= vertex.kind == Kind::kArcEnd &&
                   std::abs(vertex.point.x - vertex.point.y) < 1e-12;
  }
  EXPECT_TRUE(range_at_45);
  ExpectStarShaped(polygon, {0, 0});
  // Order at the shadow's edge at angle 0: the far hit first, then the
  // wall's end (the boundary runs in along the ray).
  for (size_t i = 0; i < polygon.size(); ++i) {
    if (polygon[i].point == Vec2{10, 0}) {
      EXPECT_EQ(polygon[(i + 1) % polygon.size()].point, (Vec2{5, 0}));
    }
  }
}

TEST(VisibilityPolygon, CollinearVerticesAreDecidedExactly) {
  // Three walls whose ends lie on the ray y = x / 3 from the viewer.
  const Level level = Build({Shape(1, Segment{{3, 1}, {3, 4}}),
                             Shape(2, Segment{{6, 2}, {6, -4}}),
                             Shape(3, Segment{{9, 3}, {9, 9}})});
  const auto polygon = Polygon(level, {0, 0}, {.range = 30});
  // Just counter-clockwise of the ray wall 1 is nearest, so (3, 1) shows;
  // just clockwise, wall 2 is, from (6, 2); wall 3's end is hidden.
  EXPECT_TRUE(Has(polygon, {3, 1}, Kind::kLevelVertex, 1));
  EXPECT_TRUE(Has(polygon, {6, 2}, Kind::kLevelVertex, 2));
  EXPECT_FALSE(Has(polygon, {9, 3}, Kind::kLevelVertex, 3));
  ExpectStarShaped(polygon, {0, 0});
}

TEST(VisibilityPolygon, BoxesTouchingAtACornerLeaveNoGapDrawn) {
  const Level level = Build({Shape(1, BoxDesc{{5, 1}, {1, 1}, 0.0}),
                             Shape(2, BoxDesc{{7, -1}, {1, 1}, 0.0})});
  const auto polygon = Polygon(level, {0, 0}, {.range = 30});
  // The sight line through the shared corner (6, 0) is open but has no
  // width: the region behind is not drawn.
  EXPECT_FALSE(Locate(polygon, {12, 0.0}).inside);
  EXPECT_FALSE(Locate(polygon, {12, 0.01}).inside);
  EXPECT_TRUE(Locate(polygon, {3.9, 0}).inside);
  ExpectStarShaped(polygon, {0, 0});
}

TEST(VisibilityPolygon, OverlappingShapesCrossAtEdgeCrossings) {
  const Level level = Build(
      {Shape(1, Segment{{5, -4}, {7, 6}}), Shape(2, Segment{{7, -4}, {5, 6}})});
  const auto polygon = Polygon(level, {0, 0}, {.range = 30});
  bool crossing = false;
  for (const auto& vertex : polygon) {
    if (vertex.kind == Kind::kEdgeCrossing) {
      crossing = true;
      EXPECT_EQ(vertex.shape_id, 2u);
      EXPECT_NEAR(vertex.point.x, 6.0, 1e-12);
      EXPECT_NEAR(vertex.point.y, 1.0, 1e-12);
    }
  }
  EXPECT_TRUE(crossing);
  EXPECT_TRUE(Locate(polygon, {5.9, 1}).inside);
  EXPECT_FALSE(Locate(polygon, {6.1, 1}).inside);
}

// Two edges crossing at a grazing angle between two sweep directions, their
// crossing within rounding of a vertex's ray (a wall's end at -1e6 beside
// coordinates near 2^140): which crossing comes first, and whether it lies
// before the next ray, must be decided exactly, or the polygon stays on
// the wrong edge until the next direction and loses a region that is seen.
TEST(VisibilityPolygon, GrazingCrossingsBetweenDirectionsAreExact) {
  const double a = 6.9689828745408197e+42, b = 2.7875931498163279e+42;
  const double c = 5.5751862996326558e+42, d = 1.3937965749081639e+42;
  const Level level = Build({
      Shape(
          1,
          PolygonDesc{{{-a, a}, {-a, b}, {-c, b}, {-c, c}, {-d, c}, {-d, a}}}),
      Shape(2, PolygonDesc{{{a, c},
                            {a, b},
                            {9.7565760243571476e+42, b},
                            {9.7565760243571476e+42, c}}}),
      Shape(3, Segment{{-4.1813897247244918e+42, 8.3627794494489837e+42},
                       {-1000000, -a}}),
  });
  const Vec2 v{4.1813897247244918e+42, -2.2300745198530623e+43};
  const double range = 4.1715780810313007e+43;
  const auto polygon =
      Polygon(level, v, {.range = range, .max_arc_angle = 0.05});
  for (const Vec2 t :
       {Vec2{-7.4872138353787629e+41, -7.026564092411703e+41},
        Vec2{-1.6602637984979391e+42, -6.8317881693053938e+41}}) {
    EXPECT_TRUE(
        Sees(level, Viewer{.position = v, .range = range, .cone = {}}, t));
    const Where where = Locate(polygon, t);
    EXPECT_GT(where.distance,
              kVisibilityPolygonRelativeError * (std::abs(v.y) + range));
    EXPECT_TRUE(where.inside) << t.x << " " << t.y;
  }
}

// A wall's corner within rounding outside the range circle (exactly
// collinear with the viewer and another shape's vertex): the rounded entry
// into the disc falls just before the corner, and the wall must still be
// clipped there, not dropped.
TEST(VisibilityPolygon, WallEndJustOutsideTheRangeStillHides) {
  const Level level = Build({
      Shape(1, PolygonDesc{{{999999, 0.75},
                            {999999.75, 1.75},
                            {1000001.25, 0.625},
                            {1000000.5, -0.375}}}),
      Shape(2, Segment{{1000001.25, 0.625}, {1000003.5, 0.5}}),
      Shape(3, Segment{{1000003.5, 0.5}, {1000002.75, 2.625}}),
  });
  const Vec2 v{999992.25, 4.25};
  // Just below |(1000003.5, 0.5) - v| = sqrt(140.625).
  const double range = 11.858541225631422;
  const auto polygon =
      Polygon(level, v, {.range = range, .max_arc_angle = 0.05});
  const Vec2 t{1000003.5267322226, 0.63184643445072053};
  EXPECT_FALSE(
      Sees(level, Viewer{.position = v, .range = range, .cone = {}}, t));
  const Where where = Locate(polygon, t);
  EXPECT_GT(where.distance, 1e-3);
  EXPECT_FALSE(where.inside);
}

// A wall seen end-on (its far end offset by 1e6 from the viewer's ray
// through its near end, at coordinates near 2^140) crossed by another
// wall: every point of the first lies within rounding of that ray, and
// the crossing vertex must still be drawn, or the polygon cuts off the
// seen corner behind it.
TEST(VisibilityPolygon, CrossingOnAWallSeenEndOnIsDrawn) {
  const double k = 1.3937965749081639e+42;
  const Level level = Build(
      {Shape(1, PolylineDesc{
                    {{5 * k, 4 * k}, {0, 4 * k}, {4 * k, 6 * k}, {3 * k, -1e6}},
                    true})});
  const Vec2 v{6 * k, 18 * k};
  const double range = 3.1793000927660159e+43;
  const auto polygon =
      Polygon(level, v, {.range = range, .max_arc_angle = 0.05});
  const Vec2 t{6.2365407825394181e+42, 6.9512109722671599e+42};
  EXPECT_TRUE(
      Sees(level, Viewer{.position = v, .range = range, .cone = {}}, t));
  const Where where = Locate(polygon, t);
  EXPECT_GT(where.distance, 1e-3 * k);
  EXPECT_TRUE(where.inside);
  ExpectStarShaped(polygon, v);
}

TEST(VisibilityPolygon, RoundShapesGiveTangentShadows) {
  const Level level = Build({Shape(4, Circle{{10, 0}, 5})});
  const double arc = 0.1;
  const auto polygon =
      Polygon(level, {0, 0}, {.range = 40, .max_arc_angle = arc});
  // Tangent rays from the origin to a circle at distance 10 of radius 5:
  // at +-30 degrees.
  int round_points = 0;
  for (const auto& vertex : polygon) {
    if (vertex.kind != Kind::kRoundPoint) continue;
    ++round_points;
    EXPECT_EQ(vertex.shape_id, 4u);
    const double off = Length(vertex.point - Vec2{10, 0}) - 5.0;
    EXPECT_GE(off, -1e-12);
    EXPECT_LE(off, 5.0 * (1.0 / std::cos(arc / 2) - 1.0) + 1e-12);
  }
  EXPECT_GE(round_points, 3);
  const double tangent = std::tan(std::numbers::pi / 6);
  EXPECT_FALSE(Locate(polygon, {30, 30 * tangent - 0.01}).inside);
  EXPECT_TRUE(Locate(polygon, {30, 30 * tangent + 0.01}).inside);
  EXPECT_FALSE(Locate(polygon, {20, 0}).inside);
}

TEST(VisibilityPolygon, ViewerInsideSeesNothingAndOnABoundarySeesOut) {
  const Level level = Build({Shape(1, BoxDesc{{0, 0}, {1, 1}, 0.0})});
  VisibilityPolygonScratch scratch;
  std::vector<VisibilityPolygonVertex> out(256);
  const auto inside = VisibilityPolygon(level, {0.5, 0}, {.range = 10},
                                        absl::MakeSpan(out), scratch);
  EXPECT_EQ(inside.status, VisibilityPolygonStatus::kOk);
  EXPECT_TRUE(inside.viewer_inside);
  EXPECT_EQ(inside.vertex_count, 0);
  // On the right face: the half turn to the right is open, the left closed.
  const auto polygon = Polygon(level, {1, 0}, {.range = 10});
  EXPECT_TRUE(Has(polygon, {1, 0}, Kind::kViewer, std::nullopt));
  EXPECT_TRUE(Locate(polygon, {5, 3}).inside);
  EXPECT_FALSE(Locate(polygon, {0.5, 0.5}).inside);
  // At a corner: three quarters open.
  const auto corner = Polygon(level, {1, 1}, {.range = 10});
  EXPECT_TRUE(Locate(corner, {0, 3}).inside);
  EXPECT_TRUE(Locate(corner, {3, 0}).inside);
  EXPECT_FALSE(Locate(corner, {0.5, 0.5}).inside);
}

TEST(VisibilityPolygon, FilterAndOneSidedWallsChooseOccluders) {
  ShapeDesc one_sided = Shape(2, Segment{{5, 5}, {5, -5}});
  one_sided.one_sided = true;  // front: the left of p1 -> p2, +x
  const Level level =
      Build({Shape(1, Segment{{-5, -5}, {-5, 5}}, 0b10), one_sided});
  // From x < 5 the one-sided wall is seen through; the glass (category
  // 0b10) is left out of the mask.
  const auto polygon =
      Polygon(level, {0, 0}, {.range = 20},
              QueryFilter{.mask_bits = 0b01, .ignore_ids = {}});
  EXPECT_TRUE(Locate(polygon, {15, 0}).inside);
  EXPECT_TRUE(Locate(polygon, {-15, 0}).inside);
  const auto front = Polygon(level, {8, 0}, {.range = 20},
                             QueryFilter{.mask_bits = 0b01, .ignore_ids = {}});
  EXPECT_FALSE(Locate(front, {0, 0}).inside);
}

TEST(VisibilityPolygon, SmallOutputAndScratchNameTheSizeNeeded) {
  const Level level = Build({Shape(1, BoxDesc{{5, 0}, {1, 1}, 0.0}),
                             Shape(2, Segment{{0, 6}, {6, 6}})});
  VisibilityPolygonScratch scratch;
  std::vector<VisibilityPolygonVertex> out(4);
  const auto small = VisibilityPolygon(level, {0, 0}, {.range = 20},
                                       absl::MakeSpan(out), scratch);
  EXPECT_EQ(small.status, VisibilityPolygonStatus::kOutputTooSmall);
  out.resize(small.needed);
  const auto fits = VisibilityPolygon(level, {0, 0}, {.range = 20},
                                      absl::MakeSpan(out), scratch);
  EXPECT_EQ(fits.status, VisibilityPolygonStatus::kOk);
  EXPECT_EQ(fits.vertex_count, small.needed);
  VisibilityPolygonScratch tiny(1);
  const auto refused = VisibilityPolygon(level, {0, 0}, {.range = 20},
                                         absl::MakeSpan(out), tiny);
  EXPECT_EQ(refused.status, VisibilityPolygonStatus::kScratchTooSmall);
  EXPECT_EQ(refused.needed, 2);  // the box's face toward v and the wall
}

double LargestRadius(const std::vector<ShapeDesc>& shapes) {
  double largest = 0.0;
  for (const ShapeDesc& shape : shapes) {
    if (const auto* c = std::get_if<Circle>(&shape.geometry)) {
      largest = std::max(largest, c->radius);
    }
    if (const auto* c = std::get_if<Capsule>(&shape.geometry)) {
      largest = std::max(largest, c->radius);
    }
  }
  return largest;
}

// Whether p is, bitwise, a vertex of the shape.
bool IsVertexOf(const Level& level, int shape, Vec2 p) {
  std::vector<Vec2> points;
  switch (level.kind(shape)) {
    case ShapeKind::kSegment:
      points = {level.segment(shape).p1, level.segment(shape).p2};
      break;
    case ShapeKind::kPolyline: {
      const auto chain = level.polyline(shape).vertices;
      points.assign(chain.begin(), chain.end());
      break;
    }
    case ShapeKind::kConvexPolygon: {
      const ConvexPolygon& polygon = level.convex_polygon(shape);
      points.assign(polygon.vertices.begin(),
                    polygon.vertices.begin() + polygon.count);
      break;
    }
    case ShapeKind::kConcavePolygon: {
      const auto vertices = level.concave_polygon(shape).vertices;
      points.assign(vertices.begin(), vertices.end());
      break;
    }
    default:
      return false;
  }
  return std::find(points.begin(), points.end(), p) != points.end();
}

// Every vertex is what its kind says: a level vertex of its shape bitwise,
// range points on the circle, and the polygon agrees with Sees away from
// its boundary.
void CheckAgainstSees(const Level& level, Vec2 v,
                      const VisibilityPolygonOptions& options,
                      double largest_radius, SplitMix64& rng, int samples,
                      int& decided, const QueryFilter& filter = {}) {
  const auto polygon = Polygon(level, v, options, filter);
  const double scale = std::max(std::abs(v.x), std::abs(v.y)) + options.range;
  const double error = kVisibilityPolygonRelativeError * scale;
  const double half = options.max_arc_angle / 2;
  const double margin = error + options.range * (1 - std::cos(half)) +
                        largest_radius * (1 / std::cos(half) - 1) +
                        1e-9 * scale;
  for (const auto& vertex : polygon) {
    if (vertex.kind == Kind::kArc ||
        (vertex.kind == Kind::kArcEnd && !vertex.shape_id.has_value())) {
      EXPECT_NEAR(Length(vertex.point - v), options.range, error);
    }
    if (vertex.kind == Kind::kLevelVertex) {
      ASSERT_TRUE(vertex.shape_id.has_value());
      // A patched level finds its own layer's shapes; the base the rest.
      const Level* layer = &level;
      auto shape = level.FindShape(*vertex.shape_id);
      if (!shape.has_value() && level.base() != nullptr) {
        layer = level.base();
        shape = layer->FindShape(*vertex.shape_id);
      }
      ASSERT_TRUE(shape.has_value());
      EXPECT_TRUE(IsVertexOf(*layer, *shape, vertex.point))
          << vertex.point.x << " " << vertex.point.y;
      EXPECT_LE(Length(vertex.point - v), options.range);
    }
  }
  ExpectStarShaped(polygon, v);
  for (int i = 0; i < samples; ++i) {
    const Vec2 p = v + testing::RandomDirection(
                           rng, options.range * std::sqrt(rng.Uniform(0, 1)));
    const Where where = Locate(polygon, p);
    if (where.distance <= margin) continue;
    ++decided;
    const bool sees =
        Sees(level, Viewer{v, options.range, std::nullopt}, p, filter);
    EXPECT_EQ(where.inside, sees)
        << "viewer " << v.x << "," << v.y << " point " << p.x << "," << p.y
        << " distance " << where.distance;
  }
}

TEST(VisibilityPolygon, InsideMeansSeenOnRandomLevels) {
  int decided = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Scene scene;
    scene.seed = seed;
    scene.shape_count = 120;
    scene.offset = seed % 3 == 0 ? 1e6 : (seed % 3 == 1 ? 0.0 : 1e9);
    const auto random = MakeRandomLevel(scene);
    const Level level = Build(random.shapes);
    const double largest_radius = LargestRadius(random.shapes);
    SplitMix64 rng(seed * 31);
    for (int k = 0; k < 12; ++k) {
      const Vec2 v = RandomPoint(rng, {scene.offset, scene.offset},
                                 {scene.offset + 100, scene.offset + 100});
      const double range = k % 2 == 0 ? 20.0 : 60.0;
      CheckAgainstSees(level, v, {.range = range, .max_arc_angle = 0.05},
                       largest_radius, rng, 200, decided);
    }
  }
  EXPECT_GT(decided, 15000) << decided;
}

TEST(VisibilityPolygon, PatchedLevelsAndFiltersAgreeWithSees) {
  Scene scene;
  scene.seed = 21;
  scene.shape_count = 150;
  const auto random = MakeRandomLevel(scene);
  auto base = std::make_shared<const Level>(Build(random.shapes));
  Scene added_scene;
  added_scene.seed = 22;
  added_scene.shape_count = 40;
  auto added = MakeRandomLevel(added_scene);
  for (ShapeDesc& shape : added.shapes) shape.id += 100000;
  std::vector<uint64_t> removed;
  for (size_t i = 0; i < random.shapes.size(); i += 3) {
    removed.push_back(random.shapes[i].id);
  }
  auto patched = Level::Patch(base, removed, added.shapes);
  ASSERT_TRUE(patched.ok()) << patched.status();
  const double largest =
      std::max(LargestRadius(random.shapes), LargestRadius(added.shapes));
  SplitMix64 rng(23);
  int decided = 0;
  for (int k = 0; k < 12; ++k) {
    const Vec2 v = RandomPoint(rng, {0, 0}, {100, 100});
    QueryFilter filter;
    filter.mask_bits = k % 2 == 0 ? ~uint64_t{0} : uint64_t{0b1011};
    CheckAgainstSees(*patched, v, {.range = 40, .max_arc_angle = 0.05}, largest,
                     rng, 200, decided, filter);
  }
  EXPECT_GT(decided, 1500) << decided;
}

TEST(VisibilityPolygon, EdgesSpanningManySectorsGiveTheSamePolygon) {
  // Long walls close to the viewer each span about half the sectors: more
  // sector entries than a 64-edge scratch holds, so every direction then
  // searches every edge. The polygon is the same.
  std::vector<ShapeDesc> shapes;
  for (int i = 0; i < 40; ++i) {
    const double y = 1.0 + 0.25 * i;
    shapes.push_back(Shape(i + 1, Segment{{-50, y}, {50, y + 0.01 * i}}));
  }
  shapes.push_back(Shape(100, BoxDesc{{0, -3}, {1, 1}, 0.3}));
  const Level level = Build(shapes);
  const auto expected = Polygon(level, {0.3, 0}, {.range = 60});
  VisibilityPolygonScratch small(64);
  std::vector<VisibilityPolygonVertex> out(4096);
  const auto result = VisibilityPolygon(level, {0.3, 0}, {.range = 60},
                                        absl::MakeSpan(out), small);
  ASSERT_EQ(result.status, VisibilityPolygonStatus::kOk);
  ASSERT_EQ(result.vertex_count, static_cast<int32_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(out[i].point, expected[i].point);
    EXPECT_EQ(out[i].kind, expected[i].kind);
    EXPECT_EQ(out[i].shape_id, expected[i].shape_id);
  }
}

TEST(VisibilityPolygon, ScratchIsSizedOnceAndBounded) {
  const VisibilityPolygonScratch scratch;
  // Room for the default 16,384 edges: a few MiB, whatever the level.
  EXPECT_LT(scratch.memory_bytes(), size_t{4} << 20);
  EXPECT_GT(scratch.memory_bytes(), size_t{1} << 20);
}

}  // namespace
}  // namespace collide
