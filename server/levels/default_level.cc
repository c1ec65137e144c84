#include "server/levels/default_level.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "collide/v1/geometry.pb.h"

namespace collide::server {
namespace {

void Set(v1::Vec2* out, double x, double y) {
  out->set_x(x);
  out->set_y(y);
}

v1::Shape* AddShape(v1::Level& level, uint64_t id) {
  v1::Shape* shape = level.add_shapes();
  shape->set_id(id);
  shape->set_user_data(id * 100);
  return shape;
}

void AddBox(v1::Level& level, uint64_t id, double cx, double cy, double hx,
            double hy, double angle) {
  v1::Box* box = AddShape(level, id)->mutable_box();
  Set(box->mutable_center(), cx, cy);
  Set(box->mutable_half_extents(), hx, hy);
  box->set_angle_radians(angle);
}

void AddCircle(v1::Level& level, uint64_t id, double cx, double cy,
               double radius) {
  v1::Circle* circle = AddShape(level, id)->mutable_circle();
  Set(circle->mutable_center(), cx, cy);
  circle->set_radius(radius);
}

}  // namespace

v1::Level DefaultLevel() {
  v1::Level level;
  level.set_id(std::string(kDefaultLevelId));

  // The enclosing walls: inner faces at x, y = +-19.
  AddBox(level, 1, 0.0, -19.5, 20.0, 0.5, 0.0);  // south
  AddBox(level, 2, 0.0, 19.5, 20.0, 0.5, 0.0);   // north
  AddBox(level, 3, -19.5, 0.0, 0.5, 19.0, 0.0);  // west
  AddBox(level, 4, 19.5, 0.0, 0.5, 19.0, 0.0);   // east

  // Pillars.
  AddCircle(level, 10, 10.0, 0.0, 1.5);
  AddCircle(level, 11, -10.0, 0.0, 1.5);
  AddCircle(level, 12, 0.0, 10.0, 1.0);
  AddCircle(level, 13, 0.0, -10.0, 1.0);

  // Crates.
  AddBox(level, 20, 5.0, 5.0, 1.0, 1.0, 0.0);
  AddBox(level, 21, -5.0, 5.0, 1.0, 1.0, 0.3);
  AddBox(level, 22, 5.0, -5.0, 2.0, 0.75, 0.0);

  // An L-shaped block (concave, counter-clockwise).
  {
    v1::Polygon* l = AddShape(level, 30)->mutable_polygon();
    for (const auto& [x, y] : {std::pair{-15.0, -15.0},
                               {-9.0, -15.0},
                               {-9.0, -13.0},
                               {-13.0, -13.0},
                               {-13.0, -9.0},
                               {-15.0, -9.0}}) {
      Set(l->add_vertices(), x, y);
    }
  }

  // A low fence: an open zig-zag with no inside.
  {
    v1::Polyline* fence = AddShape(level, 40)->mutable_polyline();
    for (const auto& [x, y] :
         {std::pair{9.0, 12.0}, {11.0, 14.0}, {13.0, 12.0}, {15.0, 14.0}}) {
      Set(fence->add_vertices(), x, y);
    }
  }

  // A barrier.
  {
    v1::Capsule* barrier = AddShape(level, 50)->mutable_capsule();
    Set(barrier->mutable_p1(), -14.0, 12.0);
    Set(barrier->mutable_p2(), -8.0, 12.0);
    barrier->set_radius(0.5);
  }

  // A glass pane: category 2, so a query masking it out shoots through.
  {
    v1::Shape* pane = AddShape(level, 60);
    pane->set_category_bits(2);
    v1::Segment* segment = pane->mutable_segment();
    Set(segment->mutable_p1(), 14.0, -8.0);
    Set(segment->mutable_p2(), 14.0, -2.0);
  }
  return level;
}

}  // namespace collide::server
