// Drawing the validation queries of collision_service.proto (move
// validation, hit validation, pair time of impact) with their results for
// the SVG renderer (svg_render.h), and what of them the default view must
// hold. Colours: `colour` is the query's own; a query with no result is
// drawn in grey, a start inside geometry in the initial-overlap amber.
#ifndef COLLIDE_CLIENT_SVG_SVG_VALIDATION_H_
#define COLLIDE_CLIENT_SVG_SVG_VALIDATION_H_

#include "absl/strings/string_view.h"
#include "client/svg/svg_canvas.h"
#include "client/svg/svg_scene.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {

// A claimed move (`move`, from MoveGeometryOf): the mover at the start, the
// claimed end (dashed), its swept region faintly and the path between.
// With `result`: the first contact (point and normal, `t=` its fraction);
// the safe position as a solid outline; with a slide, the slide's path
// through the pose at each contact to where it ends, each contact point and
// normal, and the pose it ends in (filled). A mover starting inside is drawn
// filled in the initial-overlap colour, with its contact point, the way out
// as an arrow and the pose after it. The tag label adds the verdict ("#1
// blocked"). `result` nullptr: the query alone, in grey.
void DrawMoveValidation(Canvas& canvas, absl::string_view tag,
                        const CastGeometry& move,
                        const v1::MoveValidationResult* result,
                        absl::string_view colour);

// A shot (ShotGeometryOf(query) must hold a value): a ray drawn solid to
// what it meets and dashed beyond, or a thick ray's swept circle hull; each
// target's hitbox at the start and end of the tick (dashed), its swept
// region faintly and a "target ID" label. With a hit: the target (or the
// thick shot) at the hit's fraction, the contact point and normal, and the
// outcome beside them ("target 8 at t=0.4414", "wall 11").
// Targets the query cannot draw are noted.
void DrawHitValidation(Canvas& canvas, absl::string_view tag,
                       const v1::HitValidationQuery& query,
                       const v1::HitValidationResult* result,
                       absl::string_view colour);

// Two shapes moving during one step (both MovingShapeGeometryOf values):
// each at the start and end (dashed), labelled a and b; with a contact, both
// at its fraction, the contact point on b and the normal towards a.
void DrawPairToi(Canvas& canvas, absl::string_view tag,
                 const v1::PairToiQuery& query, const v1::PairToiResult* result,
                 absl::string_view colour);

// The box (world) holding a validation query's shapes at the start and end
// of the step, and when its result is OK the poses and points it names;
// empty (EmptyBox) for other kinds of query.
Aabb ValidationBounds(const v1::Query& query, const v1::QueryResult& result);

}  // namespace collide::client::svg_internal

#endif  // COLLIDE_CLIENT_SVG_SVG_VALIDATION_H_
