package collide

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// MaxReopens is how many new streams in a row a QueryStream opens that end
// before answering anything, before it gives up.
const MaxReopens = 3

// QueryStream sends batches of queries on a StreamQueries call, with up to
// a window of them in flight. Every batch is kept until its answer arrives;
// when the call ends with UNAVAILABLE or CANCELLED (a server draining or
// going away) the stream opens a new call and resends the unanswered
// batches in order, with their batch ids (queries are read-only, so a batch
// answered twice is harmless), at most MaxReopens times in a row without an
// answer in between. Any other error fails the batches in flight and the
// stream. A call is opened when the first batch is submitted, and again
// after one ended. Safe for concurrent use.
type QueryStream struct {
	stub    collidev1.CollisionServiceClient
	level   string
	timeout time.Duration // each call's deadline; 0: none
	window  int
	room    chan struct{} // one token per batch in flight
	base    context.Context
	cancel  context.CancelFunc
	done    chan struct{} // closed when run returns
	reopens atomic.Int64

	mu          sync.Mutex
	wake        *sync.Cond // signalled when there is work or closing
	pending     map[uint64]*pendingBatch
	nextBatchID uint64
	call        *call // the open call; nil between calls
	closing     bool
	err         error // what failed the stream
}

type pendingBatch struct {
	request *collidev1.StreamQueriesRequest
	batch   *Batch
}

// call is one StreamQueries call's requests to send; outbox holds at most
// window requests, one per pending batch.
type call struct {
	outbox chan *collidev1.StreamQueriesRequest
	closed bool
}

// Batch is a submitted batch: Wait for its response.
type Batch struct {
	ID       uint64
	done     chan struct{}
	response *collidev1.StreamQueriesResponse
	err      error
}

// Done is closed once the batch is answered or failed.
func (b *Batch) Done() <-chan struct{} { return b.done }

