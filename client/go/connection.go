package collide

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// ServiceConfig is the service config every collide channel should use.
// Read-only calls (every CollisionService call and the LevelService reads)
// that fail with UNAVAILABLE (the server went away before answering) or
// CANCELLED (a draining server cancelled them) are resent, up to 5 attempts
// after a random backoff of up to 0.1, 0.2, 0.4, 0.8 s, and wait for a
// connection up to their deadline while no server is reachable. Writes
// (PutLevel, PatchLevel, DeleteLevel) are left out: a write whose answer was
// lost may have happened. gRPC does not retry a stream once an answer has
// arrived on it; QueryStream resends a stream's unanswered batches itself.
// gRPC-Go before 1.40 applies the retry policy only with GRPC_GO_RETRY=on:
// see EnableRetries.
const ServiceConfig = `{"methodConfig": [{
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

// retryEnvironment is the variable gRPC-Go before 1.40 reads, once, while
// its packages initialise (before main runs), to apply a retryPolicy at
// all.
const retryEnvironment = "GRPC_GO_RETRY"

// EnableRetries makes gRPC-Go apply ServiceConfig's retry policy. With a
// gRPC-Go older than 1.40 (Debian 12 ships 1.33) and GRPC_GO_RETRY not
// "on", it runs the program again in place (the same process id, arguments
// and environment plus GRPC_GO_RETRY=on) and does not return; call it first
// thing in main. It returns nil when nothing needs doing, the reason when
// the program cannot be run again.
func EnableRetries() error {
	var major, minor int
	if _, err := fmt.Sscanf(grpc.Version, "%d.%d", &major, &minor); err != nil ||
		major > 1 || minor >= 40 ||
		strings.EqualFold(os.Getenv(retryEnvironment), "on") {
		return nil
	}
	self, err := os.Executable()
	if err == nil {
		err = syscall.Exec(self, os.Args,
			append(os.Environ(), retryEnvironment+"=on"))
	}
	return fmt.Errorf("gRPC-Go %s retries only with %s=on: %w",
		grpc.Version, retryEnvironment, err)
}

// TLS is a channel's TLS settings; every file is PEM.
type TLS struct {
	// CAFile holds the CAs that sign the server's certificate ("": the
	// system's roots).
	CAFile string
	// CertFile and KeyFile together: a client certificate for mutual TLS.
	CertFile, KeyFile string
	// ServerName is the name the server's certificate carries when it does
	// not name the address.
	ServerName string
}

// Credentials are the transport credentials of these settings.
func (t *TLS) Credentials() (credentials.TransportCredentials, error) {
	config := &tls.Config{ServerName: t.ServerName, MinVersion: tls.VersionTLS12}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("TLS CAFile: %w", err)
		}
		config.RootCAs = x509.NewCertPool()
		if !config.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("TLS CAFile: no PEM certificate in %s",
				t.CAFile)
		}
	}
	if (t.CertFile == "") != (t.KeyFile == "") {
		return nil, errors.New("TLS: CertFile and KeyFile go together")
	}
	if t.CertFile != "" {
		pair, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("TLS CertFile, KeyFile: %w", err)
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return credentials.NewTLS(config), nil
}

// DialOptions are the options of a channel to a collide server:
// ServiceConfig, and TLS when tls is not nil (plaintext otherwise).
func DialOptions(tls *TLS) ([]grpc.DialOption, error) {
	options := []grpc.DialOption{grpc.WithDefaultServiceConfig(ServiceConfig)}
	if tls == nil {
		// gRPC-Go 1.33 predates credentials/insecure.
		return append(options, grpc.WithInsecure()), nil
	}
	creds, err := tls.Credentials()
	if err != nil {
		return nil, err
	}
	return append(options, grpc.WithTransportCredentials(creds)), nil
}

// ReadToken is the admin bearer token in path without surrounding
// whitespace (files usually end in a newline); an empty file is an error.
func ReadToken(path string) (string, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	token := strings.TrimSpace(string(content))
	if token == "" {
		return "", fmt.Errorf("admin token: %s is empty", path)
	}
	return token, nil
}
