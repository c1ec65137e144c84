#include "server/ops/metrics.h"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace collide::server {
namespace {

// A sample value as the text format wants it: the shortest decimal that
// reads back as the same double (so counters print as integers), or
// +Inf / -Inf / NaN.
void AppendValue(std::string& text, double value) {
  if (std::isnan(value)) {
    text.append("NaN");
  } else if (std::isinf(value)) {
    text.append(value > 0 ? "+Inf" : "-Inf");
  } else {
    char buffer[32];
    const std::to_chars_result end =
        std::to_chars(buffer, buffer + sizeof buffer, value);
    text.append(buffer, end.ptr);
  }
}

void AppendLabels(std::string& text, absl::Span<const Label> labels) {
  if (labels.empty()) return;
  text.push_back('{');
  for (size_t i = 0; i < labels.size(); ++i) {
    if (i > 0) text.push_back(',');
    absl::StrAppend(&text, labels[i].name, "=\"",
                    EscapeLabelValue(labels[i].value), "\"");
  }
  text.push_back('}');
}

}  // namespace

Histogram::Histogram(std::initializer_list<uint64_t> upper_bounds,
                     double divisor)
    : Histogram(absl::MakeConstSpan(upper_bounds.begin(), upper_bounds.size()),
                divisor) {}

Histogram::Histogram(absl::Span<const uint64_t> upper_bounds, double divisor)
    : divisor_(divisor) {
  for (const uint64_t bound : upper_bounds) {
    if (bound_count_ == kMaxBuckets) break;
    bounds_[bound_count_++] = bound;
  }
}

void Histogram::Observe(uint64_t value) {
  size_t i = 0;
  while (i < bound_count_ && value > bounds_[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

std::string EscapeLabelValue(absl::string_view value) {
  std::string escaped;
  escaped.reserve(value.size());
  for (const char c : value) {
    switch (c) {
      case '\\':
        escaped.append("\\\\");
        break;
      case '"':
        escaped.append("\\\"");
        break;
      case '\n':
        escaped.append("\\n");
        break;
      default:
        escaped.push_back(c);
    }
  }
  return escaped;
}

void ExpositionWriter::Family(absl::string_view name, absl::string_view type,
                              absl::string_view help) {
  absl::StrAppend(&text_, "# HELP ", name, " ", help, "\n# TYPE ", name, " ",
                  type, "\n");
}

void ExpositionWriter::Sample(absl::string_view name,
                              std::initializer_list<Label> labels,
                              double value) {
  Sample(name, absl::MakeConstSpan(labels.begin(), labels.size()), value);
}

void ExpositionWriter::Sample(absl::string_view name,
                              absl::Span<const Label> labels, double value) {
  text_.append(name.data(), name.size());
  AppendLabels(text_, labels);
  text_.push_back(' ');
  AppendValue(text_, value);
  text_.push_back('\n');
}

void ExpositionWriter::HistogramSamples(absl::string_view name,
                                        const Histogram& histogram,
                                        std::initializer_list<Label> labels) {
  const std::string bucket_name = absl::StrCat(name, "_bucket");
  std::vector<Label> with_le(labels);
  with_le.push_back({"le", ""});
  std::string le;
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= histogram.bound_count(); ++i) {
    cumulative += histogram.bucket(i);
    le.clear();
    if (i == histogram.bound_count()) {
      le = "+Inf";
    } else {
      AppendValue(
          le, static_cast<double>(histogram.bound(i)) / histogram.divisor());
    }
    with_le.back().value = le;
    Sample(bucket_name, with_le, static_cast<double>(cumulative));
  }
  Sample(absl::StrCat(name, "_sum"), labels,
         static_cast<double>(histogram.sum()) / histogram.divisor());
  Sample(absl::StrCat(name, "_count"), labels, static_cast<double>(cumulative));
}

}  // namespace collide::server
