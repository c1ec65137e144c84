// The turning forms of the queries (a cast or move validation with a
// non-zero turn.angle, a hit validation with a swing): converted by
// proto/formats/turn_convert.h and answered by collide/turning_query.h and
// turning_validate.h, so results are bitwise what those functions give.
// Each returns the error of a bad query (its field paths relative to the
// query) and leaves `result` to the caller then.
#ifndef COLLIDE_SERVER_RPC_TURNING_HANDLER_H_
#define COLLIDE_SERVER_RPC_TURNING_HANDLER_H_

#include "absl/status/status.h"
#include "collide/level.h"
#include "collide/v1/collision_service.pb.h"
#include "proto/formats/input_limits.h"

namespace collide::server {

absl::Status RunTurningCast(const v1::CircleCastQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result);
absl::Status RunTurningCast(const v1::PolygonCastQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result);
absl::Status RunTurningCast(const v1::CapsuleCastQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result);
absl::Status RunTurningMove(const v1::MoveValidationQuery& query,
                            const Level& level,
                            const formats::InputLimits& limits,
                            v1::QueryResult* result);
absl::Status RunSwing(const v1::HitValidationQuery& query, const Level& level,
                      const formats::InputLimits& limits,
                      v1::QueryResult* result);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_RPC_TURNING_HANDLER_H_
