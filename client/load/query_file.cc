#include "client/load/query_file.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "proto/formats/file_io.h"

namespace collide::client::load {

absl::StatusOr<std::vector<v1::Query>> ReadQueryLines(const std::string& path) {
  absl::StatusOr<std::string> text =
      formats::ReadFileContents(path, /*max_bytes=*/int64_t{256} << 20);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat("queries: ", text.status().message()));
  }
  std::vector<v1::Query> queries;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    v1::Query query;
    const auto parsed = google::protobuf::util::JsonStringToMessage(
        google::protobuf::StringPiece(line.data(), line.size()), &query);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queries: ", path, ":", line_number,
          ": not a Query in protobuf JSON: ", parsed.message().as_string()));
    }
    if (query.query_case() == v1::Query::QUERY_NOT_SET) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queries: ", path, ":", line_number, ": the query sets no kind"));
    }
    queries.push_back(std::move(query));
  }
  if (queries.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("queries: ", path, " holds no query"));
  }
  return queries;
}

v1::StreamQueriesRequest ReplayBatch(const std::vector<v1::Query>& queries,
                                     int size, size_t* next) {
  v1::StreamQueriesRequest batch;
  for (int i = 0; i < size; ++i) {
    v1::Query* query = batch.add_queries();
    *query = queries[*next];
    query->set_request_id(static_cast<uint64_t>(i) + 1);
    *next = (*next + 1) % queries.size();
  }
  return batch;
}

}  // namespace collide::client::load
