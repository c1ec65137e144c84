// Command lines of collide's programs (collide_server, collide-cli,
// collide-load and the other tools): --help lists the program's own flags
// and exits 0, --version prints "PROGRAM VERSION" (the project version) and
// exits 0, a flag that is unknown or whose value does not parse is reported
// by name and the caller exits 2 (Abseil's parser would exit 1 on its own),
// and repeatable flags (--metadata=k:v --metadata=k2:v2) keep every value
// (Abseil keeps only the last). docs/tools.md states the convention.
#ifndef COLLIDE_PROTO_FORMATS_TOOL_COMMAND_LINE_H_
#define COLLIDE_PROTO_FORMATS_TOOL_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace collide::tools {

// "PROGRAM VERSION\n", what --version prints.
std::string VersionText(absl::string_view program);

// Sets the program's usage message, makes --help (and --helpshort) list the
// flags defined in `main_file` (pass __FILE__ from the file that defines
// them; matched by its folder and name) and --version print
// VersionText(program); by default Abseil matches flags by the program's
// name, which no main file of ours carries, and prints no version.
void SetToolUsage(absl::string_view usage, absl::string_view main_file,
                  absl::string_view program);

// Checks every flag of `args` (argv, program name first) before
// absl::ParseCommandLine would: INVALID_ARGUMENT "--name: ..." for a flag
// that is not defined, that lacks its value, or whose value does not
// parse (a duration without its unit is told so). Stops at "--"; arguments
// not starting with '-' (and "-" itself, stdin or stdout) are positional.
absl::Status CheckFlags(absl::Span<char* const> args);

// absl::ParseCommandLine for `args` that CheckFlags accepted: returns the
// positional arguments (program name first). --help and the other usage
// flags print their text on stdout and end the program with status 0 (help
// that was asked for is a success; Abseil's own parser exits 1).
std::vector<char*> ParseToolCommandLine(std::vector<char*>& args);

// The whole convention for a program with flags only or simple positional
// arguments: SetToolUsage(usage, main_file, program), CheckFlags (a bad flag
// prints "PROGRAM: --name: ..." on stderr and exits 2), then
// ParseToolCommandLine. Returns the positional arguments, program first.
std::vector<char*> ParseCommandLineOrExit(int argc, char** argv,
                                          absl::string_view usage,
                                          absl::string_view main_file,
                                          absl::string_view program);

// Removes every "--name=VALUE" and "--name VALUE" (one dash too) from
// `args` and returns the values in command-line order.
std::vector<std::string> TakeRepeatedFlag(std::vector<char*>& args,
                                          absl::string_view name);

}  // namespace collide::tools

#endif  // COLLIDE_PROTO_FORMATS_TOOL_COMMAND_LINE_H_
