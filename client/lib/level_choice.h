// Which level a client tool acts on when a request file may name one
// ("level": "levels/dock" in a RunQueriesRequest or PatchLevelRequest) and
// the command line may too (--level). A write must land on the level its
// caller meant, so the two are never silently overridden: an explicit
// --level that names another level than the file is refused.
#ifndef COLLIDE_CLIENT_LIB_LEVEL_CHOICE_H_
#define COLLIDE_CLIENT_LIB_LEVEL_CHOICE_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace collide::client {

// The level every tool uses when neither a file nor --level names one.
inline constexpr char kDefaultLevelId[] = "arena";

// The id ("dock") of the level to act on: `flag_level` (an id or a full
// name, nullopt when --level was not given) when the file names none, the
// file's `file_level` when no flag was given, kDefaultLevelId when neither
// names one. An empty string names nothing. When both name a level they
// must name the same one ("dock" and "levels/dock" do); otherwise
// INVALID_ARGUMENT naming both values and `file` (the path, for the
// message), e.g.
//   --level=arena and patch.json's "level": "levels/dock" name different
//   levels (give one, or make them agree)
absl::StatusOr<std::string> ChooseLevel(
    absl::string_view file, absl::string_view file_level,
    const std::optional<std::string>& flag_level);

}  // namespace collide::client

#endif  // COLLIDE_CLIENT_LIB_LEVEL_CHOICE_H_
