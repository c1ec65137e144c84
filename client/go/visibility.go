package collide

import (
	"math/bits"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
)

// A ViewerOption limits what a viewer sees: ViewRange, ViewCone.
type ViewerOption func(*collidev1.Viewer)

// ViewRange limits a viewer to targets within distance (level units, >= 0;
// a target at exactly the range is in view). Default: unlimited.
func ViewRange(distance float64) ViewerOption {
	return func(viewer *collidev1.Viewer) { viewer.Range = &distance }
}

// ViewCone limits a viewer to the cone around direction (any non-zero
// length) opening halfAngleRadians (in [0, pi]) either side; a target
// exactly on an edge is in view. Default: every direction.
func ViewCone(direction *collidev1.Vec2, halfAngleRadians float64) ViewerOption {
	return func(viewer *collidev1.Viewer) {
		viewer.Cone = &collidev1.ViewCone{Direction: direction,
			HalfAngleRadians: halfAngleRadians}
	}
}

// Viewer is an eye at position, seeing all round at any distance unless
// options limit it.
func Viewer(position *collidev1.Vec2,
	options ...ViewerOption) *collidev1.Viewer {
	viewer := &collidev1.Viewer{Position: position}
	for _, option := range options {
		option(viewer)
	}
	return viewer
}

// PointTarget is a visibility target at point.
func PointTarget(point *collidev1.Vec2) *collidev1.VisibilityTarget {
	return &collidev1.VisibilityTarget{
		Shape: &collidev1.VisibilityTarget_Point{Point: point}}
}

// CircleTarget is a disc-shaped visibility target (seen when its centre
// is, under TARGET_RULE_CENTER; when any point of it is, under
// TARGET_RULE_ANY_PART: see VisibilityWithRule).
func CircleTarget(center *collidev1.Vec2,
	radius float64) *collidev1.VisibilityTarget {
	return &collidev1.VisibilityTarget{Shape: &collidev1.VisibilityTarget_Circle{
		Circle: CircleOf(center, radius)}}
}

// Visibility asks which of targets each of viewers sees past the level's
// occluders, those passing the filter options (glass that blocks movement
// but not sight is a category left out of MaskBits). The rules are in the
// proto, at VisibilityQuery; VisibleSets reads the answer. Circle targets
// are judged by their centres (VisibilityWithRule takes another rule).
func Visibility(viewers []*collidev1.Viewer,
	targets []*collidev1.VisibilityTarget,
	options ...FilterOption) *collidev1.Query {
	return VisibilityWithRule(viewers, targets,
		collidev1.TargetRule_TARGET_RULE_UNSPECIFIED, options...)
}

// VisibilityWithRule is Visibility with a target rule:
// TARGET_RULE_ANY_PART counts a circle target seen when any point of it
// is.
func VisibilityWithRule(viewers []*collidev1.Viewer,
	targets []*collidev1.VisibilityTarget, rule collidev1.TargetRule,
	options ...FilterOption) *collidev1.Query {
	return &collidev1.Query{Query: &collidev1.Query_Visibility{
		Visibility: &collidev1.VisibilityQuery{Viewers: viewers,
			Targets: targets, TargetRule: rule,
			Filter: queryFilter(options)}}}
}

// VisibilityPolygon asks for the region seen from position within
// distance (> 0), as a polygon star-shaped around it, its arcs drawn as
// chords of at most 0.2 radians (set
// GetVisibilityPolygon().MaxArcAngleRadians on the result for another).
func VisibilityPolygon(position *collidev1.Vec2, distance float64,
	options ...FilterOption) *collidev1.Query {
	return &collidev1.Query{Query: &collidev1.Query_VisibilityPolygon{
		VisibilityPolygon: &collidev1.VisibilityPolygonQuery{Viewer: position,
			Range: distance, Filter: queryFilter(options)}}}
}

// VisibleSets is, per viewer in the query's order, the indices of the
// targets it sees, ascending. A query with no targets has no rows in its
// answer: VisibleSets returns none (the query's viewers each see nothing).
func VisibleSets(answer *collidev1.VisibilityResult) [][]int {
	perViewer := int(answer.GetWordsPerViewer())
	words := answer.GetVisibleWords()
	if perViewer <= 0 {
		return nil
	}
	rows := make([][]int, 0, len(words)/perViewer)
	for start := 0; start+perViewer <= len(words); start += perViewer {
		row := []int{}
		for w, word := range words[start : start+perViewer] {
			for ; word != 0; word &= word - 1 {
				row = append(row, w*64+bits.TrailingZeros64(word))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// Sees is whether viewer viewerIndex sees target targetIndex; false for
// indices outside the answer.
func Sees(answer *collidev1.VisibilityResult, viewerIndex,
	targetIndex int) bool {
	words := answer.GetVisibleWords()
	perViewer := int(answer.GetWordsPerViewer())
	i := viewerIndex*perViewer + targetIndex/64
	if viewerIndex < 0 || targetIndex < 0 || targetIndex/64 >= perViewer ||
		i >= len(words) {
		return false
	}
	return words[i]>>(targetIndex%64)&1 == 1
}
