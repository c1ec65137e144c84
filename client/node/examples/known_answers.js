#!/usr/bin/env node
// Runs the six known-answer queries every collide client package checks,
// through the installed collide-client package: puts a small level,
// answers the queries with Client.run and a QueryStream, compares each
// answer with one worked out by hand, and deletes the level.
//
//   node known_answers.js --address=HOST:PORT [--admin_address=HOST:PORT]
//       [--admin_token_file=F] [--tls_ca_file=F --tls_cert_file=F
//       --tls_key_file=F --tls_server_name=NAME]
//
// Exit status: 0 every answer matches; 1 a call failed, the server refused
// something or an answer differs (each named on stderr); 2 a bad command
// line.
'use strict';

const collide = require('collide-client');

const LEVEL = 'known-answers-node';
const EDGE = 'FEATURE_TYPE_EDGE';
const SURFACE = 'FEATURE_TYPE_SURFACE';
// The answers are exact in real numbers; the server computes in double.
const TOLERANCE = 1e-9;

// A wall (x = 10), a pillar (radius 2 at (0, 20)) and a crate (the square
// around (-10, 0) of half-size 1; its right side is edge 1).
function exampleLevel() {
  return collide.level(LEVEL, [
    collide.segment(1, [10, -5], [10, 5], {userData: 101}),
    collide.circle(2, [0, 20], 2, {userData: 102}),
    collide.box(3, [-10, 0], [1, 1], {userData: 103}),
  ]);
}

// [name, query, answer]: a cast hit as {fraction, point, normal, shapeId,
// feature}, an overlap as its shape ids, a closest point as {point,
// distance, shapeId}, a miss as {miss: true}.
function knownAnswers() {
  return [
    [
      'ray hits the wall',
      collide.ray([0, 0], [20, 0]),
      {
        fraction: 0.5,
        point: [10, 0],
        normal: [-1, 0],
        shapeId: 1,
        feature: [EDGE, 0],
      },
    ],
    [
      'circle hits the pillar',
      collide.circleCast([[0, 0], 1], [0, 20]),
      {
        fraction: 0.85,
        point: [0, 18],
        normal: [0, -1],
        shapeId: 2,
        feature: [SURFACE, 0],
      },
    ],
    [
      'triangle hits the crate',
      collide.polygonCast([[-1, 0], [0, -1], [0, 1]], [-20, 0]),
      {
        fraction: 0.4,
        point: [-9, 0],
        normal: [1, 0],
        shapeId: 3,
        feature: [EDGE, 1],
      },
    ],
    [
      'disc overlaps wall and crate',
      collide.overlap({circle: [[5, 0], 15]}),
      {overlap: [1, 3]},
    ],
    [
      'closest point on the pillar',
      collide.closestPoint([0, 25], {maxDistance: 10}),
      {closest: [0, 22], distance: 3, shapeId: 2},
    ],
    ['ray misses', collide.ray([0, 0], [0, -20]), {miss: true}],
  ];
}

function near(a, b) {
  return Math.abs(a - b) <= TOLERANCE;
}

function nearPoint(point, [x, y]) {
  return point !== null && near(point.x, x) && near(point.y, y);
}

