package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"

	collide "github.com/collide-dev/collide/client/go"
	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
)

// The fog-of-war tick: on the bundled level (levels/arena, which
// collide_server serves unless --default_level=false;
// server/levels/default_level.cc has its shapes), which enemies each
// player sees and so may be sent, by one visibility query for every player
// at once, and the scout's visibility polygon, the region a client draws.

// player is a viewer of the tick and the enemies it may be sent, by index.
type player struct {
	name     string
	position xy
	options  []collide.ViewerOption
	sees     []int
}

// The query's filter counts only category 1: the glass pane (shape 60,
// category 2, x = 14, -8 <= y <= -2) blocks shots but not sight.
var players = []player{
	// All round, within 20. Enemy 0 (15, 0) is behind the pillar at
	// (10, 0) (radius 1.5; the sight line passes 0.98 from its centre) and
	// enemy 3 (-12, 0) behind the one at (-10, 0) (0.23 from it); enemies 1
	// and 2 are in the open.
	{"scout", xy{5, 2}, []collide.ViewerOption{collide.ViewRange(20)},
		[]int{1, 2}},
	// Facing west, 30 degrees either side, any distance: enemy 2, dead
	// ahead, through the glass; enemies 0 and 1 are outside the cone (68
	// and 41 degrees off), enemy 3 inside it but behind the pillar at
	// (-10, 0).
	{"sniper", xy{17, -5},
		[]collide.ViewerOption{collide.ViewCone(collide.Vec(-1, 0), math.Pi/6)},
		[]int{2}},
	// All round, within 16: enemy 3 (5.8 away, 1.71 from the pillar at
	// (-10, 0), which has radius 1.5); enemy 1 (13.5 away) is behind the
	// barrier (the capsule along y = 12, -14 <= x <= -8); enemies 0 and 2
	// are out of range.
	{"guard", xy{-15, 5}, []collide.ViewerOption{collide.ViewRange(16)},
		[]int{3}},
}

// enemies are points, and a disc (enemy 2) that counts by its centre.
func enemies() []*collidev1.VisibilityTarget {
	v := collide.Vec
	return []*collidev1.VisibilityTarget{collide.PointTarget(v(15, 0)),
		collide.PointTarget(v(-6, 15)), collide.CircleTarget(v(10, -5), 0.5),
		collide.PointTarget(v(-12, 0))}
}

// The scout's own view within polygonRange. The crate around (5, 5)
// (shape 20, half-size 1) is the only shape that near: its two near
// corners are the polygon's level vertices, (6, 4) first (the polygon runs
// counter-clockwise from +x), and every other vertex lies on the range
// circle.
const polygonRange = 3

var polygonCorners = []shapeVertex{{xy{6, 4}, 20}, {xy{4, 4}, 20}}

type shapeVertex struct {
	point   xy
	shapeID uint64
}

// fogOfWarAndCheck runs one tick on level; returns the exit status (0: the
// answers match), or an error for a failed call.
func fogOfWarAndCheck(client *collide.Client, level string) (int, error) {
	viewers := make([]*collidev1.Viewer, len(players))
	for i, p := range players {
		viewers[i] = collide.Viewer(collide.Vec(p.position[0], p.position[1]),
			p.options...)
	}
	scout := players[0].position
	// Run sets the client's deadline on the call.
	results, err := client.Run(context.Background(), level,
		collide.Visibility(viewers, enemies(), collide.MaskBits(1)),
		collide.VisibilityPolygon(collide.Vec(scout[0], scout[1]),
			polygonRange))
	if err != nil {
		return 1, err
	}
	if len(results) != 2 {
		return 1, fmt.Errorf("%d results for 2 queries", len(results))
	}
	seen := collide.VisibleSets(results[0].GetVisibility())
	if err := firstError(collide.Check(results[0]), collide.Check(results[1]),
		expectEqual("visibility rows", len(seen), len(players))); err != nil {
		fmt.Fprintf(os.Stderr, "collide_example: fog of war: %v\n", err)
		return 1, nil
	}
	fmt.Printf("fog of war on %s: %d players, %d enemies\n", level,
		len(players), len(enemies()))
	var failures []string
	for i, p := range players {
		mark := "ok"
		if fmt.Sprint(seen[i]) != fmt.Sprint(p.sees) {
			mark = "MISMATCH"
			failures = append(failures, fmt.Sprintf(
				"%s sees enemies %v, expected %v", p.name, seen[i], p.sees))
		}
		at := fmt.Sprintf("(%s, %s)", number(p.position[0]),
			number(p.position[1]))
		fmt.Printf("  %-7s at %-9s %-8s may be sent enemies %s\n", p.name, at,
			mark, strings.ReplaceAll(fmt.Sprint(seen[i]), " ", ", "))
	}
	polygon := results[1].GetVisibilityPolygon()
	if err := checkPolygon(polygon, scout); err != nil {
		failures = append(failures, fmt.Sprintf("scout's polygon: %v", err))
	} else {
		var corners []string
		for _, corner := range polygonCorners {
			corners = append(corners, fmt.Sprintf("(%s, %s)",
				number(corner.point[0]), number(corner.point[1])))
		}
		fmt.Printf("  scout's view within %d: ok       %d vertices, crate "+
			"corners %s\n", polygonRange, len(polygon.GetVertices()),
			strings.Join(corners, ", "))
	}
	for _, failure := range failures {
		fmt.Fprintf(os.Stderr, "collide_example: fog of war: %s\n", failure)
	}
	if len(failures) > 0 {
		return 1, nil
	}
	return 0, nil
}

// checkPolygon is an error unless the polygon's level vertices are the
// crate's near corners and every other vertex lies on the range circle.
func checkPolygon(polygon *collidev1.VisibilityPolygonResult,
	scout xy) error {
	var corners []shapeVertex
	for i, vertex := range polygon.GetVertices() {
		point := vertex.GetPoint()
		if vertex.GetKind() ==
			collidev1.VisibilityVertexKind_VISIBILITY_VERTEX_KIND_LEVEL_VERTEX {
			corners = append(corners, shapeVertex{
				xy{point.GetX(), point.GetY()}, vertex.GetShapeId()})
			continue
		}
		if err := expectNear(fmt.Sprintf("vertex %d's distance from the scout",
			i), math.Hypot(point.GetX()-scout[0], point.GetY()-scout[1]),
			polygonRange); err != nil {
			return err
		}
	}
	return expectEqual("level vertices", fmt.Sprint(corners),
		fmt.Sprint(polygonCorners))
}
