package main

import (
	"math"

	collide "github.com/collide-dev/collide/client/go"
	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc/codes"
)

// exampleLevel has four shapes whose contacts are easy to work out by hand.
func exampleLevel() *collidev1.Level {
	v := collide.Vec
	return collide.Level(levelID,
		// A wall: the segment x = 10, -5 <= y <= 5.
		collide.Segment(1, v(10, -5), v(10, 5), collide.UserData(101)),
		// A pillar: the disc of radius 2 around (0, 20).
		collide.Circle(2, v(0, 20), 2, collide.UserData(102)),
		// A crate: the square -11 <= x <= -9, -1 <= y <= 1. Its edges are
		// numbered counter-clockwise from the lower-left corner, so its
		// right side (x = -9) is edge 1.
		collide.Box(3, v(-10, 0), v(1, 1), 0, collide.UserData(103)),
		// A jump-through platform: the one-sided segment y = 10,
		// 20 <= x <= 30, drawn left to right, so its front faces up.
		collide.Segment(4, v(20, 10), v(30, 10), collide.OneSided(),
			collide.UserData(104)))
}

// example is one query of the batch, what it is, and its known answer.
type example struct {
	name  string
	query *collidev1.Query
	want  check
}

func exampleQueries() []example {
	v := collide.Vec
	edge := collidev1.FeatureType_FEATURE_TYPE_EDGE
	surface := collidev1.FeatureType_FEATURE_TYPE_SURFACE
	return []example{
		// A bullet from the origin along +x meets the wall halfway.
		{"ray cast hits the wall", collide.Ray(v(0, 0), v(20, 0)),
			castHit(0.5, contact{point: xy{10, 0}, normal: xy{-1, 0},
				shapeID: 1, userData: 101, feature: feature{edge, 0}})},
		// A circle of radius 1 rising from the origin touches the pillar
		// when the centres are 1 + 2 apart: centre y = 17 of 20.
		{"circle cast hits the pillar",
			collide.Cast(collide.CircleBody(v(0, 0), 1), v(0, 20)),
			castHit(0.85, contact{point: xy{0, 18}, normal: xy{0, -1},
				shapeID: 2, userData: 102, feature: feature{surface, 0}})},
		// A triangle pointing -x (tip at (-1, 0)) moving 20 left: its tip
		// meets the crate's right side x = -9 after 8, fraction 0.4.
		{"polygon cast hits the crate",
			collide.Cast(collide.PolygonBody(v(-1, 0), v(0, -1), v(0, 1)),
				v(-20, 0)),
			castHit(0.4, contact{point: xy{-9, 0}, normal: xy{1, 0},
				shapeID: 3, userData: 103, feature: feature{edge, 1}})},
		// A horizontal capsule (axis (0,3)-(2,3), radius 0.5) moving 20
		// right: its front (2.5, 3) meets the wall after 7.5, fraction
		// 0.375.
		{"capsule cast hits the wall",
			collide.Cast(collide.CapsuleBody(v(0, 3), v(2, 3), 0.5), v(20, 0)),
			castHit(0.375, contact{point: xy{10, 3}, normal: xy{-1, 0},
				shapeID: 1, userData: 101, feature: feature{edge, 0}})},
		// A disc of radius 15 at (5, 0) reaches the wall (5 away) and the
		// crate (14 away) but not the pillar (18 away).
		{"overlap finds the wall and the crate",
			collide.Overlap(collide.CircleBody(v(5, 0), 15)),
			overlap([]shapeRef{{1, 101}, {3, 103}})},
		// The level point nearest (0, 25) is the pillar's top, 3 away.
		{"closest point is on the pillar",
			collide.ClosestPointWithin(v(0, 25), 10),
			closestPoint(3, contact{point: xy{0, 22}, normal: xy{0, 1},
				shapeID: 2, userData: 102, feature: feature{surface, 0}})},
		// Straight down from the origin there is nothing: a miss is an
		// answer with no hits, not an error.
		{"ray cast misses", collide.Ray(v(0, 0), v(0, -20)), miss()},
		// Falling onto the platform from above meets its front halfway.
		{"ray lands on the platform", collide.Ray(v(25, 15), v(0, -10)),
			castHit(0.5, contact{point: xy{25, 10}, normal: xy{0, 1},
				shapeID: 4, userData: 104, feature: feature{edge, 0}})},
		// Rising into it from below passes through.
		{"ray rises through the platform", collide.Ray(v(25, 5), v(0, 10)),
			miss()},
		// A deforming segment in general: a blade turning about its centre
		// from (-1, 0)-(1, 0) to (0, -1)-(0, 1), each end moving on its own,
		// and a point falling from (0.25, 0.75) by (0, -1). It lies on the
		// blade's line when t^2 - 2t + 0.75 = 0: t = 0.5, at (0.25, 0.25),
		// the blade's normal there facing the point's side. The level is
		// not read. The package has no builder for pair queries: this is
		// the generated message.
		{"point meets a turning blade",
			&collidev1.Query{Query: &collidev1.Query_PairToi{
				PairToi: &collidev1.PairToiQuery{
					A: &collidev1.MovingShape{
						Shape:       &collidev1.MovingShape_Point{Point: v(0.25, 0.75)},
						Translation: v(0, -1)},
					B: &collidev1.MovingShape{
						Shape: &collidev1.MovingShape_Segment{
							Segment: &collidev1.Segment{P1: v(-1, 0), P2: v(1, 0)}},
						SegmentEnd: &collidev1.Segment{P1: v(0, -1), P2: v(0, 1)}}}}},
			pairContact(0.5, xy{0.25, 0.25},
				xy{-math.Sqrt(0.5), math.Sqrt(0.5)}, feature{edge, 0})},
		// A sword swing (a melee hit check): a blade from the hand at
		// (8.5, 0) to (8.5, -2), radius 0.1, turning a half turn
		// counter-clockwise about the hand during the tick. Target 7 (a
		// disc of radius 0.25 at 1.2 from the hand, 60 degrees below +x)
		// is met when the blade's axis is asin(0.35 / 1.2) short of it.
		{"sword swing hits the near target", swordSwing(true),
			swingHit(collidev1.ShotOutcome_SHOT_OUTCOME_TARGET, 7,
				1.0/6-math.Asin(0.35/1.2)/math.Pi)},
		// Without target 7, target 8 (60 degrees above +x) lies beyond the
		// wall x = 10, which the blade's rim reaches first (2 cos(phi) +
		// 0.1 = 1.5).
		{"sword swing is stopped by the wall", swordSwing(false),
			swingHit(collidev1.ShotOutcome_SHOT_OUTCOME_WALL, 1,
				math.Asin(0.7)/math.Pi)},
		// A negative radius is refused in this query's own result, naming
		// the field; the rest of the batch is still answered.
		{"bad query is refused alone",
			collide.Cast(collide.CircleBody(v(0, 0), -1), v(1, 0)),
			refused(codes.InvalidArgument, "circle_cast.circle.radius")},
	}
}

