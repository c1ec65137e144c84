// RenderSvg on the validation queries (move validation, hit validation,
// pair TOI): the picture is parsed and each mark checked at the pixel
// coordinates the query and its result put it (see svg_picture.h for the
// test view: 20 px per unit, y flipped).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
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

bool HasText(const Picture& picture, absl::string_view text) {
  const std::vector<std::string> texts = picture.Texts();
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

bool HasTextStartingWith(const Picture& picture, absl::string_view prefix) {
  for (const std::string& text : picture.Texts()) {
    if (absl::StartsWith(text, prefix)) return true;
  }
  return false;
}

// The one element of `css_class` in `group` that is a <circle> centred
// within a pixel tolerance of `center`, or nullptr.
const XMLElement* CircleAt(const Picture& picture, absl::string_view group,
                           absl::string_view css_class, Point center) {
  for (const XMLElement* e : picture.WithClass(group, css_class)) {
    if (absl::string_view(e->Name()) == "circle" &&
        Distance(Center(e), center) <= kPixelTolerance) {
      return e;
    }
  }
  return nullptr;
}

v1::Circle* SetCircle(v1::Circle* circle, double x, double y, double radius) {
  Set(circle->mutable_center(), x, y);
  circle->set_radius(radius);
  return circle;
}

// A circle of radius 1 at (2, 5) claiming to move by (12, 0): blocked by a
// wall at x = 9 at t = 0.5, safe at t = 0.49, and sliding up twice.
RenderedQuery BlockedSlidingMove() {
  RenderedQuery rendered;
  rendered.query.set_request_id(1);
  v1::MoveValidationQuery* move = rendered.query.mutable_move_validation();
  SetCircle(move->mutable_circle(), 2, 5, 1);
  Set(move->mutable_translation(), 12, 0);
  move->set_skin(0.1);
  move->set_max_slide_iterations(4);
  v1::MoveValidationResult* result = rendered.result.mutable_move_validation();
  result->set_verdict(v1::MOVE_VERDICT_BLOCKED);
  v1::CastHit* hit = result->mutable_first_hit();
  hit->set_fraction(0.5);
  Set(hit->mutable_point(), 9, 5);
  Set(hit->mutable_normal(), -1, 0);
  hit->set_shape_id(20);
  hit->set_status(v1::HIT_STATUS_HIT);
  result->set_safe_fraction(0.49);
  Set(result->mutable_safe_translation(), 5.88, 0);
  v1::SlideResult* slide = result->mutable_slide();
  Set(slide->mutable_translation(), 5.88, 3);
  slide->set_iteration_count(3);
  // The first contact is the first hit's (its marks are drawn once); the
  // second is another wall's.
  v1::SlideContact* first = slide->add_contacts();
  Set(first->mutable_translation(), 5.88, 0);
  Set(first->mutable_point(), 9, 5);
  Set(first->mutable_normal(), -1, 0);
  v1::SlideContact* second = slide->add_contacts();
  Set(second->mutable_translation(), 5.88, 2);
  Set(second->mutable_point(), 9.5, 8);
  Set(second->mutable_normal(), -0.6, -0.8);
  return rendered;
}

TEST(RenderValidationTest, BlockedMoveDrawsSafePoseContactsAndSlidePath) {
  const Picture picture(Render(v1::Level(), {BlockedSlidingMove()}));
  ASSERT_TRUE(picture.parsed());
  // Start and claimed end.
  const XMLElement* start = CircleAt(picture, "outlines", "start", Px(2, 5));
  ASSERT_NE(start, nullptr);
  EXPECT_NEAR(Number(start, "r"), kScale, kPixelTolerance);
  EXPECT_NE(CircleAt(picture, "outlines", "end", Px(14, 5)), nullptr);
  // The safe position and the slide's last pose.
  ASSERT_EQ(picture.WithClass("hits", "safe").size(), 1u);
  EXPECT_NE(CircleAt(picture, "hits", "safe", Px(7.88, 5)), nullptr);
  ASSERT_EQ(picture.WithClass("hits", "final").size(), 1u);
  EXPECT_NE(CircleAt(picture, "hits", "final", Px(7.88, 8)), nullptr);

  // The slide's path: the centre at the start, at each contact, at the end.
  const XMLElement* path = nullptr;
  const XMLElement* head = nullptr;
  for (const XMLElement* e : picture.WithClass("hits", "slide")) {
    (absl::string_view(e->Name()) == "polyline" ? path : head) = e;
  }
  ASSERT_NE(path, nullptr);
  const std::vector<Point> points = PointsOf(path);
  ASSERT_EQ(points.size(), 4u);
  ExpectNear(points[0], Px(2, 5), kPixelTolerance, "path start");
  ExpectNear(points[1], Px(7.88, 5), kPixelTolerance, "first contact pose");
  ExpectNear(points[2], Px(7.88, 7), kPixelTolerance, "second contact pose");
  ExpectNear(points[3], Px(7.88, 8), kPixelTolerance, "slide end");
  ASSERT_NE(head, nullptr);
  const std::vector<Point> arrow = PathPoints(head);
  ASSERT_GE(arrow.size(), 2u);
  ExpectNear(arrow[1], Px(7.88, 8), kPixelTolerance, "arrowhead");

  // The first hit and the second slide contact; the first slide contact is
  // the first hit's point and normal, drawn once.
  const auto contacts = picture.WithClass("markers", "contact");
  ASSERT_EQ(contacts.size(), 2u);
  ExpectNear(Center(contacts[0]), Px(9, 5), kPixelTolerance, "first hit");
  ExpectNear(Center(contacts[1]), Px(9.5, 8), kPixelTolerance,
             "second contact");
  const auto normals = picture.WithClass("markers", "normal");
  ASSERT_EQ(normals.size(), 2u);
  const std::vector<Point> second_normal = PathPoints(normals[1]);
  ASSERT_GE(second_normal.size(), 2u);
  const Point tail = second_normal[0];
  const Point tip = second_normal[1];
  // World (-0.6, -0.8): left and down, so towards larger picture y.
  EXPECT_NEAR((tip.x - tail.x) / Distance(tip, tail), -0.6, 1e-3);
  EXPECT_NEAR((tip.y - tail.y) / Distance(tip, tail), 0.8, 1e-3);

  EXPECT_TRUE(HasText(picture, "#1 blocked"));
  EXPECT_TRUE(HasText(picture, "t=0.5"));
  EXPECT_TRUE(HasText(picture, "safe position"));
  EXPECT_TRUE(HasText(picture, "slide path"));
  EXPECT_TRUE(HasText(picture, "slide end"));
  EXPECT_FALSE(HasText(picture, "way out, pose after it"));
}

TEST(RenderValidationTest, AllowedMoveWithoutSlideHasNoContactOrSlideMarks) {
  RenderedQuery rendered = BlockedSlidingMove();
  v1::MoveValidationResult* result = rendered.result.mutable_move_validation();
  result->set_verdict(v1::MOVE_VERDICT_ALLOWED);
  result->clear_first_hit();
  result->clear_slide();
  result->set_safe_fraction(1);
  Set(result->mutable_safe_translation(), 12, 0);
  result->set_claimed_end_reachable(true);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_TRUE(picture.InGroup("markers").empty());
  EXPECT_TRUE(picture.WithClass("hits", "slide").empty());
  EXPECT_TRUE(picture.WithClass("hits", "final").empty());
  // Safe all the way: at the claimed end.
  EXPECT_NE(CircleAt(picture, "hits", "safe", Px(14, 5)), nullptr);
  EXPECT_TRUE(HasText(picture, "#1 allowed"));
  EXPECT_FALSE(HasText(picture, "slide path"));
  EXPECT_FALSE(HasText(picture, "contact, normal"));
}

TEST(RenderValidationTest, MoverStartingInsideIsFilledAndShowsTheWayOut) {
  RenderedQuery rendered = BlockedSlidingMove();
  v1::MoveValidationResult* result = rendered.result.mutable_move_validation();
  result->Clear();
  result->set_verdict(v1::MOVE_VERDICT_STARTS_INSIDE);
  v1::CastHit* hit = result->mutable_first_hit();
  hit->set_status(v1::HIT_STATUS_INITIAL_OVERLAP);
  Set(hit->mutable_point(), 2.6, 5);
  Set(hit->mutable_normal(), -1, 0);
  v1::ExitResult* exit = result->mutable_exit();
  exit->set_separated(true);
  Set(exit->mutable_translation(), -0.5, 1.5);
  exit->set_depth(0.4);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());

  // The mover at its start, filled in another colour than its outline.
  const XMLElement* inside = CircleAt(picture, "hits", "toi", Px(2, 5));
  const XMLElement* start = CircleAt(picture, "outlines", "start", Px(2, 5));
  ASSERT_NE(inside, nullptr);
  ASSERT_NE(start, nullptr);
  EXPECT_STRNE(inside->Attribute("stroke"), start->Attribute("stroke"));
  // The way out: an arrow from the centre, and the pose after it; no safe
  // position along the claimed path and no slide.
  const auto exits = picture.WithClass("markers", "exit");
  ASSERT_EQ(exits.size(), 1u);
  const std::vector<Point> arrow = PathPoints(exits[0]);
  ASSERT_GE(arrow.size(), 2u);
  ExpectNear(arrow[0], Px(2, 5), kPixelTolerance, "exit from");
  ExpectNear(arrow[1], Px(1.5, 6.5), kPixelTolerance, "exit to");
  ASSERT_EQ(picture.WithClass("hits", "safe").size(), 1u);
  EXPECT_NE(CircleAt(picture, "hits", "safe", Px(1.5, 6.5)), nullptr);
  EXPECT_TRUE(picture.WithClass("hits", "slide").empty());
  // The contact point, without a normal along the way out.
  const auto contacts = picture.WithClass("markers", "contact");
  ASSERT_EQ(contacts.size(), 1u);
  ExpectNear(Center(contacts[0]), Px(2.6, 5), kPixelTolerance, "contact");
  EXPECT_TRUE(picture.WithClass("markers", "normal").empty());
  EXPECT_TRUE(HasText(picture, "#1 starts inside"));
  EXPECT_TRUE(HasText(picture, "way out, pose after it"));
  EXPECT_TRUE(HasText(picture, "initial overlap"));
}