// Wait is the batch's response once it arrives (its Status may refuse the
// whole batch), or the error that failed the stream, or ctx's error.
func (b *Batch) Wait(ctx context.Context) (*collidev1.StreamQueriesResponse,
	error) {
	select {
	case <-b.done:
		return b.response, b.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// NewQueryStream is a QueryStream of stub on level (its full name,
// levels/{id}); Client.Stream makes one.
func NewQueryStream(stub collidev1.CollisionServiceClient, level string,
	options StreamOptions) (*QueryStream, error) {
	if options.Window == 0 {
		options.Window = 4
	}
	if options.Window < 1 {
		return nil, fmt.Errorf("collide: stream window must be at least 1, "+
			"got %d", options.Window)
	}
	s := &QueryStream{stub: stub, level: level, window: options.Window,
		timeout: options.Timeout,
		room:    make(chan struct{}, options.Window),
		done:    make(chan struct{}),
		pending: map[uint64]*pendingBatch{}, nextBatchID: 1}
	s.wake = sync.NewCond(&s.mu)
	s.base, s.cancel = context.WithCancel(context.Background())
	go s.run()
	return s, nil
}

// Reopens is how many calls the stream opened after one ended with
// UNAVAILABLE or CANCELLED.
func (s *QueryStream) Reopens() int { return int(s.reopens.Load()) }

// Submit sends one batch and returns it to Wait on; it blocks while the
// window is full, until ctx is done.
func (s *QueryStream) Submit(ctx context.Context,
	queries ...*collidev1.Query) (*Batch, error) {
	select {
	case s.room <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, s.closedError()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing || s.err != nil {
		<-s.room
		return nil, s.closedErrorLocked()
	}
	request := &collidev1.StreamQueriesRequest{Level: s.level,
		BatchId: s.nextBatchID, Queries: numbered(queries)}
	s.nextBatchID++
	batch := &Batch{ID: request.BatchId, done: make(chan struct{})}
	s.pending[batch.ID] = &pendingBatch{request: request, batch: batch}
	if s.call != nil {
		s.call.outbox <- request // never blocks: room for every pending batch
	}
	s.wake.Broadcast()
	return batch, nil
}

// Query submits a batch and waits for it: its results, a *BatchRefused when
// the server refused the whole batch.
func (s *QueryStream) Query(ctx context.Context,
	queries ...*collidev1.Query) ([]*collidev1.QueryResult, error) {
	batch, err := s.Submit(ctx, queries...)
	if err != nil {
		return nil, err
	}
	response, err := batch.Wait(ctx)
	if err != nil {
		return nil, err
	}
	if response.GetStatus().GetCode() != 0 {
		return nil, &BatchRefused{Response: response}
	}
	return response.GetResults(), nil
}

// Close waits for every batch in flight, then ends the call. It returns the
// error that failed the stream, if one did. With batches in flight, no
// server reachable and no StreamOptions.Timeout, it waits until a server
// answers them.
func (s *QueryStream) Close() error {
	s.mu.Lock()
	s.closing = true
	if len(s.pending) == 0 && s.call != nil {
		s.call.close()
	}
	s.wake.Broadcast()
	s.mu.Unlock()
	<-s.done
	s.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *QueryStream) closedError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closedErrorLocked()
}

func (s *QueryStream) closedErrorLocked() error {
	if s.err != nil {
		return fmt.Errorf("%w: %v", ErrStreamClosed, s.err)
	}
	return ErrStreamClosed
}

func (c *call) close() {
	if !c.closed {
		c.closed = true
		close(c.outbox)
	}
}

func (s *QueryStream) run() {
	defer close(s.done)
	reopensInARow := 0
	for {
		s.mu.Lock()
		for len(s.pending) == 0 && !s.closing {
			s.wake.Wait()
		}
		if len(s.pending) == 0 {
			s.mu.Unlock()
			return
		}
		current := &call{outbox: make(chan *collidev1.StreamQueriesRequest,
			s.window)}
		ids := make([]uint64, 0, len(s.pending))
		for id := range s.pending {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			current.outbox <- s.pending[id].request
		}
		s.call = current
		s.mu.Unlock()

		answered, err := s.serve(current)
		if answered {
			reopensInARow = 0
		}
		s.mu.Lock()
		current.close()
		s.call = nil
		waiting := len(s.pending) > 0
		closing := s.closing
		s.mu.Unlock()
		switch {
		case err == nil && waiting:
			s.fail(errors.New("the server ended the stream with batches " +
				"unanswered"))
			return
		case err == nil || (!waiting && closing):
			continue // idle until the next batch, or done
		}
		code := status.Code(err)
		if code != codes.Unavailable && code != codes.Canceled ||
			(waiting && reopensInARow >= MaxReopens) {
			s.fail(err)
			return
		}
		if waiting {
			reopensInARow++
		}
		s.reopens.Add(1)
	}
}

// serve runs one call: sends what current's outbox holds, delivers the
// responses, and returns whether any arrived and nil when the server ended
// the call normally (after the request side was closed), or why it ended.
func (s *QueryStream) serve(current *call) (bool, error) {
	ctx, cancel := context.WithCancel(s.base)
	if s.timeout > 0 {
		ctx, cancel = context.WithTimeout(s.base, s.timeout)
	}
	// Ends the call, and with it the sender, whatever ended the loop.
	defer cancel()
	stream, err := s.stub.StreamQueries(ctx)
	if err != nil {
		return false, err
	}
	go func() {
		for request := range current.outbox {
			// A Send on a call that has ended fails; Recv says why.
			if stream.Send(request) != nil {
				return
			}
		}
		stream.CloseSend()
	}()
	answered := false
	for {
		response, err := stream.Recv()
		if err == io.EOF {
			return answered, nil
		}
		if err != nil {
			return answered, err
		}
		answered = true
		s.answer(response)
	}
}

func (s *QueryStream) answer(response *collidev1.StreamQueriesResponse) {
	s.mu.Lock()
	entry := s.pending[response.GetBatchId()]
	delete(s.pending, response.GetBatchId())
	if s.closing && len(s.pending) == 0 && s.call != nil {
		s.call.close()
	}
	s.mu.Unlock()
	if entry != nil {
		entry.batch.response = response
		close(entry.batch.done)
		<-s.room
	}
}

func (s *QueryStream) fail(err error) {
	s.mu.Lock()
	s.err = err
	pending := s.pending
	s.pending = map[uint64]*pendingBatch{}
	s.mu.Unlock()
	for _, entry := range pending {
		entry.batch.err = err
		close(entry.batch.done)
		<-s.room
	}
}
