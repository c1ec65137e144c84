package collide

import collidev1 "github.com/collide-dev/collide/client/go/collidev1"

// A Body is the shape a cast moves, an overlap test places, a move
// validates or a shot target carries: a disc, a capsule or a strictly
// convex polygon. Make one with CircleBody, CapsuleBody or PolygonBody; a
// zero Body sends no shape, which the server refuses naming the field.
type Body struct {
	circle  *collidev1.Circle
	capsule *collidev1.Capsule
	polygon *collidev1.Polygon
}

// CircleBody is a disc of radius around center.
func CircleBody(center *collidev1.Vec2, radius float64) Body {
	return Body{circle: CircleOf(center, radius)}
}

// CapsuleBody is the points within radius of segment p1-p2.
func CapsuleBody(p1, p2 *collidev1.Vec2, radius float64) Body {
	return Body{capsule: CapsuleOf(p1, p2, radius)}
}

// PolygonBody is a strictly convex polygon of 3 to 8 vertices.
func PolygonBody(vertices ...*collidev1.Vec2) Body {
	return Body{polygon: PolygonOf(vertices...)}
}

// A CastOption sets a cast's options (MaxFraction, AllHits,
// TargetDistance, MaxHits) or its filter (MaskBits, CategoryBits, Group,
// IgnoreIDs).
type CastOption interface {
	applyCast(*collidev1.CastOptions)
}

// A FilterOption says which level shapes a query counts. Every query
// builder takes them; casts take them as CastOptions.
type FilterOption interface {
	CastOption
	applyFilter(*collidev1.QueryFilter)
}

type castOption func(*collidev1.CastOptions)

func (o castOption) applyCast(options *collidev1.CastOptions) { o(options) }

type filterOption func(*collidev1.QueryFilter)

func (o filterOption) applyFilter(filter *collidev1.QueryFilter) { o(filter) }

func (o filterOption) applyCast(options *collidev1.CastOptions) {
	if options.Filter == nil {
		options.Filter = &collidev1.QueryFilter{}
	}
	o(options.Filter)
}

// MaxFraction stops a cast at this share of its translation (default 1).
func MaxFraction(fraction float64) CastOption {
	return castOption(func(o *collidev1.CastOptions) { o.MaxFraction = &fraction })
}

// AllHits reports every shape the cast meets, sorted by fraction then shape
// id, instead of the first.
func AllHits() CastOption {
	return castOption(func(o *collidev1.CastOptions) {
		o.Mode = collidev1.CastMode_CAST_MODE_ALL
	})
}

// TargetDistance stops a cast this far short of contact (a skin).
func TargetDistance(distance float64) CastOption {
	return castOption(func(o *collidev1.CastOptions) { o.TargetDistance = distance })
}

// MaxHits caps the hits an AllHits cast reports (0: the server's limit).
func MaxHits(count int32) CastOption {
	return castOption(func(o *collidev1.CastOptions) { o.MaxHits = count })
}

// IgnoreIDs skips the shapes with these ids.
func IgnoreIDs(ids ...uint64) FilterOption {
	return filterOption(func(f *collidev1.QueryFilter) {
		f.IgnoreIds = append(f.IgnoreIds, ids...)
	})
}

func castOptions(options []CastOption) *collidev1.CastOptions {
	result := &collidev1.CastOptions{
		Mode:   collidev1.CastMode_CAST_MODE_CLOSEST,
		Filter: &collidev1.QueryFilter{}}
	for _, option := range options {
		option.applyCast(result)
	}
	return result
}

func queryFilter(options []FilterOption) *collidev1.QueryFilter {
	result := &collidev1.QueryFilter{}
	for _, option := range options {
		option.applyFilter(result)
	}
	return result
}

// Ray is a point moving from origin to origin + translation.
func Ray(origin, translation *collidev1.Vec2,
	options ...CastOption) *collidev1.Query {
	return &collidev1.Query{Query: &collidev1.Query_RayCast{
		RayCast: &collidev1.RayCastQuery{Origin: origin,
			Translation: translation, Options: castOptions(options)}}}
}