// What differs between a result and its answer (empty: it matches).
function differences(result, answer) {
  if (result.status && result.status.code !== 0) {
    return [`status ${result.status.code}: ${result.status.message}`];
  }
  if (answer.overlap) {
    const ids = (result.overlap ? result.overlap.shapes : [])
                    .map((shape) => Number(shape.shape_id));
    return JSON.stringify(ids) === JSON.stringify(answer.overlap) ?
        [] :
        [`shapes ${JSON.stringify(ids)}, expected ${
            JSON.stringify(answer.overlap)}`];
  }
  if (answer.closest) {
    const found = result.closest_point;
    const ok = found !== null && found !== undefined && found.found &&
        nearPoint(found.point, answer.closest) &&
        near(found.distance, answer.distance) &&
        Number(found.shape_id) === answer.shapeId;
    return ok ?
        [] :
        [`got ${JSON.stringify(found)}, expected ${JSON.stringify(answer)}`];
  }
  const hits = result.cast ? result.cast.hits : [];
  if (answer.miss) {
    return hits.length === 0 ? [] : [`${hits.length} hits, expected a miss`];
  }
  if (hits.length !== 1) return [`${hits.length} hits, expected 1`];
  const [hit] = hits;
  const ok = near(hit.fraction, answer.fraction) &&
      nearPoint(hit.point, answer.point) &&
      nearPoint(hit.normal, answer.normal) &&
      Number(hit.shape_id) === answer.shapeId && hit.feature !== null &&
      hit.feature.type === answer.feature[0] &&
      hit.feature.index === answer.feature[1];
  return ok ?
      [] :
      [`got ${JSON.stringify(hit)}, expected ${JSON.stringify(answer)}`];
}

function compare(how, results, cases) {
  let failures = 0;
  cases.forEach(([name, , answer], index) => {
    if (index >= results.length) return;
    const problems = differences(results[index], answer);
    console.log(`  ${how.padEnd(8)} ${
        (problems.length === 0 ? 'ok' : 'MISMATCH').padEnd(8)} ${name}`);
    for (const problem of problems) {
      console.error(`known_answers: ${how}: ${name}: ${problem}`);
      ++failures;
    }
  });
  if (results.length !== cases.length) {
    console.error(`known_answers: ${how}: ${results.length} results for ${
        cases.length} queries`);
    ++failures;
  }
  return failures;
}

const FLAGS = [
  'address',
  'admin_address',
  'admin_token_file',
  'tls_ca_file',
  'tls_cert_file',
  'tls_key_file',
  'tls_server_name',
];

// --name=value flags; exits 2 on anything else.
function parseFlags(argv) {
  const flags = {address: '127.0.0.1:50051', admin_address: '127.0.0.1:50052'};
  for (const arg of argv) {
    const match = /^--([a-z_]+)=(.*)$/.exec(arg);
    if (!match || !FLAGS.includes(match[1])) {
      console.error(`known_answers: unknown argument ${arg} (flags: ${
          FLAGS.map((flag) => `--${flag}=`).join(' ')})`);
      process.exit(2);
    }
    flags[match[1]] = match[2];
  }
  return flags;
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  let tls;
  if (flags.tls_ca_file || flags.tls_cert_file || flags.tls_server_name) {
    tls = {
      caFile: flags.tls_ca_file,
      certFile: flags.tls_cert_file,
      keyFile: flags.tls_key_file,
      serverName: flags.tls_server_name,
    };
  }
  console.log(`collide client ${collide.version}`);
  let client;
  try {
    client = new collide.Client(flags.address, {
      adminAddress: flags.admin_address,
      tls,
      adminTokenFile: flags.admin_token_file,
    });
  } catch (error) {
    console.error(`known_answers: ${error.message}`);
    return 2;
  }
  let failures = 0;
  try {
    const summary = await client.putLevel(exampleLevel());
    console.log(`put ${summary.level}: ${summary.shape_count} shapes`);
    try {
      let cases = knownAnswers();
      failures += compare(
          'run', await client.run(LEVEL, cases.map(([, query]) => query)),
          cases);
      const stream = client.stream(LEVEL);
      try {
        cases = knownAnswers();
        failures += compare(
            'stream', await stream.query(cases.map(([, query]) => query)),
            cases);
      } finally {
        await stream.close();
      }
    } finally {
      await client.deleteLevel(LEVEL);
    }
  } catch (error) {
    const detail = error.code !== undefined && error.details !== undefined ?
        `${collide.statusName(error.code)}: ${error.details}` :
        error.message;
    console.error(`known_answers: ${flags.address}: ${detail}`);
    return 1;
  } finally {
    client.close();
  }
  if (failures > 0) return 1;
  console.log('all known answers match');
  return 0;
}

main().then((code) => {
  process.exitCode = code;
});
