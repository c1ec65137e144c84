#include "proto/formats/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace collide::formats {
namespace {

// Closes a file descriptor on every path out of a scope.
class FileCloser {
 public:
  explicit FileCloser(int fd) : fd_(fd) {}
  FileCloser(const FileCloser&) = delete;
  FileCloser& operator=(const FileCloser&) = delete;
  ~FileCloser() {
    if (fd_ >= 0) close(fd_);
  }
  // Closes now, reporting the error close() can carry (deferred write
  // errors on some file systems).
  int Close() {
    const int result = close(fd_);
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

absl::Status ErrnoError(int error, absl::string_view what,
                        absl::string_view path) {
  return absl::ErrnoToStatus(error, absl::StrCat(what, " ", path));
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

absl::Status WriteAll(int fd, absl::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t written = write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "cannot write", path);
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ReadFileContents(const std::string& path,
                                             int64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
  // writer; the check below refuses it at once. (Regular files ignore it.)
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ErrnoError(errno, "cannot open", path);
  FileCloser closer(fd);
  struct stat info;
  if (fstat(fd, &info) != 0) return ErrnoError(errno, "cannot stat", path);
  if (!S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a regular file"));
  }
  if (info.st_size > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": ", info.st_size, " bytes, more than the limit ", max_bytes));
  }
  std::string contents;
  contents.resize(static_cast<size_t>(info.st_size));
  size_t filled = 0;
  while (filled < contents.size()) {
    const ssize_t got =
        read(fd, contents.data() + filled, contents.size() - filled);
    if (got < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "cannot read", path);
    }
    if (got == 0) break;  // the file shrank while we read it
    filled += static_cast<size_t>(got);
  }
  contents.resize(filled);
  return contents;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes) {
  // Same directory, so rename() is atomic; the pid keeps two processes
  // sharing a directory from writing one temporary file.
  const std::string temp = absl::StrCat(path, ".tmp.", getpid());
  const int fd =
      open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "cannot create", temp);
  FileCloser closer(fd);
  absl::Status status = WriteAll(fd, bytes, temp);
  if (status.ok() && fsync(fd) != 0)
    status = ErrnoError(errno, "cannot fsync", temp);
  if (status.ok() && closer.Close() != 0) {
    status = ErrnoError(errno, "cannot close", temp);
  }
  if (status.ok() && rename(temp.c_str(), path.c_str()) != 0) {
    status = ErrnoError(errno, "cannot rename to", path);
  }
  if (!status.ok()) {
    unlink(temp.c_str());
    return status;
  }
  // The rename itself is durable only once the directory entry is synced.
  const std::string directory = DirectoryOf(path);
  const int dir_fd =
      open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return ErrnoError(errno, "cannot open directory", directory);
  FileCloser dir_closer(dir_fd);
  if (fsync(dir_fd) != 0) {
    return ErrnoError(errno, "cannot fsync directory", directory);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadTokenFile(const std::string& path,
                                          absl::string_view flag) {
  absl::StatusOr<std::string> contents =
      ReadFileContents(path, /*max_bytes=*/64 << 10);
  if (!contents.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(flag, ": ", contents.status().message()));
  }
  const absl::string_view token = absl::StripAsciiWhitespace(*contents);
  if (token.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(flag, ": ", path, " is empty"));
  }
  for (const char c : token) {
    if (!absl::ascii_isgraph(static_cast<unsigned char>(c))) {
      return absl::FailedPreconditionError(absl::StrCat(
          flag, ": ", path,
          " must hold one token of printable ASCII without spaces"));
    }
  }
  return std::string(token);
}

}  // namespace collide::formats
