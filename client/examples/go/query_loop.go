package main

// The query loop of --loop_seconds: a caller that keeps querying through
// server drains and loses nothing.
//
// For --loop_seconds (or until SIGINT or SIGTERM) it sends RunQueries calls
// one after another on one goroutine and keeps up to loopWindow batches in
// flight on one StreamQueries stream on another, against a level every
// server holds (--loop_level; the bundled levels/arena by default). Every
// answer must be complete and bitwise the same as the first answer to the
// same batch.
//
// What keeps it whole while a server drains (SIGTERM: the server sends
// GOAWAY, lets unary calls finish, answers the batches each stream has read
// and ends the stream with UNAVAILABLE, and cancels what is left when its
// grace runs out):
//   - Unary calls: the connection's retry policy (serviceConfig in
//     connect.go) resends a call that failed with UNAVAILABLE or CANCELLED,
//     and waitForReady makes a call wait for a connection (up to its
//     deadline) while no server is listening.
//   - Streams: gRPC does not retry a stream once an answer has arrived on
//     it, so the loop keeps every batch until its answer arrives; when the
//     stream ends with UNAVAILABLE or CANCELLED it opens a new one and
//     resends the unanswered batches, in order and with their batch ids
//     (queries are read-only, so answering one twice is harmless), at most
//     loopMaxReopens times in a row without an answer in between.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

const (
	// Batches in flight on the stream.
	loopWindow = 4
	// Rays per batch.
	loopRays = 4
	// New streams in a row that may end before answering anything.
	loopMaxReopens = 3
)

// rayQueries is loopRays rays across the middle of the level, request ids
// 1..loopRays.
func rayQueries() []*collidev1.Query {
	queries := make([]*collidev1.Query, 0, loopRays)
	for i := 0; i < loopRays; i++ {
		queries = append(queries, &collidev1.Query{
			RequestId: uint64(i + 1),
			Query: &collidev1.Query_RayCast{RayCast: &collidev1.RayCastQuery{
				Origin: vec(0, float64(i)), Translation: vec(20, 0)}},
		})
	}
	return queries
}

// tally counts what both loops did; the first answer is kept to compare.
type tally struct {
	mu                             sync.Mutex
	unaryAnswered, unaryFailed     int
	batchesAnswered, batchesFailed int
	reopens, mismatches            int
	firstAnswer                    []byte
}

// check reports whether results are complete and as the first answer was.
func (t *tally) check(where string, results []*collidev1.QueryResult) bool {
	var answer []byte
	complete := len(results) == loopRays
	for _, result := range results {
		encoded, err := proto.MarshalOptions{Deterministic: true}.Marshal(result)
		complete = complete && err == nil && result.GetStatus().GetCode() == 0
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

func (t *tally) summary() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprintf("loop: %d unary calls answered, %d failed; %d stream "+
		"batches answered, %d failed; %d stream reopens", t.unaryAnswered,
		t.unaryFailed, t.batchesAnswered, t.batchesFailed, t.reopens)
}

func unaryLoop(collisions collidev1.CollisionServiceClient, level string,
	stopping *atomic.Bool, t *tally) {
	request := &collidev1.RunQueriesRequest{Level: level, Queries: rayQueries()}
	for !stopping.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		response, err := collisions.RunQueries(ctx, request)
		cancel()
		if err != nil {
			s := status.Convert(err)
			fmt.Printf("query_loop: RunQueries: %s: %s\n", s.Code(), s.Message())
			t.add(&t.unaryFailed, 1)
			continue
		}
		if t.check("RunQueries", response.Results) {
			t.add(&t.unaryAnswered, 1)
		}
	}
}

