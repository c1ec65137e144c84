// ContentHash (server/levels/content_hash.h): what it sees and ignores, and its
// bytes pinned to an independent computation of the documented definition.
#include "server/levels/content_hash.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "collide/v1/geometry.pb.h"
#include "gtest/gtest.h"

namespace collide::server {
namespace {

void Set(v1::Vec2* v, double x, double y) {
  v->set_x(x);
  v->set_y(y);
}

v1::Level Crates(int count) {
  v1::Level level;
  level.set_id("crates");
  for (int i = 0; i < count; ++i) {
    v1::Shape* shape = level.add_shapes();
    shape->set_id(10 + static_cast<uint64_t>(i));
    shape->set_user_data(static_cast<uint64_t>(i) * 7);
    Set(shape->mutable_circle()->mutable_center(), i, -i);
    shape->mutable_circle()->set_radius(0.5 + i);
  }
  return level;
}

TEST(ContentHashTest, ContentHashIgnoresShapeOrderAndSeesEveryChange) {
  v1::Level level = Crates(30);
  const std::string hash = ContentHash(level);
  EXPECT_EQ(hash.size(), 64u);  // hex SHA-256
  v1::Level reversed = level;
  std::reverse(reversed.mutable_shapes()->begin(),
               reversed.mutable_shapes()->end());
  EXPECT_EQ(ContentHash(reversed), hash);
  v1::Level renamed = level;
  renamed.set_id("other");  // the id is not content
  EXPECT_EQ(ContentHash(renamed), hash);
  v1::Level moved = level;
  moved.mutable_shapes(3)->set_user_data(level.shapes(3).user_data() + 1);
  EXPECT_NE(ContentHash(moved), hash);
  v1::Level cell = level;
  cell.set_cell_size(4);
  EXPECT_NE(ContentHash(cell), hash);
}

// The definition the proto documents, computed independently (Python's
// hashlib over hand-encoded protobuf bytes): pinned, so a change to the
// hashed bytes cannot go unnoticed (replicas and stored hashes would
// disagree).
TEST(ContentHashTest, ContentHashOfFixedLevelsIsPinned) {
  v1::Level level;
  level.set_id("pinned");
  for (uint64_t id : {1, 2}) {
    v1::Shape* shape = level.add_shapes();
    shape->set_id(id);
    Set(shape->mutable_circle()->mutable_center(), 1, 2);
    shape->mutable_circle()->set_radius(3);
    if (id == 1) {
      EXPECT_EQ(ContentHash(level),
                "a4543605a99be7d9b78369818902771d948ca24fd21983bcc0cc72b61de0a0"
                "05");
    }
  }
  level.set_cell_size(0.5);
  // Two shapes: their hashes summed modulo 2^256.
  EXPECT_EQ(ContentHash(level),
            "22d2f5ad2bb7747c9407bc43b82957e9aaa09aa2fd20aa126f40634ccbbde1"
            "59");
}

TEST(ContentHashTest, SumsAddAndSubtractModulo2To256) {
  ShapeHashSum sum{};
  sum.fill(0xff);
  ShapeHashSum one{};
  one[31] = 1;
  AddShapeHash(sum, one);  // wraps to zero
  EXPECT_EQ(sum, ShapeHashSum{});
  SubtractShapeHash(sum, one);  // and back
  ShapeHashSum all_ones{};
  all_ones.fill(0xff);
  EXPECT_EQ(sum, all_ones);
  // A level's sum less one shape's hash is the sum without that shape.
  v1::Level level = Crates(5);
  ShapeHashSum total = SumOfShapes(level);
  SubtractShapeHash(total, ShapeHash(level.shapes(2)));
  level.mutable_shapes()->DeleteSubrange(2, 1);
  EXPECT_EQ(total, SumOfShapes(level));
}

}  // namespace
}  // namespace collide::server