// Cast is body moving by translation: a circle, capsule or polygon cast.
func Cast(body Body, translation *collidev1.Vec2,
	options ...CastOption) *collidev1.Query {
	cast := castOptions(options)
	switch {
	case body.capsule != nil:
		return &collidev1.Query{Query: &collidev1.Query_CapsuleCast{
			CapsuleCast: &collidev1.CapsuleCastQuery{Capsule: body.capsule,
				Translation: translation, Options: cast}}}
	case body.polygon != nil:
		return &collidev1.Query{Query: &collidev1.Query_PolygonCast{
			PolygonCast: &collidev1.PolygonCastQuery{Polygon: body.polygon,
				Translation: translation, Options: cast}}}
	}
	return &collidev1.Query{Query: &collidev1.Query_CircleCast{
		CircleCast: &collidev1.CircleCastQuery{Circle: body.circle,
			Translation: translation, Options: cast}}}
}

// Overlap is the shapes body, at rest, touches or overlaps. Set
// GetOverlap().MaxResults on the result to cap them.
func Overlap(body Body, options ...FilterOption) *collidev1.Query {
	query := &collidev1.OverlapQuery{Filter: queryFilter(options)}
	switch {
	case body.circle != nil:
		query.Shape = &collidev1.OverlapQuery_Circle{Circle: body.circle}
	case body.capsule != nil:
		query.Shape = &collidev1.OverlapQuery_Capsule{Capsule: body.capsule}
	case body.polygon != nil:
		query.Shape = &collidev1.OverlapQuery_Polygon{Polygon: body.polygon}
	}
	return &collidev1.Query{Query: &collidev1.Query_Overlap{Overlap: query}}
}

// ClosestPoint is the level point nearest point, at any distance.
func ClosestPoint(point *collidev1.Vec2,
	options ...FilterOption) *collidev1.Query {
	return &collidev1.Query{Query: &collidev1.Query_ClosestPoint{
		ClosestPoint: &collidev1.ClosestPointQuery{Point: point,
			Filter: queryFilter(options)}}}
}

// ClosestPointWithin is ClosestPoint within maxDistance of point.
func ClosestPointWithin(point *collidev1.Vec2, maxDistance float64,
	options ...FilterOption) *collidev1.Query {
	query := ClosestPoint(point, options...)
	query.GetClosestPoint().MaxDistance = &maxDistance
	return query
}

// ValidateMove asks whether body, at its start pose, may go by translation
// in one step. Set GetMoveValidation().Skin and MaxSlideIterations on the
// result for a skin or slides.
func ValidateMove(body Body, translation *collidev1.Vec2,
	options ...FilterOption) *collidev1.Query {
	query := &collidev1.MoveValidationQuery{Translation: translation,
		Filter: queryFilter(options)}
	switch {
	case body.circle != nil:
		query.Mover = &collidev1.MoveValidationQuery_Circle{Circle: body.circle}
	case body.capsule != nil:
		query.Mover = &collidev1.MoveValidationQuery_Capsule{Capsule: body.capsule}
	case body.polygon != nil:
		query.Mover = &collidev1.MoveValidationQuery_Polygon{Polygon: body.polygon}
	}
	return &collidev1.Query{Query: &collidev1.Query_MoveValidation{
		MoveValidation: query}}
}

// Target is a shot's target: its hitbox at the start of the tick and its
// translation over the tick.
func Target(id uint64, hitbox Body,
	translation *collidev1.Vec2) *collidev1.ShotTarget {
	target := &collidev1.ShotTarget{Id: id, Translation: translation}
	switch {
	case hitbox.circle != nil:
		target.Hitbox = &collidev1.ShotTarget_Circle{Circle: hitbox.circle}
	case hitbox.capsule != nil:
		target.Hitbox = &collidev1.ShotTarget_Capsule{Capsule: hitbox.capsule}
	case hitbox.polygon != nil:
		target.Hitbox = &collidev1.ShotTarget_Polygon{Polygon: hitbox.polygon}
	}
	return target
}

// ValidateShot asks what a shot from origin by translation meets first
// among the level and targets moving during the same tick. Set
// GetHitValidation().Radius on the result for a disc-shaped shot.
func ValidateShot(origin, translation *collidev1.Vec2,
	targets []*collidev1.ShotTarget, options ...FilterOption) *collidev1.Query {
	return &collidev1.Query{Query: &collidev1.Query_HitValidation{
		HitValidation: &collidev1.HitValidationQuery{Origin: origin,
			Translation: translation, Targets: targets,
			Filter: queryFilter(options)}}}
}
