#include "server/rpc/message_bytes.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/message_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/proto_buffer_reader.h"
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

bool ReadTopLevelString(const grpc::ByteBuffer& bytes, int field,
                        std::string* value) {
  using google::protobuf::internal::WireFormatLite;
  value->clear();
  // The reader wants a mutable buffer; a copy shares the slices.
  grpc::ByteBuffer copy(bytes);
  grpc::ProtoBufferReader reader(&copy);
  google::protobuf::io::CodedInputStream input(&reader);
  // Each pass consumes at least a tag's byte, so the message's length
  // bounds the loop.
  while (true) {
    const uint32_t tag = input.ReadTag();
    if (tag == 0) return input.ConsumedEntireMessage();
    if (WireFormatLite::GetTagFieldNumber(tag) == field &&
        WireFormatLite::GetTagWireType(tag) ==
            WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t length = 0;
      if (!input.ReadVarint32(&length) ||
          !input.ReadString(value, static_cast<int>(length))) {
        return false;
      }
    } else if (!WireFormatLite::SkipField(&input, tag)) {
      return false;
    }
  }
}

}  // namespace collide::server
