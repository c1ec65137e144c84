package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc/codes"
)

// The known answers are exact in real numbers; the server computes in
// double, so compare within a few rounding errors.
const tolerance = 1e-9

// check returns an error naming the first field of a result that differs
// from the known answer, or nil.
type check func(*collidev1.QueryResult) error

type xy [2]float64

type feature struct {
	kind  collidev1.FeatureType
	index int32
}

type shapeRef struct{ shapeID, userData uint64 }

// contact holds the fields a cast hit and a closest point share.
type contact struct {
	point, normal     xy
	shapeID, userData uint64
	feature           feature
}

func expectEqual[T comparable](name string, got, want T) error {
	if got != want {
		return fmt.Errorf("%s is %v, expected %v", name, got, want)
	}
	return nil
}

func expectNear(name string, got, want float64) error {
	if !(math.Abs(got-want) <= tolerance) {
		return fmt.Errorf("%s is %v, expected %v", name, got, want)
	}
	return nil
}

// firstError returns the first non-nil error, so a check reads as a list.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func expectVec(name string, got *collidev1.Vec2, want xy) error {
	return firstError(expectNear(name+".x", got.GetX(), want[0]),
		expectNear(name+".y", got.GetY(), want[1]))
}

func expectFeature(name string, got *collidev1.Feature, want feature) error {
	return expectEqual(name, feature{got.GetType(), got.GetIndex()}, want)
}

// ok checks that the result was answered and carries the wanted kind (a Go
// type from the QueryResult oneof, such as *collidev1.QueryResult_Cast).
func ok[Kind any](result *collidev1.QueryResult, kindName string) error {
	if code := result.GetStatus().GetCode(); code != 0 {
		return fmt.Errorf("status is %s (%s), expected OK", codes.Code(code),
			result.GetStatus().GetMessage())
	}
	if _, isKind := result.Result.(Kind); !isKind {
		return fmt.Errorf("result is %T, expected %s", result.Result, kindName)
	}
	return nil
}

func castHit(fraction float64, want contact) check {
	return func(result *collidev1.QueryResult) error {
		if err := ok[*collidev1.QueryResult_Cast](result, "cast"); err != nil {
			return err
		}
		hits := result.GetCast().GetHits()
		if err := expectEqual("cast.hits count", len(hits), 1); err != nil {
			return err
		}
		hit := hits[0]
		return firstError(
			expectNear("cast.hits[0].fraction", hit.Fraction, fraction),
			expectEqual("cast.hits[0].status", hit.Status,
				collidev1.HitStatus_HIT_STATUS_HIT),
			expectVec("cast.hits[0].point", hit.Point, want.point),
			expectVec("cast.hits[0].normal", hit.Normal, want.normal),
			expectEqual("cast.hits[0].shape_id", hit.ShapeId, want.shapeID),
			expectEqual("cast.hits[0].user_data", hit.UserData, want.userData),
			expectFeature("cast.hits[0].feature", hit.Feature, want.feature))
	}
}

func miss() check {
	return func(result *collidev1.QueryResult) error {
		return firstError(ok[*collidev1.QueryResult_Cast](result, "cast"),
			expectEqual("cast.hits count", len(result.GetCast().GetHits()), 0))
	}
}

func overlap(want []shapeRef) check {
	return func(result *collidev1.QueryResult) error {
		if err := ok[*collidev1.QueryResult_Overlap](result,
			"overlap"); err != nil {
			return err
		}
		var got []shapeRef
		for _, shape := range result.GetOverlap().GetShapes() {
			got = append(got, shapeRef{shape.ShapeId, shape.UserData})
		}
		return expectEqual("overlap.shapes", fmt.Sprint(got), fmt.Sprint(want))
	}
}

func closestPoint(distance float64, want contact) check {
	return func(result *collidev1.QueryResult) error {
		if err := ok[*collidev1.QueryResult_ClosestPoint](result,
			"closest_point"); err != nil {
			return err
		}
		found := result.GetClosestPoint()
		return firstError(
			expectEqual("closest_point.found", found.Found, true),
			expectNear("closest_point.distance", found.Distance, distance),
			expectVec("closest_point.point", found.Point, want.point),
			expectVec("closest_point.normal", found.Normal, want.normal),
			expectEqual("closest_point.shape_id", found.ShapeId, want.shapeID),
			expectEqual("closest_point.user_data", found.UserData,
				want.userData),
			expectFeature("closest_point.feature", found.Feature, want.feature))
	}
}

func pairContact(fraction float64, point, normal xy, want feature) check {
	return func(result *collidev1.QueryResult) error {
		if err := ok[*collidev1.QueryResult_PairToi](result,
			"pair_toi"); err != nil {
			return err
		}
		pair := result.GetPairToi()
		return firstError(
			expectEqual("pair_toi.hit", pair.Hit, true),
			expectNear("pair_toi.fraction", pair.Fraction, fraction),
			expectVec("pair_toi.point", pair.Point, point),
			expectVec("pair_toi.normal", pair.Normal, normal),
			expectFeature("pair_toi.feature", pair.Feature, want))
	}
}

