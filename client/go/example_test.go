package collide_test

import (
	"context"
	"fmt"
	"log"

	collide "github.com/collide-dev/collide/client/go"
)

// The README's example; compiled by go vet and go test, run by nothing
// (it needs a server: cmd/known_answers is the one the suite runs).
func Example() {
	if err := collide.EnableRetries(); err != nil {
		log.Fatal(err)
	}
	client, err := collide.Dial("127.0.0.1:50051", collide.Options{
		AdminAddress: "127.0.0.1:50052", AdminTokenFile: "admin_token"})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	v := collide.Vec
	if _, err := client.PutLevel(ctx, collide.Level("demo",
		collide.Segment(1, v(10, -5), v(10, 5)),
		collide.Circle(2, v(0, 20), 2, collide.UserData(102)))); err != nil {
		log.Fatal(err)
	}
	results, err := client.Run(ctx, "demo", collide.Ray(v(0, 0), v(20, 0)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(results[0].GetCast().GetHits()[0].Fraction) // 0.5

	stream, err := client.Stream("demo", collide.StreamOptions{Window: 4})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	results, err = stream.Query(ctx,
		collide.Cast(collide.CircleBody(v(0, 0), 1), v(0, 20)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(collide.Check(results[0]))
}
