// QueryMix: the queries a load test sends, drawn at random (from a seed, so
// a run can be repeated) inside a level's bounds: which kinds and how often
// ("ray=6,circle=3,polygon=1"), how far they move and how big they are.
//
// Every query starts inside the bounds: a ray's origin, a circle's or
// polygon's centre, a capsule's midpoint. Its translation points in a
// uniformly random direction with a length uniform in [min_length,
// max_length], so its end may leave the bounds (a bullet flying out of the
// arena), as real traffic does.
#ifndef COLLIDE_CLIENT_LOAD_QUERY_MIX_H_
#define COLLIDE_CLIENT_LOAD_QUERY_MIX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "collide/v1/collision_service.pb.h"
#include "collide/vec2.h"
#include "tests/support/splitmix64.h"

namespace collide::client::load {

// The deterministic generator (splitmix64, the same on every machine; std::
// distributions are implementation-defined).
using Rng = collide::testing::SplitMix64;

// The kinds of query a mix can hold: casts, and the validation queries of
// authoritative game servers: "move", a circle claiming a move
// with collide-and-slide (skin 1e-3 of its radius, up to 4 casts), and
// "shot", a ray against kShotTargets circle hitboxes that move across its
// path during the tick. Adding a kind: an enumerator here and a row in
// query_mix.cc's kKinds table with its --mix name and the function that
// draws one.
enum class QueryKind {
  kRay,
  kCircle,
  kPolygon,
  kCapsule,
  kMove,
  kShot,
};

// Targets of each "shot" query.
inline constexpr int kShotTargets = 4;

// The name --mix uses for `kind` ("ray", "circle", "polygon", "capsule",
// "move", "shot").
absl::string_view QueryKindName(QueryKind kind);

struct KindWeight {
  QueryKind kind = QueryKind::kRay;
  double weight = 1;
};

// Parses "ray=6,circle=3,polygon=1" (a kind alone weighs 1). Weights are
// finite and >= 0, at least one > 0, each kind at most once.
// INVALID_ARGUMENT naming "mix" and the bad part otherwise.
absl::StatusOr<std::vector<KindWeight>> ParseMix(absl::string_view spec);

// A closed range [min, max] of non-negative numbers.
struct Range {
  double min = 0;
  double max = 0;
};

// Parses "MIN:MAX" or a single number (both ends). INVALID_ARGUMENT naming
// `what` when malformed, negative, not finite or MIN > MAX.
absl::StatusOr<Range> ParseRange(absl::string_view spec,
                                 absl::string_view what);

struct QueryMixOptions {
  std::vector<KindWeight> kinds = {
      {QueryKind::kRay, 6}, {QueryKind::kCircle, 3}, {QueryKind::kPolygon, 1}};
  // Where queries start (level units), e.g. LevelSummary.bounds.
  Aabb bounds;
  // Length of every translation (level units).
  Range length = {1, 20};
  // Circle and capsule radius; a polygon's circumradius (level units).
  Range radius = {0.25, 1};
};

class QueryMix {
 public:
  // Checks the options: INVALID_ARGUMENT naming the field ("bounds" when not
  // finite or lower > upper, "mix" when no kind has weight).
  static absl::StatusOr<QueryMix> Create(QueryMixOptions options);

  // One query drawn with `rng` (request_id left 0).
  v1::Query Next(Rng& rng) const;
  // A batch of `size` queries with request ids 1..size.
  v1::StreamQueriesRequest NextBatch(int size, Rng& rng) const;

  // The kind Next would draw for a uniform number u in [0, 1): kinds in
  // order, each taking its share of the total weight.
  QueryKind KindFor(double u) const;

  const QueryMixOptions& options() const { return options_; }
  // "ray=6,circle=3,polygon=1", for reports.
  std::string Describe() const;

 private:
  explicit QueryMix(QueryMixOptions options);

  QueryMixOptions options_;
  // Running sums of the weights, normalised to end at 1.
  std::vector<double> cumulative_;
};

}  // namespace collide::client::load

#endif  // COLLIDE_CLIENT_LOAD_QUERY_MIX_H_
