#include "client/svg/svg_validation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "client/svg/svg_canvas.h"
#include "client/svg/svg_geometry.h"
#include "client/svg/svg_layer.h"
#include "client/svg/svg_legend.h"
#include "client/svg/svg_scene.h"
#include "client/svg/svg_style.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::svg_internal {
namespace {

// Contacts closer than this (pixels) with the same normal are one mark.
constexpr double kSameMarkPixels = 1.0;

std::string Pair(Vec2 v) {
  return absl::StrCat("(", FormatNumber(v.x), ", ", FormatNumber(v.y), ")");
}

bool HitInRange(const v1::CastHit& hit) {
  return InRange(hit.fraction()) && InRange(hit.point()) &&
         InRange(hit.normal());
}

absl::string_view ContactColour(bool initial) {
  return initial ? kInitialOverlapColour : kContactColour;
}

// The verdict in a few words, for the tag label.
const char* VerdictWord(v1::MoveVerdict verdict) {
  switch (verdict) {
    case v1::MOVE_VERDICT_ALLOWED:
      return "allowed";
    case v1::MOVE_VERDICT_BLOCKED:
      return "blocked";
    case v1::MOVE_VERDICT_STARTS_INSIDE:
      return "starts inside";
    default:
      return "no verdict";
  }
}

// The whole answer in words, for the mover's tooltip.
std::string MoveSummary(const v1::MoveValidationResult& result) {
  std::string text = VerdictWord(result.verdict());
  if (result.has_first_hit()) {
    absl::StrAppend(&text, ", first contact with shape ",
                    result.first_hit().shape_id(),
                    " at t=", FormatNumber(result.first_hit().fraction()));
  }
  if (result.verdict() == v1::MOVE_VERDICT_STARTS_INSIDE) {
    if (result.has_exit()) {
      const v1::ExitResult& exit = result.exit();
      std::vector<uint64_t> ids;
      for (const v1::ShapeRef& ref : exit.overlapped_shapes()) {
        ids.push_back(ref.shape_id());
      }
      absl::StrAppend(&text, ", depth ", FormatNumber(exit.depth()),
                      ", overlapping shapes ", absl::StrJoin(ids, ", "),
                      exit.overlapped_truncated() ? ", ..." : "",
                      exit.separated() ? "; way out " : "; no way out found, ",
                      Pair(FromProto(exit.translation())));
    }
    return text;
  }
  absl::StrAppend(&text, "; safe to t=", FormatNumber(result.safe_fraction()));
  if (result.has_slide()) {
    const v1::SlideResult& slide = result.slide();
    absl::StrAppend(&text, "; slides to ", Pair(FromProto(slide.translation())),
                    " in ", slide.iteration_count(), " casts, ",
                    slide.contacts_size(), " contacts",
                    slide.out_of_iterations() ? " (out of iterations)" : "");
  }
  absl::StrAppend(&text, result.claimed_end_reachable()
                             ? "; claimed end reachable"
                             : "; claimed end not reachable");
  return text;
}

// The slide's path (through the reference point at each contact's pose to
// the pose it ends in), each contact's point and normal unless the first
// hit's marks already show it, and the pose it ends in.
void DrawSlide(Canvas& canvas, absl::string_view tag, const WorldShape& mover,
               const v1::SlideResult& slide, const v1::CastHit* first_hit,
               absl::string_view colour) {
  if (!InRange(slide.translation())) {
    canvas.Note(absl::StrCat(tag,
                             ": the slide's end has numbers out of range, "
                             "not drawn"));
    return;
  }
  const Projection& projection = canvas.projection();
  const Vec2 anchor = Centroid(mover.points);
  std::vector<Vec2> path = {projection.ToPicture(anchor)};
  int index = 0;
  for (const v1::SlideContact& contact : slide.contacts()) {
    ++index;
    if (!InRange(contact.translation()) || !InRange(contact.point()) ||
        !InRange(contact.normal())) {
      canvas.Note(absl::StrCat(tag, ": slide contact ", index,
                               " has numbers out of range, not drawn"));
      continue;
    }
    const Vec2 at =
        projection.ToPicture(anchor + FromProto(contact.translation()));
    if (at != path.back()) path.push_back(at);
    const Vec2 point = FromProto(contact.point());
    const Vec2 normal = FromProto(contact.normal());
    if (first_hit != nullptr &&
        Length(projection.ToPicture(point) -
               projection.ToPicture(FromProto(first_hit->point()))) <
            kSameMarkPixels &&
        Dot(Normalize(normal), Normalize(FromProto(first_hit->normal()))) >
            0.999) {
      continue;
    }
    canvas.Use(kRoleContact);
    canvas.Contact(point, normal, kContactColour, "", "",
                   absl::StrCat(tag, " slide contact ", index, " with shape ",
                                contact.shape_id(), " at ",
                                Pair(FromProto(contact.translation()))));
  }
  const Vec2 end = FromProto(slide.translation());
  const std::string end_title = absl::StrCat(
      tag, " slide end: ", Pair(end), " after ", slide.iteration_count(),
      " casts", slide.out_of_iterations() ? " (out of iterations)" : "");
  canvas.Use(kRoleSlideEnd);
  canvas.Shape(Layer::kHits, Translated(mover, end),
               Attributes("final", colour, colour), end_title);
  const Vec2 finish = projection.ToPicture(anchor + end);
  if (finish != path.back()) path.push_back(finish);
  if (path.size() < 2) return;
  canvas.Use(kRoleSlide);
  SvgLayer& hits = canvas.layer(Layer::kHits);
  hits.Chain(path, /*closed=*/false, Attributes("slide", "", colour),
             end_title);
  const Vec2 direction = Normalize(path.back() - path[path.size() - 2]);
  hits.Arrow(path.back() - direction, path.back(), kArrowHead,
             Attributes("slide", "", colour));
}

// The way out for a mover starting inside: an arrow from its reference
// point and its pose after the exit.
void DrawExit(Canvas& canvas, absl::string_view tag, const WorldShape& mover,
              const v1::ExitResult& exit, absl::string_view colour) {
  if (!InRange(exit.translation())) {
    canvas.Note(absl::StrCat(tag,
                             ": the way out has numbers out of range, "
                             "not drawn"));
    return;
  }
  const Vec2 translation = FromProto(exit.translation());
  if (translation == Vec2{}) return;  // no common exit: nothing to show
  canvas.Use(kRoleExit);
  const Vec2 anchor = Centroid(mover.points);
  canvas.layer(Layer::kMarkers)
      .Arrow(canvas.projection().ToPicture(anchor),
             canvas.projection().ToPicture(anchor + translation), kArrowHead,
             Attributes("exit", "", colour));
  canvas.Shape(
      Layer::kHits, Translated(mover, translation),
      Attributes("safe", "", colour),
      absl::StrCat(
          tag, exit.separated() ? " way out: " : " last push (overlaps): ",
          Pair(translation), " after ", exit.iteration_count(), " pushes"));
}

}  // namespace

