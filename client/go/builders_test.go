package collide

import (
	"testing"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/protobuf/proto"
)

func TestLevelHoldsTheShapesAsGiven(t *testing.T) {
	level := Level("arena",
		Segment(1, Vec(10, -5), Vec(10, 5), UserData(7)),
		Box(3, Vec(-10, 0), Vec(1, 2), 0.5),
		Polygon(4, []*collidev1.Vec2{Vec(0, 0), Vec(1, 0), Vec(0, 1)},
			CategoryBits(2)),
		Circle(5, Vec(0, 20), 2),
		Capsule(6, Vec(0, 0), Vec(0, 1), 0.5),
		Polyline(7, []*collidev1.Vec2{Vec(0, 0), Vec(1, 1)}, true))
	if level.Id != "arena" || len(level.Shapes) != 6 {
		t.Fatalf("level %q with %d shapes", level.Id, len(level.Shapes))
	}
	segment := level.Shapes[0]
	if !proto.Equal(segment.GetSegment().GetP2(), Vec(10, 5)) ||
		segment.UserData != 7 || segment.CategoryBits != nil {
		t.Errorf("segment: %v", segment)
	}
	box := level.Shapes[1].GetBox()
	if box.GetHalfExtents().GetY() != 2 || box.GetAngleRadians() != 0.5 {
		t.Errorf("box: %v", box)
	}
	polygon := level.Shapes[2]
	if polygon.GetCategoryBits() != 2 ||
		len(polygon.GetPolygon().GetVertices()) != 3 {
		t.Errorf("polygon: %v", polygon)
	}
	if level.Shapes[3].GetCircle().GetRadius() != 2 ||
		level.Shapes[4].GetCapsule().GetRadius() != 0.5 ||
		!level.Shapes[5].GetPolyline().GetClosed() {
		t.Errorf("circle, capsule, polyline: %v", level.Shapes[3:])
	}
}

func TestCastOptionsDefaultToTheClosestHit(t *testing.T) {
	query := Cast(CircleBody(Vec(0, 0), 1), Vec(0, 20)).GetCircleCast()
	if query.GetCircle().GetRadius() != 1 ||
		query.GetOptions().GetMode() != collidev1.CastMode_CAST_MODE_CLOSEST ||
		query.GetOptions().MaxFraction != nil ||
		query.GetOptions().GetFilter().MaskBits != nil {
		t.Errorf("circle cast: %v", query)
	}
}

func TestCastOptionsAsGiven(t *testing.T) {
	options := Ray(Vec(0, 0), Vec(1, 0), MaxFraction(0.5), AllHits(),
		TargetDistance(0.01), MaxHits(3), MaskBits(6),
		IgnoreIDs(3, 4)).GetRayCast().GetOptions()
	want := &collidev1.CastOptions{
		Mode:           collidev1.CastMode_CAST_MODE_ALL,
		MaxFraction:    proto.Float64(0.5),
		TargetDistance: 0.01, MaxHits: 3,
		Filter: &collidev1.QueryFilter{MaskBits: proto.Uint64(6),
			IgnoreIds: []uint64{3, 4}}}
	if !proto.Equal(options, want) {
		t.Errorf("got %v, want %v", options, want)
	}
}

func TestCastPicksTheQueryOfItsBody(t *testing.T) {
	capsule := Cast(CapsuleBody(Vec(0, 0), Vec(0, 1), 0.3), Vec(4, 0))
	polygon := Cast(PolygonBody(Vec(-1, 0), Vec(0, -1), Vec(0, 1)),
		Vec(-20, 0))
	if capsule.GetCapsuleCast().GetCapsule().GetRadius() != 0.3 ||
		len(polygon.GetPolygonCast().GetPolygon().GetVertices()) != 3 {
		t.Errorf("capsule %v, polygon %v", capsule, polygon)
	}
}

func TestBodiesGoWhereTheQueryTakesThem(t *testing.T) {
	overlap := Overlap(CapsuleBody(Vec(0, 0), Vec(1, 0), 1), MaskBits(2))
	if overlap.GetOverlap().GetCapsule() == nil ||
		overlap.GetOverlap().GetFilter().GetMaskBits() != 2 {
		t.Errorf("overlap: %v", overlap)
	}
	move := ValidateMove(PolygonBody(Vec(0, 0), Vec(1, 0), Vec(0, 1)),
		Vec(2, 0), IgnoreIDs(9))
	if move.GetMoveValidation().GetPolygon() == nil ||
		!proto.Equal(move.GetMoveValidation().GetTranslation(), Vec(2, 0)) ||
		move.GetMoveValidation().GetFilter().GetIgnoreIds()[0] != 9 {
		t.Errorf("move: %v", move)
	}
	shot := ValidateShot(Vec(0, 0), Vec(10, 0), []*collidev1.ShotTarget{
		Target(5, CircleBody(Vec(5, 0), 1), Vec(0, 1))})
	target := shot.GetHitValidation().GetTargets()[0]
	if target.GetId() != 5 || target.GetCircle().GetRadius() != 1 ||
		target.GetTranslation().GetY() != 1 {
		t.Errorf("shot: %v", shot)
	}
}

