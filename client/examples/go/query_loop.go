package main

// The query loop of --loop_seconds: a caller that keeps querying through
// server drains and loses nothing.
//
// For --loop_seconds (or until SIGINT or SIGTERM) it sends Client.Run calls
// one after another on one goroutine and keeps up to loopWindow batches in
// flight on a collide.QueryStream on another, against a level every server
// holds (--loop_level; the bundled levels/arena by default). Every answer
// must be complete and bitwise the same as the first answer to the same
// batch.
//
// The package keeps the calls whole while a server drains (SIGTERM: the
// server sends GOAWAY, lets unary calls finish, answers the batches each
// stream has read and ends the stream with UNAVAILABLE, and cancels what is
// left when its grace runs out): collide.ServiceConfig resends a unary call
// that failed with UNAVAILABLE or CANCELLED and makes it wait for a
// connection while no server is listening; the QueryStream keeps every
// batch until its answer arrives and resends the unanswered ones on a new
// call when one ends with UNAVAILABLE or CANCELLED.

import (
	"bytes"
	"context"
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
	// Batches in flight on the stream.
	loopWindow = 4
	// Rays per batch.
	loopRays = 4
)

// rayQueries is loopRays rays across the middle of the level.
func rayQueries() []*collidev1.Query {
	queries := make([]*collidev1.Query, loopRays)
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
	firstAnswer                    []byte
}

// check reports whether results are complete and as the first answer was.
func (t *tally) check(where string, results []*collidev1.QueryResult) bool {
	var answer []byte
	complete := len(results) == loopRays
	for _, result := range results {
		encoded, err := proto.MarshalOptions{Deterministic: true}.Marshal(result)
		complete = complete && err == nil && collide.Check(result) == nil
		answer = append(answer, encoded...)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.firstAnswer == nil {
		t.firstAnswer = answer
	}
	if complete && bytes.Equal(answer, t.firstAnswer) {
		return true
	}
	t.mismatches++
	fmt.Printf("query_loop: %s: the answer differs from the first one\n", where)
	return false
}

func (t *tally) add(counter *int, n int) {
	t.mu.Lock()
	*counter += n
	t.mu.Unlock()
}

func unaryLoop(ctx context.Context, client *collide.Client, level string,
	t *tally) {
	for ctx.Err() == nil {
		// A fresh context: the loop's end must not cancel a call in flight.
		results, err := client.Run(context.Background(), level, rayQueries()...)
		if err != nil {
			fmt.Printf("query_loop: RunQueries: %v\n", err)
			t.add(&t.unaryFailed, 1)
			continue
		}
		if t.check("RunQueries", results) {
			t.add(&t.unaryAnswered, 1)
		}
	}
}

// streamLoop keeps loopWindow batches in flight until ctx is done, then
// waits for the last ones and closes the stream. Returns its reopens.
func streamLoop(ctx context.Context, client *collide.Client, level string,
	t *tally, timeout time.Duration) int {
	stream, err := client.Stream(level, collide.StreamOptions{
		Window: loopWindow, Timeout: timeout})
	if err != nil {
		fmt.Printf("query_loop: %v\n", err)
		t.add(&t.batchesFailed, 1)
		return 0
	}
	var inFlight []*collide.Batch // oldest first
	for ctx.Err() == nil || len(inFlight) > 0 {
		for ctx.Err() == nil && len(inFlight) < loopWindow {
			batch, err := stream.Submit(context.Background(), rayQueries()...)
			if err != nil {
				fmt.Printf("query_loop: StreamQueries: %v\n", err)
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
			fmt.Printf("query_loop: StreamQueries: %v\n", err)
			t.add(&t.batchesFailed, 1)
		case response.GetStatus().GetCode() != 0:
			fmt.Printf("query_loop: %v\n",
				&collide.BatchRefused{Response: response})
			t.add(&t.batchesFailed, 1)
		case t.check("StreamQueries", response.GetResults()):
			t.add(&t.batchesAnswered, 1)
		}
	}
	if err := stream.Close(); err != nil {
		fmt.Printf("query_loop: StreamQueries: %v\n", err)
	}
	return stream.Reopens()
}

// runLoop runs both loops for `seconds` or until SIGINT/SIGTERM and prints
// the summary. Returns the exit status: 0 when every call was answered as
// the first one was, 1 when an answer differed or a call failed.
func runLoop(client *collide.Client, level string, seconds float64) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt,
		syscall.SIGTERM)
	defer stop()
	length := time.Duration(seconds * float64(time.Second))
	ctx, cancel := context.WithTimeout(ctx, length)
	defer cancel()
	t := &tally{}
	reopens := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		unaryLoop(ctx, client, level, t)
	}()
	go func() {
		defer wg.Done()
		// A stream call lives as long as the loop, plus time to finish.
		reopens = streamLoop(ctx, client, level, t,
			length+collide.DefaultTimeout)
	}()
	wg.Wait()
	fmt.Printf("loop: %d unary calls answered, %d failed; %d stream "+
		"batches answered, %d failed; %d stream reopens\n", t.unaryAnswered,
		t.unaryFailed, t.batchesAnswered, t.batchesFailed, reopens)
	if t.unaryFailed > 0 || t.batchesFailed > 0 || t.mismatches > 0 {
		return 1
	}
	return 0
}
