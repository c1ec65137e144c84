#include "client/cli/result_text.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/cli/visibility_text.h"

namespace collide::client::cli {

namespace {

// "1 cast", "2 casts": `count` and `noun`, plural unless the count is 1.
std::string Counted(int64_t count, absl::string_view noun) {
  return absl::StrCat(count, " ", noun, count == 1 ? "" : "s");
}

// + 0.0 turns -0 into 0, which reads better.
std::string Num(double value) { return absl::StrFormat("%.6g", value + 0.0); }

std::string Point(const v1::Vec2& v) {
  return absl::StrCat("(", Num(v.x()), ", ", Num(v.y()), ")");
}

std::string Points(const v1::Polygon& polygon) {
  return absl::StrJoin(polygon.vertices(), " ",
                       [](std::string* out, const v1::Vec2& v) {
                         absl::StrAppend(out, Point(v));
                       });
}

std::string FeatureText(const v1::Feature& feature) {
  switch (feature.type()) {
    case v1::FEATURE_TYPE_EDGE:
      return absl::StrCat("edge ", feature.index());
    case v1::FEATURE_TYPE_VERTEX:
      return absl::StrCat("vertex ", feature.index());
    case v1::FEATURE_TYPE_SURFACE:
      return "surface";
    default:
      return "feature ?";
  }
}

std::string OptionsText(const v1::CastOptions& options) {
  std::string text;
  if (options.mode() == v1::CAST_MODE_ALL) absl::StrAppend(&text, ", all hits");
  if (options.has_max_fraction()) {
    absl::StrAppend(&text, ", max_fraction ", Num(options.max_fraction()));
  }
  if (options.target_distance() > 0) {
    absl::StrAppend(&text, ", skin ", Num(options.target_distance()));
  }
  return text;
}

// A turning contact's certified bracket and status: ", contact in [lo,
// hi] (TURN_STATUS_HIT)"; empty for a translating one.
std::string TurnText(bool has_turn, const v1::TurnContact& turn,
                     double fraction) {
  if (!has_turn) return "";
  return absl::StrCat(", contact in [", Num(fraction), ", ",
                      Num(turn.fraction_hi()), "] (",
                      v1::TurnStatus_Name(turn.status()), ")");
}

std::string HitText(const v1::CastHit& hit) {
  const bool overlap = hit.status() == v1::HIT_STATUS_INITIAL_OVERLAP;
  std::string text = absl::StrCat(
      overlap ? "starts in overlap with" : "hit", " shape ", hit.shape_id(),
      " (user_data ", hit.user_data(), ") at fraction ", Num(hit.fraction()),
      ": point ", Point(hit.point()), ", normal ", Point(hit.normal()), ", ",
      FeatureText(hit.feature()));
  if (overlap) absl::StrAppend(&text, ", depth ", Num(hit.depth()));
  absl::StrAppend(&text, TurnText(hit.has_turn(), hit.turn(), hit.fraction()));
  return text;
}

std::string MoveText(const v1::MoveValidationResult& move) {
  std::string text;
  switch (move.verdict()) {
    case v1::MOVE_VERDICT_ALLOWED:
      text = "  allowed\n";
      break;
    case v1::MOVE_VERDICT_BLOCKED:
      text = absl::StrCat("  blocked: safe to fraction ",
                          Num(move.safe_fraction()), " (translation ",
                          Point(move.safe_translation()), "), first ",
                          HitText(move.first_hit()), "\n");
      break;
    case v1::MOVE_VERDICT_STARTS_INSIDE: {
      const v1::ExitResult& exit = move.exit();
      text = absl::StrCat("  starts inside (depth ", Num(exit.depth()), "); ",
                          exit.separated() ? "shortest way out "
                                           : "no way out "
                                             "found, best push ",
                          Point(exit.translation()), "\n");
      break;
    }
    default:
      text = "  verdict ?\n";
  }
  if (move.has_slide()) {
    const v1::SlideResult& slide = move.slide();
    absl::StrAppend(
        &text, "  slide: ends at translation ", Point(slide.translation()),
        " after ", Counted(slide.iteration_count(), "cast"), ", ",
        Counted(slide.contacts_size(), "contact"),
        slide.out_of_iterations() ? " (out of iterations)" : "",
        "; claimed end ",
        move.claimed_end_reachable() ? "reachable" : "not reachable", "\n");
  }
  return text;
}

std::string ShotText(const v1::HitValidationResult& shot) {
  switch (shot.outcome()) {
    case v1::SHOT_OUTCOME_MISS:
      return "  missed everything\n";
    case v1::SHOT_OUTCOME_WALL:
      return absl::StrCat(
          "  blocked by wall shape ", shot.id(), " (user_data ",
          shot.user_data(), ") at fraction ", Num(shot.fraction()), ": point ",
          Point(shot.point()),
          TurnText(shot.has_turn(), shot.turn(), shot.fraction()), "\n");
    case v1::SHOT_OUTCOME_TARGET:
      return absl::StrCat(
          "  hit target ", shot.id(), " at fraction ", Num(shot.fraction()),
          ": point ", Point(shot.point()), ", normal ", Point(shot.normal()),
          TurnText(shot.has_turn(), shot.turn(), shot.fraction()), "\n");
    default:
      return "  outcome ?\n";
  }
}

}  // namespace

std::string CodeName(int code) {
  const std::string name =
      absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? absl::StrCat("code ", code) : name;
}

std::string DescribeQuery(const v1::Query& query) {
  switch (query.query_case()) {
    case v1::Query::kRayCast: {
      const v1::RayCastQuery& q = query.ray_cast();
      return absl::StrCat("ray from ", Point(q.origin()), " by ",
                          Point(q.translation()), OptionsText(q.options()));
    }
    case v1::Query::kCircleCast: {
      const v1::CircleCastQuery& q = query.circle_cast();
      return absl::StrCat("circle r=", Num(q.circle().radius()), " at ",
                          Point(q.circle().center()), " by ",
                          Point(q.translation()), OptionsText(q.options()));
    }
    case v1::Query::kPolygonCast: {
      const v1::PolygonCastQuery& q = query.polygon_cast();
      return absl::StrCat("polygon ", Points(q.polygon()), " by ",
                          Point(q.translation()), OptionsText(q.options()));
    }
    case v1::Query::kCapsuleCast: {
      const v1::CapsuleCastQuery& q = query.capsule_cast();
      return absl::StrCat("capsule r=", Num(q.capsule().radius()), " ",
                          Point(q.capsule().p1()), "-", Point(q.capsule().p2()),
                          " by ", Point(q.translation()),
                          OptionsText(q.options()));
    }
    case v1::Query::kOverlap: {
      const v1::OverlapQuery& q = query.overlap();
      if (q.has_circle()) {
        return absl::StrCat("overlap of circle r=", Num(q.circle().radius()),
                            " at ", Point(q.circle().center()));
      }
      if (q.has_polygon()) {
        return absl::StrCat("overlap of polygon ", Points(q.polygon()));
      }
      return absl::StrCat("overlap of capsule r=", Num(q.capsule().radius()),
                          " ", Point(q.capsule().p1()), "-",
                          Point(q.capsule().p2()));
    }
    case v1::Query::kClosestPoint: {
      const v1::ClosestPointQuery& q = query.closest_point();
      std::string text = absl::StrCat("closest point to ", Point(q.point()));
      if (q.has_max_distance()) {
        absl::StrAppend(&text, " within ", Num(q.max_distance()));
      }
      return text;
    }
    case v1::Query::kMoveValidation: {
      const v1::MoveValidationQuery& q = query.move_validation();
      std::string mover;
      if (q.has_circle()) {
        mover = absl::StrCat("circle r=", Num(q.circle().radius()), " at ",
                             Point(q.circle().center()));
      } else if (q.has_capsule()) {
        mover =
            absl::StrCat("capsule r=", Num(q.capsule().radius()), " ",
                         Point(q.capsule().p1()), "-", Point(q.capsule().p2()));
      } else {
        mover = absl::StrCat("polygon ", Points(q.polygon()));
      }
      std::string text =
          absl::StrCat("move of ", mover, " by ", Point(q.translation()));
      if (q.skin() > 0) absl::StrAppend(&text, ", skin ", Num(q.skin()));
      if (q.max_slide_iterations() > 0) {
        absl::StrAppend(&text, ", slide up to ", q.max_slide_iterations());
      }
      return text;
    }
    case v1::Query::kHitValidation: {
      const v1::HitValidationQuery& q = query.hit_validation();
      std::string text = absl::StrCat("shot from ", Point(q.origin()), " by ",
                                      Point(q.translation()));
      if (q.radius() > 0) absl::StrAppend(&text, ", radius ", Num(q.radius()));
      absl::StrAppend(&text, ", ", q.targets_size(), " targets");
      return text;
    }
    case v1::Query::kPairToi: {
      // A deforming segment says where its ends go, the others how far
      // they move.
      const auto motion = [](const v1::MovingShape& shape) {
        if (shape.has_segment_end()) {
          return absl::StrCat("turning to ", Point(shape.segment_end().p1()),
                              "-", Point(shape.segment_end().p2()));
        }
        return absl::StrCat("by ", Point(shape.translation()));
      };
      return absl::StrCat("pair: a ", motion(query.pair_toi().a()), ", b ",
                          motion(query.pair_toi().b()));
    }
    case v1::Query::kVisibility:
      return DescribeVisibility(query.visibility());
    case v1::Query::kVisibilityPolygon:
      return DescribeVisibilityPolygon(query.visibility_polygon());
    default:
      return absl::StrCat("query kind ", query.query_case());
  }
}

std::string ResultText(const v1::Query& query, const v1::QueryResult& result) {
  std::string text =
      absl::StrCat("#", result.request_id(), " ", DescribeQuery(query), "\n");
  if (result.status().code() != 0) {
    absl::StrAppend(&text, "  error ", CodeName(result.status().code()), ": ",
                    result.status().message(), "\n");
    return text;
  }
  switch (result.result_case()) {
    case v1::QueryResult::kCast:
      if (result.cast().hits().empty()) absl::StrAppend(&text, "  miss\n");
      for (const v1::CastHit& hit : result.cast().hits()) {
        absl::StrAppend(&text, "  ", HitText(hit), "\n");
      }
      if (result.cast().truncated()) {
        absl::StrAppend(&text, "  (more hits not shown: max_hits)\n");
      }
      break;
    case v1::QueryResult::kOverlap:
      if (result.overlap().shapes().empty()) {
        absl::StrAppend(&text, "  overlaps nothing\n");
      }
      for (const v1::ShapeRef& shape : result.overlap().shapes()) {
        absl::StrAppend(&text, "  overlaps shape ", shape.shape_id(),
                        " (user_data ", shape.user_data(), ")\n");
      }
      if (result.overlap().truncated()) {
        absl::StrAppend(&text, "  (more shapes not shown: max_results)\n");
      }
      break;
    case v1::QueryResult::kClosestPoint: {
      const v1::ClosestPointResult& closest = result.closest_point();
      if (!closest.found()) {
        absl::StrAppend(&text, "  nothing within range\n");
        break;
      }
      absl::StrAppend(&text, "  shape ", closest.shape_id(), " (user_data ",
                      closest.user_data(), "): point ", Point(closest.point()),
                      ", distance ", Num(closest.distance()), ", ",
                      FeatureText(closest.feature()), "\n");
      break;
    }
    case v1::QueryResult::kMoveValidation:
      absl::StrAppend(&text, MoveText(result.move_validation()));
      break;
    case v1::QueryResult::kHitValidation:
      absl::StrAppend(&text, ShotText(result.hit_validation()));
      break;
    case v1::QueryResult::kPairToi: {
      const v1::PairToiResult& pair = result.pair_toi();
      if (!pair.hit()) {
        absl::StrAppend(&text, "  no contact\n");
        break;
      }
      absl::StrAppend(&text, "  contact at fraction ", Num(pair.fraction()),
                      ": point ", Point(pair.point()), ", normal ",
                      Point(pair.normal()), "\n");
      break;
    }
    case v1::QueryResult::kVisibility:
      absl::StrAppend(&text,
                      VisibilityText(query.visibility(), result.visibility()));
      break;
    case v1::QueryResult::kVisibilityPolygon:
      absl::StrAppend(&text,
                      VisibilityPolygonText(result.visibility_polygon()));
      break;
    default:
      absl::StrAppend(&text,
                      "  (an answer this client cannot show; use "
                      "--json)\n");
  }
  return text;
}

std::string SummaryText(const v1::LevelSummary& summary) {
  return absl::StrCat(summary.level(), "  version ", summary.version(), "  ",
                      Counted(summary.shape_count(), "shape"), "  bounds ",
                      Point(summary.bounds().lower()), "..",
                      Point(summary.bounds().upper()), "  cell ",
                      Num(summary.cell_size()), "  ", summary.memory_bytes(),
                      " bytes  content ", summary.content_hash());
}

}  // namespace collide::client::cli
