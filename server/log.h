// Server log lines: one line per event on stderr, prefixed with a UTC
// timestamp. Debian's Abseil 20220623 has no absl/log, and the server logs
// rarely (start, level loads, errors, shutdown; never per successful query),
// so a formatted fprintf is all it needs.
//
// Values that callers or files control (level ids and names, paths, status
// messages, peers) go through LogValue before they reach a line: a newline
// in a level id must not forge a log line, and a 32 MiB id must not write a
// 32 MiB line.
#ifndef COLLIDE_SERVER_LOG_H_
#define COLLIDE_SERVER_LOG_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace collide::server {

// The most bytes of a value LogValue keeps (before escaping).
inline constexpr size_t kMaxLogValueBytes = 256;

// `value` made safe for one log line: its first `max_bytes` bytes with
// control characters, quotes, backslashes and bytes >= 0x80 (so non-UTF-8
// too) C-escaped (absl::CHexEscape: "\n", "\"", "\x80"), then, if it was
// longer, "...(N bytes)" with N its full length. Printable ASCII is kept
// as is, so ordinary ids and paths read unchanged.
std::string LogValue(absl::string_view value,
                     size_t max_bytes = kMaxLogValueBytes);

// LogValue(status.ToString()).
std::string LogValue(const absl::Status& status);

// Writes "2024-05-01T12:00:00.123Z collide_server: {line}\n" to stderr in
// one write, so lines from different threads do not interleave. Any control
// character left in `line` (a value that missed LogValue) is written
// escaped, so one call is always exactly one line.
void LogLine(const std::string& line);

// LogLine(absl::StrFormat(format, args...)). Wrap caller-controlled
// arguments in LogValue.
template <typename... Args>
void Log(const absl::FormatSpec<Args...>& format, const Args&... args) {
  LogLine(absl::StrFormat(format, args...));
}

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LOG_H_