void DrawMoveValidation(Canvas& canvas, absl::string_view tag,
                        const CastGeometry& move,
                        const v1::MoveValidationResult* result,
                        absl::string_view query_colour) {
  const absl::string_view colour =
      result != nullptr ? query_colour : kMissColour;
  canvas.Use(result != nullptr ? kRoleStart : kRoleMiss);
  const WorldShape& mover = move.shape;
  const std::string title =
      absl::StrCat(tag, " move validation: ",
                   result == nullptr ? "no result" : MoveSummary(*result));
  const Aabb start_bounds = canvas.Motion(
      mover, move.translation, colour, title, {.swept_class = "swept faint"});
  if (result == nullptr) {
    canvas.TagLabel(tag, start_bounds, colour);
    return;
  }
  const bool inside = result->verdict() == v1::MOVE_VERDICT_STARTS_INSIDE;
  if (inside) {
    canvas.Use(kRoleInitialOverlap);
    canvas.Shape(
        Layer::kHits, mover,
        Attributes("toi", kInitialOverlapColour, kInitialOverlapColour), title);
  }

  const v1::CastHit* first_hit = nullptr;
  if (result->has_first_hit()) {
    if (HitInRange(result->first_hit())) {
      first_hit = &result->first_hit();
    } else {
      canvas.Note(absl::StrCat(tag,
                               ": the first contact has numbers out of "
                               "range, not drawn"));
    }
  }
  if (first_hit != nullptr) {
    const std::string hit_title =
        absl::StrCat(tag, " first contact with shape ", first_hit->shape_id(),
                     " at t=", FormatNumber(first_hit->fraction()));
    if (inside) {
      // Only the point: the way out's arrow shows the direction, and a
      // normal along it would hide it.
      canvas.layer(Layer::kMarkers)
          .Dot(canvas.projection().ToPicture(FromProto(first_hit->point())),
               kContactRadius, Attributes("contact", kInitialOverlapColour, ""),
               hit_title);
    } else {
      const bool initial =
          first_hit->status() == v1::HIT_STATUS_INITIAL_OVERLAP;
      canvas.Use(initial ? kRoleInitialOverlap : kRoleContact);
      canvas.Contact(
          FromProto(first_hit->point()), FromProto(first_hit->normal()),
          ContactColour(initial),
          initial ? std::string("overlap")
                  : absl::StrCat("t=", FormatShort(first_hit->fraction())),
          initial ? kInitialOverlapColour : colour, hit_title);
    }
  }

  if (inside) {
    if (result->has_exit()) {
      DrawExit(canvas, tag, mover, result->exit(), colour);
    }
  } else if (InRange(result->safe_translation())) {
    canvas.Use(kRoleSafe);
    canvas.Shape(
        Layer::kHits, Translated(mover, FromProto(result->safe_translation())),
        Attributes("safe", "", colour),
        absl::StrCat(
            tag, " safe position: t=", FormatNumber(result->safe_fraction()),
            ", ", Pair(FromProto(result->safe_translation()))));
    if (result->has_slide()) {
      DrawSlide(canvas, tag, mover, result->slide(), first_hit, colour);
    }
  }
  canvas.TagLabel(absl::StrCat(tag, " ", VerdictWord(result->verdict())),
                  start_bounds, colour);
}

