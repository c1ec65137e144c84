// A batching query stream that survives server drains.
//
// QueryStream keeps one StreamQueries call open while it has batches and up
// to `window` batches in flight on it; later batches wait, in order, for
// room. submit() returns a promise of the batch's StreamQueriesResponse.
// Every batch is kept until its answer arrives; when the call ends with
// UNAVAILABLE or CANCELLED (a server draining or going away) the stream
// opens a new call and resends the unanswered batches in order, with their
// batch ids (queries are read-only, so a batch answered twice is harmless),
// at most MAX_REOPENS times in a row without an answer in between. A call
// that ends with nothing unanswered is reopened only when the next batch
// comes. Any other error rejects every batch not yet answered and fails the
// stream.
'use strict';

const grpc = require('@grpc/grpc-js');
const {readMetadata} = require('./connection');
const {BatchRefused, StreamClosed, isRefused} = require('./errors');
const {numbered} = require('./names');

// New calls in a row that may end before answering anything.
const MAX_REOPENS = 3;
const RESENDABLE = [grpc.status.UNAVAILABLE, grpc.status.CANCELLED];

class QueryStream {
  // `stub`: a CollisionService client; `level`: "levels/ID". window: batches
  // in flight at most (>= 1). timeoutMs: each call's deadline from its
  // start (default none: a stream lives as long as its caller uses it).
  constructor(stub, level, options = {}) {
    const window = options.window ?? 4;
    if (!Number.isInteger(window) || window < 1) {
      throw new RangeError(`window must be an integer >= 1, got ${window}`);
    }
    this.window = window;
    // New calls opened to resend unanswered batches, in all.
    this.reopens = 0;
    this._stub = stub;
    this._level = level;
    this._timeoutMs = options.timeoutMs;
    // Batch id -> {request, resolve, reject}, oldest first; the first
    // `_sent` of them are written on the current call.
    this._pending = new Map();
    this._sent = 0;
    this._nextId = 1;
    this._call = null;
    this._callEnded = false;  // end() was called on _call
    this._reopensInARow = 0;
    this._closing = false;
    this._closed = null;  // resolves close()'s promise
    this._error = null;
  }

  // Sends one batch (once fewer than `window` are in flight); resolves with
  // its response, whose status may refuse the whole batch.
  submit(queries) {
    if (this._closing || this._error) {
      return Promise.reject(new StreamClosed(
          this._error ? `the stream failed: ${this._error.message}` :
                        'the stream is closed'));
    }
    const request = {
      level: this._level,
      batch_id: this._nextId++,
      queries: numbered(queries),
    };
    const promise = new Promise((resolve, reject) => {
      this._pending.set(request.batch_id, {request, resolve, reject});
    });
    // A failing stream rejects every batch at once; one whose promise the
    // caller has not awaited yet (or dropped) must not end the process as
    // an unhandled rejection. Awaiting it still throws.
    promise.catch(() => {});
    if (this._call) {
      this._fill();
    } else {
      this._open();
    }
    return promise;
  }

  // submit() and wait: the batch's results; rejects with BatchRefused when
  // the server refused the whole batch.
  async query(queries) {
    const response = await this.submit(queries);
    if (isRefused(response.status)) throw new BatchRefused(response);
    return response.results;
  }

  // Waits for every batch submitted, then ends the call. Resolves once the
  // call is over.
  close() {
    if (!this._closing) {
      this._closing = true;
      this._closedPromise = new Promise((resolve) => {
        this._closed = resolve;
      });
      this._maybeFinish();
    }
    return this._closedPromise;
  }

  _open() {
    const call = this._stub.StreamQueries(readMetadata(), {
      deadline: this._timeoutMs === undefined ? Infinity :
                                                Date.now() + this._timeoutMs,
    });
    this._call = call;
    this._callEnded = false;
    this._sent = 0;
    let failure = null;
    call.on('data', (response) => {
      // Answers still buffered when the call failed are resent instead.
      if (this._call !== call) return;
      this._answer(response);
    });
    // A failed call emits 'error' and then 'status'.
    call.on('error', (error) => {
      failure = error;
    });
    call.on('status', (status) => {
      if (this._call !== call) return;
      this._call = null;
      this._sent = 0;
      if (status.code === grpc.status.OK) {
        this._ended();
      } else {
        this._failed(failure || Object.assign(new Error(status.details), {
          code: status.code,
          details: status.details,
        }));
      }
    });
    this._fill();
  }

  // Writes waiting batches while fewer than `window` are in flight.
  _fill() {
    const batches = Array.from(this._pending.values());
    while (this._sent < batches.length && this._sent < this.window) {
      this._call.write(batches[this._sent].request);
      ++this._sent;
    }
  }

  _answer(response) {
    const entry = this._pending.get(Number(response.batch_id));
    if (entry === undefined) return;  // a resent batch answered twice
    this._pending.delete(Number(response.batch_id));
    --this._sent;
    this._reopensInARow = 0;
    entry.resolve(response);
    if (this._pending.size > 0) {
      this._fill();
    } else {
      this._maybeFinish();
    }
  }

  // The call ended with OK: the request side was closed, so nothing should
  // be left.
  _ended() {
    if (this._pending.size > 0) {
      this._fail(new StreamClosed(
          'the server ended the stream with batches unanswered'));
    }
    this._maybeFinish();
  }

  _failed(error) {
    if (this._pending.size === 0) {
      this._maybeFinish();  // reopened by the next submit()
      return;
    }
    if (RESENDABLE.includes(error.code) && this._reopensInARow < MAX_REOPENS) {
      ++this._reopensInARow;
      ++this.reopens;
      this._open();
      return;
    }
    this._fail(error);
  }

  _fail(error) {
    this._error = error;
    const pending = Array.from(this._pending.values());
    this._pending.clear();
    for (const entry of pending) entry.reject(error);
    if (this._call) {
      this._call.cancel();
      this._call = null;
    }
    this._maybeFinish();
  }

  // When closing with nothing left: ends the call (its status then finishes
  // the close) or, with no call open, finishes the close now.
  _maybeFinish() {
    if (!this._closing || this._pending.size > 0) return;
    if (this._call) {
      if (!this._callEnded) {
        this._callEnded = true;
        this._call.end();
      }
    } else if (this._closed) {
      this._closed();
    }
  }
}

module.exports = {
  QueryStream,
  MAX_REOPENS
};