// A bullet from (1, 3) along (16, 0); target 7 crosses its line too late,
// target 8 (radius 0.5, falling from (9, 7.5) by 8) is met at t = 0.5 at
// (9, 3), where it then stands at (9, 3.5).
RenderedQuery ShotAtFallingTargets() {
  RenderedQuery rendered;
  rendered.query.set_request_id(3);
  v1::HitValidationQuery* shot = rendered.query.mutable_hit_validation();
  Set(shot->mutable_origin(), 1, 3);
  Set(shot->mutable_translation(), 16, 0);
  v1::ShotTarget* seven = shot->add_targets();
  seven->set_id(7);
  SetCircle(seven->mutable_circle(), 5, 6, 1);
  Set(seven->mutable_translation(), 0, -2);
  v1::ShotTarget* eight = shot->add_targets();
  eight->set_id(8);
  SetCircle(eight->mutable_circle(), 9, 7.5, 0.5);
  Set(eight->mutable_translation(), 0, -8);
  v1::HitValidationResult* result = rendered.result.mutable_hit_validation();
  result->set_outcome(v1::SHOT_OUTCOME_TARGET);
  result->set_id(8);
  result->set_target_index(1);
  result->set_fraction(0.5);
  Set(result->mutable_point(), 9, 3);
  Set(result->mutable_normal(), 0, -1);
  result->set_status(v1::HIT_STATUS_HIT);
  return rendered;
}

