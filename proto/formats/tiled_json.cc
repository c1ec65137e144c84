#include "proto/formats/tiled_json.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace collide::formats::tiled {
namespace {

// Accepts every event (a base for the two readers below).
class IgnoringSax : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    ++depth_;
    return true;
  }
  bool key(string_t&) override { return true; }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception&) override {
    return false;
  }

 protected:
  int depth_ = 0;
};

// Stops at the first top-level key that only Tiled writes.
class TiledKeySniffer : public IgnoringSax {
 public:
  bool key(string_t& key) override {
    if (depth_ == 1 && (key == "tiledversion" || key == "orientation")) {
      found_ = true;
      return false;
    }
    return true;
  }
  bool found() const { return found_; }

 private:
  bool found_ = false;
};

// Keeps the parser's message ("parse error at line 3, column 7: ...").
class ParseErrorReader : public IgnoringSax {
 public:
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    message_ = error.what();
    return false;
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// The value of custom property `name`, or nullptr.
absl::StatusOr<const Json*> FindProperty(const Json& owner,
                                         absl::string_view name,
                                         const Where& where) {
  const auto properties = owner.find("properties");
  if (properties == owner.end()) return nullptr;
  if (properties->is_object()) {  // {"name": value}, Tiled before 1.2
    for (auto it = properties->begin(); it != properties->end(); ++it) {
      if (it.key() == name) return &it.value();
    }
    return nullptr;
  }
  if (!properties->is_array()) {
    return Invalid(where,
                   absl::StrCat("field \"properties\" must be an array, got ",
                                JsonTypeName(*properties)));
  }
  for (const Json& property : *properties) {
    if (!property.is_object()) continue;
    const auto property_name = property.find("name");
    if (property_name == property.end() || !property_name->is_string() ||
        property_name->get_ref<const std::string&>() != name) {
      continue;
    }
    const auto value = property.find("value");
    if (value == property.end()) {
      return Invalid(where,
                     absl::StrCat("property \"", name, "\" has no \"value\""));
    }
    return &*value;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<Json> ParseJson(absl::string_view text, absl::string_view what) {
  Json json = Json::parse(text.begin(), text.end(), nullptr,
                          /*allow_exceptions=*/false);
  if (!json.is_discarded()) return json;
  ParseErrorReader reader;
  Json::sax_parse(text.begin(), text.end(), &reader);
  return absl::InvalidArgumentError(absl::StrCat(
      what, " is not valid JSON: ",
      reader.message().empty() ? "parse error" : reader.message()));
}

bool HasTiledTopLevelKey(absl::string_view text) {
  TiledKeySniffer sniffer;
  Json::sax_parse(text.begin(), text.end(), &sniffer);
  return sniffer.found();
}

std::string Where::ToString() const {
  if (whole_map) return "map";
  std::string text = absl::StrCat("layer \"", layer, "\"");
  if (has_cell) absl::StrAppend(&text, " cell (", cell_x, ", ", cell_y, ")");
  if (object_id >= 0) absl::StrAppend(&text, " object ", object_id);
  if (gid != 0) absl::StrAppend(&text, " tile gid ", gid);
  if (tile_id >= 0) {
    absl::StrAppend(&text, " (tileset \"", tileset, "\" tile ", tile_id, ")");
  }
  if (collision_index >= 0) {
    absl::StrAppend(&text, " collision object ", collision_index);
  }
  return text;
}

Where InLayer(absl::string_view path) {
  Where where;
  where.layer = std::string(path);
  return where;
}

absl::Status Invalid(const Where& where, absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(where.ToString(), ": ", message));
}

std::string JsonTypeName(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::boolean:
      return "a bool";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::binary:
      return "binary data";
    case Json::value_t::discarded:
      break;
  }
  return "nothing";
}

absl::StatusOr<double> NumberField(const Json& owner, const char* field,
                                   const Where& where,
                                   std::optional<double> fallback) {
  const auto it = owner.find(field);
  if (it == owner.end()) {
    if (fallback.has_value()) return *fallback;
    return Invalid(where, absl::StrCat("field \"", field, "\" is missing"));
  }
  if (!it->is_number()) {
    return Invalid(where,
                   absl::StrCat("field \"", field, "\" must be a number, got ",
                                JsonTypeName(*it)));
  }
  return it->get<double>();
}

absl::StatusOr<int64_t> IntegerField(const Json& owner, const char* field,
                                     const Where& where,
                                     std::optional<int64_t> fallback) {
  const auto it = owner.find(field);
  if (it == owner.end()) {
    if (fallback.has_value()) return *fallback;
    return Invalid(where, absl::StrCat("field \"", field, "\" is missing"));
  }
  if (it->is_number_integer() && !it->is_number_unsigned()) {
    return it->get<int64_t>();
  }
  if (it->is_number_unsigned() &&
      it->get<uint64_t>() <=
          static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return static_cast<int64_t>(it->get<uint64_t>());
  }
  if (it->is_number_float()) {
    const double value = it->get<double>();
    // 2^63 is exact in a double; anything below it converts without UB.
    if (value == std::floor(value) && std::abs(value) < 0x1p63) {
      return static_cast<int64_t>(value);
    }
  }
  return Invalid(where,
                 absl::StrCat("field \"", field, "\" must be an integer, got ",
                              it->is_number() ? absl::StrCat(it->dump())
                                              : JsonTypeName(*it)));
}

absl::StatusOr<bool> BoolField(const Json& owner, const char* field,
                               const Where& where, bool fallback) {
  const auto it = owner.find(field);
  if (it == owner.end()) return fallback;
  if (!it->is_boolean()) {
    return Invalid(where,
                   absl::StrCat("field \"", field, "\" must be a bool, got ",
                                JsonTypeName(*it)));
  }
  return it->get<bool>();
}

absl::StatusOr<std::string> StringField(const Json& owner, const char* field,
                                        const Where& where,
                                        absl::string_view fallback) {
  const auto it = owner.find(field);
  if (it == owner.end()) return std::string(fallback);
  if (!it->is_string()) {
    return Invalid(where,
                   absl::StrCat("field \"", field, "\" must be a string, got ",
                                JsonTypeName(*it)));
  }
  return it->get<std::string>();
}

absl::StatusOr<std::optional<bool>> BoolProperty(const Json& owner,
                                                 absl::string_view name,
                                                 const Where& where) {
  absl::StatusOr<const Json*> value = FindProperty(owner, name, where);
  if (!value.ok()) return value.status();
  if (*value == nullptr) return std::nullopt;
  if (!(*value)->is_boolean()) {
    return Invalid(where,
                   absl::StrCat("property \"", name, "\" must be a bool, got ",
                                JsonTypeName(**value)));
  }
  return (*value)->get<bool>();
}

absl::StatusOr<std::optional<uint64_t>> Uint64Property(const Json& owner,
                                                       absl::string_view name,
                                                       const Where& where) {
  absl::StatusOr<const Json*> found = FindProperty(owner, name, where);
  if (!found.ok()) return found.status();
  if (*found == nullptr) return std::nullopt;
  const Json& value = **found;
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() >= 0) {
    return static_cast<uint64_t>(value.get<int64_t>());
  }
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (number >= 0.0 && number == std::floor(number) && number < 0x1p64) {
      return static_cast<uint64_t>(number);
    }
  }
  uint64_t parsed = 0;
  if (value.is_string() &&
      absl::SimpleAtoi(value.get_ref<const std::string&>(), &parsed)) {
    return parsed;
  }
  return Invalid(where, absl::StrCat("property \"", name,
                                     "\" must be a non-negative integer (or "
                                     "a string of decimal digits), got ",
                                     value.dump()));
}

absl::StatusOr<std::optional<int32_t>> Int32Property(const Json& owner,
                                                     absl::string_view name,
                                                     const Where& where) {
  absl::StatusOr<const Json*> found = FindProperty(owner, name, where);
  if (!found.ok()) return found.status();
  if (*found == nullptr) return std::nullopt;
  const Json& value = **found;
  if (value.is_number_integer() && !value.is_number_unsigned()) {
    const int64_t number = value.get<int64_t>();
    if (number >= INT32_MIN && number <= INT32_MAX) {
      return static_cast<int32_t>(number);
    }
  }
  if (value.is_number_unsigned() && value.get<uint64_t>() <= INT32_MAX) {
    return static_cast<int32_t>(value.get<uint64_t>());
  }
  return Invalid(where, absl::StrCat("property \"", name,
                                     "\" must be an integer in [-2147483648, "
                                     "2147483647], got ",
                                     value.dump()));
}

}  // namespace collide::formats::tiled
