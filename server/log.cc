#include "server/log.h"

#include <unistd.h>

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace collide::server {

std::string LogValue(absl::string_view value, size_t max_bytes) {
  if (value.size() <= max_bytes) return absl::CHexEscape(value);
  return absl::StrCat(absl::CHexEscape(value.substr(0, max_bytes)), "...(",
                      value.size(), " bytes)");
}

std::string LogValue(const absl::Status& status) {
  return LogValue(status.ToString());
}

void LogLine(const std::string& line) {
  std::string text =
      absl::StrCat(absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                                    absl::UTCTimeZone()),
                   " collide_server: ");
  text.reserve(text.size() + line.size() + 1);
  for (const char c : line) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      text.append(absl::CHexEscape(absl::string_view(&c, 1)));
    } else {
      text.push_back(c);
    }
  }
  text.push_back('\n');
  // One write(2) per line: stdio buffering could split a line between
  // threads. A short write to stderr is not worth retrying.
  const ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
}

}  // namespace collide::server
