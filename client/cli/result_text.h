// Readable text for what collide-cli prints by default (--json prints the
// protobuf JSON instead): one line per query saying what was asked, then
// one line per hit, overlapping shape or closest point.
#ifndef COLLIDE_CLIENT_CLI_RESULT_TEXT_H_
#define COLLIDE_CLIENT_CLI_RESULT_TEXT_H_

#include <string>

#include "collide/v1/collision_service.pb.h"
#include "collide/v1/level_service.pb.h"

namespace collide::client::cli {

// "ray from (0, 0) by (30, 0)", "circle r=0.5 at (0, 5) by (10, 0)", ...
std::string DescribeQuery(const v1::Query& query);

// The query's description, then its answer, indented:
//   #1 ray from (0, 0) by (30, 0)
//     hit shape 3 (user_data 0) at fraction 0.383333: point (11.5, 0),
//     normal (-1, 0), edge 0
// or "miss", or the query's own error ("error INVALID_ARGUMENT: ...").
std::string ResultText(const v1::Query& query, const v1::QueryResult& result);

// "levels/arena  version 1  15 shapes  bounds (-20, -20)..(20, 20)
//  cell 4  6260 bytes  content {content_hash}".
std::string SummaryText(const v1::LevelSummary& summary);

// A google.rpc.Code's name ("INVALID_ARGUMENT"), or the number.
std::string CodeName(int code);

}  // namespace collide::client::cli

#endif  // COLLIDE_CLIENT_CLI_RESULT_TEXT_H_
