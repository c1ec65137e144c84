#include "client/load/query_mix.h"

#include <cmath>
#include <numbers>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/lib/query_builders.h"
#include "collide/number_text.h"

namespace collide::client::load {

namespace {

// How big and how far one query moves, drawn per query.
struct Draw {
  Vec2 start;        // inside the bounds
  Vec2 translation;  // length within options.length
  double radius;     // within options.radius
  Rng* rng;
};

v1::Query MakeRay(const Draw& d) { return RayCast(d.start, d.translation); }

v1::Query MakeCircle(const Draw& d) {
  return CircleCast(d.start, d.radius, d.translation);
}

// A convex polygon of 3 to 8 vertices on a circle of the drawn radius:
// vertex i at an angle jittered within its own slice of the turn, so the
// vertices stay in angular order (points on a circle in order always form a
// convex polygon) while the shapes vary.
v1::Query MakePolygon(const Draw& d) {
  const int n = 3 + d.rng->Below(6);
  const double turn = 2 * std::numbers::pi;
  const double rotation = d.rng->Uniform(0, turn);
  std::vector<Vec2> vertices;
  vertices.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double angle =
        rotation + (i + 0.8 * d.rng->Uniform()) * turn / static_cast<double>(n);
    vertices.push_back({d.start.x + d.radius * std::cos(angle),
                        d.start.y + d.radius * std::sin(angle)});
  }
  return PolygonCast(vertices, d.translation);
}

// A capsule centred on the start with the drawn radius and an axis twice as
// long (a standing character seen from the side), turned at random.
v1::Query MakeCapsule(const Draw& d) {
  const double angle = d.rng->Uniform(0, 2 * std::numbers::pi);
  const Vec2 half_axis{d.radius * std::cos(angle), d.radius * std::sin(angle)};
  return CapsuleCast({d.start.x - half_axis.x, d.start.y - half_axis.y},
                     {d.start.x + half_axis.x, d.start.y + half_axis.y},
                     d.radius, d.translation);
}

// A circle claiming to move by the translation: the question a game server
// asks for every player every tick, with the slide it uses to correct a
// blocked claim.
v1::Query MakeMove(const Draw& d) {
  v1::Query query;
  v1::MoveValidationQuery* move = query.mutable_move_validation();
  *move->mutable_circle()->mutable_center() = ToProto(d.start);
  move->mutable_circle()->set_radius(d.radius);
  *move->mutable_translation() = ToProto(d.translation);
  move->set_skin(1e-3 * d.radius);
  move->set_max_slide_iterations(4);
  return query;
}

// A bullet over one tick against kShotTargets players rewound to that tick:
// each a circle of the drawn radius near a random point of the bullet's
// path (within three radii of it), moving up to four radii during the
// tick, so some cross the path before, during or after the bullet passes.
v1::Query MakeShot(const Draw& d) {
  v1::Query query;
  v1::HitValidationQuery* shot = query.mutable_hit_validation();
  *shot->mutable_origin() = ToProto(d.start);
  *shot->mutable_translation() = ToProto(d.translation);
  const double length = std::sqrt(d.translation.x * d.translation.x +
                                  d.translation.y * d.translation.y);
  const Vec2 across =
      length > 0 ? Vec2{-d.translation.y / length, d.translation.x / length}
                 : Vec2{0, 1};
  for (int i = 0; i < kShotTargets; ++i) {
    v1::ShotTarget* target = shot->add_targets();
    target->set_id(static_cast<uint64_t>(i + 1));
    const double along = d.rng->Uniform();
    const double aside = d.rng->Uniform(-3, 3) * d.radius;
    *target->mutable_circle()->mutable_center() =
        ToProto({d.start.x + along * d.translation.x + aside * across.x,
                 d.start.y + along * d.translation.y + aside * across.y});
    target->mutable_circle()->set_radius(d.radius);
    const double heading = d.rng->Uniform(0, 2 * std::numbers::pi);
    const double speed = d.rng->Uniform(0, 4) * d.radius;
    *target->mutable_translation() =
        ToProto({speed * std::cos(heading), speed * std::sin(heading)});
  }
  return query;
}

struct KindSpec {
  QueryKind kind;
  absl::string_view name;
  v1::Query (*make)(const Draw&);
};

// Every kind --mix accepts.
constexpr KindSpec kKinds[] = {
    {QueryKind::kRay, "ray", &MakeRay},
    {QueryKind::kCircle, "circle", &MakeCircle},
    {QueryKind::kPolygon, "polygon", &MakePolygon},
    {QueryKind::kCapsule, "capsule", &MakeCapsule},
    {QueryKind::kMove, "move", &MakeMove},
    {QueryKind::kShot, "shot", &MakeShot},
};

const KindSpec& Spec(QueryKind kind) {
  for (const KindSpec& spec : kKinds) {
    if (spec.kind == kind) return spec;
  }
  return kKinds[0];
}

std::string KnownKinds() {
  std::vector<absl::string_view> names;
  for (const KindSpec& spec : kKinds) names.push_back(spec.name);
  return absl::StrJoin(names, ", ");
}

bool ParseNumber(absl::string_view text, double* value) {
  return absl::SimpleAtod(absl::StripAsciiWhitespace(text), value) &&
         std::isfinite(*value);
}

}  // namespace

absl::string_view QueryKindName(QueryKind kind) { return Spec(kind).name; }

