#include "chipmunk_world.h"

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_private.h>
#include <chipmunk/chipmunk_structs.h>

#include <algorithm>
#include <cstdint>

namespace collide_bench {
namespace {

cpVect ToCp(collide::Vec2 v) { return cpv(v.x, v.y); }

// Per candidate of the swept bounds: the radius segment query of the shape
// alone, closest kept.
struct CastState {
  cpVect a;
  cpVect b;
  cpFloat radius;
  bool segment_caps;  // the end-cap fix below
  cpSegmentQueryInfo best;
};

void Keep(const cpSegmentQueryInfo& info, CastState& state) {
  if (info.shape != nullptr &&
      (state.best.shape == nullptr || info.alpha < state.best.alpha)) {
    state.best = info;
  }
}

void CastCandidate(cpShape* shape, void* data) {
  CastState& state = *static_cast<CastState*>(data);
  cpSegmentQueryInfo info;
  cpShapeSegmentQuery(shape, state.a, state.b, state.radius, &info);
  Keep(info, state);
  if (state.segment_caps) {
    // cpSegmentShape's query tests the end caps only when the path misses
    // the side faces, so a cap reached before the path crosses a side face
    // is lost (the side hit comes later or not at all). Chipmunk's own
    // CircleSegmentQuery on both ends restores the exact earliest contact.
    for (const cpVect end :
         {cpSegmentShapeGetA(shape), cpSegmentShapeGetB(shape)}) {
      cpSegmentQueryInfo cap = {nullptr, state.b, cpvzero, 1.0};
      CircleSegmentQuery(shape, end, cpSegmentShapeGetRadius(shape), state.a,
                         state.b, state.radius, &cap);
      Keep(cap, state);
    }
  }
}

}  // namespace

ChipmunkWorld::ChipmunkWorld(const Scene& scene, ChipmunkIndex index,
                             double cell_size, int cell_count)
    : segments_(scene.kind == ShapeKind::kSegment) {
  space_ = cpSpaceNew();
  if (index == ChipmunkIndex::kSpatialHash) {
    cpSpaceUseSpatialHash(space_, cell_size, cell_count);
  }
  cpBody* body = cpSpaceGetStaticBody(space_);
  shapes_.reserve(scene.size());
  for (size_t i = 0; i < scene.size(); ++i) {
    cpShape* shape;
    if (scene.kind == ShapeKind::kSegment) {
      const collide::Segment& s = scene.segments[i];
      shape = cpSegmentShapeNew(body, ToCp(s.p1), ToCp(s.p2), 0.0);
    } else {
      const collide::Aabb& b = scene.boxes[i];
      shape = cpBoxShapeNew2(
          body, cpBBNew(b.lower.x, b.lower.y, b.upper.x, b.upper.y), 0.0);
    }
    cpShapeSetUserData(
        shape, reinterpret_cast<cpDataPointer>(static_cast<intptr_t>(i)));
    cpSpaceAddShape(space_, shape);
    shapes_.push_back(shape);
  }
  cpSpaceReindexStatic(space_);
  if (index == ChipmunkIndex::kBBTree) {
    cpBBTreeOptimize(space_->staticShapes);
  }
}

ChipmunkWorld::~ChipmunkWorld() {
  for (cpShape* shape : shapes_) {
    cpSpaceRemoveShape(space_, shape);
    cpShapeFree(shape);
  }
  cpSpaceFree(space_);
}

WorldHit ChipmunkWorld::ToWorldHit(const void* data) const {
  const cpSegmentQueryInfo& info =
      *static_cast<const cpSegmentQueryInfo*>(data);
  WorldHit out;
  if (info.shape == nullptr) return out;
  out.hit = true;
  out.fraction = info.alpha;
  // The point of impact on the shape's surface.
  out.point = {info.point.x, info.point.y};
  out.shape = static_cast<int64_t>(
      reinterpret_cast<intptr_t>(cpShapeGetUserData(info.shape)));
  return out;
}

WorldHit ChipmunkWorld::CastRay(collide::Vec2 origin,
                                collide::Vec2 translation) const {
  cpSegmentQueryInfo info = {nullptr, cpvzero, cpvzero, 1.0};
  cpSpaceSegmentQueryFirst(space_, ToCp(origin), ToCp(origin + translation),
                           0.0, CP_SHAPE_FILTER_ALL, &info);
  return ToWorldHit(&info);
}

WorldHit ChipmunkWorld::CastCircleNative(collide::Vec2 center, double radius,
                                         collide::Vec2 translation) const {
  cpSegmentQueryInfo info = {nullptr, cpvzero, cpvzero, 1.0};
  cpSpaceSegmentQueryFirst(space_, ToCp(center), ToCp(center + translation),
                           radius, CP_SHAPE_FILTER_ALL, &info);
  return ToWorldHit(&info);
}

WorldHit ChipmunkWorld::SweptQuery(collide::Vec2 center, double radius,
                                   collide::Vec2 translation,
                                   bool segment_caps) const {
  const collide::Vec2 end = center + translation;
  CastState state{ToCp(center),
                  ToCp(end),
                  radius,
                  segment_caps,
                  {nullptr, cpvzero, cpvzero, 1.0}};
  const cpBB swept = cpBBNew(
      std::min(center.x, end.x) - radius, std::min(center.y, end.y) - radius,
      std::max(center.x, end.x) + radius, std::max(center.y, end.y) + radius);
  cpSpaceBBQuery(space_, swept, CP_SHAPE_FILTER_ALL, CastCandidate, &state);
  return ToWorldHit(&state.best);
}

WorldHit ChipmunkWorld::CastCircle(collide::Vec2 center, double radius,
                                   collide::Vec2 translation) const {
  return SweptQuery(center, radius, translation, segments_);
}

WorldHit ChipmunkWorld::CastCircleShipped(collide::Vec2 center, double radius,
                                          collide::Vec2 translation) const {
  return SweptQuery(center, radius, translation, false);
}

}  // namespace collide_bench
