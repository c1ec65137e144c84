// Command collide_example calls a collide server from Go: it puts a level,
// streams one batch of mixed queries and a packed batch of rays (twice:
// varint, then fixed-width result columns), checks every result against an
// answer worked out by hand, then deletes the level.
//
// It builds from Debian 12's packages alone (no module downloads); see
// README.md next to this file:
//
//	collide_example --address=127.0.0.1:50051
//
// LevelService writes (PutLevel, DeleteLevel) go to --admin_address, with
// the token from --admin_token_file as "authorization: Bearer <token>"
// metadata when one is given; queries go to --address. Both use TLS when
// --tls_ca_file is given, plaintext otherwise.
//
// With --loop_seconds=S it instead queries --loop_level (the bundled
// levels/arena by default) in a loop for S seconds, or until SIGINT/SIGTERM,
// through a unary loop and a stream, and prints how many calls were
// answered and how many failed (query_loop.go): a caller that survives
// server drains.
//
// Exit status (docs/tools.md): 0 when every result matches; 1 naming the
// query and the field of every mismatch, or when a call fails (server
// unreachable, level refused, deadline passed) or a file cannot be read;
// 2 for a bad command line (an unknown or malformed flag, TLS flags that
// do not go together, an address that does not parse). -help exits 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

const (
	levelID = "example-go"
	level   = "levels/" + levelID
	// Every call gets a deadline, so a stuck server fails the example
	// instead of hanging it.
	deadline = 10 * time.Second
)

var (
	address = flag.String("address", "127.0.0.1:50051",
		"collide server's query port, host:port (CollisionService)")
	adminAddress = flag.String("admin_address", "127.0.0.1:50052",
		"where LevelService writes go: the server's admin listener, "+
			"host:port (collide_server --admin_listen)")
	adminTokenFile = flag.String("admin_token_file", "",
		"file holding the admin bearer token, sent as \"authorization: "+
			"Bearer <token>\" on LevelService writes (default: none)")
	tlsCAFile = flag.String("tls_ca_file", "",
		"PEM CA certificates to verify the server with; turns TLS on "+
			"(default: plaintext)")
	tlsCertFile = flag.String("tls_cert_file", "",
		"PEM client certificate for mutual TLS (with --tls_key_file)")
	tlsKeyFile = flag.String("tls_key_file", "",
		"PEM private key of --tls_cert_file")
	tlsServerName = flag.String("tls_server_name", "",
		"name to verify the server's certificate against (default: the "+
			"host in the address)")
	loopSeconds = flag.Float64("loop_seconds", 0,
		"instead of the check, query --loop_level in a loop for this long "+
			"(or until SIGINT/SIGTERM) and count failed calls "+
			"(query_loop.go)")
	loopLevel = flag.String("loop_level", "levels/arena",
		"the level the loop queries")
)

// exitError carries the process exit status up to main.
type exitError struct {
	code    int
	message string
}

func (e *exitError) Error() string { return e.message }

// cannotStart: a bad command line (exit status 2).
func cannotStart(format string, args ...any) error {
	return &exitError{code: 2, message: fmt.Sprintf(format, args...)}
}

// cannotRead: a file a flag names cannot be read or used (exit status 1).
func cannotRead(format string, args ...any) error {
	return &exitError{code: 1, message: fmt.Sprintf(format, args...)}
}

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "%s\n\nUsage: %s [flags]\n",
			"Puts a level on a collide server, streams a batch of queries, "+
				"checks the answers, deletes the level.", os.Args[0])
		flag.PrintDefaults()
	}
	flag.Parse() // exits 2 on an unknown or malformed flag
	if flag.NArg() != 0 {
		fmt.Fprintf(os.Stderr, "collide_example: unexpected argument %q\n",
			flag.Arg(0))
		os.Exit(2)
	}
	if err := enableRetries(); err != nil {
		fmt.Fprintf(os.Stderr, "collide_example: %v\n", err)
		os.Exit(2)
	}
	code, err := run()
	if err != nil {
		fmt.Fprintf(os.Stderr, "collide_example: %v\n", err)
	}
	os.Exit(code)
}

