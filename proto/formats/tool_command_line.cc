#include "proto/formats/tool_command_line.h"

#include <cstdlib>
#include <iostream>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/internal/parse.h"
#include "absl/flags/internal/usage.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "collide/version.h"

namespace collide::tools {

namespace {

// Flags whose values Abseil's parser interprets itself (files of flags,
// flags from the environment): CheckFlags leaves their values alone.
bool IsGeneratorFlag(absl::string_view name) {
  return name == "flagfile" || name == "fromenv" || name == "tryfromenv" ||
         name == "undefok";
}

// Abseil's usage flags (--help, --helpfull, --version...), which the
// parser handles itself and flag reflection does not find.
bool IsUsageFlag(absl::string_view name) {
  for (absl::string_view usage :
       {"help", "helpfull", "helpshort", "helppackage", "version",
        "only_check_args", "helpon", "helpmatch"}) {
    if (name == usage) return true;
  }
  return false;
}

// "--name=value" / "-name" -> name and (when given) value.
struct FlagArg {
  absl::string_view name;
  absl::string_view value;
  bool has_value = false;
};

FlagArg SplitFlagArg(absl::string_view arg) {
  absl::ConsumePrefix(&arg, "-");
  absl::ConsumePrefix(&arg, "-");
  FlagArg flag;
  const size_t equals = arg.find('=');
  flag.name = arg.substr(0, equals);
  if (equals != absl::string_view::npos) {
    flag.value = arg.substr(equals + 1);
    flag.has_value = true;
  }
  return flag;
}

bool IsFlag(absl::string_view arg) { return arg.size() > 1 && arg[0] == '-'; }

// The last two components of `path` ("server/main.cc"), or all of it.
std::string FolderAndName(absl::string_view path) {
  const size_t last = path.rfind('/');
  const size_t parent = last == absl::string_view::npos || last == 0
                            ? absl::string_view::npos
                            : path.rfind('/', last - 1);
  return std::string(
      parent == absl::string_view::npos ? path : path.substr(parent + 1));
}

// The error for a value that does not parse: a duration written as a bare
// number gets told the unit it lacks ("--duration=3: add a unit, e.g. 3s").
std::string ValueError(absl::string_view name, absl::string_view value,
                       const absl::CommandLineFlag& flag,
                       absl::string_view error) {
  double number = 0;
  if (flag.IsOfType<absl::Duration>() && absl::SimpleAtod(value, &number)) {
    return absl::StrCat("--", name, "=", value,
                        ": a duration needs a unit, e.g. ", value, "s or ",
                        value, "ms");
  }
  return absl::StrCat("--", name, ": ", error);
}

}  // namespace

std::string VersionText(absl::string_view program) {
  return absl::StrCat(program, " ", collide::kVersion, "\n");
}

void SetToolUsage(absl::string_view usage, absl::string_view main_file,
                  absl::string_view program) {
  absl::SetProgramUsageMessage(usage);
  const std::string main_name = FolderAndName(main_file);
  absl::FlagsUsageConfig config;
  config.contains_help_flags = [main_name](absl::string_view file) {
    return absl::EndsWith(file, main_name);
  };
  config.contains_helpshort_flags = config.contains_help_flags;
  config.version_string = [name = std::string(program)] {
    return VersionText(name);
  };
  // Files named from the repository root ("client/cli/cli_main.cc") rather
  // than where this checkout was built; other files (Abseil's own) by their
  // folder and name ("flags/parse.cc").
  config.normalize_filename = [](absl::string_view file) {
    for (absl::string_view root : {"/client/", "/server/", "/bench/"}) {
      if (const size_t at = file.rfind(root); at != absl::string_view::npos) {
        return std::string(file.substr(at + 1));
      }
    }
    return FolderAndName(file);
  };
  absl::SetFlagsUsageConfig(config);
}

absl::Status CheckFlags(absl::Span<char* const> args) {
  for (size_t i = 1; i < args.size(); ++i) {
    const absl::string_view arg = args[i];
    if (arg == "--") break;
    if (!IsFlag(arg)) continue;
    const FlagArg given = SplitFlagArg(arg);
    if (IsUsageFlag(given.name)) continue;
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(given.name);
    if (flag == nullptr) {
      // --noname turns a bool flag off.
      absl::string_view positive = given.name;
      absl::CommandLineFlag* negated = absl::ConsumePrefix(&positive, "no")
                                           ? absl::FindCommandLineFlag(positive)
                                           : nullptr;
      if (negated != nullptr && negated->IsOfType<bool>() && !given.has_value) {
        continue;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("--", given.name, ": no such flag (see --help)"));
    }
    absl::string_view value = given.value;
    if (!given.has_value) {
      if (flag->IsOfType<bool>()) continue;
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--", given.name, ": missing value"));
      }
      value = args[++i];
    }
    if (IsGeneratorFlag(given.name)) continue;
    // Sets the flag, as the parser will again with the same value.
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          ValueError(given.name, value, *flag, error));
    }
  }
  return absl::OkStatus();
}

std::vector<char*> ParseToolCommandLine(std::vector<char*>& args) {
  // Abseil 20220623 has no public parse that leaves usage flags to the
  // caller; its internal entry point and HandleUsageFlags do just that.
  namespace fi = absl::flags_internal;
  std::vector<char*> positional = fi::ParseCommandLineImpl(
      static_cast<int>(args.size()), args.data(),
      fi::ArgvListAction::kRemoveParsedArgs, fi::UsageFlagsAction::kIgnoreUsage,
      fi::OnUndefinedFlag::kAbortIfUndefined);
  if (fi::HandleUsageFlags(std::cout, absl::ProgramUsageMessage()) != -1) {
    std::cout.flush();
    std::exit(0);
  }
  return positional;
}

std::vector<char*> ParseCommandLineOrExit(int argc, char** argv,
                                          absl::string_view usage,
                                          absl::string_view main_file,
                                          absl::string_view program) {
  SetToolUsage(usage, main_file, program);
  std::vector<char*> args(argv, argv + argc);
  if (const absl::Status flags = CheckFlags(args); !flags.ok()) {
    std::cerr << program << ": " << flags.message() << "\n(" << program
              << " --help for usage)\n";
    std::exit(2);
  }
  return ParseToolCommandLine(args);
}

std::vector<std::string> TakeRepeatedFlag(std::vector<char*>& args,
                                          absl::string_view name) {
  std::vector<std::string> values;
  std::vector<char*> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    const absl::string_view arg = args[i];
    if (arg == "--") {
      kept.insert(kept.end(), args.begin() + i, args.end());
      break;
    }
    if (i == 0 || !IsFlag(arg)) {
      kept.push_back(args[i]);
      continue;
    }
    const FlagArg given = SplitFlagArg(arg);
    if (given.name != name) {
      kept.push_back(args[i]);
    } else if (given.has_value) {
      values.emplace_back(given.value);
    } else if (i + 1 < args.size()) {
      values.emplace_back(args[++i]);
    } else {
      kept.push_back(args[i]);  // CheckFlags reports the missing value
    }
  }
  args = std::move(kept);
  return values;
}

}  // namespace collide::tools
