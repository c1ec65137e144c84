#include "client/cli/result_text.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace collide::client::cli {

namespace {

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

std::string HitText(const v1::CastHit& hit) {
  const bool overlap = hit.status() == v1::HIT_STATUS_INITIAL_OVERLAP;
  std::string text = absl::StrCat(
      overlap ? "starts in overlap with" : "hit", " shape ", hit.shape_id(),
      " (user_data ", hit.user_data(), ") at fraction ", Num(hit.fraction()),
      ": point ", Point(hit.point()), ", normal ", Point(hit.normal()), ", ",
      FeatureText(hit.feature()));
  if (overlap) absl::StrAppend(&text, ", depth ", Num(hit.depth()));
  return text;
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
    default:
      absl::StrAppend(&text,
                      "  (an answer this client cannot show; use "
                      "--json)\n");
  }
  return text;
}

std::string SummaryText(const v1::LevelSummary& summary) {
  return absl::StrCat(summary.level(), "  version ", summary.version(), "  ",
                      summary.shape_count(), " shapes  bounds ",
                      Point(summary.bounds().lower()), "..",
                      Point(summary.bounds().upper()), "  cell ",
                      Num(summary.cell_size()), "  ", summary.memory_bytes(),
                      " bytes");
}

}  // namespace collide::client::cli