// swordSwing is a hit validation whose shot is a swing: a capsule turning
// about the wielder's hand (HitValidationQuery.Swing, Turn), against
// targets 8 (and 7). The package has no builder for it: this is the
// generated message.
func swordSwing(withNearTarget bool) *collidev1.Query {
	v := collide.Vec
	hand := xy{8.5, 0}
	target := func(id uint64, degrees float64) *collidev1.ShotTarget {
		angle := degrees * math.Pi / 180
		return &collidev1.ShotTarget{Id: id,
			Hitbox: &collidev1.ShotTarget_Circle{Circle: &collidev1.Circle{
				Center: v(hand[0]+1.2*math.Cos(angle),
					hand[1]+1.2*math.Sin(angle)),
				Radius: 0.25}}}
	}
	targets := []*collidev1.ShotTarget{target(8, 60)}
	if withNearTarget {
		targets = append(targets, target(7, -60))
	}
	return &collidev1.Query{Query: &collidev1.Query_HitValidation{
		HitValidation: &collidev1.HitValidationQuery{
			Swing: &collidev1.Swing{
				Body: &collidev1.Swing_Capsule{Capsule: &collidev1.Capsule{
					P1: v(hand[0], hand[1]), P2: v(8.5, -2), Radius: 0.1}},
				Turn: &collidev1.Turn{Angle: math.Pi, Pivot: v(hand[0], hand[1])}},
			Targets: targets}}}
}
