// A response message as the bytes of one gRPC message, serialized once.
//
// gRPC's own SerializationTraits (1.51) sizes a message, then, for anything
// over a few bytes, serializes it through a ZeroCopyOutputStream that sizes
// it a second time. A packed batch's varint result columns make sizing a
// real cost (about a third of the instructions serializing a 256-ray
// batch's response), so the reactors size once and write straight into one
// slice of exactly that size. The bytes are the same either way.
#ifndef COLLIDE_SERVER_RPC_MESSAGE_BYTES_H_
#define COLLIDE_SERVER_RPC_MESSAGE_BYTES_H_

#include "absl/status/status.h"
#include "google/protobuf/message_lite.h"
#include "grpcpp/support/byte_buffer.h"

namespace collide::server {

// Replaces `*out` with `message`'s binary form in one slice. INTERNAL (and
// `*out` empty) only for a message over 2 GiB, which protobuf cannot
// serialize.
absl::Status SerializeToByteBuffer(const google::protobuf::MessageLite& message,
                                   grpc::ByteBuffer* out);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_MESSAGE_BYTES_H_
