// The errors the package adds to grpc-js's (a failed call rejects with a
// grpc-js ServiceError: code, details, metadata).
'use strict';

const grpc = require('@grpc/grpc-js');

// A query's result carried a non-OK status (check()).
class QueryRefused extends Error {
  constructor(result) {
    super(`query ${result.request_id}: status ${result.status.code}: ${
        result.status.message}`);
    this.name = 'QueryRefused';
    this.result = result;
  }
}

// The server refused a whole batch (its response's status is not OK: an
// unknown level, a stale expected_content_hash, a full server).
class BatchRefused extends Error {
  constructor(response) {
    super(`batch ${response.batch_id}: status ${response.status.code}: ${
        response.status.message}`);
    this.name = 'BatchRefused';
    this.response = response;
  }
}

// submit() on a stream that was closed or failed, or a stream the server
// ended with batches unanswered.
class StreamClosed extends Error {
  constructor(message) {
    super(message);
    this.name = 'StreamClosed';
  }
}

// A missing status (null: the server left it unset) is OK.
function isRefused(status) {
  return Boolean(status) && status.code !== 0;
}

// The result, or a thrown QueryRefused when the server refused that query.
function check(result) {
  if (isRefused(result.status)) throw new QueryRefused(result);
  return result;
}

// A gRPC status code's name (14: "UNAVAILABLE"); the number for a code
// gRPC does not define.
function statusName(code) {
  return grpc.status[code] ?? String(code);
}

module.exports = {
  QueryRefused,
  BatchRefused,
  StreamClosed,
  isRefused,
  check,
  statusName,
};
