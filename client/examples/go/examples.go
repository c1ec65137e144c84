package main

import (
	"math"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

func vec(x, y float64) *collidev1.Vec2 { return &collidev1.Vec2{X: x, Y: y} }

// exampleLevel has three shapes whose contacts are easy to work out by hand.
func exampleLevel() *collidev1.Level {
	return &collidev1.Level{Shapes: []*collidev1.Shape{
		// A wall: the segment x = 10, -5 <= y <= 5.
		{Id: 1, UserData: 101, Geometry: &collidev1.Shape_Segment{
			Segment: &collidev1.Segment{P1: vec(10, -5), P2: vec(10, 5)}}},
		// A pillar: the disc of radius 2 around (0, 20).
		{Id: 2, UserData: 102, Geometry: &collidev1.Shape_Circle{
			Circle: &collidev1.Circle{Center: vec(0, 20), Radius: 2}}},
		// A crate: the square -11 <= x <= -9, -1 <= y <= 1. Its edges are
		// numbered counter-clockwise from the lower-left corner, so its
		// right side (x = -9) is edge 1.
		{Id: 3, UserData: 103, Geometry: &collidev1.Shape_Box{
			Box: &collidev1.Box{Center: vec(-10, 0), HalfExtents: vec(1, 1)}}},
	}}
}

// example is one query of the batch, what it is, and its known answer.
type example struct {
	name  string
	query *collidev1.Query
	want  check
}

func exampleQueries() []example {
	edge := collidev1.FeatureType_FEATURE_TYPE_EDGE
	surface := collidev1.FeatureType_FEATURE_TYPE_SURFACE
	return []example{
		// A bullet from the origin along +x meets the wall halfway.
		{"ray cast hits the wall",
			&collidev1.Query{Query: &collidev1.Query_RayCast{
				RayCast: &collidev1.RayCastQuery{
					Origin: vec(0, 0), Translation: vec(20, 0)}}},
			castHit(0.5, contact{point: xy{10, 0}, normal: xy{-1, 0},
				shapeID: 1, userData: 101, feature: feature{edge, 0}})},
		// A circle of radius 1 rising from the origin touches the pillar
		// when the centres are 1 + 2 apart: centre y = 17 of 20.
		{"circle cast hits the pillar",
			&collidev1.Query{Query: &collidev1.Query_CircleCast{
				CircleCast: &collidev1.CircleCastQuery{
					Circle:      &collidev1.Circle{Center: vec(0, 0), Radius: 1},
					Translation: vec(0, 20)}}},
			castHit(0.85, contact{point: xy{0, 18}, normal: xy{0, -1},
				shapeID: 2, userData: 102, feature: feature{surface, 0}})},
		// A triangle pointing -x (tip at (-1, 0)) moving 20 left: its tip
		// meets the crate's right side x = -9 after 8, fraction 0.4.
		{"polygon cast hits the crate",
			&collidev1.Query{Query: &collidev1.Query_PolygonCast{
				PolygonCast: &collidev1.PolygonCastQuery{
					Polygon: &collidev1.Polygon{Vertices: []*collidev1.Vec2{
						vec(-1, 0), vec(0, -1), vec(0, 1)}},
					Translation: vec(-20, 0)}}},
			castHit(0.4, contact{point: xy{-9, 0}, normal: xy{1, 0},
				shapeID: 3, userData: 103, feature: feature{edge, 1}})},
		// A horizontal capsule (axis (0,3)-(2,3), radius 0.5) moving 20
		// right: its front (2.5, 3) meets the wall after 7.5, fraction
		// 0.375.
		{"capsule cast hits the wall",
			&collidev1.Query{Query: &collidev1.Query_CapsuleCast{
				CapsuleCast: &collidev1.CapsuleCastQuery{
					Capsule: &collidev1.Capsule{
						P1: vec(0, 3), P2: vec(2, 3), Radius: 0.5},
					Translation: vec(20, 0)}}},
			castHit(0.375, contact{point: xy{10, 3}, normal: xy{-1, 0},
				shapeID: 1, userData: 101, feature: feature{edge, 0}})},
		// A disc of radius 15 at (5, 0) reaches the wall (5 away) and the
		// crate (14 away) but not the pillar (18 away).
		{"overlap finds the wall and the crate",
			&collidev1.Query{Query: &collidev1.Query_Overlap{
				Overlap: &collidev1.OverlapQuery{
					Shape: &collidev1.OverlapQuery_Circle{
						Circle: &collidev1.Circle{Center: vec(5, 0), Radius: 15}}}}},
			overlap([]shapeRef{{1, 101}, {3, 103}})},
		// The level point nearest (0, 25) is the pillar's top, 3 away.
		{"closest point is on the pillar",
			&collidev1.Query{Query: &collidev1.Query_ClosestPoint{
				ClosestPoint: &collidev1.ClosestPointQuery{
					Point: vec(0, 25), MaxDistance: proto.Float64(10)}}},
			closestPoint(3, contact{point: xy{0, 22}, normal: xy{0, 1},
				shapeID: 2, userData: 102, feature: feature{surface, 0}})},
		// Straight down from the origin there is nothing: a miss is an
		// answer with no hits, not an error.
		{"ray cast misses",
			&collidev1.Query{Query: &collidev1.Query_RayCast{
				RayCast: &collidev1.RayCastQuery{
					Origin: vec(0, 0), Translation: vec(0, -20)}}},
			miss()},
		// A deforming segment in general: a blade turning about its centre from
		// (-1, 0)-(1, 0) to (0, -1)-(0, 1), each end moving on its own, and
		// a point falling from (0.25, 0.75) by (0, -1). It lies on the
		// blade's line when t^2 - 2t + 0.75 = 0: t = 0.5, at (0.25, 0.25),
		// the blade's normal there facing the point's side. The level is
		// not read.
		{"point meets a turning blade",
			&collidev1.Query{Query: &collidev1.Query_PairToi{
				PairToi: &collidev1.PairToiQuery{
					A: &collidev1.MovingShape{
						Shape:       &collidev1.MovingShape_Point{Point: vec(0.25, 0.75)},
						Translation: vec(0, -1)},
					B: &collidev1.MovingShape{
						Shape: &collidev1.MovingShape_Segment{
							Segment: &collidev1.Segment{P1: vec(-1, 0), P2: vec(1, 0)}},
						SegmentEnd: &collidev1.Segment{P1: vec(0, -1), P2: vec(0, 1)}}}}},
			pairContact(0.5, xy{0.25, 0.25},
				xy{-math.Sqrt(0.5), math.Sqrt(0.5)}, feature{edge, 0})},
		// A negative radius is refused in this query's own result, naming
		// the field; the rest of the batch is still answered.
		{"bad query is refused alone",
			&collidev1.Query{Query: &collidev1.Query_CircleCast{
				CircleCast: &collidev1.CircleCastQuery{
					Circle:      &collidev1.Circle{Center: vec(0, 0), Radius: -1},
					Translation: vec(1, 0)}}},
			refused(codes.InvalidArgument, "circle_cast.circle.radius")},
	}
}
