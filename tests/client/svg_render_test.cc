// RenderSvg: the output is parsed as XML and its structure checked against
// the level and queries drawn (casts, overlap and closest point queries;
// svg_validation_test.cc covers the validation queries). Pictures use an
// explicit view where coordinates are checked, so the expected pixel
// positions follow from the contract alone (see svg_picture.h).
#include "client/svg/svg_render.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "gtest/gtest.h"
#include "tests/client/svg_picture.h"
#include "tinyxml2.h"

namespace collide::client::svg_test {
namespace {

v1::Shape* AddShape(v1::Level& level, uint64_t id) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  return shape;
}

v1::Level EveryShapeKind() {
  v1::Level level;
  level.set_id("kinds");
  v1::Segment* segment = AddShape(level, 1)->mutable_segment();
  Set(segment->mutable_p1(), 1, 1);
  Set(segment->mutable_p2(), 4, 2);
  v1::Polyline* open = AddShape(level, 2)->mutable_polyline();
  for (const auto& [x, y] : {std::pair{5.0, 1.0}, {6.0, 3.0}, {7.0, 1.0}}) {
    Set(open->add_vertices(), x, y);
  }
  v1::Polyline* closed = AddShape(level, 3)->mutable_polyline();
  closed->set_closed(true);
  for (const auto& [x, y] : {std::pair{8.0, 1.0}, {9.0, 1.0}, {8.5, 2.0}}) {
    Set(closed->add_vertices(), x, y);
  }
  v1::Polygon* polygon = AddShape(level, 4)->mutable_polygon();
  for (const auto& [x, y] : {std::pair{1.0, 5.0},
                             {4.0, 5.0},
                             {4.0, 6.0},
                             {2.0, 6.0},
                             {2.0, 8.0},
                             {1.0, 8.0}}) {
    Set(polygon->add_vertices(), x, y);
  }
  v1::Circle* circle = AddShape(level, 5)->mutable_circle();
  Set(circle->mutable_center(), 7, 7);
  circle->set_radius(1.5);
  v1::Box* box = AddShape(level, 6)->mutable_box();
  Set(box->mutable_center(), 12, 6);
  Set(box->mutable_half_extents(), 2, 1);
  box->set_angle_radians(0.5);
  v1::Capsule* capsule = AddShape(level, 7)->mutable_capsule();
  Set(capsule->mutable_p1(), 15, 2);
  Set(capsule->mutable_p2(), 18, 4);
  capsule->set_radius(0.5);
  return level;
}

TEST(RenderSvgTest, EveryLevelShapeIsOneElementAtItsFlippedCoordinates) {
  const Picture picture(Render(EveryShapeKind(), {}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> shapes = picture.InGroup("level");
  EXPECT_EQ(shapes.size(), 7u);

  const XMLElement* segment = WithTitle(shapes, "shape 1 (segment)");
  ASSERT_NE(segment, nullptr);
  EXPECT_STREQ(segment->Name(), "line");
  EXPECT_TRUE(Picture::HasClass(segment, "line"));
  ExpectNear({Number(segment, "x1"), Number(segment, "y1")}, Px(1, 1),
             kPixelTolerance, "segment p1");
  ExpectNear({Number(segment, "x2"), Number(segment, "y2")}, Px(4, 2),
             kPixelTolerance, "segment p2");

  const XMLElement* open = WithTitle(shapes, "shape 2 (polyline)");
  ASSERT_NE(open, nullptr);
  EXPECT_STREQ(open->Name(), "polyline");
  const std::vector<Point> open_points = PointsOf(open);
  ASSERT_EQ(open_points.size(), 3u);
  ExpectNear(open_points[0], Px(5, 1), kPixelTolerance, "polyline 0");
  ExpectNear(open_points[1], Px(6, 3), kPixelTolerance, "polyline 1");
  ExpectNear(open_points[2], Px(7, 1), kPixelTolerance, "polyline 2");

  const XMLElement* closed = WithTitle(shapes, "shape 3 (closed polyline)");
  ASSERT_NE(closed, nullptr);
  EXPECT_STREQ(closed->Name(), "polygon");
  EXPECT_TRUE(Picture::HasClass(closed, "line"));  // no fill: no inside
  ExpectSamePoints(PointsOf(closed), {Px(8, 1), Px(9, 1), Px(8.5, 2)},
                   "closed polyline");

  const XMLElement* polygon = WithTitle(shapes, "shape 4 (polygon)");
  ASSERT_NE(polygon, nullptr);
  EXPECT_STREQ(polygon->Name(), "polygon");
  EXPECT_TRUE(Picture::HasClass(polygon, "solid"));
  ExpectSamePoints(PointsOf(polygon),
                   {Px(1, 5), Px(4, 5), Px(4, 6), Px(2, 6), Px(2, 8), Px(1, 8)},
                   "concave polygon");

  const XMLElement* circle = WithTitle(shapes, "shape 5 (circle)");
  ASSERT_NE(circle, nullptr);
  EXPECT_STREQ(circle->Name(), "circle");
  ExpectNear({Number(circle, "cx"), Number(circle, "cy")}, Px(7, 7),
             kPixelTolerance, "circle centre");
  EXPECT_NEAR(Number(circle, "r"), 1.5 * kScale, kPixelTolerance);

  const XMLElement* box = WithTitle(shapes, "shape 6 (box)");
  ASSERT_NE(box, nullptr);
  EXPECT_STREQ(box->Name(), "polygon");
  std::vector<Point> corners;
  for (const auto& [hx, hy] :
       {std::pair{-2.0, -1.0}, {2.0, -1.0}, {2.0, 1.0}, {-2.0, 1.0}}) {
    corners.push_back(Px(12 + std::cos(0.5) * hx - std::sin(0.5) * hy,
                         6 + std::sin(0.5) * hx + std::cos(0.5) * hy));
  }
  ExpectSamePoints(PointsOf(box), corners, "rotated box");

  // A capsule's outline: every end point of its path lies at the radius
  // from the axis, and some lie beside each end of it.
  const XMLElement* capsule = WithTitle(shapes, "shape 7 (capsule)");
  ASSERT_NE(capsule, nullptr);
  EXPECT_STREQ(capsule->Name(), "path");
  const std::vector<Point> outline = PathPoints(capsule);
  EXPECT_GE(outline.size(), 4u);
  for (const Point p : outline) {
    EXPECT_NEAR(DistanceToSegment(Px(15, 2), Px(18, 4), p), 0.5 * kScale,
                kPixelTolerance);
  }
  for (const Point end : {Px(15, 2), Px(18, 4)}) {
    bool beside = false;
    for (const Point p : outline) {
      if (std::abs(Distance(p, end) - 0.5 * kScale) < kPixelTolerance) {
        beside = true;
      }
    }
    EXPECT_TRUE(beside);
  }
}

TEST(RenderSvgTest, OneSidedAndFilteredShapesHaveClassesTicksAndLegend) {
  v1::Level level;
  v1::Shape* platform = AddShape(level, 1);
  Set(platform->mutable_segment()->mutable_p1(), 0, 0);
  Set(platform->mutable_segment()->mutable_p2(), 4, 0);
  platform->set_one_sided(true);
  platform->set_mask_bits(4);
  v1::Shape* disc = AddShape(level, 2);
  Set(disc->mutable_circle()->mutable_center(), 2, 3);
  disc->mutable_circle()->set_radius(1);
  disc->set_group(-2);
  const Picture picture(Render(level, {}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> shapes = picture.InGroup("level");
  const XMLElement* line =
      WithTitle(shapes, "shape 1 (segment), mask 0x4, one-sided");
  ASSERT_NE(line, nullptr);
  EXPECT_TRUE(Picture::HasClass(line, "one-sided"));
  EXPECT_TRUE(Picture::HasClass(line, "filtered"));
  const XMLElement* solid = WithTitle(shapes, "shape 2 (circle), group -2");
  ASSERT_NE(solid, nullptr);
  EXPECT_TRUE(Picture::HasClass(solid, "filtered"));
  EXPECT_FALSE(Picture::HasClass(solid, "one-sided"));
  // One tick, from the segment's middle towards its front: world up is
  // picture up, so y decreases along it.
  const std::vector<const XMLElement*> ticks =
      picture.WithClass("level", "front");
  ASSERT_EQ(ticks.size(), 1u);
  ASSERT_STREQ(ticks[0]->Name(), "line");
  EXPECT_LT(Number(ticks[0], "y2"), Number(ticks[0], "y1"));
  EXPECT_NEAR(Number(ticks[0], "x2"), Number(ticks[0], "x1"), kPixelTolerance);
  const std::vector<std::string> texts = picture.Texts();
  EXPECT_NE(std::find(texts.begin(), texts.end(), "one-sided (front ticked)"),
            texts.end());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "own mask or group (blue)"),
            texts.end());
}

TEST(RenderSvgTest, WorldUpIsPictureUp) {
  v1::Level level;
  Set(AddShape(level, 1)->mutable_circle()->mutable_center(), 5, 8);
  Set(AddShape(level, 2)->mutable_circle()->mutable_center(), 5, 2);
  const Picture picture(Render(level, {}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> shapes = picture.InGroup("level");
  const XMLElement* high = WithTitle(shapes, "shape 1 (circle)");
  const XMLElement* low = WithTitle(shapes, "shape 2 (circle)");
  ASSERT_NE(high, nullptr);
  ASSERT_NE(low, nullptr);
  EXPECT_LT(Number(high, "cy"), Number(low, "cy"));
}

TEST(RenderSvgTest, LevelWithYDownIsDrawnAsItsEditorShowsIt) {
  v1::Level level;
  level.set_y_axis(v1::Y_AXIS_DOWN);
  Set(AddShape(level, 1)->mutable_circle()->mutable_center(), 5, 8);
  Set(AddShape(level, 2)->mutable_circle()->mutable_center(), 5, 2);
  const Picture picture(Render(level, {}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> shapes = picture.InGroup("level");
  const XMLElement* eight = WithTitle(shapes, "shape 1 (circle)");
  const XMLElement* two = WithTitle(shapes, "shape 2 (circle)");
  ASSERT_NE(eight, nullptr);
  ASSERT_NE(two, nullptr);
  // The view's lower y (0) is the picture's top: y = 8 is 160 px down.
  EXPECT_NEAR(Number(eight, "cy"), 8 * kScale, kPixelTolerance);
  EXPECT_NEAR(Number(two, "cy"), 2 * kScale, kPixelTolerance);
}

TEST(RenderSvgTest, OptionsOverrideTheLevelsYAxis) {
  v1::Level level;
  level.set_y_axis(v1::Y_AXIS_DOWN);
  Set(AddShape(level, 1)->mutable_circle()->mutable_center(), 5, 8);
  RenderOptions options = TestOptions();
  options.y_axis = v1::Y_AXIS_UP;
  const Picture up(Render(level, {}, options));
  ASSERT_TRUE(up.parsed());
  const XMLElement* circle = WithTitle(up.InGroup("level"), "shape 1 (circle)");
  ASSERT_NE(circle, nullptr);
  EXPECT_NEAR(Number(circle, "cy"), Px(5, 8).y, kPixelTolerance);

  level.set_y_axis(v1::Y_AXIS_UP);
  options.y_axis = v1::Y_AXIS_DOWN;
  const Picture down(Render(level, {}, options));
  ASSERT_TRUE(down.parsed());
  circle = WithTitle(down.InGroup("level"), "shape 1 (circle)");
  ASSERT_NE(circle, nullptr);
  EXPECT_NEAR(Number(circle, "cy"), 8 * kScale, kPixelTolerance);
}

TEST(RenderSvgTest, PictureSizeFollowsWidthAndViewAspect) {
  const Picture picture(Render(v1::Level(), {}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_EQ(Number(picture.root(), "width"), 400);
  // The drawing's own viewport is 200 high; the legend adds a band below.
  const XMLElement* drawing = picture.root()->FirstChildElement("svg");
  ASSERT_NE(drawing, nullptr);
  EXPECT_EQ(Number(drawing, "width"), 400);
  EXPECT_EQ(Number(drawing, "height"), 200);
  EXPECT_GT(Number(picture.root(), "height"), 200);
}

TEST(RenderSvgTest, VeryWideViewIsWidenedToAspectLimit) {
  RenderOptions options;
  options.width_px = 400;
  options.view = View(0.0, 0.0, 100.0, 1.0);
  const Picture picture(Render(v1::Level(), {}, options));
  ASSERT_TRUE(picture.parsed());
  const XMLElement* drawing = picture.root()->FirstChildElement("svg");
  ASSERT_NE(drawing, nullptr);
  EXPECT_EQ(Number(drawing, "height"), 100);  // 4:1 at most
}

RenderedQuery CircleCastHit(double fraction, v1::HitStatus status) {
  RenderedQuery rendered;
  rendered.query.set_request_id(7);
  v1::CircleCastQuery* cast = rendered.query.mutable_circle_cast();
  Set(cast->mutable_circle()->mutable_center(), 2, 3);
  cast->mutable_circle()->set_radius(1);
  Set(cast->mutable_translation(), 10, 4);
  v1::CastHit* hit = rendered.result.mutable_cast()->add_hits();
  hit->set_fraction(fraction);
  Set(hit->mutable_point(), 2 + 10 * fraction + 0.6, 3 + 4 * fraction + 0.8);
  Set(hit->mutable_normal(), -0.6, -0.8);
  hit->set_shape_id(3);
  hit->set_status(status);
  rendered.result.set_request_id(7);
  return rendered;
}

TEST(RenderSvgTest, CircleCastDrawsCapsuleHullEndsAndShapeAtHitFraction) {
  const Picture picture(
      Render(v1::Level(), {CircleCastHit(0.5, v1::HIT_STATUS_HIT)}));
  ASSERT_TRUE(picture.parsed());
  const Point start = Px(2, 3);
  const Point end = Px(12, 7);

  // The swept region: the capsule hull of the start and end circles.
  const std::vector<const XMLElement*> swept = picture.InGroup("swept");
  ASSERT_EQ(swept.size(), 1u);
  ASSERT_STREQ(swept[0]->Name(), "path");
  const std::vector<Point> hull = PathPoints(swept[0]);
  ASSERT_GE(hull.size(), 4u);
  bool near_start = false;
  bool near_end = false;
  for (const Point p : hull) {
    EXPECT_NEAR(DistanceToSegment(start, end, p), kScale, kPixelTolerance);
    near_start |= std::abs(Distance(p, start) - kScale) < kPixelTolerance;
    near_end |= std::abs(Distance(p, end) - kScale) < kPixelTolerance;
  }
  EXPECT_TRUE(near_start);
  EXPECT_TRUE(near_end);

  const std::vector<const XMLElement*> starts =
      picture.WithClass("outlines", "start");
  ASSERT_EQ(starts.size(), 1u);
  ExpectNear({Number(starts[0], "cx"), Number(starts[0], "cy")}, start,
             kPixelTolerance, "start circle");
  EXPECT_NEAR(Number(starts[0], "r"), kScale, kPixelTolerance);
  const std::vector<const XMLElement*> ends =
      picture.WithClass("outlines", "end");
  ASSERT_EQ(ends.size(), 1u);
  ExpectNear({Number(ends[0], "cx"), Number(ends[0], "cy")}, end,
             kPixelTolerance, "end circle");

  // The time-of-impact position: the circle moved by half the translation.
  const std::vector<const XMLElement*> at_hit =
      picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 1u);
  ExpectNear({Number(at_hit[0], "cx"), Number(at_hit[0], "cy")}, Px(7, 5),
             kPixelTolerance, "circle at the hit");

  // The contact point, and a normal arrow from it along the flipped normal.
  const std::vector<const XMLElement*> contacts =
      picture.WithClass("markers", "contact");
  ASSERT_EQ(contacts.size(), 1u);
  const Point contact = Px(7.6, 5.8);
  ExpectNear({Number(contacts[0], "cx"), Number(contacts[0], "cy")}, contact,
             kPixelTolerance, "contact point");
  const std::vector<const XMLElement*> normals =
      picture.WithClass("markers", "normal");
  ASSERT_EQ(normals.size(), 1u);
  const std::vector<Point> arrow = PathPoints(normals[0]);
  ASSERT_GE(arrow.size(), 2u);
  ExpectNear(arrow[0], contact, kPixelTolerance, "normal tail");
  // World normal (-0.6, -0.8) points left and down: in the picture, left
  // and towards larger y.
  const Point tip = arrow[1];
  EXPECT_NEAR((tip.x - contact.x) / Distance(tip, contact), -0.6, 1e-3);
  EXPECT_NEAR((tip.y - contact.y) / Distance(tip, contact), 0.8, 1e-3);

  // Labels name the query and the fraction.
  const std::vector<std::string> texts = picture.Texts();
  EXPECT_NE(std::find(texts.begin(), texts.end(), "#7"), texts.end());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "t=0.5"), texts.end());
}

TEST(RenderSvgTest, InitialOverlapHasItsOwnColour) {
  const Picture hit_picture(
      Render(v1::Level(), {CircleCastHit(0.5, v1::HIT_STATUS_HIT)}));
  const Picture overlap_picture(Render(
      v1::Level(), {CircleCastHit(0.0, v1::HIT_STATUS_INITIAL_OVERLAP)}));
  ASSERT_TRUE(hit_picture.parsed());
  ASSERT_TRUE(overlap_picture.parsed());
  const auto hit_toi = hit_picture.WithClass("hits", "toi");
  const auto overlap_toi = overlap_picture.WithClass("hits", "toi");
  const auto hit_contact = hit_picture.WithClass("markers", "contact");
  const auto overlap_contact = overlap_picture.WithClass("markers", "contact");
  ASSERT_EQ(hit_toi.size(), 1u);
  ASSERT_EQ(overlap_toi.size(), 1u);
  ASSERT_EQ(hit_contact.size(), 1u);
  ASSERT_EQ(overlap_contact.size(), 1u);
  EXPECT_STRNE(hit_toi[0]->Attribute("stroke"),
               overlap_toi[0]->Attribute("stroke"));
  EXPECT_STRNE(hit_contact[0]->Attribute("fill"),
               overlap_contact[0]->Attribute("fill"));
  // At fraction 0 the shape at the hit is the start shape.
  ExpectNear({Number(overlap_toi[0], "cx"), Number(overlap_toi[0], "cy")},
             Px(2, 3), kPixelTolerance, "overlap at the start");
}

TEST(RenderSvgTest, MissIsGreyWithNoHitMarkers) {
  RenderedQuery hit = CircleCastHit(0.5, v1::HIT_STATUS_HIT);
  RenderedQuery miss = hit;
  miss.result.mutable_cast()->clear_hits();
  const Picture hit_picture(Render(v1::Level(), {hit}));
  const Picture miss_picture(Render(v1::Level(), {miss}));
  ASSERT_TRUE(miss_picture.parsed());
  EXPECT_TRUE(miss_picture.InGroup("hits").empty());
  EXPECT_TRUE(miss_picture.WithClass("markers", "contact").empty());
  const auto miss_start = miss_picture.WithClass("outlines", "start");
  const auto hit_start = hit_picture.WithClass("outlines", "start");
  ASSERT_EQ(miss_start.size(), 1u);
  ASSERT_EQ(hit_start.size(), 1u);
  EXPECT_STRNE(miss_start[0]->Attribute("stroke"),
               hit_start[0]->Attribute("stroke"));
  // Still drawn where it went.
  EXPECT_EQ(miss_picture.InGroup("swept").size(), 1u);
}

TEST(RenderSvgTest, PolygonCastSweptRegionIsHullOfStartAndEndVertices) {
  RenderedQuery rendered;
  v1::PolygonCastQuery* cast = rendered.query.mutable_polygon_cast();
  for (const auto& [x, y] :
       {std::pair{1.0, 1.0}, {3.0, 1.0}, {3.0, 3.0}, {1.0, 3.0}}) {
    Set(cast->mutable_polygon()->add_vertices(), x, y);
  }
  Set(cast->mutable_translation(), 5, 4);
  rendered.result.mutable_cast();  // a miss
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> swept = picture.InGroup("swept");
  ASSERT_EQ(swept.size(), 1u);
  ASSERT_STREQ(swept[0]->Name(), "polygon");
  // The start's top-right and the end's bottom-left corners lie inside the
  // hull of the two squares.
  ExpectSamePoints(PointsOf(swept[0]),
                   {Px(1, 1), Px(3, 1), Px(8, 5), Px(8, 7), Px(6, 7), Px(1, 3)},
                   "swept hull");
}

TEST(RenderSvgTest, RayIsSolidToTheFirstHitAndDashedBeyond) {
  RenderedQuery rendered;
  v1::RayCastQuery* ray = rendered.query.mutable_ray_cast();
  Set(ray->mutable_origin(), 1, 5);
  Set(ray->mutable_translation(), 16, 0);
  v1::CastHit* hit = rendered.result.mutable_cast()->add_hits();
  hit->set_fraction(0.25);
  Set(hit->mutable_point(), 5, 5);
  Set(hit->mutable_normal(), -1, 0);
  hit->set_status(v1::HIT_STATUS_HIT);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  const XMLElement* solid = nullptr;
  const XMLElement* dashed = nullptr;
  for (const XMLElement* e : picture.InGroup("outlines")) {
    if (absl::string_view(e->Name()) != "line") continue;
    if (Picture::HasClass(e, "ray")) solid = e;
    if (Picture::HasClass(e, "end")) dashed = e;
  }
  ASSERT_NE(solid, nullptr);
  ASSERT_NE(dashed, nullptr);
  ExpectNear({Number(solid, "x1"), Number(solid, "y1")}, Px(1, 5),
             kPixelTolerance, "ray origin");
  ExpectNear({Number(solid, "x2"), Number(solid, "y2")}, Px(5, 5),
             kPixelTolerance, "ray stop");
  ExpectNear({Number(dashed, "x1"), Number(dashed, "y1")}, Px(5, 5),
             kPixelTolerance, "dashed from the hit");
  ExpectNear({Number(dashed, "x2"), Number(dashed, "y2")}, Px(17, 5),
             kPixelTolerance, "dashed to the end");
  EXPECT_EQ(picture.WithClass("markers", "contact").size(), 1u);
}

TEST(RenderSvgTest, EveryHitOfAnAllHitsCastIsMarked) {
  RenderedQuery rendered = CircleCastHit(0.25, v1::HIT_STATUS_HIT);
  v1::CastHit* second = rendered.result.mutable_cast()->add_hits();
  *second = rendered.result.cast().hits(0);
  second->set_fraction(0.75);
  Set(second->mutable_point(), 10, 6);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_EQ(picture.WithClass("hits", "toi").size(), 2u);
  const auto contacts = picture.WithClass("markers", "contact");
  ASSERT_EQ(contacts.size(), 2u);
  ExpectNear({Number(contacts[1], "cx"), Number(contacts[1], "cy")}, Px(10, 6),
             kPixelTolerance, "second contact");
}

TEST(RenderSvgTest, OverlapQueryHighlightsTheShapesItOverlaps) {
  const v1::Level level = EveryShapeKind();
  RenderedQuery rendered;
  rendered.query.set_request_id(4);
  v1::Circle* circle = rendered.query.mutable_overlap()->mutable_circle();
  Set(circle->mutable_center(), 6, 2);
  circle->set_radius(1);
  rendered.result.mutable_overlap()->add_shapes()->set_shape_id(2);
  rendered.result.mutable_overlap()->add_shapes()->set_shape_id(5);
  const Picture picture(Render(level, {rendered}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> highlighted =
      picture.InGroup("overlapped");
  ASSERT_EQ(highlighted.size(), 2u);
  const XMLElement* polyline = WithTitle(highlighted, "#4 overlaps shape 2");
  ASSERT_NE(polyline, nullptr);
  EXPECT_STREQ(polyline->Name(), "polyline");
  ExpectNear(PointsOf(polyline)[1], Px(6, 3), kPixelTolerance,
             "highlighted polyline");
  const XMLElement* circle_shape =
      WithTitle(highlighted, "#4 overlaps shape 5");
  ASSERT_NE(circle_shape, nullptr);
  ExpectNear({Number(circle_shape, "cx"), Number(circle_shape, "cy")}, Px(7, 7),
             kPixelTolerance, "highlighted circle");
  const auto probe = picture.WithClass("outlines", "probe");
  ASSERT_EQ(probe.size(), 1u);
  ExpectNear({Number(probe[0], "cx"), Number(probe[0], "cy")}, Px(6, 2),
             kPixelTolerance, "overlap shape");
}

TEST(RenderSvgTest, ClosestPointDrawsALineFromTheQueryPointToThePointFound) {
  RenderedQuery rendered;
  v1::ClosestPointQuery* query = rendered.query.mutable_closest_point();
  Set(query->mutable_point(), 3, 4);
  query->set_max_distance(5);
  v1::ClosestPointResult* result = rendered.result.mutable_closest_point();
  result->set_found(true);
  Set(result->mutable_point(), 6, 8);
  result->set_distance(5);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  const auto lines = picture.WithClass("outlines", "closest");
  ASSERT_EQ(lines.size(), 1u);
  ExpectNear({Number(lines[0], "x1"), Number(lines[0], "y1")}, Px(3, 4),
             kPixelTolerance, "query point");
  ExpectNear({Number(lines[0], "x2"), Number(lines[0], "y2")}, Px(6, 8),
             kPixelTolerance, "point found");
  const auto search = picture.WithClass("outlines", "search");
  ASSERT_EQ(search.size(), 1u);
  EXPECT_NEAR(Number(search[0], "r"), 5 * kScale, kPixelTolerance);
}

TEST(RenderSvgTest, TextIsEscaped) {
  v1::Level level;
  level.set_id("a<b>&\"c'\x01\xff");
  RenderedQuery failed;
  failed.query.set_request_id(9);
  Set(failed.query.mutable_ray_cast()->mutable_translation(), 1, 0);
  failed.result.mutable_status()->set_code(3);
  failed.result.mutable_status()->set_message("<script>alert(1)</script> & x");
  const std::string svg = Render(level, {failed});
  EXPECT_FALSE(absl::StrContains(svg, "<script>"));
  EXPECT_FALSE(absl::StrContains(svg, "\x01"));
  const Picture picture(svg);
  ASSERT_TRUE(picture.parsed());
  bool found_level = false;
  bool found_error = false;
  for (const std::string& text : picture.Texts()) {
    // Bytes XML cannot carry became U+FFFD.
    found_level |= absl::StrContains(text, "level a<b>&\"c'\xEF\xBF\xBD");
    found_error |=
        text == "#9: INVALID_ARGUMENT: <script>alert(1)</script> & x";
  }
  EXPECT_TRUE(found_level);
  EXPECT_TRUE(found_error);
}

TEST(RenderSvgTest, EmptyLevelWithNoQueriesIsAValidPicture) {
  RenderOptions options;  // default view and width
  const Picture picture(Render(v1::Level(), {}, options));
  ASSERT_TRUE(picture.parsed());
  EXPECT_STREQ(picture.root()->Name(), "svg");
  EXPECT_STREQ(picture.root()->Attribute("xmlns"),
               "http://www.w3.org/2000/svg");
  EXPECT_EQ(Number(picture.root(), "width"), 800);
  EXPECT_TRUE(picture.InGroup("level").empty());
  EXPECT_FALSE(picture.InGroup("grid").empty());
  bool summary = false;
  for (const std::string& text : picture.Texts()) {
    summary |= absl::StrContains(text, "0 shapes, 0 queries");
  }
  EXPECT_TRUE(summary);
}

// Every coordinate-like attribute in the picture, for bounds checks.
std::vector<double> AllCoordinates(const Picture& picture) {
  std::vector<double> out;
  Picture::Visit(picture.root(), [&](const XMLElement* e) {
    for (const char* name : {"x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r",
                             "width", "height"}) {
      if (e->Attribute(name) != nullptr) out.push_back(Number(e, name));
    }
    if (e->Attribute("points") != nullptr) {
      for (const Point p : PointsOf(e)) {
        out.push_back(p.x);
        out.push_back(p.y);
      }
    }
    if (e->Attribute("d") != nullptr) {
      for (const Point p : PathPoints(e)) {
        out.push_back(p.x);
        out.push_back(p.y);
      }
    }
  });
  return out;
}

TEST(RenderSvgTest, HugeCoordinatesFitTheDefaultView) {
  v1::Level level;
  v1::Box* far = AddShape(level, 1)->mutable_box();
  Set(far->mutable_center(), 1e59, -1e59);
  Set(far->mutable_half_extents(), 1e58, 1e58);
  v1::Circle* near = AddShape(level, 2)->mutable_circle();
  near->set_radius(1);
  v1::Segment* across = AddShape(level, 3)->mutable_segment();
  Set(across->mutable_p1(), -1e60, 1e60);
  Set(across->mutable_p2(), 1e60, -1e60);
  RenderOptions options;
  const Picture picture(Render(level, {}, options));
  ASSERT_TRUE(picture.parsed());
  EXPECT_EQ(picture.InGroup("level").size(), 3u);
  for (const double value : AllCoordinates(picture)) {
    ASSERT_TRUE(std::isfinite(value));
    EXPECT_LE(std::abs(value), 3 * 800);
  }
  // The far box is where it belongs: right of and below the centre.
  const XMLElement* box = WithTitle(picture.InGroup("level"), "shape 1 (box)");
  ASSERT_NE(box, nullptr);
  const XMLElement* circle =
      WithTitle(picture.InGroup("level"), "shape 2 (circle)");
  ASSERT_NE(circle, nullptr);
  EXPECT_GT(PointsOf(box)[0].x, Number(circle, "cx"));
  EXPECT_GT(PointsOf(box)[0].y, Number(circle, "cy"));
}

// Whether `p` lies inside the polygon (even-odd rule).
bool Inside(const std::vector<Point>& polygon, Point p) {
  bool inside = false;
  for (size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Point a = polygon[i];
    const Point b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y) &&
        p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

TEST(RenderSvgTest, ShapesFarLargerThanTheViewAreCutToIt) {
  v1::Level level;
  // A circle whose top just reaches into the view, at y = -0.5.
  v1::Circle* huge = AddShape(level, 1)->mutable_circle();
  Set(huge->mutable_center(), 10, -1e6 - 0.5);
  huge->set_radius(1e6);
  // A wall crossing the whole world.
  v1::Segment* wall = AddShape(level, 2)->mutable_segment();
  Set(wall->mutable_p1(), -1e60, 5);
  Set(wall->mutable_p2(), 1e60, 5);
  RenderOptions options;
  options.width_px = 400;
  options.view = View(0.0, -10.0, 20.0, 10.0);  // 20 px per unit
  const Picture picture(Render(level, {}, options));
  ASSERT_TRUE(picture.parsed());
  for (const double value : AllCoordinates(picture)) {
    ASSERT_TRUE(std::isfinite(value));
    EXPECT_LE(std::abs(value), 3 * 400);
  }
  const auto to_px = [](double x, double y) {
    return Point{x * 20.0, (10.0 - y) * 20.0};
  };
  const XMLElement* circle =
      WithTitle(picture.InGroup("level"), "shape 1 (circle)");
  ASSERT_NE(circle, nullptr);
  ASSERT_STREQ(circle->Name(), "polygon");
  const std::vector<Point> outline = PointsOf(circle);
  EXPECT_LT(outline.size(), 5000u);
  // 0.1 units is 2 px, well beyond the 0.25 px the curve may stray.
  EXPECT_TRUE(Inside(outline, to_px(10, -0.6)));
  EXPECT_TRUE(Inside(outline, to_px(0.5, -9)));
  EXPECT_TRUE(Inside(outline, to_px(19.5, -9)));
  EXPECT_FALSE(Inside(outline, to_px(10, -0.4)));
  EXPECT_FALSE(Inside(outline, to_px(10, 5)));

  const XMLElement* line =
      WithTitle(picture.InGroup("level"), "shape 2 (segment)");
  ASSERT_NE(line, nullptr);
  EXPECT_NEAR(Number(line, "y1"), to_px(0, 5).y, kPixelTolerance);
  EXPECT_NEAR(Number(line, "y2"), to_px(0, 5).y, kPixelTolerance);
  EXPECT_LT(Number(line, "x1"), 0.0);
  EXPECT_GT(Number(line, "x2"), 400.0);
}

TEST(RenderSvgTest, UnknownQueryKindIsNotedNotDrawn) {
  // A query as a newer client would send it: request_id 42 (field 1) and a
  // query kind in field 30 that this proto does not know (an empty
  // message: tag 30 << 3 | 2 = 242, varint F2 01, length 0).
  RenderedQuery unknown;
  ASSERT_TRUE(
      unknown.query.ParseFromString(std::string("\x08\x2a\xf2\x01\x00", 5)));
  RenderedQuery empty;
  empty.query.set_request_id(43);
  RenderedQuery known = CircleCastHit(0.5, v1::HIT_STATUS_HIT);
  const Picture picture(Render(v1::Level(), {unknown, empty, known}));
  ASSERT_TRUE(picture.parsed());
  bool unknown_noted = false;
  bool empty_noted = false;
  for (const std::string& text : picture.Texts()) {
    // (The 400 px legend cuts the line before the field number.)
    unknown_noted |=
        absl::StartsWith(text, "#42: not drawn: query kind unknown");
    empty_noted |= text == "#43: no query set";
  }
  EXPECT_TRUE(unknown_noted);
  EXPECT_TRUE(empty_noted);
  // The known query is drawn as usual.
  EXPECT_EQ(picture.WithClass("hits", "toi").size(), 1u);
}

TEST(RenderSvgTest, FailedQueryIsGreyAndItsErrorListed) {
  RenderedQuery failed = CircleCastHit(0.5, v1::HIT_STATUS_HIT);
  failed.result.mutable_status()->set_code(3);
  failed.result.mutable_status()->set_message(
      "queries[0].circle_cast.circle.radius must be >= 0");
  RenderOptions wide = TestOptions();
  wide.width_px = 1000;  // the legend's lines are cut to the picture's width
  const Picture failed_picture(Render(v1::Level(), {failed}, wide));
  const Picture ok_picture(
      Render(v1::Level(), {CircleCastHit(0.5, v1::HIT_STATUS_HIT)}, wide));
  ASSERT_TRUE(failed_picture.parsed());
  // No result is read from a failed query, even one carrying hits.
  EXPECT_TRUE(failed_picture.InGroup("hits").empty());
  const auto failed_start = failed_picture.WithClass("outlines", "start");
  const auto ok_start = ok_picture.WithClass("outlines", "start");
  ASSERT_EQ(failed_start.size(), 1u);
  ASSERT_EQ(ok_start.size(), 1u);
  EXPECT_STRNE(failed_start[0]->Attribute("stroke"),
               ok_start[0]->Attribute("stroke"));
  const std::vector<std::string> texts = failed_picture.Texts();
  EXPECT_NE(std::find(texts.begin(), texts.end(),
                      "#7: INVALID_ARGUMENT: queries[0].circle_cast.circle."
                      "radius must be >= 0"),
            texts.end());
}

TEST(RenderSvgTest, LongNotesAreCutToThePictureWidthBetweenCharacters) {
  RenderedQuery failed = CircleCastHit(0.5, v1::HIT_STATUS_HIT);
  failed.result.mutable_status()->set_code(3);
  std::string message;
  for (int i = 0; i < 300; ++i) message += "\xC3\xA9";  // e acute
  failed.result.mutable_status()->set_message(message);
  const Picture picture(Render(v1::Level(), {failed}));
  ASSERT_TRUE(picture.parsed());
  bool found = false;
  for (const std::string& text : picture.Texts()) {
    if (!absl::StartsWith(text, "#7: INVALID_ARGUMENT: ")) continue;
    found = true;
    EXPECT_TRUE(absl::EndsWith(text, "\xC3\xA9..."));
    EXPECT_LT(text.size(), 400u / 6);  // about one byte per 6.4 px
    EXPECT_FALSE(absl::StrContains(text, "\xEF\xBF\xBD"));  // no U+FFFD
  }
  EXPECT_TRUE(found);
}

TEST(RenderSvgTest, UndrawableLevelShapesAreCountedNotDrawn) {
  v1::Level level = EveryShapeKind();
  Set(AddShape(level, 20)->mutable_circle()->mutable_center(),
      std::numeric_limits<double>::quiet_NaN(), 0);
  AddShape(level, 21);  // no geometry
  AddShape(level, 22)->mutable_circle()->set_radius(-1);
  const Picture picture(Render(level, {}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_EQ(picture.InGroup("level").size(), 7u);
  bool counted = false;
  for (const std::string& text : picture.Texts()) {
    counted |= absl::StrContains(text, "10 shapes") &&
               absl::StrContains(text, "3 shapes not drawn");
  }
  EXPECT_TRUE(counted);
}

TEST(RenderSvgTest, LabelsCanBeTurnedOff) {
  RenderOptions options = TestOptions();
  options.labels = false;
  const Picture picture(Render(
      EveryShapeKind(), {CircleCastHit(0.5, v1::HIT_STATUS_HIT)}, options));
  ASSERT_TRUE(picture.parsed());
  EXPECT_TRUE(picture.InGroup("labels").empty());
  // The legend stays.
  EXPECT_FALSE(picture.Texts().empty());
}

TEST(RenderSvgTest, GridLinesStandAtMultiplesOfTheCellSize) {
  RenderOptions options = TestOptions();
  options.grid_cell_size = 5;
  const Picture picture(Render(v1::Level(), {}, options));
  ASSERT_TRUE(picture.parsed());
  std::vector<double> vertical;
  bool axis_at_zero = false;
  for (const XMLElement* e : picture.InGroup("grid")) {
    if (absl::string_view(e->Name()) != "line") continue;
    if (Number(e, "x1") == Number(e, "x2")) {
      vertical.push_back(Number(e, "x1"));
      axis_at_zero |= Picture::HasClass(e, "axis") && Number(e, "x1") == 0.0;
    }
  }
  EXPECT_EQ(vertical, (std::vector<double>{0, 100, 200, 300, 400}));
  EXPECT_TRUE(axis_at_zero);

  options.draw_grid = false;
  const Picture bare(Render(v1::Level(), {}, options));
  ASSERT_TRUE(bare.parsed());
  EXPECT_TRUE(bare.InGroup("grid").empty());
}

TEST(RenderSvgTest, DefaultViewHoldsTheLevelAndTheQueries) {
  v1::Level level;
  v1::Circle* circle = AddShape(level, 1)->mutable_circle();
  Set(circle->mutable_center(), 0, 0);
  circle->set_radius(1);
  // The cast ends far right of the level.
  RenderedQuery rendered;
  Set(rendered.query.mutable_ray_cast()->mutable_translation(), 100, 0);
  RenderOptions options;
  const Picture picture(Render(level, {rendered}, options));
  ASSERT_TRUE(picture.parsed());
  const XMLElement* drawn =
      WithTitle(picture.InGroup("level"), "shape 1 (circle)");
  ASSERT_NE(drawn, nullptr);
  // 101 units plus 5% margins across 800 px: the circle sits near the left.
  const double scale = 800 / (101 * 1.1);
  EXPECT_NEAR(Number(drawn, "cx"), (1 + 0.05 * 101) * scale, 0.5);
  EXPECT_NEAR(Number(drawn, "r"), scale, 0.01);
}

TEST(RenderSvgTest, BadOptionsAreRefusedNamingTheField) {
  const auto message = [](const RenderOptions& options) {
    absl::StatusOr<std::string> svg = RenderSvg(v1::Level(), {}, options);
    EXPECT_EQ(svg.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(svg.status().message());
  };
  RenderOptions narrow;
  narrow.width_px = 10;
  EXPECT_TRUE(absl::StrContains(message(narrow), "options.width_px"));
  RenderOptions inverted;
  inverted.view = View(5, 0, 1, 10);
  EXPECT_TRUE(absl::StrContains(message(inverted), "options.view.upper.x"));
  RenderOptions flat;
  flat.view = View(0, 3, 10, 3);
  EXPECT_TRUE(absl::StrContains(message(flat), "options.view.upper.y"));
  RenderOptions not_finite;
  not_finite.view = View(std::numeric_limits<double>::quiet_NaN(), 0, 1, 1);
  EXPECT_TRUE(absl::StrContains(message(not_finite), "options.view.lower.x"));
  RenderOptions negative_grid;
  negative_grid.grid_cell_size = -1;
  EXPECT_TRUE(
      absl::StrContains(message(negative_grid), "options.grid_cell_size"));
}

// A sword (capsule from the hand at (1, 5) to (3, 5), radius 0.1) swinging
// a quarter turn counter-clockwise about the hand, hit at half the step.
RenderedQuery SwordSwing() {
  RenderedQuery rendered;
  rendered.query.set_request_id(8);
  v1::CapsuleCastQuery* cast = rendered.query.mutable_capsule_cast();
  Set(cast->mutable_capsule()->mutable_p1(), 1, 5);
  Set(cast->mutable_capsule()->mutable_p2(), 3, 5);
  cast->mutable_capsule()->set_radius(0.1);
  Set(cast->mutable_translation(), 0, 0);
  cast->mutable_turn()->set_angle(std::numbers::pi / 2);
  Set(cast->mutable_turn()->mutable_pivot(), 1, 5);
  v1::CastHit* hit = rendered.result.mutable_cast()->add_hits();
  hit->set_fraction(0.5);
  Set(hit->mutable_point(), 2.5, 6.5);
  Set(hit->mutable_normal(), -0.7071, -0.7071);
  hit->set_shape_id(4);
  hit->set_status(v1::HIT_STATUS_HIT);
  hit->mutable_turn()->set_status(v1::TURN_STATUS_HIT);
  hit->mutable_turn()->set_fraction_hi(0.5);
  rendered.result.set_request_id(8);
  return rendered;
}

TEST(RenderSvgTest, TurningCastDrawsPosesArcAndTheContactPoseTurned) {
  const Picture picture(Render(v1::Level(), {SwordSwing()}));
  ASSERT_TRUE(picture.parsed());
  const Point hand = Px(1, 5);
  // Seven intermediate poses, each a capsule whose far end is 2 from the
  // hand.
  const std::vector<const XMLElement*> poses = picture.InGroup("swept");
  EXPECT_EQ(poses.size(), 7u);
  // The contact pose: the blade turned by 45 degrees, every outline point
  // within the radius of the turned axis.
  const std::vector<const XMLElement*> at_hit =
      picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 1u);
  const Point tip = Px(1 + 2 * std::cos(std::numbers::pi / 4),
                       5 + 2 * std::sin(std::numbers::pi / 4));
  const std::vector<Point> outline = PathPoints(at_hit[0]);
  ASSERT_GE(outline.size(), 2u);
  for (const Point p : outline) {
    EXPECT_NEAR(DistanceToSegment(hand, tip, p), 0.1 * kScale, kCurveTolerance);
  }
  // The arc of the farthest point (the tip plus the radius): every point
  // 2.1 from the hand.
  bool arc_found = false;
  for (const XMLElement* path : picture.WithClass("outlines", "path")) {
    // The arc is the chain of many points (the pivot's path, here of
    // length 0, is another element of this class).
    if (path->Attribute("points") == nullptr &&
        path->Attribute("d") == nullptr) {
      continue;
    }
    const std::vector<Point> points = path->Attribute("points") != nullptr
                                          ? PointsOf(path)
                                          : PathPoints(path);
    if (points.size() < 10) continue;
    arc_found = true;
    for (const Point p : points) {
      EXPECT_NEAR(Distance(p, hand), 2.1 * kScale, kPixelTolerance);
    }
  }
  EXPECT_TRUE(arc_found);
}

}  // namespace
}  // namespace collide::client::svg_test
