// Command collide_example calls a collide server from Go through the
// client package (github.com/collide-dev/collide/client/go): it puts a
// level, sends one batch of mixed queries on a QueryStream and a packed
// batch of rays (twice: varint, then fixed-width result columns), runs a
// fog-of-war tick on the bundled level levels/arena (fog_of_war.go: which
// enemies each of three players sees, and one player's visibility
// polygon), checks every result against an answer worked out by hand,
// then deletes the level it put.
//
// It builds from Debian 12's packages alone (no module downloads); see
// README.md next to this file:
//
//	collide_example --address=127.0.0.1:50051
//
// LevelService writes (PutLevel, DeleteLevel) go to --admin_address, with
// the token from --admin_token_file as "authorization: Bearer <token>"
// metadata when one is given; queries go to --address. Both use TLS when
// --tls_ca_file is given, plaintext otherwise. collide.Dial sets all of
// that up, with the package's retry policy (collide.ServiceConfig).
//
// With --loop_seconds=S it instead queries --loop_level (the bundled
// levels/arena by default) in a loop for S seconds, or until SIGINT/SIGTERM,
// through a unary loop and a QueryStream, and prints how many calls were
// answered and how many failed (query_loop.go): a caller that survives
// server drains.
//
// Exit status (docs/tools.md): 0 when every result matches; 1 naming the
// query and the field of every mismatch, or when a call fails (server
// unreachable, level refused, deadline passed) or a file cannot be read;
// 2 for a bad command line (an unknown or malformed flag, TLS flags that
// do not go together). -help exits 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	collide "github.com/collide-dev/collide/client/go"
	collidev1 "github.com/collide-dev/collide/client/go/collidev1"
	"google.golang.org/grpc/status"
)

const levelID = "example-go"

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
	fogLevel = flag.String("fog_level", "levels/arena",
		"the level of the fog-of-war tick (fog_of_war.go; its known "+
			"answers are the bundled level's)")
)

// exit prints message and ends the process with code.
func exit(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "collide_example: "+format+"\n", args...)
	os.Exit(code)
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
		exit(2, "unexpected argument %q", flag.Arg(0))
	}
	// gRPC-Go before 1.40 applies the retry policy only when the process
	// starts with GRPC_GO_RETRY=on: this runs the program again with it.
	if err := collide.EnableRetries(); err != nil {
		exit(2, "%v", err)
	}
	settings, err := tlsSettings()
	if err != nil {
		exit(2, "%v", err)
	}
	// Dial does not wait for the server: calls wait for it up to their
	// deadline. What fails here is a TLS or token file.
	client, err := collide.Dial(*address, collide.Options{
		AdminAddress: *adminAddress, TLS: settings,
		AdminTokenFile: *adminTokenFile})
	if err != nil {
		exit(1, "%v", err)
	}
	code := 0
	if *loopSeconds > 0 {
		code = runLoop(client, *loopLevel, *loopSeconds)
	} else {
		code = run(client)
	}
	client.Close()
	os.Exit(code)
}

// tlsSettings is TLS from the --tls_* flags when --tls_ca_file is given,
// nil (plaintext) otherwise. The other --tls_* flags without a CA, or a
// certificate without its key, are refused rather than ignored.
func tlsSettings() (*collide.TLS, error) {
	if *tlsCAFile == "" {
		for _, needsCA := range []struct{ name, value string }{
			{"tls_cert_file", *tlsCertFile},
			{"tls_key_file", *tlsKeyFile},
			{"tls_server_name", *tlsServerName},
		} {
			if needsCA.value != "" {
				return nil, fmt.Errorf("--%s needs --tls_ca_file",
					needsCA.name)
			}
		}
		return nil, nil
	}
	if (*tlsCertFile == "") != (*tlsKeyFile == "") {
		return nil, fmt.Errorf("--tls_cert_file and --tls_key_file go together")
	}
	return &collide.TLS{CAFile: *tlsCAFile, CertFile: *tlsCertFile,
		KeyFile: *tlsKeyFile, ServerName: *tlsServerName}, nil
}

// run puts the level, streams and checks, and deletes the level whatever
// happened in between. Returns the exit status.
func run(client *collide.Client) int {
	put, err := client.PutLevel(context.Background(), exampleLevel())
	if err != nil {
		callFailed(*adminAddress, "PutLevel", err)
		return 1
	}
	fmt.Printf("put %s: version %d, %d shapes\n", put.Level, put.Version,
		put.ShapeCount)

	code, err := streamAndCheck(client, put.Version)
	if err != nil {
		callFailed(*address, "StreamQueries", err)
	} else if code == 0 {
		if code, err = packedRaysAndCheck(client); err != nil {
			callFailed(*address, "RunQueries", err)
		}
	}
	if err == nil && code == 0 {
		if code, err = fogOfWarAndCheck(client, *fogLevel); err != nil {
			callFailed(*address, "RunQueries", err)
		}
	}
	if err != nil {
		code = 1
	}
	// Delete even after a mismatch or a failed call, so reruns start clean.
	deleted, err := client.DeleteLevel(context.Background(), levelID)
	if err != nil {
		callFailed(*adminAddress, "DeleteLevel", err)
		return 1
	}
	fmt.Printf("deleted %s (version %d)\n", collide.LevelName(levelID),
		deleted)
	return code
}

// callFailed reports a failed call with its gRPC status.
func callFailed(target, method string, err error) {
	s := status.Convert(err)
	fmt.Fprintf(os.Stderr, "collide_example: %s: %s: %s: %s\n", target,
		method, s.Code(), s.Message())
}

// streamAndCheck sends the example batch on a QueryStream and checks the
// answers. Returns 0 when all match, 1 on a mismatch (each reported on
// stderr), or the error of a failed call.
func streamAndCheck(client *collide.Client, levelVersion int64) (int, error) {
	examples := exampleQueries()
	queries := make([]*collidev1.Query, len(examples))
	for i, example := range examples {
		queries[i] = example.query
	}
	// One stream per caller, kept open: a game submits a batch a tick.
	// Here it carries one batch; Close waits for its answer.
	stream, err := client.Stream(levelID, collide.StreamOptions{
		Timeout: collide.DefaultTimeout})
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(),
		collide.DefaultTimeout)
	defer cancel()
	batch, err := stream.Submit(ctx, queries...)
	var response *collidev1.StreamQueriesResponse
	if err == nil {
		response, err = batch.Wait(ctx)
	}
	if closeErr := stream.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return 0, err
	}

	if err := checkBatch(response, batch.ID, levelVersion,
		len(examples)); err != nil {
		fmt.Fprintf(os.Stderr, "collide_example: stream: %v\n", err)
		return 1, nil
	}
	var failures []string
	for i, result := range response.Results {
		mark := "ok"
		// Submit numbers the queries 1..n; each result carries its id.
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