func TestAZeroBodySendsNoShape(t *testing.T) {
	if Overlap(Body{}).GetOverlap().GetShape() != nil ||
		ValidateMove(Body{}, Vec(1, 0)).GetMoveValidation().GetMover() != nil ||
		Target(1, Body{}, Vec(0, 0)).GetHitbox() != nil {
		t.Error("a zero Body set a shape")
	}
}

func TestClosestPointWithinSetsTheDistance(t *testing.T) {
	if ClosestPoint(Vec(0, 25)).GetClosestPoint().MaxDistance != nil {
		t.Error("ClosestPoint set a max distance")
	}
	within := ClosestPointWithin(Vec(0, 25), 10).GetClosestPoint()
	if within.GetMaxDistance() != 10 || within.MaxDistance == nil {
		t.Errorf("ClosestPointWithin: %v", within)
	}
}

func TestTwoWayFilterFieldsAreSetOnlyWhenGiven(t *testing.T) {
	plain := Circle(1, Vec(0, 0), 1)
	if plain.CategoryBits != nil || plain.MaskBits != nil ||
		plain.Group != 0 || plain.OneSided {
		t.Errorf("plain circle: %v", plain)
	}
	glass := Box(2, Vec(0, 0), Vec(1, 1), 0, CategoryBits(2), MaskBits(0),
		Group(-3))
	if glass.GetCategoryBits() != 2 || glass.MaskBits == nil ||
		glass.GetMaskBits() != 0 || glass.GetGroup() != -3 {
		t.Errorf("glass: %v", glass)
	}
	platform := Segment(3, Vec(0, 0), Vec(4, 0), OneSided(), Group(2))
	chain := Polyline(4, []*collidev1.Vec2{Vec(0, 0), Vec(1, 1)}, false,
		OneSided(), MaskBits(1<<63))
	if !platform.GetOneSided() || platform.GetGroup() != 2 ||
		!chain.GetOneSided() || chain.GetMaskBits() != 1<<63 {
		t.Errorf("platform %v, chain %v", platform, chain)
	}
}

func TestEveryQueryTakesTheTwoWayFilter(t *testing.T) {
	want := &collidev1.QueryFilter{MaskBits: proto.Uint64(5),
		CategoryBits: proto.Uint64(4), Group: -2, IgnoreIds: []uint64{9}}
	disc := CircleBody(Vec(0, 0), 1)
	filters := map[string]*collidev1.QueryFilter{
		"ray": Ray(Vec(0, 0), Vec(1, 0), MaskBits(5), CategoryBits(4),
			Group(-2), IgnoreIDs(9)).GetRayCast().GetOptions().GetFilter(),
		"cast": Cast(disc, Vec(1, 0), MaskBits(5), CategoryBits(4), Group(-2),
			IgnoreIDs(9)).GetCircleCast().GetOptions().GetFilter(),
		"overlap": Overlap(disc, MaskBits(5), CategoryBits(4), Group(-2),
			IgnoreIDs(9)).GetOverlap().GetFilter(),
		"closest point": ClosestPoint(Vec(0, 0), MaskBits(5), CategoryBits(4),
			Group(-2), IgnoreIDs(9)).GetClosestPoint().GetFilter(),
		"move": ValidateMove(disc, Vec(1, 0), MaskBits(5), CategoryBits(4),
			Group(-2), IgnoreIDs(9)).GetMoveValidation().GetFilter(),
		"shot": ValidateShot(Vec(0, 0), Vec(1, 0), nil, MaskBits(5),
			CategoryBits(4), Group(-2), IgnoreIDs(9)).GetHitValidation().GetFilter(),
	}
	for name, got := range filters {
		if !proto.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	if filter := Ray(Vec(0, 0), Vec(1, 0)).GetRayCast().GetOptions().GetFilter(); filter.CategoryBits != nil || filter.Group != 0 {
		t.Errorf("a plain ray's filter: %v", filter)
	}
}