void DrawHitValidation(Canvas& canvas, absl::string_view tag,
                       const v1::HitValidationQuery& query,
                       const v1::HitValidationResult* result,
                       absl::string_view query_colour) {
  const std::optional<CastGeometry> shot = ShotGeometryOf(query);
  if (!shot) return;
  const bool met =
      result != nullptr && (result->outcome() == v1::SHOT_OUTCOME_WALL ||
                            result->outcome() == v1::SHOT_OUTCOME_TARGET);
  const bool hit = met && InRange(result->fraction()) &&
                   InRange(result->point()) && InRange(result->normal());
  if (met && !hit) {
    canvas.Note(absl::StrCat(tag,
                             ": the shot's hit has numbers out of range, "
                             "not drawn"));
  }
  const bool wall = hit && result->outcome() == v1::SHOT_OUTCOME_WALL;
  int hit_target = -1;
  if (hit && !wall) {
    hit_target = result->target_index();
    if (hit_target < 0 || hit_target >= query.targets_size()) {
      canvas.Note(absl::StrCat(tag, ": the result names target index ",
                               hit_target, ", not in the query"));
      hit_target = -1;
    }
  }
  const absl::string_view colour = hit ? query_colour : kMissColour;
  canvas.Use(hit ? kRoleStart : kRoleMiss);
  const bool initial =
      hit && result->status() == v1::HIT_STATUS_INITIAL_OVERLAP;
  const absl::string_view hit_colour =
      initial ? absl::string_view(kInitialOverlapColour) : colour;
  // What was met, in words: "target 8", "wall 11".
  const std::string what =
      hit ? absl::StrCat(wall ? "wall " : "target ", result->id()) : "";
  const std::string outcome =
      result == nullptr ? "no result"
      : hit             ? absl::StrCat("hits ", what,
                                       " at t=", FormatNumber(result->fraction()),
                           initial ? " (starts inside it)" : "")
                        : "miss";
  const std::string hit_title = absl::StrCat(tag, " shot ", outcome);
  const double fraction = hit ? result->fraction() : 1.0;

  for (int i = 0; i < query.targets_size(); ++i) {
    const v1::ShotTarget& target = query.targets(i);
    const std::optional<CastGeometry> hitbox = TargetGeometryOf(target);
    if (!hitbox) {
      canvas.Note(absl::StrCat(tag, ": target ", target.id(),
                               " not drawn (no hitbox or numbers out of "
                               "range)"));
      continue;
    }
    const Aabb bounds =
        canvas.Motion(hitbox->shape, hitbox->translation, colour,
                      absl::StrCat(tag, " target ", target.id()),
                      {.swept_class = "swept faint"});
    canvas.TagLabel(absl::StrCat("target ", target.id()), bounds, colour);
    if (i == hit_target) {
      if (!initial) canvas.Use(kRoleToi);
      canvas.Shape(Layer::kHits,
                   Translated(hitbox->shape, fraction * hitbox->translation),
                   Attributes("toi", hit_colour, hit_colour), hit_title);
    }
  }

  const Aabb start_bounds =
      canvas.Motion(shot->shape, shot->translation, colour, hit_title,
                    {.as_ray = shot->is_ray, .solid_until = fraction});
  if (hit) {
    if (!shot->is_ray) {
      if (!initial) canvas.Use(kRoleToi);
      canvas.Shape(Layer::kHits,
                   Translated(shot->shape, fraction * shot->translation),
                   Attributes("toi", hit_colour, hit_colour), hit_title);
    }
    canvas.Use(initial ? kRoleInitialOverlap : kRoleContact);
    canvas.Contact(
        FromProto(result->point()), FromProto(result->normal()),
        ContactColour(initial),
        // A wall's hit is where the shot visibly stops; a target's fraction
        // tells which of its poses was hit.
        initial ? absl::StrCat(what, " (starts inside)")
        : wall  ? what
                : absl::StrCat(what, " at t=", FormatShort(result->fraction())),
        hit_colour, hit_title);
  }
  canvas.TagLabel(tag, start_bounds, colour);
}