TEST(RenderValidationTest, ShotHittingATargetDrawsTheTargetWhenHit) {
  const Picture picture(Render(v1::Level(), {ShotAtFallingTargets()}));
  ASSERT_TRUE(picture.parsed());
  // The bullet: solid to the contact, dashed beyond.
  const XMLElement* solid = nullptr;
  const XMLElement* dashed = nullptr;
  for (const XMLElement* e : picture.InGroup("outlines")) {
    if (absl::string_view(e->Name()) != "line") continue;
    if (Picture::HasClass(e, "ray")) solid = e;
    if (Picture::HasClass(e, "end")) dashed = e;
  }
  ASSERT_NE(solid, nullptr);
  ASSERT_NE(dashed, nullptr);
  ExpectNear({Number(solid, "x1"), Number(solid, "y1")}, Px(1, 3),
             kPixelTolerance, "shot origin");
  ExpectNear({Number(solid, "x2"), Number(solid, "y2")}, Px(9, 3),
             kPixelTolerance, "shot stop");
  ExpectNear({Number(dashed, "x2"), Number(dashed, "y2")}, Px(17, 3),
             kPixelTolerance, "shot end");

  // Each target at the start and the end, and its swept region, faintly.
  EXPECT_NE(CircleAt(picture, "outlines", "start", Px(5, 6)), nullptr);
  EXPECT_NE(CircleAt(picture, "outlines", "end", Px(5, 4)), nullptr);
  EXPECT_NE(CircleAt(picture, "outlines", "start", Px(9, 7.5)), nullptr);
  EXPECT_NE(CircleAt(picture, "outlines", "end", Px(9, -0.5)), nullptr);
  const auto swept = picture.InGroup("swept");
  ASSERT_EQ(swept.size(), 2u);
  for (const XMLElement* e : swept) EXPECT_TRUE(Picture::HasClass(e, "faint"));

  // Target 8 where it was hit, the contact and the outcome.
  const auto at_hit = picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 1u);
  ExpectNear(Center(at_hit[0]), Px(9, 3.5), kPixelTolerance, "target at hit");
  EXPECT_NEAR(Number(at_hit[0], "r"), 0.5 * kScale, kPixelTolerance);
  const auto contacts = picture.WithClass("markers", "contact");
  ASSERT_EQ(contacts.size(), 1u);
  ExpectNear(Center(contacts[0]), Px(9, 3), kPixelTolerance, "contact");
  EXPECT_TRUE(HasText(picture, "target 8 at t=0.5"));
  EXPECT_TRUE(HasText(picture, "target 7"));
  EXPECT_TRUE(HasText(picture, "target 8"));
  EXPECT_TRUE(HasText(picture, "#3"));
}

