// Queries replayed by a load test (collide-load --queries=FILE) instead of
// a generated mix: recorded traffic, or cases a server must keep fast.
//
// The file is JSON lines: each line one collide.v1.Query in protobuf JSON
// (lowerCamelCase or proto field names), e.g.
//   {"rayCast": {"input": {"origin": {"x": 0, "y": 0}, ...}}}
// Empty lines and lines starting with '#' are skipped. Request ids in the
// file are ignored: each batch numbers its queries 1..batch size.
#ifndef COLLIDE_CLIENT_LOAD_QUERY_FILE_H_
#define COLLIDE_CLIENT_LOAD_QUERY_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/v1/collision_service.pb.h"

namespace collide::client::load {

// The queries of `path`, in file order: INVALID_ARGUMENT naming "queries",
// the file and the line when a line is not a Query or the file holds none;
// the file's own error (NOT_FOUND, ...) naming "queries" when it cannot be
// read. Files up to 256 MiB.
absl::StatusOr<std::vector<v1::Query>> ReadQueryLines(const std::string& path);

// `size` queries taken from `queries` in order from `*next` (wrapping at
// the end, advancing *next), numbered 1..size.
v1::StreamQueriesRequest ReplayBatch(const std::vector<v1::Query>& queries,
                                     int size, size_t* next);

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_QUERY_FILE_H_
