// A main() for a fuzz target built without libFuzzer: runs
// LLVMFuzzerTestOneInput once on every file under the directories (or on
// the files) given as arguments, so the normal test suite replays the seed
// corpus and every regression input with the ordinary compiler and
// sanitizers. Files named README* or starting with '.' are skipped. Exits 0
// when every input ran (a failing input aborts, as under the fuzzer), 1 when
// an argument cannot be read.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool IsInput(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name[0] != '.' && name.rfind("README", 0) != 0;
}

bool RunFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                std::istreambuf_iterator<char>());
  std::fprintf(stderr, "replay %s (%zu bytes)\n", path.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()),
                         bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int ran = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path root(argv[i]);
    std::error_code error;
    if (std::filesystem::is_regular_file(root, error)) {
      if (!RunFile(root)) return 1;
      ++ran;
      continue;
    }
    if (!std::filesystem::is_directory(root, error)) {
      std::fprintf(stderr, "%s: not a file or directory\n", argv[i]);
      return 1;
    }
    // Sorted, so that a run is reproducible.
    std::vector<std::filesystem::path> files;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(root, error)) {
      if (entry.is_regular_file() && IsInput(entry.path())) {
        files.push_back(entry.path());
      }
    }
    if (error) {
      std::fprintf(stderr, "%s: %s\n", argv[i], error.message().c_str());
      return 1;
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      if (!RunFile(file)) return 1;
      ++ran;
    }
  }
  std::fprintf(stderr, "replayed %d inputs\n", ran);
  return 0;
}
