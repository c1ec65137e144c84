package collide

import (
	"reflect"
	"testing"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/protobuf/proto"
)

func TestViewersTakeARangeAndACone(t *testing.T) {
	plain := Viewer(Vec(1, 2))
	if !proto.Equal(plain.GetPosition(), Vec(1, 2)) || plain.Range != nil ||
		plain.Cone != nil {
		t.Errorf("plain viewer: %v", plain)
	}
	sniper := Viewer(Vec(17, -5), ViewRange(0), ViewCone(Vec(-1, 0), 0.5))
	if sniper.Range == nil || sniper.GetRange() != 0 ||
		!proto.Equal(sniper.GetCone().GetDirection(), Vec(-1, 0)) ||
		sniper.GetCone().GetHalfAngleRadians() != 0.5 {
		t.Errorf("sniper: %v", sniper)
	}
}

func TestVisibilityCarriesViewersTargetsAndFilter(t *testing.T) {
	query := Visibility(
		[]*collidev1.Viewer{Viewer(Vec(0, 0)), Viewer(Vec(1, 1), ViewRange(5))},
		[]*collidev1.VisibilityTarget{PointTarget(Vec(15, 0)),
			CircleTarget(Vec(10, -5), 0.5)},
		MaskBits(1), Group(-4)).GetVisibility()
	if len(query.GetViewers()) != 2 || query.GetViewers()[1].GetRange() != 5 ||
		query.GetTargets()[0].GetPoint().GetX() != 15 ||
		query.GetTargets()[1].GetCircle().GetRadius() != 0.5 ||
		query.GetTargetRule() != collidev1.TargetRule_TARGET_RULE_UNSPECIFIED ||
		query.GetFilter().GetMaskBits() != 1 ||
		query.GetFilter().GetGroup() != -4 {
		t.Errorf("visibility: %v", query)
	}
	anyPart := VisibilityWithRule([]*collidev1.Viewer{Viewer(Vec(0, 0))},
		[]*collidev1.VisibilityTarget{CircleTarget(Vec(3, 4), 0.5)},
		collidev1.TargetRule_TARGET_RULE_ANY_PART, MaskBits(1)).GetVisibility()
	if anyPart.GetTargetRule() != collidev1.TargetRule_TARGET_RULE_ANY_PART ||
		anyPart.GetTargets()[0].GetCircle().GetRadius() != 0.5 ||
		anyPart.GetFilter().GetMaskBits() != 1 {
		t.Errorf("visibility by any part: %v", anyPart)
	}
	polygon := VisibilityPolygon(Vec(5, 2), 3,
		CategoryBits(2)).GetVisibilityPolygon()
	if !proto.Equal(polygon.GetViewer(), Vec(5, 2)) ||
		polygon.GetRange() != 3 || polygon.GetMaxArcAngleRadians() != 0 ||
		polygon.GetFilter().GetCategoryBits() != 2 {
		t.Errorf("visibility polygon: %v", polygon)
	}
}

func TestVisibleSetsReadTheBitRows(t *testing.T) {
	// Two viewers, 70 targets: two words a row. Viewer 0 sees 0, 5 and
	// 69; viewer 1 sees 63 and 64.
	answer := &collidev1.VisibilityResult{WordsPerViewer: 2,
		VisibleWords: []uint64{1 | 1<<5, 1 << 5, 1 << 63, 1}}
	want := [][]int{{0, 5, 69}, {63, 64}}
	if got := VisibleSets(answer); !reflect.DeepEqual(got, want) {
		t.Errorf("VisibleSets: got %v, want %v", got, want)
	}
	if !Sees(answer, 1, 64) || Sees(answer, 1, 5) || Sees(answer, 2, 0) ||
		Sees(answer, 0, -1) || Sees(answer, 0, 191) {
		t.Error("Sees disagrees with the rows")
	}
	none := &collidev1.VisibilityResult{}
	if got := VisibleSets(none); len(got) != 0 {
		t.Errorf("no targets: got %v", got)
	}
	blind := &collidev1.VisibilityResult{WordsPerViewer: 1,
		VisibleWords: []uint64{0}}
	if got := VisibleSets(blind); !reflect.DeepEqual(got, [][]int{{}}) {
		t.Errorf("a viewer that sees nothing: got %v", got)
	}
}