TEST(RenderValidationTest, ThickShotStoppedByAWallIsDrawnAtTheHit) {
  RenderedQuery rendered = ShotAtFallingTargets();
  v1::HitValidationQuery* shot = rendered.query.mutable_hit_validation();
  shot->set_radius(0.5);
  v1::HitValidationResult* result = rendered.result.mutable_hit_validation();
  result->set_outcome(v1::SHOT_OUTCOME_WALL);
  result->set_id(11);
  result->set_target_index(-1);
  result->set_fraction(0.25);
  Set(result->mutable_point(), 5.5, 3);
  Set(result->mutable_normal(), -1, 0);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());

  // The shot's swept capsule hull: every point 10 px from its centre line.
  const XMLElement* hull = nullptr;
  for (const XMLElement* e : picture.InGroup("swept")) {
    if (!Picture::HasClass(e, "faint")) hull = e;
  }
  ASSERT_NE(hull, nullptr);
  for (const Point p : PathPoints(hull)) {
    EXPECT_NEAR(DistanceToSegment(Px(1, 3), Px(17, 3), p), 0.5 * kScale,
                kPixelTolerance);
  }
  // The shot where it hit the wall; no target drawn as hit.
  const auto at_hit = picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 1u);
  ExpectNear(Center(at_hit[0]), Px(5, 3), kPixelTolerance, "shot at hit");
  EXPECT_NEAR(Number(at_hit[0], "r"), 0.5 * kScale, kPixelTolerance);
  EXPECT_TRUE(HasText(picture, "wall 11"));
  EXPECT_FALSE(HasTextStartingWith(picture, "target 8 at"));
}