// A segment with segment_end at fraction t of the step: each end moved on
// its own (a deforming segment); nullopt for any other shape, or numbers out
// of range.
std::optional<WorldShape> DeformedAt(const v1::MovingShape& shape, double t) {
  if (!shape.has_segment() || !shape.has_segment_end() ||
      !InRange(shape.segment().p1()) || !InRange(shape.segment().p2()) ||
      !InRange(shape.segment_end().p1()) ||
      !InRange(shape.segment_end().p2())) {
    return std::nullopt;
  }
  const auto at = [t](const v1::Vec2& from, const v1::Vec2& to) {
    return FromProto(from) + t * (FromProto(to) - FromProto(from));
  };
  WorldShape segment;
  segment.points = {at(shape.segment().p1(), shape.segment_end().p1()),
                    at(shape.segment().p2(), shape.segment_end().p2())};
  return segment;
}

void DrawPairToi(Canvas& canvas, absl::string_view tag,
                 const v1::PairToiQuery& query, const v1::PairToiResult* result,
                 absl::string_view query_colour) {
  const std::optional<CastGeometry> a = MovingShapeGeometryOf(query.a());
  const std::optional<CastGeometry> b = MovingShapeGeometryOf(query.b());
  if (!a || !b) return;
  const bool contact = result != nullptr && result->hit() &&
                       InRange(result->fraction()) &&
                       InRange(result->point()) && InRange(result->normal());
  if (result != nullptr && result->hit() && !contact) {
    canvas.Note(absl::StrCat(tag,
                             ": the contact has numbers out of range, "
                             "not drawn"));
  }
  const absl::string_view colour = contact ? query_colour : kMissColour;
  canvas.Use(contact ? kRoleStart : kRoleMiss);
  const bool initial =
      contact && result->status() == v1::HIT_STATUS_INITIAL_OVERLAP;
  const double fraction = contact ? result->fraction() : 1.0;
  std::string summary = "no result";
  if (contact) {
    summary = initial ? absl::StrCat("overlapping at the start, depth ",
                                     FormatNumber(result->depth()))
                      : absl::StrCat("contact at t=",
                                     FormatNumber(result->fraction()));
  } else if (result != nullptr) {
    summary = "no contact";
  }
  const absl::string_view hit_colour =
      initial ? absl::string_view(kInitialOverlapColour) : colour;
  const std::string hit_title = absl::StrCat(tag, " pair TOI: ", summary);

  Aabb bounds[2];
  const std::pair<const CastGeometry*, const char*> shapes[2] = {{&*a, "a"},
                                                                 {&*b, "b"}};
  const v1::MovingShape* sides[2] = {&query.a(), &query.b()};
  for (int i = 0; i < 2; ++i) {
    const CastGeometry& shape = *shapes[i].first;
    if (const std::optional<WorldShape> start = DeformedAt(*sides[i], 0.0)) {
      // A deforming segment: its start and (dashed) end poses, and its pose
      // at the contact.
      const std::string title =
          absl::StrCat(tag, " pair TOI, ", shapes[i].second,
                       " (deforming segment): ", summary);
      canvas.Shape(Layer::kOutlines, *start, Attributes("start", "", colour),
                   title);
      canvas.Shape(Layer::kOutlines, *DeformedAt(*sides[i], 1.0),
                   Attributes("end", "", colour), title);
      canvas.Use(kRoleEnd);
      bounds[i] = canvas.PixelBounds(*start);
      if (contact) {
        if (!initial) canvas.Use(kRoleToi);
        canvas.Shape(Layer::kHits, *DeformedAt(*sides[i], fraction),
                     Attributes("toi", hit_colour, hit_colour),
                     absl::StrCat(hit_title, " (", shapes[i].second, ")"));
      }
      continue;
    }
    bounds[i] = canvas.Motion(
        shape.shape, shape.translation, colour,
        absl::StrCat(tag, " pair TOI, ", shapes[i].second, ": ", summary),
        {.as_ray = shape.is_ray, .solid_until = fraction, .swept_class = ""});
    if (contact && !shape.is_ray) {
      if (!initial) canvas.Use(kRoleToi);
      canvas.Shape(Layer::kHits,
                   Translated(shape.shape, fraction * shape.translation),
                   Attributes("toi", hit_colour, hit_colour),
                   absl::StrCat(hit_title, " (", shapes[i].second, ")"));
    }
  }
  if (contact) {
    canvas.Use(initial ? kRoleInitialOverlap : kRoleContact);
    canvas.Contact(FromProto(result->point()), FromProto(result->normal()),
                   ContactColour(initial),
                   initial ? std::string("overlap")
                           : absl::StrCat("t=", FormatShort(fraction)),
                   hit_colour, hit_title);
  }
  canvas.TagLabel(absl::StrCat(tag, " a"), bounds[0], colour);
  canvas.TagLabel("b", bounds[1], colour);
}

