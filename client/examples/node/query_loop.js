// The query loop of example.js --loop_seconds: a caller that keeps querying
// through server drains and loses nothing.
//
// For --loop_seconds (or until SIGINT or SIGTERM) it sends RunQueries calls
// one after another and keeps up to WINDOW batches in flight on one
// StreamQueries stream, both at once, against a level every server holds
// (--loop_level; the bundled levels/arena by default). Every answer must be
// complete and the same as the first answer to the same batch.
//
// What keeps it whole while a server drains (SIGTERM: the server sends
// GOAWAY, lets unary calls finish, answers the batches each stream has read
// and ends the stream with UNAVAILABLE, and cancels what is left when its
// grace runs out):
// - Unary calls: the channel's retry policy (SERVICE_CONFIG in example.js)
//   resends a call that failed with UNAVAILABLE or CANCELLED, and
//   waitForReady (in each call's metadata: waitForReady below) makes a
//   call wait for a connection (up to its deadline) while no server is
//   listening.
// - Streams: gRPC does not retry a stream once an answer has arrived on it,
//   so the loop keeps every batch until its answer arrives; when the stream
//   ends with UNAVAILABLE or CANCELLED it opens a new one and resends the
//   unanswered batches, in order and with their batch ids (queries are
//   read-only, so answering one twice is harmless), at most MAX_REOPENS
//   times in a row without an answer in between.
'use strict';

// Batches in flight on the stream.
const WINDOW = 4;
// Rays per batch.
const RAYS = 4;
// New streams in a row that may end before answering anything.
const MAX_REOPENS = 3;

// Ray casts across the middle of the level, RAYS of them, request ids
// 1..RAYS.
function rayQueries() {
  const queries = [];
  for (let i = 0; i < RAYS; ++i) {
    queries.push({
      request_id: i + 1,
      ray_cast: {origin: {x: 0, y: i}, translation: {x: 20, y: 0}},
    });
  }
  return queries;
}

// Counts of both loops; the first answer kept to compare.
class Tally {
  constructor() {
    this.unaryAnswered = 0;
    this.unaryFailed = 0;
    this.batchesAnswered = 0;
    this.batchesFailed = 0;
    this.reopens = 0;
    this.mismatches = 0;
    this.firstAnswer = null;
  }

  // True when `results` is complete and as the first answer was.
  check(where, results) {
    const answer = JSON.stringify(results);
    if (this.firstAnswer === null) this.firstAnswer = answer;
    if (results.length === RAYS && answer === this.firstAnswer &&
        results.every((r) => !r.status || r.status.code === 0)) {
      return true;
    }
    ++this.mismatches;
    console.log(`query_loop: ${where}: the answer differs from the first one`);
    return false;
  }

  summary() {
    return `loop: ${this.unaryAnswered} unary calls answered, ${
               this.unaryFailed} failed; ${
               this.batchesAnswered} stream batches ` +
        `answered, ${this.batchesFailed} failed; ${
               this.reopens} stream reopens`;
  }
}

// Call metadata that makes a call wait for a connection (up to its
// deadline) instead of failing while no server is listening. grpc-js reads
// waitForReady only from a call's metadata options, not from the service
// config's methodConfig (it parses that field and ignores it).
function waitForReady(grpc) {
  return new grpc.Metadata({waitForReady: true});
}

function describeError(grpc, error) {
  return `${grpc.status[error.code]}: ${error.details}`;
}

async function unaryLoop(grpc, collisions, level, state, tally, timeoutMs) {
  const request = {level, queries: rayQueries()};
  while (!state.stopping) {
    try {
      const response = await new Promise((resolve, reject) => {
        collisions.RunQueries(
            request, waitForReady(grpc), {deadline: Date.now() + timeoutMs},
            (error, answer) => error ? reject(error) : resolve(answer));
      });
      if (tally.check('RunQueries', response.results)) ++tally.unaryAnswered;
    } catch (error) {
      if (error.code === undefined) throw error;
      console.log(`query_loop: RunQueries: ${describeError(grpc, error)}`);
      ++tally.unaryFailed;
    }
  }
}

