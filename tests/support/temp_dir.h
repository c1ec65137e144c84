// A fresh empty directory for a test, removed with all it holds when the
// test is done with it.
#ifndef COLLIDE_TESTS_SUPPORT_TEMP_DIR_H_
#define COLLIDE_TESTS_SUPPORT_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"

namespace collide::testing {

// A fresh empty directory under TEST_TMPDIR or /tmp, removed with all it
// holds when the test is done with it.
class TempDir {
 public:
  TempDir() {
    const char* base = getenv("TEST_TMPDIR");
    std::string pattern =
        absl::StrCat(base != nullptr ? base : "/tmp", "/collide_e2e_XXXXXX");
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Empty if the directory could not be made.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_TEMP_DIR_H_
