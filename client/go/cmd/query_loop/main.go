// Command query_loop queries a level in a loop through package collide
// until --loop_seconds pass or SIGINT/SIGTERM arrives, on two goroutines:
// Client.Run calls one after another, and a QueryStream with batches in
// flight. Every answer must be complete and the same as the first answer
// to the same batch; the package's retry policy (EnableRetries) and the
// stream's resends carry the calls through server drains.
//
//	query_loop --address=HOST:PORT --loop_seconds=S [--level=arena]
//
// Prints "loop: N unary calls answered, F failed; B stream batches
// answered, G failed; R stream reopens". Exit status: 0 nothing failed or
// differed; 1 a call failed or an answer differed; 2 a bad command line.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	collide "github.com/collide-dev/collide/client/go"
	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/protobuf/proto"
)

const (
	rays   = 4 // queries per batch
	window = 4 // batches in flight on the stream
)

func rayQueries() []*collidev1.Query {
	queries := make([]*collidev1.Query, rays)
	for i := range queries {
		queries[i] = collide.Ray(collide.Vec(0, float64(i)), collide.Vec(20, 0))
	}
	return queries
}

// tally counts what both loops did; the first answer is kept to compare.
type tally struct {
	mu                             sync.Mutex
	unaryAnswered, unaryFailed     int
	batchesAnswered, batchesFailed int
	mismatches                     int
	first                          []byte
}

func (t *tally) add(counter *int, n int) {
	t.mu.Lock()
	*counter += n
	t.mu.Unlock()
}

// sameAsFirst reports whether results are complete and as the first
// answer was.
func (t *tally) sameAsFirst(results []*collidev1.QueryResult) bool {
	var answer []byte
	ok := len(results) == rays
	for _, result := range results {
		encoded, err := proto.MarshalOptions{Deterministic: true}.Marshal(result)
		ok = ok && err == nil && collide.Check(result) == nil
		answer = append(answer, encoded...)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.first == nil {
		t.first = answer
	}
	if ok && bytes.Equal(answer, t.first) {
		return true
	}
	t.mismatches++
	fmt.Println("query_loop: an answer differs from the first one")
	return false
}

func unaryLoop(ctx context.Context, client *collide.Client, level string,
	t *tally) {
	for ctx.Err() == nil {
		results, err := client.Run(context.Background(), level, rayQueries()...)
		if err != nil {
			fmt.Printf("query_loop: RunQueries: %v\n", err)
			t.add(&t.unaryFailed, 1)
			continue
		}
		if t.sameAsFirst(results) {
			t.add(&t.unaryAnswered, 1)
		}
	}
}

// streamLoop keeps window batches in flight until ctx is done, then waits
// for the last ones. Returns the stream's reopens.
func streamLoop(ctx context.Context, client *collide.Client, level string,
	t *tally) int {
	stream, err := client.Stream(level, collide.StreamOptions{Window: window})
	if err != nil {
		fmt.Printf("query_loop: %v\n", err)
		t.add(&t.batchesFailed, 1)
		return 0
	}
	var inFlight []*collide.Batch
	for ctx.Err() == nil || len(inFlight) > 0 {
		for ctx.Err() == nil && len(inFlight) < window {
			batch, err := stream.Submit(context.Background(), rayQueries()...)
			if err != nil {
				fmt.Printf("query_loop: stream: %v\n", err)
				t.add(&t.batchesFailed, 1)
				break
			}
			inFlight = append(inFlight, batch)
		}
		if len(inFlight) == 0 {
			break
		}
		response, err := inFlight[0].Wait(context.Background())
		inFlight = inFlight[1:]
		switch {
		case err != nil:
			fmt.Printf("query_loop: stream: %v\n", err)
			t.add(&t.batchesFailed, 1)
		case response.GetStatus().GetCode() != 0:
			fmt.Printf("query_loop: %v\n", &collide.BatchRefused{Response: response})
			t.add(&t.batchesFailed, 1)
		case t.sameAsFirst(response.GetResults()):
			t.add(&t.batchesAnswered, 1)
		}
	}
	if err := stream.Close(); err != nil {
		fmt.Printf("query_loop: stream: %v\n", err)
	}
	return stream.Reopens()
}

func main() {
	address := flag.String("address", "127.0.0.1:50051",
		"the server's query port, host:port")
	level := flag.String("level", "arena", "the level to query")
	seconds := flag.Float64("loop_seconds", 10, "how long to loop")
	flag.Parse() // exits 2 on a bad flag
	if flag.NArg() != 0 || *seconds <= 0 {
		fmt.Fprintln(os.Stderr,
			"query_loop: takes flags only, --loop_seconds above 0")
		os.Exit(2)
	}
	if err := collide.EnableRetries(); err != nil {
		fmt.Fprintf(os.Stderr, "query_loop: %v\n", err)
		os.Exit(1)
	}
	os.Exit(run(*address, *level, time.Duration(*seconds*float64(time.Second))))
}

// run loops for length or until SIGINT/SIGTERM and prints the summary.
// Returns the exit status.
func run(address, level string, length time.Duration) int {
	client, err := collide.Dial(address, collide.Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "query_loop: %v\n", err)
		return 1
	}
	defer client.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt,
		syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, length)
	defer cancel()
	t := &tally{}
	var wg sync.WaitGroup
	var reopens int
	wg.Add(2)
	go func() {
		defer wg.Done()
		unaryLoop(ctx, client, level, t)
	}()
	go func() {
		defer wg.Done()
		reopens = streamLoop(ctx, client, level, t)
	}()
	wg.Wait()
	fmt.Printf("loop: %d unary calls answered, %d failed; %d stream batches "+
		"answered, %d failed; %d stream reopens\n", t.unaryAnswered,
		t.unaryFailed, t.batchesAnswered, t.batchesFailed, reopens)
	if t.unaryFailed > 0 || t.batchesFailed > 0 || t.mismatches > 0 {
		return 1
	}
	return 0
}
