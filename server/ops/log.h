// Server log lines: one line per event on stderr, in one of two formats
// (SetLogFormat, from --log_format):
//
//   text (default): "2024-05-01T12:00:00.123Z collide_server: {message}"
//   json: {"time":"2024-05-01T12:00:00.123Z","level":"info",
//          "logger":"collide_server","message":"...",<fields>}
//
// Debian's Abseil 20220623 has no absl/log, and the server logs rarely
// (start, level loads, errors, shutdown; never per successful query), so a
// formatted line and nlohmann-json (for JSON's escaping) are all it needs.
// gRPC core's own lines go through the same writer (RouteGrpcLogs).
//
// The JSON keys of those four are Cloud Logging's (severity, in upper case)
// or Elastic Common Schema's (@timestamp, log.level, log.logger) with
// SetLogJsonFields (--log_json_fields).
//
// Values that callers or files control (level ids and names, paths, status
// messages, peers) go through LogValue before they reach a message: a
// newline in a level id must not forge a log line, and a 32 MiB id must not
// write a 32 MiB line. In JSON the writer escapes them itself, so a decoded
// line holds the value as it was. Fields (LogField) are cut the same way
// and keep their raw text.
#ifndef COLLIDE_SERVER_OPS_LOG_H_
#define COLLIDE_SERVER_OPS_LOG_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace collide::server {

// The most bytes of a value LogValue keeps (before escaping).
inline constexpr size_t kMaxLogValueBytes = 256;

// `value` made safe for one log line: its first `max_bytes` bytes, then,
// if it was longer, "...(N bytes)" with N its full length. In text lines
// control characters, quotes, backslashes and bytes >= 0x80 (so non-UTF-8
// too) are C-escaped (absl::CHexEscape: "\n", "\"", "\x80"); printable
// ASCII is kept as is, so ordinary ids and paths read unchanged. In JSON
// lines (SetLogFormat(kJson)) nothing is escaped here: the JSON writer
// escapes the whole message once.
std::string LogValue(absl::string_view value,
                     size_t max_bytes = kMaxLogValueBytes);

// LogValue(status.ToString()), except that quotes and apostrophes stay as
// they are: a status is logged unquoted, and its messages quote the values
// they name (metrics_listen \"x\" would be noise); newlines and the rest
// are still escaped, so a status cannot forge a line.
std::string LogValue(const absl::Status& status);

enum class LogFormat { kText, kJson };

// How lines are written from now on; process-wide. main() sets it once,
// before the server starts. Text until then.
void SetLogFormat(LogFormat format);

// The names of a JSON line's time, level, logger and message:
//   kCollide       time, level (debug/info/warning/error), logger, message;
//   kCloudLogging  time, severity (DEBUG/INFO/WARNING/ERROR), logger,
//                  message: what Google Cloud Logging's agents read;
//   kEcs           @timestamp, log.level, log.logger, message: Elastic
//                  Common Schema.
// Process-wide, like SetLogFormat; kCollide until set.
enum class LogJsonFields { kCollide, kCloudLogging, kEcs };
void SetLogJsonFields(LogJsonFields fields);

// The JSON "level" of a line. Text lines do not show it.
enum class LogSeverity { kDebug, kInfo, kWarning, kError };

// One structured field of a JSON line: a string (cut to kMaxLogValueBytes
// as LogValue does, then JSON-escaped: not C-escaped), an integer or a
// boolean. Text
// lines leave fields out, so a message must say everything on its own.
// Keys are the caller's constants; "time", "level", "logger" and "message"
// are taken.
struct LogField {
  LogField(absl::string_view name, absl::string_view text)
      : key(name), value(text) {}
  LogField(absl::string_view name, const std::string& text)
      : key(name), value(absl::string_view(text)) {}
  LogField(absl::string_view name, const char* text)
      : key(name), value(absl::string_view(text)) {}
  LogField(absl::string_view name, bool flag) : key(name), value(flag) {}
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  LogField(absl::string_view name, T number)
      : key(name), value(static_cast<int64_t>(number)) {}
  LogField(absl::string_view name, const absl::Status& status)
      : key(name), value(status.ToString()) {}

  absl::string_view key;
  std::variant<absl::string_view, int64_t, bool, std::string> value;
};

// Writes one line at `severity` with `fields` (JSON only) in one write, so
// lines from different threads do not interleave. In text, any control
// character left in `message` (a value that missed LogValue) is written
// escaped; in JSON every value is JSON-escaped and invalid UTF-8 replaced
// by U+FFFD; so one call is always exactly one line.
void LogEvent(LogSeverity severity, absl::string_view message,
              std::initializer_list<LogField> fields = {});

// LogEvent(kInfo, line).
void LogLine(const std::string& line);

// LogLine(absl::StrFormat(format, args...)). Wrap caller-controlled
// arguments in LogValue.
template <typename... Args>
void Log(const absl::FormatSpec<Args...>& format, const Args&... args) {
  LogLine(absl::StrFormat(format, args...));
}

// LogEvent(severity, absl::StrFormat(format, args...), fields): the
// message as Log writes it, plus the values as fields for JSON readers.
template <typename... Args>
void LogAt(LogSeverity severity, std::initializer_list<LogField> fields,
           const absl::FormatSpec<Args...>& format, const Args&... args) {
  LogEvent(severity, absl::StrFormat(format, args...), fields);
}

// From now on gRPC core's own log lines (gpr_log: those GRPC_VERBOSITY
// lets through) are written by LogEvent, with logger "grpc" and their
// source file and line as fields, instead of by gRPC's own writer.
void RouteGrpcLogs();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_OPS_LOG_H_