// oneStream runs one StreamQueries call: it resends *unanswered, keeps
// loopWindow batches in flight until the loop stops, and returns nil once
// everything sent is answered, or the error that ended the call.
func oneStream(collisions collidev1.CollisionServiceClient, level string,
	stopping *atomic.Bool, t *tally, unanswered *[]*collidev1.StreamQueriesRequest,
	nextBatchID *uint64, reopensInARow *int, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	stream, err := collisions.StreamQueries(ctx)
	if err != nil {
		return err
	}
	// A Send on a call that has ended returns io.EOF; Recv returns why.
	for _, batch := range *unanswered {
		if err := stream.Send(batch); err != nil && err != io.EOF {
			return err
		}
	}
	for {
		for !stopping.Load() && len(*unanswered) < loopWindow {
			batch := &collidev1.StreamQueriesRequest{
				Level: level, BatchId: *nextBatchID, Queries: rayQueries()}
			*nextBatchID++
			*unanswered = append(*unanswered, batch)
			if err := stream.Send(batch); err != nil && err != io.EOF {
				return err
			}
		}
		if len(*unanswered) == 0 {
			break
		}
		response, err := stream.Recv()
		if err == io.EOF {
			// The server ended the call without answering everything.
			fmt.Printf("query_loop: the stream ended with %d batches "+
				"unanswered\n", len(*unanswered))
			t.add(&t.batchesFailed, len(*unanswered))
			*unanswered = nil
			return nil
		}
		if err != nil {
			return err
		}
		sent := (*unanswered)[0]
		*unanswered = (*unanswered)[1:]
		*reopensInARow = 0
		switch {
		case response.GetStatus().GetCode() != 0:
			fmt.Printf("query_loop: batch %d refused: %s\n", sent.BatchId,
				response.GetStatus().GetMessage())
			t.add(&t.batchesFailed, 1)
		case response.BatchId == sent.BatchId &&
			t.check("StreamQueries", response.Results):
			t.add(&t.batchesAnswered, 1)
		}
	}
	if err := stream.CloseSend(); err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func streamLoop(collisions collidev1.CollisionServiceClient, level string,
	stopping *atomic.Bool, t *tally, timeout time.Duration) {
	var unanswered []*collidev1.StreamQueriesRequest // oldest first
	nextBatchID := uint64(1)
	reopensInARow := 0
	for !(stopping.Load() && len(unanswered) == 0) {
		err := oneStream(collisions, level, stopping, t, &unanswered,
			&nextBatchID, &reopensInARow, timeout)
		if err == nil || (len(unanswered) == 0 && stopping.Load()) {
			return
		}
		code := status.Code(err)
		if (code == codes.Unavailable || code == codes.Canceled) &&
			reopensInARow < loopMaxReopens {
			reopensInARow++
			t.add(&t.reopens, 1)
			s := status.Convert(err)
			fmt.Printf("query_loop: the stream ended (%s: %s): resending %d "+
				"batches on a new one\n", s.Code(), s.Message(), len(unanswered))
			continue
		}
		s := status.Convert(err)
		fmt.Printf("query_loop: StreamQueries: %s: %s\n", s.Code(), s.Message())
		t.add(&t.batchesFailed, len(unanswered))
		return
	}
}

// runLoop runs both loops for `seconds` or until SIGINT/SIGTERM and prints
// the summary. Returns the exit status: 0 when every call was answered as
// the first one was, 1 when an answer differed or a call failed.
func runLoop(conn *grpc.ClientConn, level string, seconds float64) int {
	collisions := collidev1.NewCollisionServiceClient(conn)
	var stopping atomic.Bool
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	length := time.Duration(seconds * float64(time.Second))
	go func() {
		select {
		case <-signals:
		case <-time.After(length):
		}
		stopping.Store(true)
	}()
	t := &tally{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		unaryLoop(collisions, level, &stopping, t)
	}()
	go func() {
		defer wg.Done()
		// A stream lives as long as the loop, plus time to finish.
		streamLoop(collisions, level, &stopping, t, length+deadline)
	}()
	wg.Wait()
	fmt.Println(t.summary())
	switch {
	case t.unaryFailed > 0 || t.batchesFailed > 0 || t.mismatches > 0:
		return 1
	}
	return 0
}