TEST(RenderValidationTest, MissedShotIsGreyWithNoHitMarks) {
  const RenderedQuery hit = ShotAtFallingTargets();
  RenderedQuery miss = hit;
  miss.result.mutable_hit_validation()->Clear();
  miss.result.mutable_hit_validation()->set_outcome(v1::SHOT_OUTCOME_MISS);
  const Picture hit_picture(Render(v1::Level(), {hit}));
  const Picture miss_picture(Render(v1::Level(), {miss}));
  ASSERT_TRUE(miss_picture.parsed());
  EXPECT_TRUE(miss_picture.InGroup("hits").empty());
  EXPECT_TRUE(miss_picture.InGroup("markers").empty());
  const auto hit_rays = hit_picture.WithClass("outlines", "ray");
  const auto miss_rays = miss_picture.WithClass("outlines", "ray");
  ASSERT_FALSE(hit_rays.empty());
  ASSERT_FALSE(miss_rays.empty());
  EXPECT_STRNE(miss_rays[0]->Attribute("stroke"),
               hit_rays[0]->Attribute("stroke"));
  EXPECT_TRUE(HasText(miss_picture, "miss, error, no result"));
}

// A circle of radius 1 from (2, 5) by (8, 0) and a capsule of radius 0.5
// around (12.5, 4)-(12.5, 6) by (-4, 0) touch at t = 0.75 at (9, 5).
RenderedQuery CircleMeetingCapsule() {
  RenderedQuery rendered;
  rendered.query.set_request_id(5);
  v1::PairToiQuery* pair = rendered.query.mutable_pair_toi();
  SetCircle(pair->mutable_a()->mutable_circle(), 2, 5, 1);
  Set(pair->mutable_a()->mutable_translation(), 8, 0);
  v1::Capsule* capsule = pair->mutable_b()->mutable_capsule();
  Set(capsule->mutable_p1(), 12.5, 4);
  Set(capsule->mutable_p2(), 12.5, 6);
  capsule->set_radius(0.5);
  Set(pair->mutable_b()->mutable_translation(), -4, 0);
  v1::PairToiResult* result = rendered.result.mutable_pair_toi();
  result->set_hit(true);
  result->set_fraction(0.75);
  Set(result->mutable_point(), 9, 5);
  Set(result->mutable_normal(), -1, 0);
  result->set_status(v1::HIT_STATUS_HIT);
  return rendered;
}

TEST(RenderValidationTest, PairToiDrawsBothShapesAtTheContactFraction) {
  const Picture picture(Render(v1::Level(), {CircleMeetingCapsule()}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_NE(CircleAt(picture, "outlines", "start", Px(2, 5)), nullptr);
  EXPECT_NE(CircleAt(picture, "outlines", "end", Px(10, 5)), nullptr);
  // Both at t = 0.75: the circle at (8, 5), the capsule around x = 9.5.
  const auto at_hit = picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 2u);
  EXPECT_NE(CircleAt(picture, "hits", "toi", Px(8, 5)), nullptr);
  const XMLElement* capsule = nullptr;
  for (const XMLElement* e : at_hit) {
    if (absl::string_view(e->Name()) == "path") capsule = e;
  }
  ASSERT_NE(capsule, nullptr);
  const std::vector<Point> outline = PathPoints(capsule);
  ASSERT_GE(outline.size(), 4u);
  for (const Point p : outline) {
    EXPECT_NEAR(DistanceToSegment(Px(9.5, 4), Px(9.5, 6), p), 0.5 * kScale,
                kPixelTolerance);
  }
  // The capsule's start and end outlines too.
  int capsule_outlines = 0;
  for (const XMLElement* e : picture.InGroup("outlines")) {
    if (absl::string_view(e->Name()) == "path" &&
        (Picture::HasClass(e, "start") || Picture::HasClass(e, "end"))) {
      ++capsule_outlines;
    }
  }
  EXPECT_EQ(capsule_outlines, 2);
  const auto contacts = picture.WithClass("markers", "contact");
  ASSERT_EQ(contacts.size(), 1u);
  ExpectNear(Center(contacts[0]), Px(9, 5), kPixelTolerance, "contact");
  EXPECT_TRUE(HasText(picture, "t=0.75"));
  EXPECT_TRUE(HasText(picture, "#5 a"));
  EXPECT_TRUE(HasText(picture, "b"));
}

TEST(RenderValidationTest, PairToiPointIsARayAndSegmentALine) {
  RenderedQuery rendered;
  v1::PairToiQuery* pair = rendered.query.mutable_pair_toi();
  Set(pair->mutable_a()->mutable_point(), 2, 5);
  Set(pair->mutable_a()->mutable_translation(), 10, 0);
  v1::Segment* segment = pair->mutable_b()->mutable_segment();
  Set(segment->mutable_p1(), 8, 3);
  Set(segment->mutable_p2(), 8, 7);
  v1::PairToiResult* result = rendered.result.mutable_pair_toi();
  result->set_hit(true);
  result->set_fraction(0.6);
  Set(result->mutable_point(), 8, 5);
  Set(result->mutable_normal(), -1, 0);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  const XMLElement* ray = nullptr;
  const XMLElement* segment_start = nullptr;
  for (const XMLElement* e : picture.InGroup("outlines")) {
    if (absl::string_view(e->Name()) != "line") continue;
    if (Picture::HasClass(e, "ray")) ray = e;
    if (Picture::HasClass(e, "start")) segment_start = e;
  }
  ASSERT_NE(ray, nullptr);
  ExpectNear({Number(ray, "x2"), Number(ray, "y2")}, Px(8, 5), kPixelTolerance,
             "point at the contact");
  ASSERT_NE(segment_start, nullptr);
  ExpectSamePoints({{Number(segment_start, "x1"), Number(segment_start, "y1")},
                    {Number(segment_start, "x2"), Number(segment_start, "y2")}},
                   {Px(8, 3), Px(8, 7)}, "segment");
  // Only the segment has a pose at the contact (a point is its contact).
  const auto at_hit = picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 1u);
  EXPECT_STREQ(at_hit[0]->Name(), "line");
}

