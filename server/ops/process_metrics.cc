#include "server/ops/process_metrics.h"

#include <dirent.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "server/ops/metrics.h"

namespace collide::server {
namespace {

std::optional<std::string> ReadFile(const char* path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The fields of /proc/self/stat after "(comm)", which may itself hold
// spaces and parentheses: fields[0] is proc(5)'s field 3 (state).
std::vector<absl::string_view> StatFields(absl::string_view stat) {
  const size_t close = stat.rfind(')');
  if (close == absl::string_view::npos) return {};
  return absl::StrSplit(stat.substr(close + 1), ' ', absl::SkipEmpty());
}

// proc(5)'s field `number` (1-based) as an integer, or nullopt.
std::optional<double> StatField(const std::vector<absl::string_view>& fields,
                                size_t number) {
  const size_t index = number - 3;
  uint64_t value = 0;
  if (index >= fields.size() || !absl::SimpleAtoi(fields[index], &value)) {
    return std::nullopt;
  }
  return static_cast<double>(value);
}

// The boot time, seconds since the epoch ("btime" in /proc/stat).
std::optional<double> BootTime() {
  const std::optional<std::string> stat = ReadFile("/proc/stat");
  if (!stat.has_value()) return std::nullopt;
  for (absl::string_view line : absl::StrSplit(*stat, '\n')) {
    if (absl::ConsumePrefix(&line, "btime ")) {
      uint64_t seconds = 0;
      if (absl::SimpleAtoi(line, &seconds)) return static_cast<double>(seconds);
    }
  }
  return std::nullopt;
}

std::optional<double> OpenFds() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return std::nullopt;
  double count = 0;
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count - 1;  // the listing's own descriptor
}

void AppendOneSample(ExpositionWriter& writer, absl::string_view name,
                     absl::string_view type, absl::string_view help,
                     std::optional<double> value) {
  if (!value.has_value()) return;
  writer.Family(name, type, help);
  writer.Sample(name, {}, *value);
}

}  // namespace

void AppendProcessMetrics(ExpositionWriter& writer) {
  const double ticks_per_second = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page_bytes = static_cast<double>(sysconf(_SC_PAGESIZE));
  const std::optional<std::string> stat = ReadFile("/proc/self/stat");
  const std::vector<absl::string_view> fields =
      stat.has_value() ? StatFields(*stat) : std::vector<absl::string_view>();
  const std::optional<double> user_ticks = StatField(fields, 14);
  const std::optional<double> system_ticks = StatField(fields, 15);
  if (user_ticks.has_value() && system_ticks.has_value()) {
    AppendOneSample(writer, "process_cpu_seconds_total", "counter",
                    "Total user and system CPU time spent in seconds.",
                    (*user_ticks + *system_ticks) / ticks_per_second);
  }
  const std::optional<double> start_ticks = StatField(fields, 22);
  const std::optional<double> boot_time = BootTime();
  if (start_ticks.has_value() && boot_time.has_value()) {
    AppendOneSample(writer, "process_start_time_seconds", "gauge",
                    "Start time of the process since unix epoch in seconds.",
                    *boot_time + *start_ticks / ticks_per_second);
  }
  AppendOneSample(writer, "process_virtual_memory_bytes", "gauge",
                  "Virtual memory size in bytes.", StatField(fields, 23));
  const std::optional<double> rss_pages = StatField(fields, 24);
  if (rss_pages.has_value()) {
    AppendOneSample(writer, "process_resident_memory_bytes", "gauge",
                    "Resident memory size in bytes.", *rss_pages * page_bytes);
  }
  AppendOneSample(writer, "process_open_fds", "gauge",
                  "Number of open file descriptors.", OpenFds());
}

}  // namespace collide::server
