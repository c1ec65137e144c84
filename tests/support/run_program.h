// Runs a shell command line and captures what it writes to stdout, for the
// tests that drive the programs (collide-cli, collide-load) as a user does.
// Bounded by the programs themselves: every call they make has a deadline.
#ifndef COLLIDE_TESTS_SUPPORT_RUN_PROGRAM_H_
#define COLLIDE_TESTS_SUPPORT_RUN_PROGRAM_H_

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace collide::testing {

struct ProgramOutcome {
  int exit_code = -1;  // -1: did not start or did not exit normally
  std::string out;     // stdout (add 2>&1 to the command for stderr too)
};

inline ProgramOutcome RunShellCommand(const std::string& command) {
  ProgramOutcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  std::array<char, 4096> buffer;
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    outcome.out.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_RUN_PROGRAM_H_
