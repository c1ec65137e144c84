// RenderSvg on the line-of-sight queries (visibility, visibility polygon):
// the picture is parsed and each mark checked at the pixel coordinates the
// query and its result put it (see svg_picture.h for the test view: 20 px
// per unit, y flipped).
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "client/svg/svg_render.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/v1/geometry.pb.h"
#include "gtest/gtest.h"
#include "tests/client/svg_picture.h"
#include "tinyxml2.h"

namespace collide::client::svg_test {
namespace {

Point Center(const XMLElement* e) { return {Number(e, "cx"), Number(e, "cy")}; }

// Wide enough that the legend's notes are not cut.
RenderOptions WideOptions() {
  RenderOptions options = TestOptions();
  options.width_px = 1600;
  return options;
}

// Viewer 0 at (2, 5) with range 4 facing +x within 0.5 rad; viewer 1 at
// (18, 5). Targets (5, 5), a circle of radius 1 at (10, 5), and (18, 8).
// Row i of the result is `row0` or `row1`.
RenderedQuery Tick(uint64_t row0, uint64_t row1) {
  RenderedQuery rendered;
  rendered.query.set_request_id(1);
  v1::VisibilityQuery* sight = rendered.query.mutable_visibility();
  v1::Viewer* near = sight->add_viewers();
  Set(near->mutable_position(), 2, 5);
  near->set_range(4);
  Set(near->mutable_cone()->mutable_direction(), 1, 0);
  near->mutable_cone()->set_half_angle_radians(0.5);
  Set(sight->add_viewers()->mutable_position(), 18, 5);
  Set(sight->add_targets()->mutable_point(), 5, 5);
  v1::Circle* circle = sight->add_targets()->mutable_circle();
  Set(circle->mutable_center(), 10, 5);
  circle->set_radius(1);
  Set(sight->add_targets()->mutable_point(), 18, 8);
  v1::VisibilityResult* result = rendered.result.mutable_visibility();
  result->set_words_per_viewer(1);
  result->add_visible_words(row0);
  result->add_visible_words(row1);
  return rendered;
}

TEST(SvgVisibilityTest, ViewersTargetsAndLinesOfSightAreWhereTheQuerySays) {
  const Picture picture(Render(v1::Level(), {Tick(0b001, 0b110)}));
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> viewers =
      picture.WithClass("markers", "viewer");
  ASSERT_EQ(viewers.size(), 2u);
  EXPECT_NEAR(Distance(Center(viewers[0]), Px(2, 5)), 0, kPixelTolerance);
  EXPECT_NEAR(Distance(Center(viewers[1]), Px(18, 5)), 0, kPixelTolerance);
  // Viewer 0's cone edges run 4 units (its range) at +-0.5 rad.
  const std::vector<const XMLElement*> cones =
      picture.WithClass("outlines", "cone");
  ASSERT_EQ(cones.size(), 2u);
  for (const XMLElement* edge : cones) {
    const Point a{Number(edge, "x1"), Number(edge, "y1")};
    const Point b{Number(edge, "x2"), Number(edge, "y2")};
    EXPECT_NEAR(Distance(a, Px(2, 5)), 0, kPixelTolerance);
    EXPECT_NEAR(Distance(a, b), 4 * kScale, kPixelTolerance);
    EXPECT_NEAR(std::abs(b.y - a.y), 4 * kScale * std::sin(0.5), 0.02);
  }
  EXPECT_EQ(picture.WithClass("outlines", "range").size(), 1u);
  // Three lines of sight, one per bit set.
  EXPECT_EQ(picture.WithClass("swept", "sight").size(), 3u);
  EXPECT_NE(WithTitle(picture.WithClass("swept", "sight"), "v1 sees t2"),
            nullptr);
  // Every target is seen by someone: filled.
  EXPECT_EQ(picture.WithClass("hits", "seen").size(), 3u);
  EXPECT_TRUE(picture.WithClass("hits", "unseen").empty());
  const XMLElement* point =
      WithTitle(picture.WithClass("hits", "seen"), "#1 t0 seen");
  ASSERT_NE(point, nullptr);
  EXPECT_NEAR(Distance(Center(point), Px(5, 5)), 0, kPixelTolerance);
}

TEST(SvgVisibilityTest, TargetsNoViewerSeesAreHollowGrey) {
  const Picture picture(Render(v1::Level(), {Tick(0b001, 0)}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_EQ(picture.WithClass("hits", "seen").size(), 1u);
  const std::vector<const XMLElement*> unseen =
      picture.WithClass("hits", "unseen");
  ASSERT_EQ(unseen.size(), 2u);
  for (const XMLElement* target : unseen) {
    EXPECT_STREQ(target->Attribute("stroke"), "#868e96");
  }
  EXPECT_NE(WithTitle(unseen, "#1 t1 not seen"), nullptr);
}

TEST(SvgVisibilityTest, AResultThatDoesNotFitIsNotedAndDrawnGrey) {
  RenderedQuery rendered = Tick(1, 1);
  rendered.result.mutable_visibility()->add_visible_words(1);
  const std::string svg = Render(v1::Level(), {rendered}, WideOptions());
  const Picture picture(svg);
  ASSERT_TRUE(picture.parsed());
  EXPECT_TRUE(picture.WithClass("swept", "sight").empty());
  EXPECT_NE(svg.find("#1: the result's rows do not fit 2 viewers x 3 "
                     "targets, not drawn"),
            std::string::npos);
}

TEST(SvgVisibilityTest, APolygonIsFilledThroughItsVertices) {
  RenderedQuery rendered;
  rendered.query.set_request_id(2);
  Set(rendered.query.mutable_visibility_polygon()->mutable_viewer(), 10, 5);
  rendered.query.mutable_visibility_polygon()->set_range(4);
  v1::VisibilityPolygonResult* polygon =
      rendered.result.mutable_visibility_polygon();
  for (const auto& [x, y] :
       {std::pair{14.0, 5.0}, {10.0, 9.0}, {6.0, 5.0}, {10.0, 1.0}}) {
    v1::VisibilityPolygonVertex* vertex = polygon->add_vertices();
    Set(vertex->mutable_point(), x, y);
    vertex->set_kind(v1::VISIBILITY_VERTEX_KIND_ARC);
  }
  const std::string svg = Render(v1::Level(), {rendered});
  const Picture picture(svg);
  ASSERT_TRUE(picture.parsed());
  const std::vector<const XMLElement*> regions =
      picture.WithClass("swept", "visible");
  ASSERT_EQ(regions.size(), 1u);
  const std::vector<Point> points = PointsOf(regions[0]);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_NEAR(Distance(points[0], Px(14, 5)), 0, kPixelTolerance);
  EXPECT_NEAR(Distance(points[1], Px(10, 9)), 0, kPixelTolerance);
  EXPECT_NE(svg.find("visible region"), std::string::npos);
  // An empty polygon: the viewer sees nothing, noted.
  rendered.result.mutable_visibility_polygon()->clear_vertices();
  const std::string inside = Render(v1::Level(), {rendered}, WideOptions());
  EXPECT_NE(inside.find("#2: sees nothing (inside a solid)"),
            std::string::npos);
}

}  // namespace
}  // namespace collide::client::svg_test
