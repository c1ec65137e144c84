// The content hash of a level (LevelSummary.content_hash): the identity of
// its content, the same on every server and across restarts, computed
// whole for a put and updated per changed shape for a patch.
//
// Definition (LevelSummary.content_hash states it for clients):
//   shape_hash(s) = SHA-256(deterministic protobuf serialization of Shape s)
//   shape_sum     = sum of shape_hash(s) over the level's shapes, each read
//                   as a 256-bit big-endian integer, modulo 2^256
//   content_hash  = lowercase hex SHA-256("collide.level.v1" ||
//                   deterministic serialization of the Level with id and
//                   shapes cleared (cell_size, y_axis) || shape_sum as 32
//                   big-endian bytes)
// Fields unknown to the server are part of the serialization as received
// (after the known ones), so servers of different schema versions may hash
// a level carrying a new field differently. A sum (not a hash of the shapes in
// order) makes the hash independent of shape order and lets a patch update it
// in time proportional to its shapes. Its limit: an additive multiset hash is
// an identity for trusted content, not a commitment against an adversary who
// may search for colliding shape sets (generalized birthday attacks on
// modular sums need far less than 2^128 work).
#ifndef COLLIDE_SERVER_LEVELS_CONTENT_HASH_H_
#define COLLIDE_SERVER_LEVELS_CONTENT_HASH_H_

#include <array>
#include <cstdint>
#include <string>

#include "collide/v1/geometry.pb.h"

namespace collide::server {

// A 256-bit big-endian integer: a shape's hash, or a sum of them.
using ShapeHashSum = std::array<uint8_t, 32>;

ShapeHashSum ShapeHash(const v1::Shape& shape);
// sum += term, sum -= term (modulo 2^256).
void AddShapeHash(ShapeHashSum& sum, const ShapeHashSum& term);
void SubtractShapeHash(ShapeHashSum& sum, const ShapeHashSum& term);

// shape_sum over every shape of `level`.
ShapeHashSum SumOfShapes(const v1::Level& level);

// content_hash of a level with `level`'s cell_size and y_axis (its id and
// shapes are not read) and shapes summing to `shape_sum`.
std::string ContentHash(const v1::Level& level, const ShapeHashSum& shape_sum);
// content_hash of `level` as a whole.
std::string ContentHash(const v1::Level& level);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_CONTENT_HASH_H_
