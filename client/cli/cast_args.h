// The shapes and motions collide-cli takes on its command line, parsed into
// v1::Query messages: "x,y" points, "x,y x,y ..." point lists, and the
// options every cast shares. Errors are INVALID_ARGUMENT naming the flag
// ("--from: \"1,x\" is not a point x,y"), so a typo never becomes a query.
#ifndef COLLIDE_CLIENT_CLI_CAST_ARGS_H_
#define COLLIDE_CLIENT_CLI_CAST_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"

namespace collide::client::cli {

// "x,y" (spaces allowed around the numbers); `flag` names it in errors.
absl::StatusOr<Vec2> ParsePoint(absl::string_view text, absl::string_view flag);
// "x,y x,y ..." or "x,y;x,y;..." (at least one point).
absl::StatusOr<std::vector<Vec2>> ParsePoints(absl::string_view text,
                                              absl::string_view flag);

// What a `cast` or `overlap` / `closest` command line said, as flags.
// Every member has a default initializer, so designated initializers may
// leave any out.
struct CastArgs {
  std::string kind = {};  // ray | circle | polygon | capsule
  std::string from = {};  // ray origin, circle center ("x,y")
  std::string to = {};    // where `from` ends up ("x,y"); or use `by`
  std::string by = {};    // the translation ("dx,dy")
  // Circle and capsule radius: required for them (no default radius).
  std::optional<double> radius = {};
  std::string points = {};  // polygon vertices; capsule axis ("x,y x,y")
  bool all = false;         // every hit, not only the first
  std::optional<double> max_fraction = {};
  double skin = 0;  // target_distance
  bool stop_at_penetration = false;
  std::optional<uint64_t> mask = {};
  // The query's own categories and group (QueryFilter.category_bits and
  // group, the two-way half of the filter); absent / 0: the defaults.
  std::optional<uint64_t> category = {};
  int32_t group = 0;
  std::string ignore = {};  // "3,7" shape ids to ignore
  // Radians the shape turns over the step (circle, polygon, capsule; not a
  // ray), about `pivot` ("x,y"; empty: the server's default, the shape's
  // centroid). A pivot without an angle is refused.
  std::optional<double> angle = {};
  std::string pivot = {};
};

// The filter of every query kind: mask, category, group and ignore.
absl::StatusOr<v1::QueryFilter> MakeFilter(const CastArgs& args);

// The cast query the arguments describe (request_id 0). The translation is
// `by`, or `to` - start (for a polygon or capsule, `to` is where the first
// point goes). Exactly one of to / by must be given. What a shape needs is
// required (INVALID_ARGUMENT naming the flag when missing): a ray and a
// circle --from, circles and capsules --radius, polygons and capsules
// --points; a ray refuses --radius.
absl::StatusOr<v1::Query> MakeCastQuery(const CastArgs& args);

// An overlap query for a circle (from, radius), a polygon (points) or a
// capsule (points, radius) at rest; kind as in CastArgs, not "ray".
absl::StatusOr<v1::Query> MakeOverlapQuery(const CastArgs& args);

// A move validation: the mover (circle at from / capsule axis
// points / polygon points, radius) claims `to` or `by`; skin from args.skin;
// slide_iterations 0 means no collide-and-slide.
absl::StatusOr<v1::Query> MakeMoveQuery(const CastArgs& args,
                                        int slide_iterations);

// A closest-point query at `from`; max_distance < 0 means no limit.
absl::StatusOr<v1::Query> MakeClosestPointQuery(const CastArgs& args,
                                                double max_distance);

}  // namespace collide::client::cli

#endif  // COLLIDE_CLIENT_CLI_CAST_ARGS_H_
