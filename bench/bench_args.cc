#include "bench_args.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "collide/version.h"

namespace collide_bench {

ArgParser::ArgParser(int argc, char** argv, std::string usage)
    : program_(argc > 0 ? argv[0] : "benchmark"), usage_(std::move(usage)) {
  for (int i = 1; i < argc; ++i) args_.emplace_back(argv[i]);
  // --help and --version answer on stdout and exit 0, as every collide
  // program does (docs/tools.md).
  for (const std::string& arg : args_) {
    if (arg == "--help" || arg == "-h") {
      std::printf("usage: %s %s\n", program_.c_str(), usage_.c_str());
      std::exit(0);
    }
    if (arg == "--version") {
      const std::string_view path = program_;
      std::printf("%s %s\n",
                  std::string(path.substr(path.rfind('/') + 1)).c_str(),
                  collide::kVersion);
      std::exit(0);
    }
  }
  taken_.assign(args_.size(), false);
  values_.resize(args_.size());
}

void ArgParser::Fail(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\nusage: %s %s\n", program_.c_str(),
               message.c_str(), program_.c_str(), usage_.c_str());
  std::exit(2);
}

const std::string* ArgParser::Take(const char* name) {
  const std::string prefix = std::string("--") + name + "=";
  const std::string* found = nullptr;
  for (size_t i = 0; i < args_.size(); ++i) {
    if (args_[i].compare(0, prefix.size(), prefix) != 0) continue;
    if (found != nullptr) Fail("--" + std::string(name) + " given twice");
    taken_[i] = true;
    values_[i] = args_[i].substr(prefix.size());
    found = &values_[i];
  }
  return found;
}

void ArgParser::Int(const char* name, int* out, int min, int max) {
  const std::string* value = Take(name);
  if (value == nullptr) return;
  errno = 0;
  char* end = nullptr;
  const long parsed = std::strtol(value->c_str(), &end, 10);
  if (value->empty() || *end != '\0' || errno != 0 || parsed < min ||
      parsed > max) {
    Fail("--" + std::string(name) + "=" + *value + ": want an integer in [" +
         std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  *out = static_cast<int>(parsed);
}

void ArgParser::Double(const char* name, double* out, double min) {
  const std::string* value = Take(name);
  if (value == nullptr) return;
  char* end = nullptr;
  const double parsed = std::strtod(value->c_str(), &end);
  if (value->empty() || *end != '\0' || !std::isfinite(parsed) ||
      parsed < min) {
    Fail("--" + std::string(name) + "=" + *value +
         ": want a number >= " + std::to_string(min));
  }
  *out = parsed;
}

void ArgParser::Text(const char* name, std::string* out) {
  if (const std::string* value = Take(name)) *out = *value;
}

void ArgParser::Choice(const char* name, std::string* out,
                       std::initializer_list<const char*> choices) {
  const std::string* value = Take(name);
  if (value == nullptr) return;
  std::string allowed;
  for (const char* choice : choices) {
    if (*value == choice) {
      *out = *value;
      return;
    }
    allowed += allowed.empty() ? choice : std::string("|") + choice;
  }
  Fail("--" + std::string(name) + "=" + *value + ": want one of " + allowed);
}

void ArgParser::Positional(std::string* out) {
  for (size_t i = 0; i < args_.size(); ++i) {
    if (taken_[i] || args_[i].compare(0, 2, "--") == 0) continue;
    taken_[i] = true;
    *out = args_[i];
    return;
  }
}

void ArgParser::Finish() {
  for (size_t i = 0; i < args_.size(); ++i) {
    if (!taken_[i]) Fail("unknown argument " + args_[i]);
  }
}

}  // namespace collide_bench
