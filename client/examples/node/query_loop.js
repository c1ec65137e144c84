// The query loop of example.js --loop_seconds: a caller that keeps querying
// through server drains and loses nothing.
//
// For --loop_seconds (or until SIGINT or SIGTERM) it sends Client.run calls
// one after another and keeps up to WINDOW batches in flight on one
// QueryStream, both at once, against a level every server holds
// (--loop_level; the bundled levels/arena by default). Every answer must be
// complete and the same as the first answer to the same batch.
//
// The package keeps both whole while a server drains (SIGTERM: the server
// sends GOAWAY, lets unary calls finish, answers the batches each stream
// has read and ends the stream with UNAVAILABLE): its channels' service
// config resends a unary call that failed with UNAVAILABLE or CANCELLED,
// and its read-only calls wait for a connection (up to their deadline)
// while no server is listening; the QueryStream keeps every batch until its
// answer arrives and resends the unanswered ones on a new call when the
// call ends with UNAVAILABLE or CANCELLED (stream.reopens counts those).
'use strict';

// Batches in flight on the stream.
const WINDOW = 4;
// Rays per batch.
const RAYS = 4;

// Ray casts across the middle of the level, RAYS of them.
function rayQueries(collide) {
  const queries = [];
  for (let i = 0; i < RAYS; ++i) queries.push(collide.ray([0, i], [20, 0]));
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

function describeError(collide, error) {
  return error.code !== undefined ?
      `${collide.statusName(error.code)}: ${error.details}` :
      error.message;
}

async function unaryLoop(collide, client, level, state, tally) {
  while (!state.stopping) {
    let results;
    try {
      results = await client.run(level, rayQueries(collide));
    } catch (error) {
      if (error.code === undefined) throw error;
      console.log(`query_loop: RunQueries: ${describeError(collide, error)}`);
      ++tally.unaryFailed;
      continue;
    }
    if (tally.check('RunQueries', results)) ++tally.unaryAnswered;
  }
}

async function streamLoop(collide, client, level, state, tally) {
  const stream = client.stream(level, {window: WINDOW});
  const inFlight = [];  // submit() promises, oldest first
  try {
    while (!state.stopping || inFlight.length > 0) {
      while (!state.stopping && inFlight.length < WINDOW) {
        inFlight.push(stream.submit(rayQueries(collide)));
      }
      const response = await inFlight.shift();
      if (response.status && response.status.code !== 0) {
        console.log(`query_loop: batch ${response.batch_id} refused: ${
            response.status.message}`);
        ++tally.batchesFailed;
      } else if (tally.check('StreamQueries', response.results)) {
        ++tally.batchesAnswered;
      }
    }
  } catch (error) {
    // The stream failed (not a drain, or too many reopens in a row): every
    // batch still in flight failed with it.
    console.log(`query_loop: StreamQueries: ${describeError(collide, error)}`);
    tally.batchesFailed += inFlight.length + 1;
  } finally {
    await stream.close();
    tally.reopens = stream.reopens;
  }
}

// Runs both loops for `seconds` or until SIGINT/SIGTERM and prints the
// summary. Resolves with the exit code: 0 when every call was answered as
// the first one was, 1 when a call failed or an answer differed.
async function runLoop(collide, client, level, seconds) {
  const state = {stopping: false};
  const stop = () => {
    state.stopping = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const timer = setTimeout(stop, seconds * 1000);
  const tally = new Tally();
  try {
    await Promise.all([
      unaryLoop(collide, client, level, state, tally),
      streamLoop(collide, client, level, state, tally),
    ]);
  } finally {
    clearTimeout(timer);
  }
  console.log(tally.summary());
  const failed =
      tally.unaryFailed > 0 || tally.batchesFailed > 0 || tally.mismatches > 0;
  return failed ? 1 : 0;
}

module.exports = {runLoop};