absl::StatusOr<std::vector<KindWeight>> ParseMix(absl::string_view spec) {
  std::vector<KindWeight> kinds;
  double total = 0;
  for (absl::string_view part : absl::StrSplit(spec, ',', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> name_weight =
        absl::StrSplit(part, absl::MaxSplits('=', 1));
    const absl::string_view name =
        absl::StripAsciiWhitespace(name_weight.first);
    const KindSpec* found = nullptr;
    for (const KindSpec& known : kKinds) {
      if (known.name == name) found = &known;
    }
    if (found == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("mix: unknown query kind \"", name,
                       "\" (known: ", KnownKinds(), ")"));
    }
    for (const KindWeight& earlier : kinds) {
      if (earlier.kind == found->kind) {
        return absl::InvalidArgumentError(
            absl::StrCat("mix: \"", name, "\" appears twice"));
      }
    }
    double weight = 1;
    if (absl::StrContains(part, '=')) {
      if (!ParseNumber(name_weight.second, &weight) || weight < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("mix: the weight of \"", name,
                         "\" must be a finite number >= 0, not \"",
                         name_weight.second, "\""));
      }
    }
    total += weight;
    kinds.push_back({found->kind, weight});
  }
  if (kinds.empty() || !(total > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat("mix \"", spec,
                     "\" must give some kind a weight > 0, e.g. "
                     "\"ray=6,circle=3,polygon=1\" (known: ",
                     KnownKinds(), ")"));
  }
  return kinds;
}

absl::StatusOr<Range> ParseRange(absl::string_view spec,
                                 absl::string_view what) {
  std::pair<absl::string_view, absl::string_view> ends =
      absl::StrSplit(spec, absl::MaxSplits(':', 1));
  Range range;
  const bool single = !absl::StrContains(spec, ':');
  if (!ParseNumber(ends.first, &range.min) ||
      !ParseNumber(single ? ends.first : ends.second, &range.max) ||
      range.min < 0 || range.min > range.max) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " \"", spec,
        "\" must be MIN:MAX (or one number) with 0 <= MIN <= MAX"));
  }
  return range;
}

absl::StatusOr<QueryMix> QueryMix::Create(QueryMixOptions options) {
  const Aabb& b = options.bounds;
  if (!std::isfinite(b.lower.x) || !std::isfinite(b.lower.y) ||
      !std::isfinite(b.upper.x) || !std::isfinite(b.upper.y) ||
      b.lower.x > b.upper.x || b.lower.y > b.upper.y) {
    return absl::InvalidArgumentError(
        absl::StrCat("bounds must be finite with lower <= upper, not (",
                     NumberText(b.lower.x), ", ", NumberText(b.lower.y), ")-(",
                     NumberText(b.upper.x), ", ", NumberText(b.upper.y), ")"));
  }
  double total = 0;
  for (const KindWeight& kind : options.kinds) {
    if (!(kind.weight >= 0) || !std::isfinite(kind.weight)) {
      return absl::InvalidArgumentError("mix: weights must be finite and >= 0");
    }
    total += kind.weight;
  }
  if (!(total > 0)) {
    return absl::InvalidArgumentError("mix must give some kind a weight > 0");
  }
  for (const auto& [range, name] :
       {std::pair{options.length, "length"}, {options.radius, "radius"}}) {
    if (!(range.min >= 0) || !(range.min <= range.max) ||
        !std::isfinite(range.max)) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " must be a range with 0 <= min <= max"));
    }
  }
  return QueryMix(std::move(options));
}

QueryMix::QueryMix(QueryMixOptions options) : options_(std::move(options)) {
  double total = 0;
  for (const KindWeight& kind : options_.kinds) total += kind.weight;
  double running = 0;
  for (const KindWeight& kind : options_.kinds) {
    running += kind.weight;
    cumulative_.push_back(running / total);
  }
  cumulative_.back() = 1.0;
}

QueryKind QueryMix::KindFor(double u) const {
  for (size_t i = 0; i < cumulative_.size(); ++i) {
    // A kind of weight 0 has an empty interval and is never drawn.
    if (u < cumulative_[i] && options_.kinds[i].weight > 0) {
      return options_.kinds[i].kind;
    }
  }
  for (size_t i = options_.kinds.size(); i-- > 0;) {
    if (options_.kinds[i].weight > 0) return options_.kinds[i].kind;
  }
  return options_.kinds.back().kind;
}

v1::Query QueryMix::Next(Rng& rng) const {
  const QueryKind kind = KindFor(rng.Uniform());
  const Aabb& b = options_.bounds;
  Draw draw;
  draw.rng = &rng;
  draw.start = {rng.Uniform(b.lower.x, b.upper.x),
                rng.Uniform(b.lower.y, b.upper.y)};
  const double angle = rng.Uniform(0, 2 * std::numbers::pi);
  const double length = rng.Uniform(options_.length.min, options_.length.max);
  draw.translation = {length * std::cos(angle), length * std::sin(angle)};
  draw.radius = rng.Uniform(options_.radius.min, options_.radius.max);
  return Spec(kind).make(draw);
}

v1::StreamQueriesRequest QueryMix::NextBatch(int size, Rng& rng) const {
  v1::StreamQueriesRequest batch;
  batch.mutable_queries()->Reserve(size);
  for (int i = 0; i < size; ++i) {
    v1::Query* query = batch.add_queries();
    *query = Next(rng);
    query->set_request_id(static_cast<uint64_t>(i) + 1);
  }
  return batch;
}

std::string QueryMix::Describe() const {
  std::vector<std::string> parts;
  for (const KindWeight& kind : options_.kinds) {
    parts.push_back(absl::StrCat(QueryKindName(kind.kind), "=", kind.weight));
  }
  return absl::StrJoin(parts, ",");
}

}  // namespace collide::client::load
