// FUZZ_CHECK: a property a fuzz target asserts on every input. Unlike
// assert() it stays on in release builds, so the replay drivers the normal
// test suite runs check the same properties as the fuzzers.
#ifndef COLLIDE_TESTS_FUZZ_FUZZ_CHECK_H_
#define COLLIDE_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

// Prints the failed condition with its place and aborts (libFuzzer reports
// the abort as a crash and saves the input).
#define FUZZ_CHECK(condition)                                          \
  do {                                                                 \
    if (!(condition)) {                                                \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, \
                   __LINE__, #condition);                              \
      std::abort();                                                    \
    }                                                                  \
  } while (false)

#endif  // COLLIDE_TESTS_FUZZ_FUZZ_CHECK_H_