TEST(RenderValidationTest,
     PairToiDeformingSegmentShowsItsStartEndAndContactPoses) {
  // A blade turning about (4, 5) from (4, 5)-(12, 5) to (4, 5)-(4, 9), met
  // by a point at t = 0.5: each end moved on its own, so the blade is then
  // (4, 5)-(8, 7).
  RenderedQuery rendered;
  v1::PairToiQuery* pair = rendered.query.mutable_pair_toi();
  Set(pair->mutable_a()->mutable_point(), 6, 9);
  Set(pair->mutable_a()->mutable_translation(), 0, -6);
  v1::MovingShape* blade = pair->mutable_b();
  Set(blade->mutable_segment()->mutable_p1(), 4, 5);
  Set(blade->mutable_segment()->mutable_p2(), 12, 5);
  Set(blade->mutable_segment_end()->mutable_p1(), 4, 5);
  Set(blade->mutable_segment_end()->mutable_p2(), 4, 9);
  v1::PairToiResult* result = rendered.result.mutable_pair_toi();
  result->set_hit(true);
  result->set_fraction(0.5);
  Set(result->mutable_point(), 6, 6);
  Set(result->mutable_normal(), -0.4472135954999579, 0.8944271909999159);
  const Picture picture(Render(v1::Level(), {rendered}));
  ASSERT_TRUE(picture.parsed());
  const XMLElement* start = nullptr;
  const XMLElement* end = nullptr;
  for (const XMLElement* e : picture.InGroup("outlines")) {
    if (absl::string_view(e->Name()) != "line") continue;
    if (Picture::HasClass(e, "start")) start = e;
    if (Picture::HasClass(e, "end")) end = e;
  }
  const auto ends = [](const XMLElement* e) {
    return std::vector<Point>{{Number(e, "x1"), Number(e, "y1")},
                              {Number(e, "x2"), Number(e, "y2")}};
  };
  ASSERT_NE(start, nullptr);
  ExpectSamePoints(ends(start), {Px(4, 5), Px(12, 5)}, "start pose");
  ASSERT_NE(end, nullptr);
  ExpectSamePoints(ends(end), {Px(4, 5), Px(4, 9)}, "end pose");
  const auto at_hit = picture.WithClass("hits", "toi");
  ASSERT_EQ(at_hit.size(), 1u);
  ASSERT_STREQ(at_hit[0]->Name(), "line");
  ExpectSamePoints(ends(at_hit[0]), {Px(4, 5), Px(8, 7)}, "contact pose");
}

