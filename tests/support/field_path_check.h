// Checks that a refusal tells the truth about the request it refuses: the
// field path a message starts with ("queries[1].circle_cast.circle.radius
// must be >= 0", "upserts[2].polygon: ...") and every indexed path in it
// ("... repeats upserts[0].id") name fields that exist in the request, with
// indices inside their lists, and the message repeats no word (as in
// `level level id`). Resolved against the request's protobuf descriptor and
// contents, so a path spelt for another message ("upserts: shapes[2]") fails.
#ifndef COLLIDE_TESTS_SUPPORT_FIELD_PATH_CHECK_H_
#define COLLIDE_TESTS_SUPPORT_FIELD_PATH_CHECK_H_

#include <cctype>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace collide::testing {

// The field path `message` starts with: a run of snake_case names, each
// with an optional [index], joined by dots; empty when the message starts
// with anything else.
inline std::string LeadingFieldPath(absl::string_view message) {
  size_t end = 0;
  bool expect_name = true;
  while (end < message.size()) {
    const char c = message[end];
    if (expect_name) {
      if (!(std::islower(static_cast<unsigned char>(c)) || c == '_')) break;
      while (end < message.size() &&
             (std::islower(static_cast<unsigned char>(message[end])) ||
              std::isdigit(static_cast<unsigned char>(message[end])) ||
              message[end] == '_')) {
        ++end;
      }
      expect_name = false;
    } else if (c == '[') {
      const size_t close = message.find(']', end);
      if (close == absl::string_view::npos) break;
      end = close + 1;
    } else if (c == '.' && end + 1 < message.size() &&
               (std::islower(static_cast<unsigned char>(message[end + 1])) ||
                message[end + 1] == '_')) {
      ++end;
      expect_name = true;
    } else {
      break;
    }
  }
  return std::string(message.substr(0, end));
}

// "" when `path` names a field of `request` (indices within the lists
// `request` holds), else what is wrong.
inline std::string FieldPathProblem(const google::protobuf::Message& request,
                                    absl::string_view path) {
  const google::protobuf::Message* at = &request;
  absl::string_view rest = path;
  while (!rest.empty()) {
    const size_t stop = rest.find_first_of(".[");
    const absl::string_view name = rest.substr(0, stop);
    rest = stop == absl::string_view::npos ? "" : rest.substr(stop);
    if (at == nullptr) {
      return absl::StrCat("\"", path, "\": \"", name,
                          "\" follows a field that is not a message");
    }
    const google::protobuf::Descriptor* type = at->GetDescriptor();
    const google::protobuf::FieldDescriptor* field =
        type->FindFieldByName(std::string(name));
    if (field == nullptr) {
      return absl::StrCat("\"", path, "\": ", type->full_name(),
                          " has no field \"", name, "\"");
    }
    const google::protobuf::Reflection* reflection = at->GetReflection();
    const bool is_message =
        field->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE;
    if (!rest.empty() && rest[0] == '[') {
      const size_t close = rest.find(']');
      int index = -1;
      if (!field->is_repeated() ||
          !absl::SimpleAtoi(rest.substr(1, close - 1), &index)) {
        return absl::StrCat("\"", path, "\": \"", name,
                            "\" is not a list indexed by a number");
      }
      const int size = reflection->FieldSize(*at, field);
      if (index < 0 || index >= size) {
        return absl::StrCat("\"", path, "\": index ", index, " of \"", name,
                            "\", which holds ", size);
      }
      at = is_message ? &reflection->GetRepeatedMessage(*at, field, index)
                      : nullptr;
      rest = rest.substr(close + 1);
    } else if (field->is_repeated()) {
      at = nullptr;  // a list named whole ("queries holds 9 queries")
    } else {
      at = is_message ? &reflection->GetMessage(*at, field) : nullptr;
    }
    if (!rest.empty() && rest[0] == '.') rest.remove_prefix(1);
  }
  return "";
}

// "" when `message`, a refusal of `request`, starts with a path that names
// a field of `request`, every other indexed path in it ("upserts[0].id")
// does too, and it repeats no word; else what is wrong.
inline std::string RefusalProblem(const google::protobuf::Message& request,
                                  absl::string_view message) {
  const std::string leading = LeadingFieldPath(message);
  if (leading.empty()) {
    return absl::StrCat("\"", message, "\" does not start with a field path");
  }
  std::string problem = FieldPathProblem(request, leading);
  if (!problem.empty()) return absl::StrCat(problem, " in \"", message, "\"");
  // Later paths: words holding an index, after a space or a quote.
  for (size_t at = message.find('['); at != absl::string_view::npos;
       at = message.find('[', at + 1)) {
    size_t start = at;
    while (start > 0 && message[start - 1] != ' ' &&
           message[start - 1] != '"' && message[start - 1] != '(') {
      --start;
    }
    if (start < leading.size()) continue;
    const std::string path = LeadingFieldPath(message.substr(start));
    if (path.empty() || path.find('[') == std::string::npos) continue;
    problem = FieldPathProblem(request, path);
    if (!problem.empty()) return absl::StrCat(problem, " in \"", message, "\"");
  }
  // A repeated word (`level level id`). Punctuation and digits are tokens of
  // their own, so only words apart by spaces alone count.
  std::vector<std::string> words;
  std::string word;
  for (const char c : std::string(message) + " ") {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += static_cast<char>(absl::ascii_tolower(c));
      continue;
    }
    if (!word.empty()) {
      if (!words.empty() && words.back() == word) {
        return absl::StrCat("\"", message, "\" repeats \"", word, "\"");
      }
      words.push_back(word);
      word.clear();
    }
    if (c != ' ') words.push_back(std::string(1, c));
  }
  return "";
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_FIELD_PATH_CHECK_H_
