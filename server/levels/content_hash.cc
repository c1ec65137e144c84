#include "server/levels/content_hash.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <memory>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message.h"

namespace collide::server {
namespace {

constexpr absl::string_view kDomain = "collide.level.v1";

// The deterministic serialization (unknown fields included, as received).
std::string DeterministicBytes(const google::protobuf::Message& message) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&coded);
  coded.Trim();
  return bytes;
}

// SHA-256 of `bytes` into `out` (32 bytes). A level hashes each of its
// shapes, so the digest and a context per thread are set up once:
// OpenSSL 3's one-shot SHA256() looks the algorithm up on every call, which
// costs more than hashing a shape.
void Sha256(absl::string_view bytes, unsigned char* out) {
  static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>
      context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  EVP_DigestInit_ex(context.get(), sha256, nullptr);
  EVP_DigestUpdate(context.get(), bytes.data(), bytes.size());
  EVP_DigestFinal_ex(context.get(), out, nullptr);
}

}  // namespace

ShapeHashSum ShapeHash(const v1::Shape& shape) {
  ShapeHashSum hash;
  Sha256(DeterministicBytes(shape), hash.data());
  return hash;
}

void AddShapeHash(ShapeHashSum& sum, const ShapeHashSum& term) {
  unsigned carry = 0;
  for (int i = 31; i >= 0; --i) {
    const unsigned v = unsigned{sum[i]} + term[i] + carry;
    sum[i] = static_cast<uint8_t>(v);
    carry = v >> 8;
  }
}

void SubtractShapeHash(ShapeHashSum& sum, const ShapeHashSum& term) {
  int borrow = 0;
  for (int i = 31; i >= 0; --i) {
    const int v = int{sum[i]} - term[i] - borrow;
    sum[i] = static_cast<uint8_t>(v & 0xff);
    borrow = v < 0 ? 1 : 0;
  }
}

ShapeHashSum SumOfShapes(const v1::Level& level) {
  ShapeHashSum sum{};
  for (const v1::Shape& shape : level.shapes()) {
    AddShapeHash(sum, ShapeHash(shape));
  }
  return sum;
}

std::string ContentHash(const v1::Level& level, const ShapeHashSum& shape_sum) {
  v1::Level header;
  header.set_cell_size(level.cell_size());
  header.set_y_axis(level.y_axis());
  std::string bytes(kDomain);
  bytes += DeterministicBytes(header);
  bytes.append(reinterpret_cast<const char*>(shape_sum.data()),
               shape_sum.size());
  unsigned char digest[SHA256_DIGEST_LENGTH];
  Sha256(bytes, digest);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), sizeof(digest)));
}

std::string ContentHash(const v1::Level& level) {
  return ContentHash(level, SumOfShapes(level));
}

}  // namespace collide::server
