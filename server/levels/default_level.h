// The level the server serves when started with no arguments, so a fresh
// checkout can be queried at once (README's demo, the sample workload).
#ifndef COLLIDE_SERVER_LEVELS_DEFAULT_LEVEL_H_
#define COLLIDE_SERVER_LEVELS_DEFAULT_LEVEL_H_

#include "absl/strings/string_view.h"
#include "collide/v1/geometry.pb.h"

namespace collide::server {

// The default level's id ("levels/arena").
inline constexpr absl::string_view kDefaultLevelId = "arena";

// "arena": a 40 x 40 room centred on the origin (x and y in [-20, 20]),
// enclosed by four wall boxes 1 unit thick (ids 1-4, inner faces at +-19),
// with pillars (circles, ids 10-13), crates (boxes, one rotated, ids
// 20-22), an L-shaped concave block (id 30), a low fence (polyline, id 40),
// a barrier capsule (id 50) and a thin glass pane (segment, id 60, category
// 2 so bullets can be filtered through it). user_data is id * 100.
v1::Level DefaultLevel();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LEVELS_DEFAULT_LEVEL_H_
