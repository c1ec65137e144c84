// Readable text for the line-of-sight queries (result_text.h calls these):
// what was asked on one line, then one line per viewer (the targets it
// sees) or per polygon vertex.
#ifndef COLLIDE_CLIENT_CLI_VISIBILITY_TEXT_H_
#define COLLIDE_CLIENT_CLI_VISIBILITY_TEXT_H_

#include <string>

#include "collide/v1/collision_service.pb.h"

namespace collide::client::cli {

// "visibility: 3 viewers, 6 targets", "visibility polygon from (0, 0)
// within 30".
std::string DescribeVisibility(const v1::VisibilityQuery& query);
std::string DescribeVisibilityPolygon(const v1::VisibilityPolygonQuery& query);

// One line per viewer, indented:
//   viewer 1 at (10, 0) range 4 cone (-1, 0) +-0.5: sees 2 of 6: t0 t4
//   viewer 2 at (0, 0): sees 0 of 6
std::string VisibilityText(const v1::VisibilityQuery& query,
                           const v1::VisibilityResult& result);

// "  12 vertices, counter-clockwise:" then one line per vertex,
//   "    (5, 1) level vertex of shape 2", "    (18, 0) arc";
// or "  sees nothing (inside a solid)" for an empty polygon.
std::string VisibilityPolygonText(const v1::VisibilityPolygonResult& result);

}  // namespace collide::client::cli

#endif  // COLLIDE_CLIENT_CLI_VISIBILITY_TEXT_H_
