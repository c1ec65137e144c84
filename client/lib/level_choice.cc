#include "client/lib/level_choice.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/lib/collide_client.h"

namespace collide::client {

absl::StatusOr<std::string> ChooseLevel(
    absl::string_view file, absl::string_view file_level,
    const std::optional<std::string>& flag_level) {
  const bool flag_given = flag_level.has_value() && !flag_level->empty();
  if (file_level.empty()) {
    return flag_given ? LevelId(*flag_level) : std::string(kDefaultLevelId);
  }
  if (flag_given && LevelId(*flag_level) != LevelId(file_level)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--level=", *flag_level, " and ", file, "'s \"level\": \"", file_level,
        "\" name different levels (give one, or make them agree)"));
  }
  return LevelId(file_level);
}

}  // namespace collide::client
