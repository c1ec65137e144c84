#include "server/levels/skipped_level_files.h"

#include <utility>

namespace collide::server {

void SkippedLevelFiles::SetObserver(std::function<void(bool)> observer) {
  absl::MutexLock lock(&mutex_);
  observer_ = std::move(observer);
  if (observer_) observer_(files_.empty());
}

void SkippedLevelFiles::Skip(absl::string_view level_id, absl::string_view path,
                             absl::Status error) {
  absl::MutexLock lock(&mutex_);
  const bool was_empty = files_.empty();
  File& file = files_[std::string(level_id)];
  file = {std::string(level_id), std::string(path), std::move(error)};
  Notify(was_empty);
}

void SkippedLevelFiles::Clear(absl::string_view level_id) {
  absl::MutexLock lock(&mutex_);
  const auto it = files_.find(level_id);
  if (it == files_.end()) return;
  files_.erase(it);
  Notify(/*was_empty=*/false);
}

std::vector<SkippedLevelFiles::File> SkippedLevelFiles::List() const {
  absl::MutexLock lock(&mutex_);
  std::vector<File> files;
  files.reserve(files_.size());
  for (const auto& [id, file] : files_) files.push_back(file);
  return files;
}

bool SkippedLevelFiles::empty() const {
  absl::MutexLock lock(&mutex_);
  return files_.empty();
}

void SkippedLevelFiles::Notify(bool was_empty) {
  if (observer_ && files_.empty() != was_empty) observer_(files_.empty());
}

}  // namespace collide::server