Aabb ValidationBounds(const v1::Query& query, const v1::QueryResult& result) {
  Aabb box = EmptyBox();
  const auto add_motion = [&box](const std::optional<CastGeometry>& motion) {
    if (!motion) return;
    box = Union(box, BoundsOf(motion->shape));
    box = Union(box, BoundsOf(Translated(motion->shape, motion->translation)));
  };
  const auto add_pose = [&box](const std::optional<CastGeometry>& motion,
                               const v1::Vec2& translation) {
    if (motion && InRange(translation)) {
      box = Union(box,
                  BoundsOf(Translated(motion->shape, FromProto(translation))));
    }
  };
  const auto add_point = [&box](const v1::Vec2& point) {
    if (InRange(point)) box = Union(box, {FromProto(point), FromProto(point)});
  };
  // A failed query's result is not drawn, so it does not widen the view.
  const bool ok = result.status().code() == 0;
  switch (query.query_case()) {
    case v1::Query::kMoveValidation: {
      const std::optional<CastGeometry> move =
          MoveGeometryOf(query.move_validation());
      add_motion(move);
      if (!ok || !result.has_move_validation()) break;
      const v1::MoveValidationResult& answer = result.move_validation();
      if (answer.has_first_hit()) add_point(answer.first_hit().point());
      if (answer.has_slide()) {
        add_pose(move, answer.slide().translation());
        for (const v1::SlideContact& contact : answer.slide().contacts()) {
          add_point(contact.point());
        }
      }
      if (answer.has_exit()) add_pose(move, answer.exit().translation());
      break;
    }
    case v1::Query::kHitValidation: {
      add_motion(ShotGeometryOf(query.hit_validation()));
      for (const v1::ShotTarget& target : query.hit_validation().targets()) {
        add_motion(TargetGeometryOf(target));
      }
      if (ok && result.has_hit_validation() &&
          result.hit_validation().outcome() != v1::SHOT_OUTCOME_MISS) {
        add_point(result.hit_validation().point());
      }
      break;
    }
    case v1::Query::kPairToi:
      add_motion(MovingShapeGeometryOf(query.pair_toi().a()));
      add_motion(MovingShapeGeometryOf(query.pair_toi().b()));
      for (const v1::MovingShape* side :
           {&query.pair_toi().a(), &query.pair_toi().b()}) {
        if (const std::optional<WorldShape> end = DeformedAt(*side, 1.0)) {
          box = Union(box, BoundsOf(*end));
        }
      }
      if (ok && result.has_pair_toi() && result.pair_toi().hit()) {
        add_point(result.pair_toi().point());
      }
      break;
    default:
      break;
  }
  return box;
}

}  // namespace collide::client::svg_internal
