#include "server/rpc/message_bytes.h"

#include <cstddef>
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "google/protobuf/message_lite.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/slice.h"

namespace collide::server {

absl::Status SerializeToByteBuffer(const google::protobuf::MessageLite& message,
                                   grpc::ByteBuffer* out) {
  out->Clear();
  // Sizing also caches each packed column's length, which the write below
  // uses instead of sizing again.
  const size_t size = message.ByteSizeLong();
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return absl::InternalError(
        "a response message over 2 GiB cannot be serialized");
  }
  grpc::Slice slice(size);
  message.SerializeWithCachedSizesToArray(const_cast<uint8_t*>(slice.begin()));
  grpc::ByteBuffer bytes(&slice, 1);
  out->Swap(&bytes);
  return absl::OkStatus();
}

}  // namespace collide::server
