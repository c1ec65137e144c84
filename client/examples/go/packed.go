package main

import (
	"context"
	"fmt"
	"os"

	collide "github.com/collide-dev/collide/client/go"
	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
)

// packedRay is one ray of the packed batch and its known answer (hit false:
// a miss).
type packedRay struct {
	origin, translation xy
	hit                 bool
	fraction            float64
	point, normal       xy
	shapeID             uint64
}

// packedRaysAndCheck sends three rays as one packed batch (columns instead
// of one Query message each: much cheaper to encode and parse for big
// batches), twice: with varint result columns, then asking for fixed-width
// ones (fixed_width_results: cheaper still to write and read). Checks the
// result columns. Returns 0 when all match, 1 on a mismatch, or the error
// of a failed call.
func packedRaysAndCheck(client *collide.Client) (int, error) {
	rays := []packedRay{
		{origin: xy{0, 0}, translation: xy{20, 0}, hit: true, fraction: 0.5,
			point: xy{10, 0}, normal: xy{-1, 0}, shapeID: 1}, // the wall
		{origin: xy{0, -10}, translation: xy{5, 0}}, // nothing
		{origin: xy{0, 10}, translation: xy{0, 20}, hit: true, fraction: 0.4,
			point: xy{0, 18}, normal: xy{0, -1}, shapeID: 2}, // the pillar
	}
	for _, fixedWidth := range []bool{false, true} {
		code, err := packedBatchAndCheck(client, rays, fixedWidth)
		if err != nil || code != 0 {
			return code, err
		}
	}
	return 0, nil
}

// packedBatchAndCheck sends one packed batch of rays in a RunQueries call
// and checks its result columns. The package has no helper for packed
// batches, so this builds the generated request and calls the generated
// stub (client.Collisions) on the package's connection, which resends it
// on a drain like every query.
func packedBatchAndCheck(client *collide.Client, rays []packedRay,
	fixedWidth bool) (int, error) {
	form := "varint"
	if fixedWidth {
		form = "fixed-width"
	}
	columns := &collidev1.PackedRayCasts{FixedWidthResults: fixedWidth}
	for _, ray := range rays {
		columns.OriginX = append(columns.OriginX, ray.origin[0])
		columns.OriginY = append(columns.OriginY, ray.origin[1])
		columns.TranslationX = append(columns.TranslationX, ray.translation[0])
		columns.TranslationY = append(columns.TranslationY, ray.translation[1])
	}
	ctx, cancel := context.WithTimeout(context.Background(),
		collide.DefaultTimeout)
	defer cancel()
	response, err := client.Collisions.RunQueries(ctx,
		&collidev1.RunQueriesRequest{Level: collide.LevelName(levelID),
			Packed: &collidev1.RunQueriesRequest_PackedRays{
				PackedRays: columns}})
	if err != nil {
		return 0, err
	}
	hits := response.GetPackedCasts()
	// The status and shape columns the batch asked for (the others are
	// left empty), as HitStatus values and ids.
	var status []collidev1.HitStatus
	var shapeIDs []uint64
	if fixedWidth {
		for _, s := range hits.GetHitStatusFixed() {
			status = append(status, collidev1.HitStatus(s))
		}
		shapeIDs = hits.GetShapeIdFixed()
	} else {
		status = hits.GetHitStatus()
		shapeIDs = hits.GetShapeId()
	}
	err = firstError(
		expectEqual("refused queries", len(hits.GetErrors()), 0),
		expectEqual("number of rows", len(status), len(rays)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "collide_example: packed (%s): %v\n", form, err)
		return 1, nil
	}
	failures := 0
	for i, ray := range rays {
		var err error
		text := "miss"
		if !ray.hit {
			err = expectEqual("hit_status", status[i],
				collidev1.HitStatus_HIT_STATUS_UNSPECIFIED)
		} else {
			err = firstError(
				expectEqual("hit_status", status[i],
					collidev1.HitStatus_HIT_STATUS_HIT),
				expectNear("fraction", hits.Fraction[i], ray.fraction),
				expectNear("point.x", hits.PointX[i], ray.point[0]),
				expectNear("point.y", hits.PointY[i], ray.point[1]),
				expectNear("normal.x", hits.NormalX[i], ray.normal[0]),
				expectNear("normal.y", hits.NormalY[i], ray.normal[1]),
				expectEqual("shape_id", shapeIDs[i], ray.shapeID))
			text = fmt.Sprintf("hit shape %d at fraction %s", shapeIDs[i],
				number(hits.Fraction[i]))
		}
		if err != nil {
			failures++
			fmt.Fprintf(os.Stderr, "collide_example: packed ray %d (%s): %v\n",
				i, form, err)
			text = "MISMATCH"
		}
		fmt.Printf("  packed ray %d (%s) %s\n", i, form, text)
	}
	if failures > 0 {
		return 1, nil
	}
	fmt.Printf("all %d packed ray results (%s) match the known answers\n",
		len(rays), form)
	return 0, nil
}
