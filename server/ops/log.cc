#include "server/ops/log.h"

#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpc/support/log.h"
#include "nlohmann/json.hpp"

namespace collide::server {
namespace {

// gRPC's messages are ours to cut too: a few carry whole channel-arg dumps.
constexpr size_t kMaxGrpcMessageBytes = 16 * kMaxLogValueBytes;

std::atomic<LogFormat> g_format{LogFormat::kText};
std::atomic<LogJsonFields> g_json_fields{LogJsonFields::kCollide};

// The keys of a JSON line's own four members, and whether the level is
// upper case (Cloud Logging's severity), per LogJsonFields.
struct JsonKeys {
  const char* time;
  const char* level;
  const char* logger;
  const char* message;
  bool upper_case_level;
};

JsonKeys KeysFor(LogJsonFields fields) {
  switch (fields) {
    case LogJsonFields::kCloudLogging:
      return {"time", "severity", "logger", "message", true};
    case LogJsonFields::kEcs:
      return {"@timestamp", "log.level", "log.logger", "message", false};
    case LogJsonFields::kCollide:
      break;
  }
  return {"time", "level", "logger", "message", false};
}

std::string Now() {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                          absl::UTCTimeZone());
}

// `value`'s first `max_bytes` bytes, then "...(N bytes)" if it was longer:
// LogValue's cut, without its escaping (JSON escapes on its own).
std::string Cut(absl::string_view value, size_t max_bytes) {
  if (value.size() <= max_bytes) return std::string(value);
  return absl::StrCat(value.substr(0, max_bytes), "...(", value.size(),
                      " bytes)");
}

absl::string_view SeverityName(LogSeverity severity) {
  switch (severity) {
    case LogSeverity::kDebug:
      return "debug";
    case LogSeverity::kInfo:
      return "info";
    case LogSeverity::kWarning:
      return "warning";
    case LogSeverity::kError:
      return "error";
  }
  return "info";
}

// One write(2) per line: stdio buffering could split a line between
// threads. A short write to stderr is not worth retrying.
void WriteLine(const std::string& text) {
  const ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
}

void WriteText(absl::string_view logger, absl::string_view message) {
  std::string text = absl::StrCat(Now(), " ", logger, ": ");
  text.reserve(text.size() + message.size() + 1);
  for (const char c : message) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      text.append(absl::CHexEscape(absl::string_view(&c, 1)));
    } else {
      text.push_back(c);
    }
  }
  text.push_back('\n');
  WriteLine(text);
}

void WriteJson(LogSeverity severity, absl::string_view logger,
               absl::string_view message,
               std::initializer_list<LogField> fields) {
  // Insertion order, so every line starts time, level, logger, message.
  const JsonKeys keys = KeysFor(g_json_fields.load(std::memory_order_relaxed));
  nlohmann::ordered_json line;
  line[keys.time] = Now();
  line[keys.level] = keys.upper_case_level
                         ? absl::AsciiStrToUpper(SeverityName(severity))
                         : std::string(SeverityName(severity));
  line[keys.logger] = logger;
  line[keys.message] = message;
  for (const LogField& field : fields) {
    const std::string key(field.key);
    if (const auto* text = std::get_if<absl::string_view>(&field.value)) {
      line[key] = Cut(*text, kMaxLogValueBytes);
    } else if (const auto* owned = std::get_if<std::string>(&field.value)) {
      line[key] = Cut(*owned, kMaxLogValueBytes);
    } else if (const auto* number = std::get_if<int64_t>(&field.value)) {
      line[key] = *number;
    } else {
      line[key] = std::get<bool>(field.value);
    }
  }
  // Control characters come out as \n or \u001b; bytes that are not UTF-8
  // as U+FFFD rather than an exception.
  std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.push_back('\n');
  WriteLine(text);
}

void Write(LogSeverity severity, absl::string_view logger,
           absl::string_view message, std::initializer_list<LogField> fields) {
  if (g_format.load(std::memory_order_relaxed) == LogFormat::kJson) {
    WriteJson(severity, logger, message, fields);
  } else {
    WriteText(logger, message);
  }
}

LogSeverity FromGpr(gpr_log_severity severity) {
  switch (severity) {
    case GPR_LOG_SEVERITY_DEBUG:
      return LogSeverity::kDebug;
    case GPR_LOG_SEVERITY_INFO:
      return LogSeverity::kInfo;
    case GPR_LOG_SEVERITY_ERROR:
      return LogSeverity::kError;
  }
  return LogSeverity::kError;
}

// gpr_log's writer: gRPC calls it from any thread, for lines at or above
// GRPC_VERBOSITY (ERROR unless set).
void LogGrpcLine(gpr_log_func_args* args) {
  const LogSeverity severity = FromGpr(args->severity);
  const absl::string_view file = args->file != nullptr ? args->file : "";
  const absl::string_view message =
      args->message != nullptr ? args->message : "";
  if (g_format.load(std::memory_order_relaxed) == LogFormat::kJson) {
    WriteJson(severity, "grpc", Cut(message, kMaxGrpcMessageBytes),
              {{"file", file}, {"line", args->line}});
  } else {
    WriteText("grpc",
              absl::StrCat(SeverityName(severity), " ", file, ":", args->line,
                           ": ", Cut(message, kMaxGrpcMessageBytes)));
  }
}

}  // namespace

std::string LogValue(absl::string_view value, size_t max_bytes) {
  // JSON escapes every string itself: escaping here too would leave a
  // literal backslash-n in the decoded message.
  if (g_format.load(std::memory_order_relaxed) == LogFormat::kJson) {
    return Cut(value, max_bytes);
  }
  if (value.size() <= max_bytes) return absl::CHexEscape(value);
  return absl::StrCat(absl::CHexEscape(value.substr(0, max_bytes)), "...(",
                      value.size(), " bytes)");
}

std::string LogValue(const absl::Status& status) {
  std::string text = LogValue(status.ToString());
  if (g_format.load(std::memory_order_relaxed) == LogFormat::kJson) {
    return text;
  }
  // CHexEscape's text is plain bytes and escapes that each start with a
  // backslash; reading it escape by escape, the escapes of quotes and
  // apostrophes go back to the character and every other one is kept.
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      if (text[i + 1] == '"' || text[i + 1] == '\'') {
        out.push_back(text[i + 1]);
      } else {
        out.append(text, i, 2);
      }
      ++i;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

void SetLogFormat(LogFormat format) {
  g_format.store(format, std::memory_order_relaxed);
}

void SetLogJsonFields(LogJsonFields fields) {
  g_json_fields.store(fields, std::memory_order_relaxed);
}

void LogEvent(LogSeverity severity, absl::string_view message,
              std::initializer_list<LogField> fields) {
  Write(severity, "collide_server", message, fields);
}

void LogLine(const std::string& line) { LogEvent(LogSeverity::kInfo, line); }

void RouteGrpcLogs() { gpr_set_log_function(&LogGrpcLine); }

}  // namespace collide::server
