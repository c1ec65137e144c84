#include "server/log.h"

#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace collide::server {

void LogLine(const std::string& line) {
  const std::string text =
      absl::StrCat(absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                                    absl::UTCTimeZone()),
                   " collide_server: ", line, "\n");
  // One write(2) per line: stdio buffering could split a line between
  // threads. A short write to stderr is not worth retrying.
  const ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
}

}  // namespace collide::server