// One StreamQueries call: resends `unanswered`, keeps WINDOW batches in
// flight until the loop stops, and resolves with null once everything sent
// is answered, or with the status ({code, details}) that ended the call.
function oneStream(
    grpc, collisions, level, state, tally, unanswered, timeoutMs) {
  return new Promise((resolve) => {
    const stream = collisions.StreamQueries(
        waitForReady(grpc), {deadline: Date.now() + timeoutMs});
    let settled = false;
    const settle = (error) => {
      if (settled) return;
      settled = true;
      resolve(error);
    };
    const fill = () => {
      while (!state.stopping && unanswered.length < WINDOW) {
        const batch = {
          level,
          batch_id: state.nextBatchId++,
          queries: rayQueries()
        };
        unanswered.push(batch);
        stream.write(batch);
      }
      if (unanswered.length === 0) stream.end();
    };
    stream.on('data', (response) => {
      // Answers still buffered when the call failed are resent instead.
      if (settled) return;
      const sent = unanswered.shift();
      state.reopensInARow = 0;
      const refused = response.status && response.status.code !== 0;
      if (refused) {
        console.log(`query_loop: batch ${sent.batch_id} refused: ${
            response.status.message}`);
        ++tally.batchesFailed;
      } else if (
          String(response.batch_id) === String(sent.batch_id) &&
          tally.check('StreamQueries', response.results)) {
        ++tally.batchesAnswered;
      }
      fill();
    });
    // A failed call emits 'error' and then 'status'; the status says why.
    stream.on('error', () => {});
    stream.on('status', (status) => {
      if (status.code !== grpc.status.OK) settle(status);
    });
    stream.on('end', () => {
      if (settled) return;  // after a failure
      if (unanswered.length === 0) {
        settle(null);
        return;
      }
      // The server ended the call without answering everything.
      console.log(`query_loop: the stream ended with ${
          unanswered.length} batches unanswered`);
      tally.batchesFailed += unanswered.length;
      unanswered.length = 0;
      settle(null);
    });
    for (const batch of unanswered) stream.write(batch);
    fill();
  });
}

async function streamLoop(grpc, collisions, level, state, tally, timeoutMs) {
  const unanswered = [];  // batches sent, oldest first
  const resendable = [grpc.status.UNAVAILABLE, grpc.status.CANCELLED];
  while (!(state.stopping && unanswered.length === 0)) {
    const error = await oneStream(
        grpc, collisions, level, state, tally, unanswered, timeoutMs);
    if (error === null) return;
    if (unanswered.length === 0 && state.stopping) return;
    if (resendable.includes(error.code) && state.reopensInARow < MAX_REOPENS) {
      ++state.reopensInARow;
      ++tally.reopens;
      console.log(`query_loop: the stream ended (${
          describeError(
              grpc,
              error)}): resending ${unanswered.length} batches on a new one`);
      continue;
    }
    console.log(`query_loop: StreamQueries: ${describeError(grpc, error)}`);
    tally.batchesFailed += unanswered.length;
    return;
  }
}

// Runs both loops for `seconds` or until SIGINT/SIGTERM and prints the
// summary. Resolves with the exit code: 0 when every call was answered as
// the first one was, 1 when an answer differed, 2 when a call failed.
async function runLoop(grpc, collisions, level, seconds, callTimeoutMs) {
  const state = {stopping: false, nextBatchId: 1, reopensInARow: 0};
  const stop = () => {
    state.stopping = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const timer = setTimeout(stop, seconds * 1000);
  const tally = new Tally();
  // A stream lives as long as the loop, plus time to finish.
  const streamTimeoutMs = seconds * 1000 + callTimeoutMs;
  await Promise.all([
    unaryLoop(grpc, collisions, level, state, tally, callTimeoutMs),
    streamLoop(grpc, collisions, level, state, tally, streamTimeoutMs),
  ]);
  clearTimeout(timer);
  console.log(tally.summary());
  const failed =
      tally.unaryFailed > 0 || tally.batchesFailed > 0 || tally.mismatches > 0;
  return failed ? 1 : 0;
}

module.exports = {runLoop};