// swingHit checks a swing's outcome, id and certified bracket: the contact
// at `fraction` lies in [fraction, turn.fraction_hi], at most 2^-30 wide.
func swingHit(outcome collidev1.ShotOutcome, id uint64,
	fraction float64) check {
	return func(result *collidev1.QueryResult) error {
		if err := ok[*collidev1.QueryResult_HitValidation](result,
			"hit_validation"); err != nil {
			return err
		}
		shot := result.GetHitValidation()
		if err := firstError(
			expectEqual("hit_validation.outcome", shot.Outcome, outcome),
			expectEqual("hit_validation.id", shot.Id, id),
			expectEqual("hit_validation.turn.status", shot.GetTurn().GetStatus(),
				collidev1.TurnStatus_TURN_STATUS_HIT),
			expectNear("hit_validation.fraction", shot.Fraction,
				fraction)); err != nil {
			return err
		}
		if !(shot.Fraction <= fraction+tolerance &&
			fraction <= shot.GetTurn().GetFractionHi()+tolerance) {
			return fmt.Errorf("hit_validation's bracket [%v, %v] does not hold %v",
				shot.Fraction, shot.GetTurn().GetFractionHi(), fraction)
		}
		return nil
	}
}

// refused checks that the query was refused with code and a message that
// names field, and answered nothing.
func refused(code codes.Code, field string) check {
	return func(result *collidev1.QueryResult) error {
		status := result.GetStatus()
		if err := expectEqual("status.code", codes.Code(status.GetCode()),
			code); err != nil {
			return err
		}
		if !strings.Contains(status.GetMessage(), field) {
			return fmt.Errorf("status.message %q does not name %q",
				status.GetMessage(), field)
		}
		if result.Result != nil {
			return fmt.Errorf("result is %T, expected none", result.Result)
		}
		return nil
	}
}

// number formats a coordinate for people: shortest form, no "-0".
func number(value float64) string {
	return strconv.FormatFloat(value+0, 'g', -1, 64)
}

// describe is one readable line for the summary.
func describe(result *collidev1.QueryResult) string {
	if status := result.GetStatus(); status.GetCode() != 0 {
		return fmt.Sprintf("%s: %s", codes.Code(status.GetCode()),
			status.GetMessage())
	}
	switch answer := result.Result.(type) {
	case *collidev1.QueryResult_Cast:
		if len(answer.Cast.Hits) == 0 {
			return "miss"
		}
		hit := answer.Cast.Hits[0]
		return fmt.Sprintf(
			"hit shape %d at fraction %s, point (%s, %s), normal (%s, %s)",
			hit.ShapeId, number(hit.Fraction), number(hit.Point.GetX()),
			number(hit.Point.GetY()), number(hit.Normal.GetX()),
			number(hit.Normal.GetY()))
	case *collidev1.QueryResult_Overlap:
		var ids []string
		for _, shape := range answer.Overlap.Shapes {
			ids = append(ids, strconv.FormatUint(shape.ShapeId, 10))
		}
		return fmt.Sprintf("overlaps shapes [%s]", strings.Join(ids, ", "))
	case *collidev1.QueryResult_PairToi:
		pair := answer.PairToi
		if !pair.Hit {
			return "no contact"
		}
		return fmt.Sprintf("contact at fraction %s, point (%s, %s)",
			number(pair.Fraction), number(pair.Point.GetX()),
			number(pair.Point.GetY()))
	case *collidev1.QueryResult_HitValidation:
		shot := answer.HitValidation
		what := strings.ToLower(strings.TrimPrefix(shot.Outcome.String(),
			"SHOT_OUTCOME_"))
		return fmt.Sprintf("%s %d at fraction %s", what, shot.Id,
			number(shot.Fraction))
	case *collidev1.QueryResult_ClosestPoint:
		found := answer.ClosestPoint
		return fmt.Sprintf("shape %d at (%s, %s), distance %s", found.ShapeId,
			number(found.Point.GetX()), number(found.Point.GetY()),
			number(found.Distance))
	}
	return fmt.Sprintf("unexpected result %T", result.Result)
}

// checkBatch checks the stream's response as a whole: answered, for the
// batch sent, on the level version put, with a result per query.
func checkBatch(response *collidev1.StreamQueriesResponse, batchID uint64,
	levelVersion int64, queryCount int) error {
	return firstError(
		expectEqual("batch status", codes.Code(response.GetStatus().GetCode()),
			codes.OK),
		expectEqual("batch_id", response.BatchId, batchID),
		expectEqual("level_version", response.LevelVersion, levelVersion),
		expectEqual("number of results", len(response.Results), queryCount))
}
