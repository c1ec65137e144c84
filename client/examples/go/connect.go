package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
)

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
		return nil, cannotStart("--tls_ca_file: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, cannotStart("--tls_ca_file: no PEM certificate in %s",
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
			return nil, cannotStart("--tls_cert_file, --tls_key_file: %v", err)
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