TEST(RenderValidationTest, DefaultViewHoldsThePosesTheResultsName) {
  // Each query's far pose comes from its result or its targets alone.
  RenderedQuery move = BlockedSlidingMove();
  move.result.mutable_move_validation()->Clear();
  move.result.mutable_move_validation()->set_verdict(
      v1::MOVE_VERDICT_STARTS_INSIDE);
  Set(move.result.mutable_move_validation()
          ->mutable_exit()
          ->mutable_translation(),
      0, 60);
  RenderedQuery shot = ShotAtFallingTargets();
  Set(shot.query.mutable_hit_validation()
          ->mutable_targets(0)
          ->mutable_translation(),
      -70, 0);
  RenderOptions options;
  options.width_px = 500;
  const Picture picture(Render(v1::Level(), {move, shot}, options));
  ASSERT_TRUE(picture.parsed());
  const XMLElement* drawing = picture.root()->FirstChildElement("svg");
  ASSERT_NE(drawing, nullptr);
  const double width = Number(drawing, "width");
  const double height = Number(drawing, "height");
  const auto exit_pose = picture.WithClass("hits", "safe");
  ASSERT_EQ(exit_pose.size(), 1u);
  const Point exit_center = Center(exit_pose[0]);
  EXPECT_GT(exit_center.y, 0);
  EXPECT_LT(exit_center.y, 0.2 * height);  // near the top: y = 65
  const XMLElement* target_end = nullptr;
  for (const XMLElement* e : picture.WithClass("outlines", "end")) {
    if (absl::string_view(e->Name()) == "circle" &&
        std::abs(Number(e, "r") - Number(exit_pose[0], "r")) < 1e-6) {
      target_end = e;  // target 7, radius 1 like the mover
    }
  }
  ASSERT_NE(target_end, nullptr);
  EXPECT_GT(Center(target_end).x, 0);
  EXPECT_LT(Center(target_end).x, 0.2 * width);  // near the left: x = -65
}

TEST(RenderValidationTest, UndrawableValidationQueriesAreNoted) {
  RenderedQuery no_mover;
  no_mover.query.set_request_id(1);
  Set(no_mover.query.mutable_move_validation()->mutable_translation(), 1, 0);
  RenderedQuery bad_origin = ShotAtFallingTargets();
  bad_origin.query.set_request_id(2);
  bad_origin.query.mutable_hit_validation()->mutable_origin()->set_x(
      std::numeric_limits<double>::infinity());
  RenderedQuery no_b = CircleMeetingCapsule();
  no_b.query.set_request_id(3);
  no_b.query.mutable_pair_toi()->clear_b();
  RenderedQuery bad_target = ShotAtFallingTargets();
  bad_target.query.set_request_id(4);
  bad_target.query.mutable_hit_validation()
      ->mutable_targets(0)
      ->mutable_circle()
      ->set_radius(-1);
  RenderedQuery no_result = BlockedSlidingMove();
  no_result.query.set_request_id(6);
  no_result.result.Clear();
  no_result.result.set_request_id(6);
  no_result.result.mutable_cast();  // an answer of the wrong kind
  const Picture picture(
      Render(v1::Level(), {no_mover, bad_origin, no_b, bad_target, no_result}));
  ASSERT_TRUE(picture.parsed());
  EXPECT_TRUE(HasTextStartingWith(picture, "#1: not drawn (no shape"));
  EXPECT_TRUE(HasTextStartingWith(picture, "#2: not drawn (no shape"));
  EXPECT_TRUE(HasTextStartingWith(picture, "#3: not drawn (no shape"));
  EXPECT_TRUE(HasTextStartingWith(picture, "#4: target 7 not drawn"));
  EXPECT_TRUE(HasText(picture, "#6: no move validation result"));
  // Query 4's other target and its hit are drawn; query 6 in grey.
  EXPECT_NE(CircleAt(picture, "outlines", "start", Px(9, 7.5)), nullptr);
  EXPECT_TRUE(HasText(picture, "miss, error, no result"));
}

}  // namespace
}  // namespace collide::client::svg_test
