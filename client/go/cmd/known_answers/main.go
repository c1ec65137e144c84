// Command known_answers runs the six known-answer queries every collide
// client package checks, through package collide: it puts a small level,
// answers the queries with Client.Run and a QueryStream, compares each
// answer with one worked out by hand, and deletes the level.
//
//	known_answers --address=HOST:PORT [--admin_address=HOST:PORT]
//	    [--admin_token_file=F] [--tls_ca_file=F --tls_cert_file=F
//	    --tls_key_file=F --tls_server_name=NAME]
//
// Exit status: 0 every answer matches; 1 a call failed, the server refused
// something or an answer differs (each named on stderr); 2 a bad command
// line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"

	collide "github.com/collide-dev/collide/client/go"
	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc/status"
)

const level = "known-answers-go"

// exampleLevel is a wall (x = 10), a pillar (radius 2 at (0, 20)) and a
// crate (the square around (-10, 0) of half-size 1; its right side is edge
// 1).
func exampleLevel() *collidev1.Level {
	v := collide.Vec
	return collide.Level(level,
		collide.Segment(1, v(10, -5), v(10, 5), collide.UserData(101)),
		collide.Circle(2, v(0, 20), 2, collide.UserData(102)),
		collide.Box(3, v(-10, 0), v(1, 1), 0, collide.UserData(103)))
}

// answer is what a query must give: a cast's single hit, an overlap's
// shape ids, a closest point, or a miss (every field zero).
type answer struct {
	hit     *collidev1.CastHit
	overlap []uint64
	closest *collidev1.ClosestPointResult
	miss    bool
}

type knownAnswer struct {
	name  string
	query *collidev1.Query
	want  answer
}

func hit(fraction float64, point, normal *collidev1.Vec2, shapeID uint64,
	feature collidev1.FeatureType, index int32) answer {
	return answer{hit: &collidev1.CastHit{Fraction: fraction, Point: point,
		Normal: normal, ShapeId: shapeID,
		Feature: &collidev1.Feature{Type: feature, Index: index}}}
}

