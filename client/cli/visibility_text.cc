#include "client/cli/visibility_text.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::cli {
namespace {

// + 0.0 turns -0 into 0, which reads better.
std::string Num(double value) { return absl::StrFormat("%.6g", value + 0.0); }

std::string Point(const v1::Vec2& v) {
  return absl::StrCat("(", Num(v.x()), ", ", Num(v.y()), ")");
}

std::string ViewerText(const v1::Viewer& viewer) {
  std::string text = absl::StrCat("at ", Point(viewer.position()));
  if (viewer.has_range())
    absl::StrAppend(&text, " range ", Num(viewer.range()));
  if (viewer.has_cone()) {
    absl::StrAppend(&text, " cone ", Point(viewer.cone().direction()), " +-",
                    Num(viewer.cone().half_angle_radians()));
  }
  return text;
}

const char* KindText(v1::VisibilityVertexKind kind) {
  switch (kind) {
    case v1::VISIBILITY_VERTEX_KIND_LEVEL_VERTEX:
      return "level vertex";
    case v1::VISIBILITY_VERTEX_KIND_RAY_HIT:
      return "ray hit";
    case v1::VISIBILITY_VERTEX_KIND_EDGE_CROSSING:
      return "edge crossing";
    case v1::VISIBILITY_VERTEX_KIND_ROUND_POINT:
      return "round point";
    case v1::VISIBILITY_VERTEX_KIND_ARC:
      return "arc";
    case v1::VISIBILITY_VERTEX_KIND_ARC_END:
      return "arc end";
    case v1::VISIBILITY_VERTEX_KIND_VIEWER:
      return "viewer";
    default:
      return "vertex";
  }
}

// Whether the kind's shape_id names a shape (an arc end names one only
// where an occluder's edge crosses the range).
bool NamesShape(const v1::VisibilityPolygonVertex& vertex) {
  switch (vertex.kind()) {
    case v1::VISIBILITY_VERTEX_KIND_ARC:
    case v1::VISIBILITY_VERTEX_KIND_VIEWER:
      return false;
    case v1::VISIBILITY_VERTEX_KIND_ARC_END:
      return vertex.shape_id() != 0;
    default:
      return true;
  }
}

}  // namespace

std::string DescribeVisibility(const v1::VisibilityQuery& query) {
  return absl::StrCat(
      "visibility: ", query.viewers_size(),
      query.viewers_size() == 1 ? " viewer, " : " viewers, ",
      query.targets_size(), query.targets_size() == 1 ? " target" : " targets",
      query.target_rule() == v1::TARGET_RULE_ANY_PART ? " (circles by any part)"
                                                      : "");
}

std::string DescribeVisibilityPolygon(const v1::VisibilityPolygonQuery& query) {
  return absl::StrCat("visibility polygon from ", Point(query.viewer()),
                      " within ", Num(query.range()));
}

std::string VisibilityText(const v1::VisibilityQuery& query,
                           const v1::VisibilityResult& result) {
  const int64_t words = result.words_per_viewer();
  if (words != (int64_t{query.targets_size()} + 63) / 64 ||
      result.visible_words_size() != words * query.viewers_size()) {
    return "  (an answer that does not fit the query; use --json)\n";
  }
  std::string text;
  for (int i = 0; i < query.viewers_size(); ++i) {
    std::string seen;
    int count = 0;
    for (int j = 0; j < query.targets_size(); ++j) {
      const uint64_t word =
          result.visible_words(static_cast<int>(i * words + j / 64));
      if (((word >> (j % 64)) & 1) == 0) continue;
      absl::StrAppend(&seen, " t", j);
      ++count;
    }
    absl::StrAppend(&text, "  viewer ", i, " ", ViewerText(query.viewers(i)),
                    ": sees ", count, " of ", query.targets_size(),
                    count > 0 ? ":" : "", seen, "\n");
  }
  return text;
}

std::string VisibilityPolygonText(const v1::VisibilityPolygonResult& result) {
  if (result.vertices().empty()) return "  sees nothing (inside a solid)\n";
  std::string text = absl::StrCat("  ", result.vertices_size(),
                                  " vertices, counter-clockwise:\n");
  for (const v1::VisibilityPolygonVertex& vertex : result.vertices()) {
    absl::StrAppend(&text, "    ", Point(vertex.point()), " ",
                    KindText(vertex.kind()));
    if (NamesShape(vertex)) {
      absl::StrAppend(&text, " of shape ", vertex.shape_id());
    }
    absl::StrAppend(&text, "\n");
  }
  return text;
}

}  // namespace collide::client::cli
