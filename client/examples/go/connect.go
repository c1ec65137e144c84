package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
)

// serviceConfig is the connections' service config. Read-only calls
// (every CollisionService call, and the LevelService reads) are resent when
// they fail with UNAVAILABLE (the server went away before answering) or
// CANCELLED (a draining server cancelled it; this program cancels none of
// its calls), up to 5 attempts in all, after a random backoff of up to
// 0.1 s, 0.2 s, 0.4 s, 0.8 s; and they wait for a connection (up to their
// deadline) while no server is reachable, instead of failing at once. gRPC
// does not retry a stream once an answer has arrived on it: query_loop.go
// shows how to resend its unanswered batches. Writes (PutLevel, PatchLevel,
// DeleteLevel) are left out: a write whose answer was lost may have
// happened.
const serviceConfig = `{"methodConfig": [{
  "name": [{"service": "collide.v1.CollisionService"},
           {"service": "collide.v1.LevelService", "method": "ListLevels"},
           {"service": "collide.v1.LevelService", "method": "DescribeLevel"},
           {"service": "collide.v1.LevelService", "method": "GetLevel"}],
  "waitForReady": true,
  "retryPolicy": {
    "maxAttempts": 5,
    "initialBackoff": "0.1s",
    "maxBackoff": "1s",
    "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"]
  }
}]}`

// retryEnvironment is the variable gRPC-Go before 1.40 needs set to "on" to
// apply a retryPolicy at all; it reads it once, while packages initialise,
// before main runs. Later versions retry without it.
const retryEnvironment = "GRPC_GO_RETRY"

// enableRetries makes sure gRPC-Go applies serviceConfig's retryPolicy: with
// a gRPC-Go older than 1.40 and GRPC_GO_RETRY not "on", it runs this program
// again in place (same process id, arguments and environment, plus
// GRPC_GO_RETRY=on) and does not return. Returns nil when nothing needs to
// be done.
func enableRetries() error {
	var major, minor int
	if _, err := fmt.Sscanf(grpc.Version, "%d.%d", &major, &minor); err != nil ||
		major > 1 || minor >= 40 ||
		strings.EqualFold(os.Getenv(retryEnvironment), "on") {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return cannotStart("gRPC-Go %s retries only with %s=on: %v",
			grpc.Version, retryEnvironment, err)
	}
	err = syscall.Exec(self, os.Args,
		append(os.Environ(), retryEnvironment+"=on"))
	return cannotStart("gRPC-Go %s retries only with %s=on: %v",
		grpc.Version, retryEnvironment, err)
}

// transportOption is TLS from the --tls_* flags when --tls_ca_file is
// given, plaintext otherwise. The other --tls_* flags without a CA are
// refused rather than silently ignored.
func transportOption() (grpc.DialOption, error) {
	if *tlsCAFile == "" {
		for _, needsCA := range []struct{ name, value string }{
			{"tls_cert_file", *tlsCertFile},
			{"tls_key_file", *tlsKeyFile},
			{"tls_server_name", *tlsServerName},
		} {
			if needsCA.value != "" {
				return nil, cannotStart("--%s needs --tls_ca_file",
					needsCA.name)
			}
		}
		// grpc-go 1.33 (Debian 12) predates credentials/insecure.
		return grpc.WithInsecure(), nil
	}
	pem, err := os.ReadFile(*tlsCAFile)
	if err != nil {
		return nil, cannotRead("--tls_ca_file: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, cannotRead("--tls_ca_file: no PEM certificate in %s",
			*tlsCAFile)
	}
	config := &tls.Config{
		RootCAs:    roots,
		ServerName: *tlsServerName,
		MinVersion: tls.VersionTLS12,
	}
	if (*tlsCertFile == "") != (*tlsKeyFile == "") {
		return nil, cannotStart(
			"--tls_cert_file and --tls_key_file go together")
	}
	if *tlsCertFile != "" {
		pair, err := tls.LoadX509KeyPair(*tlsCertFile, *tlsKeyFile)
		if err != nil {
			return nil, cannotRead("--tls_cert_file, --tls_key_file: %v", err)
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return grpc.WithTransportCredentials(credentials.NewTLS(config)), nil
}

// readAdminToken returns the bearer token in path without surrounding
// whitespace (files usually end in a newline), or "" when path is "".
func readAdminToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	content, err := os.ReadFile(path)
	if err != nil {
		return "", cannotStart("--admin_token_file: %v", err)
	}
	token := strings.TrimSpace(string(content))
	if token == "" {
		return "", cannotStart("--admin_token_file: %s is empty", path)
	}
	return token, nil
}

// adminContext is the context for one LevelService write: the call's
// deadline and, when there is a token, its authorization metadata.
func adminContext(token string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	if token != "" {
		ctx = metadata.AppendToOutgoingContext(ctx,
			"authorization", "Bearer "+token)
	}
	return ctx, cancel
}