func knownAnswers() []knownAnswer {
	v := collide.Vec
	edge := collidev1.FeatureType_FEATURE_TYPE_EDGE
	surface := collidev1.FeatureType_FEATURE_TYPE_SURFACE
	return []knownAnswer{
		{"ray hits the wall", collide.Ray(v(0, 0), v(20, 0)),
			hit(0.5, v(10, 0), v(-1, 0), 1, edge, 0)},
		{"circle hits the pillar",
			collide.Cast(collide.CircleBody(v(0, 0), 1), v(0, 20)),
			hit(0.85, v(0, 18), v(0, -1), 2, surface, 0)},
		{"triangle hits the crate",
			collide.Cast(collide.PolygonBody(v(-1, 0), v(0, -1), v(0, 1)),
				v(-20, 0)),
			hit(0.4, v(-9, 0), v(1, 0), 3, edge, 1)},
		{"disc overlaps wall and crate",
			collide.Overlap(collide.CircleBody(v(5, 0), 15)),
			answer{overlap: []uint64{1, 3}}},
		{"closest point on the pillar",
			collide.ClosestPointWithin(v(0, 25), 10),
			answer{closest: &collidev1.ClosestPointResult{Found: true,
				Point: v(0, 22), Distance: 3, ShapeId: 2}}},
		{"ray misses", collide.Ray(v(0, 0), v(0, -20)), answer{miss: true}},
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

func nearVec(a, b *collidev1.Vec2) bool {
	return near(a.GetX(), b.GetX()) && near(a.GetY(), b.GetY())
}

// difference is what differs between a result and its answer ("": it
// matches).
func difference(result *collidev1.QueryResult, want answer) string {
	if err := collide.Check(result); err != nil {
		return err.Error()
	}
	switch {
	case want.hit != nil || want.miss:
		hits := result.GetCast().GetHits()
		if want.miss {
			if len(hits) != 0 {
				return fmt.Sprintf("%d hits, expected a miss", len(hits))
			}
			return ""
		}
		if len(hits) != 1 {
			return fmt.Sprintf("%d hits, expected 1", len(hits))
		}
		got, w := hits[0], want.hit
		if !near(got.Fraction, w.Fraction) || !nearVec(got.Point, w.Point) ||
			!nearVec(got.Normal, w.Normal) || got.ShapeId != w.ShapeId ||
			got.GetFeature().GetType() != w.Feature.Type ||
			got.GetFeature().GetIndex() != w.Feature.Index {
			return fmt.Sprintf("got fraction %g point %v normal %v shape %d "+
				"feature %v %d; expected fraction %g point %v normal %v "+
				"shape %d feature %v %d", got.Fraction, got.GetPoint(),
				got.GetNormal(), got.ShapeId, got.GetFeature().GetType(),
				got.GetFeature().GetIndex(), w.Fraction, w.Point, w.Normal,
				w.ShapeId, w.Feature.Type, w.Feature.Index)
		}
	case want.overlap != nil:
		var ids []uint64
		for _, shape := range result.GetOverlap().GetShapes() {
			ids = append(ids, shape.GetShapeId())
		}
		if fmt.Sprint(ids) != fmt.Sprint(want.overlap) {
			return fmt.Sprintf("shapes %v, expected %v", ids, want.overlap)
		}
	default:
		got, w := result.GetClosestPoint(), want.closest
		if !got.GetFound() || !nearVec(got.GetPoint(), w.Point) ||
			!near(got.GetDistance(), w.Distance) || got.GetShapeId() != w.ShapeId {
			return fmt.Sprintf("got found %t point %v distance %g shape %d; "+
				"expected point %v distance %g shape %d", got.GetFound(),
				got.GetPoint(), got.GetDistance(), got.GetShapeId(), w.Point,
				w.Distance, w.ShapeId)
		}
	}
	return ""
}

// compare prints a line per case and returns how many differ.
func compare(how string, results []*collidev1.QueryResult,
	cases []knownAnswer) int {
	failures := 0
	for i, c := range cases {
		problem := "no result"
		if i < len(results) {
			problem = difference(results[i], c.want)
		}
		mark := "ok"
		if problem != "" {
			mark = "MISMATCH"
			failures++
			fmt.Fprintf(os.Stderr, "known_answers: %s: %s: %s\n", how, c.name,
				problem)
		}
		fmt.Printf("  %-8s %-8s %s\n", how, mark, c.name)
	}
	if len(results) != len(cases) {
		fmt.Fprintf(os.Stderr, "known_answers: %s: %d results for %d queries\n",
			how, len(results), len(cases))
		failures++
	}
	return failures
}

func queriesOf(cases []knownAnswer) []*collidev1.Query {
	queries := make([]*collidev1.Query, len(cases))
	for i, c := range cases {
		queries[i] = c.query
	}
	return queries
}

// check runs the cases through Run and a stream; returns the mismatches,
// or the method and error of a failed call.
func check(ctx context.Context, client *collide.Client) (int, string, error) {
	cases := knownAnswers()
	results, err := client.Run(ctx, level, queriesOf(cases)...)
	if err != nil {
		return 0, "RunQueries", err
	}
	failures := compare("run", results, cases)
	stream, err := client.Stream(level, collide.StreamOptions{})
	if err != nil {
		return 0, "StreamQueries", err
	}
	cases = knownAnswers()
	results, err = stream.Query(ctx, queriesOf(cases)...)
	if closeErr := stream.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return 0, "StreamQueries", err
	}
	return failures + compare("stream", results, cases), "", nil
}

// describe is a failed call's status, or the error of a stream that
// failed.
func describe(err error) string {
	var withStatus interface{ GRPCStatus() *status.Status }
	if errors.As(err, &withStatus) {
		s := withStatus.GRPCStatus()
		return fmt.Sprintf("%s: %s", s.Code(), s.Message())
	}
	return err.Error()
}

func run(address string, options collide.Options) int {
	fmt.Printf("collide client %s\n", collide.Version)
	client, err := collide.Dial(address, options)
	if err != nil {
		fmt.Fprintf(os.Stderr, "known_answers: %v\n", err)
		return 1
	}
	defer client.Close()
	ctx := context.Background()
	summary, err := client.PutLevel(ctx, exampleLevel())
	if err != nil {
		fmt.Fprintf(os.Stderr, "known_answers: %s: PutLevel: %s\n",
			options.AdminAddress, describe(err))
		return 1
	}
	fmt.Printf("put %s: %d shapes\n", summary.GetLevel(), summary.GetShapeCount())
	failures, method, err := check(ctx, client)
	if err != nil {
		fmt.Fprintf(os.Stderr, "known_answers: %s: %s: %s\n", address, method,
			describe(err))
		failures++
	}
	// Deleted even after a mismatch, so reruns start clean.
	if _, err := client.DeleteLevel(ctx, level); err != nil {
		fmt.Fprintf(os.Stderr, "known_answers: %s: DeleteLevel: %s\n",
			options.AdminAddress, describe(err))
		return 1
	}
	if failures > 0 {
		return 1
	}
	fmt.Println("all known answers match")
	return 0
}

func main() {
	address := flag.String("address", "127.0.0.1:50051",
		"the server's query port, host:port")
	adminAddress := flag.String("admin_address", "127.0.0.1:50052",
		"the server's admin listener, host:port")
	tokenFile := flag.String("admin_token_file", "",
		"file holding the admin bearer token")
	caFile := flag.String("tls_ca_file", "", "PEM CAs of the server; turns TLS on")
	certFile := flag.String("tls_cert_file", "",
		"PEM client certificate for mutual TLS")
	keyFile := flag.String("tls_key_file", "", "PEM key of --tls_cert_file")
	serverName := flag.String("tls_server_name", "",
		"the name the server's certificate carries; turns TLS on")
	flag.Parse() // exits 2 on a bad flag
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "known_answers: unexpected argument %q\n",
			flag.Arg(0))
		os.Exit(2)
	}
	if (*certFile == "") != (*keyFile == "") {
		fmt.Fprintln(os.Stderr,
			"known_answers: --tls_cert_file and --tls_key_file go together")
		os.Exit(2)
	}
	options := collide.Options{AdminAddress: *adminAddress,
		AdminTokenFile: *tokenFile}
	if *caFile != "" || *certFile != "" || *serverName != "" {
		options.TLS = &collide.TLS{CAFile: *caFile, CertFile: *certFile,
			KeyFile: *keyFile, ServerName: *serverName}
	}
	os.Exit(run(*address, options))
}
