// Messages as the bytes of one gRPC message, without gRPC's
// SerializationTraits.
//
// A response is serialized once:
// gRPC's own SerializationTraits (1.51) sizes a message, then, for anything
// over a few bytes, serializes it through a ZeroCopyOutputStream that sizes
// it a second time. A packed batch's varint result columns make sizing a
// real cost (about a third of the instructions serializing a 256-ray
// batch's response), so the reactors size once and write straight into one
// slice of exactly that size. The bytes are the same either way.
#ifndef COLLIDE_SERVER_RPC_MESSAGE_BYTES_H_
#define COLLIDE_SERVER_RPC_MESSAGE_BYTES_H_

#include <string>

#include "absl/status/status.h"
#include "google/protobuf/message_lite.h"
#include "grpcpp/support/byte_buffer.h"

namespace collide::server {

// Replaces `*out` with `message`'s binary form in one slice. INTERNAL (and
// `*out` empty) only for a message over 2 GiB, which protobuf cannot
// serialize.
absl::Status SerializeToByteBuffer(const google::protobuf::MessageLite& message,
                                   grpc::ByteBuffer* out);

// Reads top-level field `field` (a string) of the message in `bytes` as
// parsing would (the last occurrence wins; absent: empty) and skips every
// other top-level field unparsed, so the cost grows with the top-level
// fields (a batch's queries, each one skip), not with what they hold.
// False when the top level is not well-formed wire format; the message
// would not parse either.
bool ReadTopLevelString(const grpc::ByteBuffer& bytes, int field,
                        std::string* value);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_MESSAGE_BYTES_H_
