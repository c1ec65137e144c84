// Command lines of collide's client tools (collide-cli, collide-load):
// --help lists the program's own flags, a flag that
// is unknown or whose value does not parse is reported by name and the
// caller picks the exit status (Abseil's parser would exit 1 on its own),
// and repeatable flags (--metadata=k:v --metadata=k2:v2) keep every value
// (Abseil keeps only the last).
#ifndef COLLIDE_CLIENT_LIB_TOOL_COMMAND_LINE_H_
#define COLLIDE_CLIENT_LIB_TOOL_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace collide::client::tools {

// Sets the program's usage message and makes --help (and --helpshort)
// list the flags defined in `main_file` (pass __FILE__ from the file that
// defines them); by default Abseil matches flags by the program's name,
// which no main file of ours carries, and --help listed none.
void SetToolUsage(absl::string_view usage, absl::string_view main_file);

// Checks every flag of `args` (argv, program name first) before
// absl::ParseCommandLine would: INVALID_ARGUMENT "--name: ..." for a flag
// that is not defined, that lacks its value, or whose value does not
// parse. Stops at "--"; arguments not starting with '-' are positional.
absl::Status CheckFlags(absl::Span<char* const> args);

// absl::ParseCommandLine for `args` that CheckFlags accepted: returns the
// positional arguments (program name first). --help and the other usage
// flags print their text on stdout and end the program with status 0 (help
// that was asked for is a success; Abseil's own parser exits 1).
std::vector<char*> ParseToolCommandLine(std::vector<char*>& args);

// Removes every "--name=VALUE" and "--name VALUE" (one dash too) from
// `args` and returns the values in command-line order.
std::vector<std::string> TakeRepeatedFlag(std::vector<char*>& args,
                                          absl::string_view name);

}  // namespace collide::client::tools

#endif  // COLLIDE_CLIENT_LIB_TOOL_COMMAND_LINE_H_
