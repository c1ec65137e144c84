// Channels to a collide server: plaintext or TLS (mutual TLS with a client
// certificate), the service config every collide caller should use, and the
// admin bearer token.
//
// The service config resends read-only calls (every CollisionService call
// and the LevelService reads) that fail with UNAVAILABLE (the server went
// away before answering) or CANCELLED (a draining server cancelled them), up
// to 5 attempts after a random backoff of up to 0.1, 0.2, 0.4, 0.8 s. Its
// waitForReady is parsed but not applied by grpc-js, so the client sets it
// in those calls' metadata options instead (readMetadata): they wait for a
// connection up to their deadline while no server is reachable. Writes
// (PutLevel, PatchLevel, DeleteLevel) are left out: a write whose answer was
// lost may have happened. gRPC does not retry a stream once an answer has
// arrived on it; QueryStream resends a stream's unanswered batches itself.
'use strict';

const fs = require('fs');
const grpc = require('@grpc/grpc-js');

const SERVICE_CONFIG = JSON.stringify({
  methodConfig: [{
    name: [
      {service: 'collide.v1.CollisionService'},
      {service: 'collide.v1.LevelService', method: 'ListLevels'},
      {service: 'collide.v1.LevelService', method: 'DescribeLevel'},
      {service: 'collide.v1.LevelService', method: 'GetLevel'},
    ],
    waitForReady: true,
    retryPolicy: {
      maxAttempts: 5,
      initialBackoff: '0.1s',
      maxBackoff: '1s',
      backoffMultiplier: 2,
      retryableStatusCodes: ['UNAVAILABLE', 'CANCELLED'],
    },
  }],
});

function readFile(path) {
  return path ? fs.readFileSync(path) : null;
}

// Channel credentials for `tls` ({caFile, certFile, keyFile, serverName},
// each file PEM; caFile absent: the system's roots; certFile and keyFile
// together: a client certificate for mutual TLS), plaintext without it.
function credentials(tls) {
  if (!tls) return grpc.credentials.createInsecure();
  if (Boolean(tls.certFile) !== Boolean(tls.keyFile)) {
    throw new TypeError('tls: certFile and keyFile go together');
  }
  return grpc.credentials.createSsl(
      readFile(tls.caFile), readFile(tls.keyFile), readFile(tls.certFile));
}

// grpc-js channel options: the service config and retries, and the name the
// server's certificate carries when it does not name the address.
function channelOptions(tls) {
  const options = {
    'grpc.service_config': SERVICE_CONFIG,
    'grpc.enable_retries': 1,
  };
  if (tls && tls.serverName) {
    options['grpc.ssl_target_name_override'] = tls.serverName;
  }
  return options;
}

// The admin token: `token`, else the first line of `tokenFile`; undefined
// with neither.
function readToken(token, tokenFile) {
  if (!token && tokenFile) {
    token = fs.readFileSync(tokenFile, 'utf8').split('\n')[0].trim();
  }
  return token || undefined;
}

// Metadata for an admin call: "authorization: Bearer TOKEN" when a token is
// given.
function tokenMetadata(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

// Metadata for a read-only call: it waits for a connection (up to its
// deadline) instead of failing while no server is listening.
function readMetadata() {
  return new grpc.Metadata({waitForReady: true});
}

module.exports = {
  SERVICE_CONFIG,
  credentials,
  channelOptions,
  readToken,
  tokenMetadata,
  readMetadata,
};
