// The canvas the SVG renderer draws into: its layers' order, the roles a
// motion marks, the bounds it returns and labels that follow the option.
#include "client/svg/svg_canvas.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "collide/vec2.h"
#include "gtest/gtest.h"

namespace collide::client::svg_internal {
namespace {

// 10 px per unit over the world square [0, 20] x [0, 20].
Frame TestFrame() {
  return {.view = {{0, 0}, {20, 20}}, .scale = 10, .width = 200, .height = 200};
}

WorldShape Circle(Vec2 center, double radius) {
  return {
      .kind = WorldShape::Kind::kRounded, .points = {center}, .radius = radius};
}

TEST(CanvasTest, LayersAreGroupsFromGridToLabels) {
  Canvas canvas(TestFrame(), /*labels=*/true);
  const std::string groups = canvas.Groups();
  size_t previous = 0;
  for (const char* id : {"grid", "level", "overlapped", "swept", "outlines",
                         "hits", "markers", "labels"}) {
    const size_t at = groups.find(absl::StrCat("<g id=\"", id, "\">"));
    ASSERT_NE(at, std::string::npos) << id;
    EXPECT_GE(at, previous) << id;
    previous = at;
  }
}

TEST(CanvasTest, MotionMarksItsRolesAndReturnsTheStartBounds) {
  Canvas canvas(TestFrame(), /*labels=*/true);
  const Aabb bounds = canvas.Motion(Circle({2, 18}, 1), {10, 0}, "#000000", "",
                                    {.swept_class = ""});
  // The circle at (20, 20) px, radius 10 px.
  EXPECT_DOUBLE_EQ(bounds.lower.x, 10);
  EXPECT_DOUBLE_EQ(bounds.lower.y, 10);
  EXPECT_DOUBLE_EQ(bounds.upper.x, 30);
  EXPECT_DOUBLE_EQ(bounds.upper.y, 30);
  EXPECT_TRUE(canvas.roles().test(kRoleEnd));
  EXPECT_FALSE(canvas.roles().test(kRoleSwept));  // no swept class given
  EXPECT_TRUE(canvas.layer(Layer::kSwept).svg().empty());
  canvas.Motion(Circle({2, 18}, 1), {10, 0}, "#000000", "", {});
  EXPECT_TRUE(canvas.roles().test(kRoleSwept));
  EXPECT_FALSE(canvas.layer(Layer::kSwept).svg().empty());
}

TEST(CanvasTest, ContactLabelsFollowTheLabelsOption) {
  Canvas with(TestFrame(), /*labels=*/true);
  Canvas without(TestFrame(), /*labels=*/false);
  for (Canvas* canvas : {&with, &without}) {
    canvas->Contact({5, 5}, {0, 1}, "#ff0000", "t=0.5", "#000000", "");
    canvas->TagLabel("#1", {{0, 0}, {10, 10}}, "#000000");
  }
  EXPECT_TRUE(absl::StrContains(with.Groups(), ">t=0.5<"));
  EXPECT_TRUE(absl::StrContains(with.Groups(), ">#1<"));
  EXPECT_FALSE(absl::StrContains(without.Groups(), "<text"));
  // The marks themselves are drawn either way.
  EXPECT_TRUE(absl::StrContains(without.Groups(), "class=\"contact\""));
  EXPECT_TRUE(absl::StrContains(without.Groups(), "class=\"normal\""));
}

}  // namespace
}  // namespace collide::client::svg_internal
