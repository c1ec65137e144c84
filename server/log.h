// Server log lines: one line per event on stderr, prefixed with a UTC
// timestamp. Debian's Abseil 20220623 has no absl/log, and the server logs
// rarely (start, level loads, errors, shutdown; never per successful query),
// so a formatted fprintf is all it needs.
#ifndef COLLIDE_SERVER_LOG_H_
#define COLLIDE_SERVER_LOG_H_

#include <string>

#include "absl/strings/str_format.h"

namespace collide::server {

// Writes "2024-05-01T12:00:00.123Z collide_server: {line}\n" to stderr in
// one write, so lines from different threads do not interleave.
void LogLine(const std::string& line);

template <typename... Args>
void Log(const absl::FormatSpec<Args...>& format, const Args&... args) {
  LogLine(absl::StrFormat(format, args...));
}

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LOG_H_
