#!/usr/bin/env node
// Queries a level in a loop through the collide-client package until
// --loop_seconds pass or SIGINT/SIGTERM arrives, two loops at once:
// Client.run calls one after another, and a QueryStream with WINDOW batches
// in flight. Every answer must be complete and the same as the first answer
// to the same batch; the package's retry policy and the stream's resends
// carry the calls through server drains.
//
//   node query_loop.js --address=HOST:PORT --loop_seconds=S [--level=arena]
//
// Prints "loop: N unary calls answered, F failed; B stream batches
// answered, G failed; R stream reopens". Exit status: 0 nothing failed or
// differed; 1 a call failed or an answer differed; 2 a bad command line.
'use strict';

const collide = require('collide-client');

const RAYS = 4;
const WINDOW = 4;

function rays() {
  const queries = [];
  for (let i = 0; i < RAYS; ++i) queries.push(collide.ray([0, i], [20, 0]));
  return queries;
}

class Tally {
  constructor() {
    this.unary = 0;
    this.unaryFailed = 0;
    this.batches = 0;
    this.batchesFailed = 0;
    this.mismatches = 0;
    this.reopens = 0;
    this.first = null;
  }

  // True when `results` is complete, all OK and as the first answer was.
  sameAsFirst(results) {
    const answer = JSON.stringify(results);
    if (this.first === null) this.first = answer;
    const ok = results.length === RAYS && answer === this.first &&
        results.every((result) => !result.status || result.status.code === 0);
    if (!ok) {
      ++this.mismatches;
      console.log('query_loop: an answer differs from the first one');
    }
    return ok;
  }

  summary() {
    return `loop: ${this.unary} unary calls answered, ${
        this.unaryFailed} failed; ${this.batches} stream batches answered, ${
        this.batchesFailed} failed; ${this.reopens} stream reopens`;
  }
}

function describe(error) {
  return error.code !== undefined ?
      `${collide.statusName(error.code)}: ${error.details}` :
      error.message;
}

async function unaryLoop(client, level, state, tally) {
  while (!state.stopping) {
    let results;
    try {
      results = await client.run(level, rays());
    } catch (error) {
      console.log(`query_loop: RunQueries: ${describe(error)}`);
      ++tally.unaryFailed;
      continue;
    }
    if (tally.sameAsFirst(results)) ++tally.unary;
  }
}

async function streamLoop(client, level, state, tally) {
  const stream = client.stream(level, {window: WINDOW});
  const inFlight = [];
  try {
    while (!state.stopping || inFlight.length > 0) {
      while (!state.stopping && inFlight.length < WINDOW) {
        inFlight.push(stream.submit(rays()));
      }
      const response = await inFlight.shift();
      if ((!response.status || response.status.code === 0) &&
          tally.sameAsFirst(response.results)) {
        ++tally.batches;
      } else {
        ++tally.batchesFailed;
      }
    }
  } catch (error) {
    console.log(`query_loop: stream: ${describe(error)}`);
    tally.batchesFailed += inFlight.length + 1;
  } finally {
    await stream.close();
    tally.reopens += stream.reopens;
  }
}

function parseFlags(argv) {
  const flags = {address: '127.0.0.1:50051', level: 'arena', loop_seconds: 10};
  for (const arg of argv) {
    const match = /^--([a-z_]+)=(.*)$/.exec(arg);
    if (!match || !(match[1] in flags) ||
        (match[1] === 'loop_seconds' && !(Number(match[2]) > 0))) {
      console.error(
          `query_loop: bad argument ${arg} (flags: --address= ` +
          '--level= --loop_seconds=S with S > 0)');
      process.exit(2);
    }
    flags[match[1]] = match[2];
  }
  return flags;
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  const state = {stopping: false};
  const stop = () => {
    state.stopping = true;
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const timer = setTimeout(stop, Number(flags.loop_seconds) * 1000);
  const tally = new Tally();
  const client = new collide.Client(flags.address);
  try {
    await Promise.all([
      unaryLoop(client, flags.level, state, tally),
      streamLoop(client, flags.level, state, tally),
    ]);
  } finally {
    clearTimeout(timer);
    client.close();
  }
  console.log(tally.summary());
  return tally.unaryFailed || tally.batchesFailed || tally.mismatches ? 1 : 0;
}

main().then((code) => {
  process.exitCode = code;
});
