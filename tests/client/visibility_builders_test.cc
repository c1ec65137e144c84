// The line-of-sight builders set what they name and leave the rest unset
// (the server's defaults); the readers turn VisibilityResult's rows of
// 64-bit words into target indices, bit j % 64 of word j / 64.
#include "client/lib/visibility_builders.h"

#include <cstdint>
#include <vector>

#include "client/lib/query_builders.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace collide::client {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ViewerTest, DefaultsAreAnyDistanceEveryDirection) {
  const v1::Viewer viewer = Viewer({5, 2});
  EXPECT_EQ(viewer.position().x(), 5);
  EXPECT_EQ(viewer.position().y(), 2);
  EXPECT_FALSE(viewer.has_range());
  EXPECT_FALSE(viewer.has_cone());
}

TEST(ViewerTest, RangeAndConeAreSet) {
  const v1::Viewer viewer =
      Viewer({17, -5}, {.range = 0, .cone = ViewCone({-1, 0}, 0.5)});
  // A range of 0 is a value (only the viewer's own position), not unset.
  ASSERT_TRUE(viewer.has_range());
  EXPECT_EQ(viewer.range(), 0);
  ASSERT_TRUE(viewer.has_cone());
  EXPECT_EQ(viewer.cone().direction().x(), -1);
  EXPECT_EQ(viewer.cone().half_angle_radians(), 0.5);
}

TEST(VisibilityTest, ViewersAndTargetsKeepTheirOrder) {
  const v1::Viewer viewers[] = {Viewer({0, 0}), Viewer({1, 0}, {.range = 3})};
  const v1::VisibilityTarget targets[] = {PointTarget({4, 5}),
                                          DiscTarget({6, 7}, 0.5)};
  const v1::Query query = Visibility(viewers, targets);
  const v1::VisibilityQuery& visibility = query.visibility();
  ASSERT_EQ(visibility.viewers_size(), 2);
  EXPECT_EQ(visibility.viewers(1).range(), 3);
  ASSERT_EQ(visibility.targets_size(), 2);
  EXPECT_EQ(visibility.targets(0).point().y(), 5);
  EXPECT_EQ(visibility.targets(1).circle().center().x(), 6);
  EXPECT_EQ(visibility.targets(1).circle().radius(), 0.5);
  EXPECT_EQ(visibility.target_rule(), v1::TARGET_RULE_UNSPECIFIED);
  EXPECT_FALSE(visibility.filter().has_mask_bits());
  EXPECT_FALSE(visibility.filter().has_category_bits());
}

TEST(VisibilityTest, FilterAndTargetRuleAreSet) {
  const v1::Query query =
      Visibility({}, {}, Filter({.mask_bits = 1}), v1::TARGET_RULE_ANY_PART);
  EXPECT_EQ(query.visibility().filter().mask_bits(), 1u);
  EXPECT_EQ(query.visibility().target_rule(), v1::TARGET_RULE_ANY_PART);
  EXPECT_EQ(query.visibility().viewers_size(), 0);
}

TEST(VisibilityPolygonTest, ArcAngleZeroMeansTheServerDefault) {
  const v1::Query query = VisibilityPolygon({5, 2}, 3);
  EXPECT_EQ(query.visibility_polygon().viewer().x(), 5);
  EXPECT_EQ(query.visibility_polygon().range(), 3);
  EXPECT_EQ(query.visibility_polygon().max_arc_angle_radians(), 0);
  EXPECT_FALSE(query.visibility_polygon().filter().has_mask_bits());

  const v1::Query fine =
      VisibilityPolygon({0, 0}, 10, 0.01, Filter({.group = 2}));
  EXPECT_EQ(fine.visibility_polygon().max_arc_angle_radians(), 0.01);
  EXPECT_EQ(fine.visibility_polygon().filter().group(), 2);
}

// Two viewers of 70 targets: two words a row.
v1::VisibilityResult TwoRows() {
  v1::VisibilityResult answer;
  answer.set_words_per_viewer(2);
  answer.add_visible_words((uint64_t{1} << 0) | (uint64_t{1} << 63));
  answer.add_visible_words(uint64_t{1} << 5);  // target 69
  answer.add_visible_words(0);
  answer.add_visible_words(uint64_t{1} << 1);  // target 65
  return answer;
}

TEST(VisibleSetsTest, RowsListTargetIndicesAscending) {
  EXPECT_THAT(VisibleSets(TwoRows()),
              ElementsAre(ElementsAre(0, 63, 69), ElementsAre(65)));
}

TEST(VisibleSetsTest, NoTargetsGiveViewerCountEmptyRows) {
  const v1::VisibilityResult empty;
  EXPECT_THAT(VisibleSets(empty), IsEmpty());
  EXPECT_THAT(VisibleSets(empty, 3),
              ElementsAre(IsEmpty(), IsEmpty(), IsEmpty()));
}

TEST(SeesTest, ReadsOneBitAndIsFalseOutsideTheAnswer) {
  const v1::VisibilityResult answer = TwoRows();
  EXPECT_TRUE(Sees(answer, 0, 0));
  EXPECT_TRUE(Sees(answer, 0, 63));
  EXPECT_TRUE(Sees(answer, 0, 69));
  EXPECT_FALSE(Sees(answer, 0, 64));
  EXPECT_TRUE(Sees(answer, 1, 65));
  EXPECT_FALSE(Sees(answer, 1, 0));
  EXPECT_FALSE(Sees(answer, 2, 0));
  EXPECT_FALSE(Sees(answer, -1, 0));
  EXPECT_FALSE(Sees(answer, 0, -1));
  EXPECT_FALSE(Sees(answer, 0, 128));
  EXPECT_FALSE(Sees(v1::VisibilityResult(), 0, 0));
}

TEST(PolygonPointsTest, VerticesInOrder) {
  v1::VisibilityPolygonResult answer;
  v1::VisibilityPolygonVertex* first = answer.add_vertices();
  *first->mutable_point() = ToProto({6, 4});
  *answer.add_vertices()->mutable_point() = ToProto({4, 4});
  const std::vector<Vec2> points = PolygonPoints(answer);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].x, 6);
  EXPECT_EQ(points[1].x, 4);
  EXPECT_THAT(PolygonPoints(v1::VisibilityPolygonResult()), IsEmpty());
}

}  // namespace
}  // namespace collide::client