// run connects, puts the level, streams and checks, and deletes the level
// whatever happened in between. Returns the exit status.
func run() (int, error) {
	dialOption, err := transportOption()
	if err != nil {
		if e, ok := err.(*exitError); ok {
			return e.code, err
		}
		return 2, err
	}
	token, err := readAdminToken(*adminTokenFile)
	if err != nil {
		return 1, err
	}
	// Dial does not wait for the server: an unreachable one fails the
	// first write with UNAVAILABLE (reads wait for it until their deadline).
	config := grpc.WithDefaultServiceConfig(serviceConfig)
	queryConn, err := grpc.Dial(*address, dialOption, config)
	if err != nil {
		return 2, cannotStart("%s: %v", *address, err)
	}
	defer queryConn.Close()
	if *loopSeconds > 0 {
		return runLoop(queryConn, *loopLevel, *loopSeconds), nil
	}
	adminConn := queryConn
	if *adminAddress != *address {
		if adminConn, err = grpc.Dial(*adminAddress, dialOption, config); err != nil {
			return 2, cannotStart("%s: %v", *adminAddress, err)
		}
		defer adminConn.Close()
	}
	levels := collidev1.NewLevelServiceClient(adminConn)
	collisions := collidev1.NewCollisionServiceClient(queryConn)

	ctx, cancel := adminContext(token)
	put, err := levels.PutLevel(ctx, &collidev1.PutLevelRequest{
		Level: level, Content: exampleLevel()})
	cancel()
	if err != nil {
		return 1, callFailed(*adminAddress, "PutLevel", err)
	}
	fmt.Printf("put %s: version %d, %d shapes\n", put.Summary.Level,
		put.Summary.Version, put.Summary.ShapeCount)

	code, streamErr := streamAndCheck(collisions, put.Summary.Version)
	if streamErr == nil && code == 0 {
		code, streamErr = packedRaysAndCheck(collisions)
	}
	if streamErr != nil {
		code = 1
		streamErr = callFailed(*address, "StreamQueries", streamErr)
		fmt.Fprintf(os.Stderr, "collide_example: %v\n", streamErr)
	}
	// Delete even after a mismatch or a failed stream, so reruns start
	// clean.
	ctx, cancel = adminContext(token)
	deleted, err := levels.DeleteLevel(ctx,
		&collidev1.DeleteLevelRequest{Level: level})
	cancel()
	if err != nil {
		return 1, callFailed(*adminAddress, "DeleteLevel", err)
	}
	fmt.Printf("deleted %s (version %d)\n", level, deleted.DeletedVersion)
	return code, nil
}

func callFailed(target, method string, err error) error {
	s := status.Convert(err)
	return fmt.Errorf("%s: %s: %s: %s", target, method, s.Code(), s.Message())
}

// streamBatch sends one batch on a StreamQueries call and returns every
// response once the server ends the call.
func streamBatch(collisions collidev1.CollisionServiceClient,
	batch *collidev1.StreamQueriesRequest) (
	[]*collidev1.StreamQueriesResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	stream, err := collisions.StreamQueries(ctx)
	if err != nil {
		return nil, err
	}
	// One batch, then the request side closes; the server answers it and
	// ends the call. A game keeps the stream open and sends a batch a tick.
	if err := stream.Send(batch); err != nil && err != io.EOF {
		return nil, err
	}
	if err := stream.CloseSend(); err != nil {
		return nil, err
	}
	var responses []*collidev1.StreamQueriesResponse
	for {
		response, err := stream.Recv()
		if err == io.EOF {
			return responses, nil
		}
		if err != nil {
			return nil, err
		}
		responses = append(responses, response)
	}
}

// streamAndCheck sends the example batch on one StreamQueries call and
// checks the answers. Returns 0 when all match, 1 on a mismatch (each
// reported on stderr), or the error of a failed call.
func streamAndCheck(collisions collidev1.CollisionServiceClient,
	levelVersion int64) (int, error) {
	examples := exampleQueries()
	batch := &collidev1.StreamQueriesRequest{Level: level, BatchId: 7}
	for i, example := range examples {
		example.query.RequestId = uint64(i + 1)
		batch.Queries = append(batch.Queries, example.query)
	}

	responses, err := streamBatch(collisions, batch)
	if err != nil {
		return 0, err
	}

	if err := checkBatch(responses, batch, levelVersion,
		len(examples)); err != nil {
		fmt.Fprintf(os.Stderr, "collide_example: stream: %v\n", err)
		return 1, nil
	}
	var failures []string
	for i, result := range responses[0].Results {
		mark := "ok"
		err := expectEqual("request_id", result.RequestId, uint64(i+1))
		if err == nil {
			err = examples[i].want(result)
		}
		if err != nil {
			failures = append(failures,
				fmt.Sprintf("query %d (%s): %v", i+1, examples[i].name, err))
			mark = "MISMATCH"
		}
		fmt.Printf("  %d %-8s %-38s %s\n", i+1, mark, examples[i].name,
			describe(result))
	}
	for _, failure := range failures {
		fmt.Fprintf(os.Stderr, "collide_example: %s\n", failure)
	}
	if len(failures) > 0 {
		return 1, nil
	}
	fmt.Printf("all %d results match the known answers\n", len(examples))
	return 0, nil
}
