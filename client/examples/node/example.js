// Calls a collide server from Node.js through the collide-client package:
// puts a level, streams one batch of mixed queries and a packed batch of
// rays (twice: varint, then fixed-width result columns), then runs a
// fog-of-war tick on the bundled level levels/arena (fog_of_war.js: which
// enemies each of three players sees, and one player's visibility
// polygon), checks every result against an answer worked out by hand,
// then deletes the level it put.
//
//   (cd ../../node && npm ci && npm run build)  # once: the package
//   npm ci                                      # once, in this folder
//   node example.js --address=127.0.0.1:50051 --admin_address=127.0.0.1:50052
//
// The level is put and deleted through the server's admin listener
// (--admin_address; collide_server --admin_listen), with the bearer token
// of --admin_token_file when the server asks for one. With --tls_ca_file
// (and --tls_cert_file/--tls_key_file for mutual TLS, --tls_server_name when
// the certificate does not name the address) both connections use TLS.
// collide.Client does all of that, and gives the channels the package's
// service config (retries of read-only calls through a drain).
//
// With --loop_seconds=S it instead queries --loop_level (the bundled
// levels/arena by default) in a loop for S seconds, or until SIGINT/SIGTERM,
// through a unary loop and a QueryStream, and prints how many calls were
// answered and how many failed (query_loop.js): a caller that survives
// server drains.
//
// Exit status (docs/tools.md): 0 when every result matches; 1 naming the
// query and field of every mismatch, or when a call fails (server
// unreachable, level refused, deadline passed) or it cannot start (the
// package not installed or not built, a file that cannot be read); 2 for a
// bad command line. --help prints the flags and exits 0. Runs on Node.js 18
// (Debian 12's) and later.
'use strict';

// collide-client is linked from client/node (package.json: file:../../node)
// and loads its dependencies and the protos `npm run build` copies into it
// from there; say how to get them rather than print a stack trace.
function requirePackage() {
  try {
    return require('collide-client');
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND' && error.code !== 'ENOENT') {
      throw error;
    }
    const packageDir = require('path').join(__dirname, '..', '..', 'node');
    const why = error.message.split('\n')[0];
    console.error(
        `example.js: cannot load collide-client (${why}): run \`npm ci && ` +
        `npm run build\` in ${packageDir}, then \`npm ci\` in ${__dirname} ` +
        '(scripts/test_release.sh does)');
    process.exit(1);
  }
}
const collide = requirePackage();

const LEVEL_ID = 'example-node';
const LEVEL = `levels/${LEVEL_ID}`;
// Every call gets a deadline, so a stuck server fails the example instead of
// hanging it.
const DEADLINE_MS = 10000;
// The known answers are exact in real numbers; the server computes in
// double, so compare within a few rounding errors.
const TOLERANCE = 1e-9;

// Four shapes whose contacts are easy to work out by hand.
const exampleLevel = collide.level(LEVEL_ID, [
  // A wall: the segment x = 10, -5 <= y <= 5.
  collide.segment(1, [10, -5], [10, 5], {userData: 101}),
  // A pillar: the disc of radius 2 around (0, 20).
  collide.circle(2, [0, 20], 2, {userData: 102}),
  // A crate: the square -11 <= x <= -9, -1 <= y <= 1. Its edges are
  // numbered counter-clockwise from the lower-left corner, so its right
  // side (x = -9) is edge 1.
  collide.box(3, [-10, 0], [1, 1], {userData: 103}),
  // A jump-through platform: the one-sided segment y = 10, 20 <= x <= 30,
  // drawn left to right, so its front faces up.
  collide.segment(4, [20, 10], [30, 10], {oneSided: true, userData: 104}),
]);

// Each entry: what it is, the query (the package's builders make the
// collide.v1 Query), and the known answer, checked field by field by
// checkResult below.
const examples = [
  {
    // A bullet from the origin along +x meets the wall halfway.
    name: 'ray cast hits the wall',
    query: collide.ray([0, 0], [20, 0]),
    want: {
      cast: {
        fraction: 0.5,
        point: [10, 0],
        normal: [-1, 0],
        shape_id: 1,
        user_data: 101,
        feature: ['FEATURE_TYPE_EDGE', 0],
      },
    },
  },
  {
    // A circle of radius 1 rising from the origin touches the pillar when
    // the centres are 1 + 2 apart: centre y = 17 of 20.
    name: 'circle cast hits the pillar',
    query: collide.circleCast([[0, 0], 1], [0, 20]),
    want: {
      cast: {
        fraction: 0.85,
        point: [0, 18],
        normal: [0, -1],
        shape_id: 2,
        user_data: 102,
        feature: ['FEATURE_TYPE_SURFACE', 0],
      },
    },
  },
  {
    // A triangle pointing -x (tip at (-1, 0)) moving 20 left: its tip meets
    // the crate's right side x = -9 after 8, fraction 0.4.
    name: 'polygon cast hits the crate',
    query: collide.polygonCast([[-1, 0], [0, -1], [0, 1]], [-20, 0]),
    want: {
      cast: {
        fraction: 0.4,
        point: [-9, 0],
        normal: [1, 0],
        shape_id: 3,
        user_data: 103,
        feature: ['FEATURE_TYPE_EDGE', 1],
      },
    },
  },
  {
    // A horizontal capsule (axis (0,3)-(2,3), radius 0.5) moving 20 right:
    // its front (2.5, 3) meets the wall after 7.5, fraction 0.375.
    name: 'capsule cast hits the wall',
    query: collide.capsuleCast([[0, 3], [2, 3], 0.5], [20, 0]),
    want: {
      cast: {
        fraction: 0.375,
        point: [10, 3],
        normal: [-1, 0],
        shape_id: 1,
        user_data: 101,
        feature: ['FEATURE_TYPE_EDGE', 0],
      },
    },
  },
  {
    // A disc of radius 15 at (5, 0) reaches the wall (5 away) and the crate
    // (14 away) but not the pillar (18 away).
    name: 'overlap finds the wall and the crate',
    query: collide.overlap({circle: [[5, 0], 15]}),
    want: {overlap: [[1, 101], [3, 103]]},
  },
  {
    // The level point nearest (0, 25) is the pillar's top, 3 away.
    name: 'closest point is on the pillar',
    query: collide.closestPoint([0, 25], {maxDistance: 10}),
    want: {
      closest_point: {
        point: [0, 22],
        distance: 3,
        normal: [0, 1],
        shape_id: 2,
        user_data: 102,
        feature: ['FEATURE_TYPE_SURFACE', 0],
      },
    },
  },
  {
    // Straight down from the origin there is nothing: a miss is an answer
    // with no hits, not an error.
    name: 'ray cast misses',
    query: collide.ray([0, 0], [0, -20]),
    want: {miss: true},
  },
  {
    // Falling onto the platform from above meets its front halfway.
    name: 'ray lands on the platform',
    query: collide.ray([25, 15], [0, -10]),
    want: {
      cast: {
        fraction: 0.5,
        point: [25, 10],
        normal: [0, 1],
        shape_id: 4,
        user_data: 104,
        feature: ['FEATURE_TYPE_EDGE', 0],
      },
    },
  },
  {
    // Rising into it from below passes through.
    name: 'ray rises through the platform',
    query: collide.ray([25, 5], [0, 10]),
    want: {miss: true},
  },
  {
    // A sword swing (a melee hit check): a blade from the hand at (8.5, 0)
    // to (8.5, -2), radius 0.1, turning a half turn counter-clockwise about
    // the hand during the tick. Target 7 (a disc of radius 0.25 at 1.2 from
    // the hand, 60 degrees below +x) is met when the blade's axis is
    // asin(0.35 / 1.2) short of it: fraction 1/6 - asin(0.35 / 1.2) / pi.
    name: 'sword swing hits the near target',
    query: swordSwing(true),
    want: {
      hit_validation: {
        outcome: 'SHOT_OUTCOME_TARGET',
        id: 7,
        fraction: 1 / 6 - Math.asin(0.35 / 1.2) / Math.PI,
      },
    },
  },
  {
    // Without target 7, target 8 (60 degrees above +x) lies beyond the wall
    // x = 10, which the blade's rim reaches first (2 cos(phi) + 0.1 = 1.5):
    // fraction asin(0.7) / pi.
    name: 'sword swing is stopped by the wall',
    query: swordSwing(false),
    want: {
      hit_validation: {
        outcome: 'SHOT_OUTCOME_WALL',
        id: 1,
        fraction: Math.asin(0.7) / Math.PI,
      },
    },
  },
  {
    // A negative radius is refused in this query's own result, naming the
    // field; the rest of the batch is still answered.
    name: 'bad query is refused alone',
    query: collide.circleCast([[0, 0], -1], [1, 0]),
    want: {error: ['INVALID_ARGUMENT', 'circle_cast.circle.radius']},
  },
];

// A hit validation whose shot is a swing: a capsule turning about the
// wielder's hand (HitValidationQuery.swing, Turn), against targets 8 (and
// 7). The package has no builder for it: it is the message as a plain
// object.
function swordSwing(withNearTarget) {
  const hand = {x: 8.5, y: 0};
  const target = (id, degrees) => {
    const angle = degrees * Math.PI / 180;
    return {
      id,
      circle: {
        center: {
          x: hand.x + 1.2 * Math.cos(angle),
          y: hand.y + 1.2 * Math.sin(angle),
        },
        radius: 0.25,
      },
    };
  };
  const targets = [target(8, 60)];
  if (withNearTarget) targets.push(target(7, -60));
  return {
    hit_validation: {
      swing: {
        capsule: {p1: hand, p2: {x: 8.5, y: -2}, radius: 0.1},
        turn: {angle: Math.PI, pivot: hand},
      },
      targets,
    },
  };
}

// A result field that differs from the known answer.
class Mismatch extends Error {}

function expectNear(name, got, want) {
  if (!(Math.abs(got - want) <= TOLERANCE)) {
    throw new Mismatch(`${name} is ${got}, expected ${want}`);
  }
}

// uint64 fields arrive as strings, so compare as strings.
function expectEqual(name, got, want) {
  if (String(got) !== String(want)) {
    throw new Mismatch(
        `${name} is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
}

function expectVec(name, got, want) {
  expectNear(`${name}.x`, got.x, want[0]);
  expectNear(`${name}.y`, got.y, want[1]);
}

// Checks the fields a cast hit and a closest point share.
function expectContact(prefix, got, want) {
  expectVec(`${prefix}.point`, got.point, want.point);
  expectVec(`${prefix}.normal`, got.normal, want.normal);
  expectEqual(`${prefix}.shape_id`, got.shape_id, want.shape_id);
  expectEqual(`${prefix}.user_data`, got.user_data, want.user_data);
  expectEqual(
      `${prefix}.feature`, [got.feature.type, got.feature.index], want.feature);
}

// ResultStatus is a message, so it arrives as null when the server left it
// unset (OK, code 0).
function statusOf(result) {
  return result.status || {code: 0, message: ''};
}

// Throws Mismatch naming the first field that differs from `want`.
function checkResult(result, want) {
  const status = statusOf(result);
  if (want.error) {
    const [code, field] = want.error;
    expectEqual('status.code', collide.statusName(status.code), code);
    if (!status.message.includes(field)) {
      throw new Mismatch(`status.message ${
          JSON.stringify(status.message)} does not name ${field}`);
    }
    expectEqual('result', result.result, undefined);
    return;
  }
  if (status.code !== 0) {
    throw new Mismatch(`status is ${collide.statusName(status.code)} (${
        status.message}), expected OK`);
  }
  if (want.miss) {
    expectEqual('result', result.result, 'cast');
    expectEqual('cast.hits count', result.cast.hits.length, 0);
  } else if (want.cast) {
    expectEqual('result', result.result, 'cast');
    expectEqual('cast.hits count', result.cast.hits.length, 1);
    const hit = result.cast.hits[0];
    expectNear('cast.hits[0].fraction', hit.fraction, want.cast.fraction);
    expectEqual('cast.hits[0].status', hit.status, 'HIT_STATUS_HIT');
    expectContact('cast.hits[0]', hit, want.cast);
  } else if (want.overlap) {
    expectEqual('result', result.result, 'overlap');
    expectEqual(
        'overlap.shapes',
        result.overlap.shapes.map((s) => [s.shape_id, s.user_data]),
        want.overlap);
  } else if (want.hit_validation) {
    expectEqual('result', result.result, 'hit_validation');
    const shot = result.hit_validation;
    const expected = want.hit_validation;
    expectEqual('hit_validation.outcome', shot.outcome, expected.outcome);
    expectEqual('hit_validation.id', shot.id, expected.id);
    // The contact lies in the certified bracket [fraction,
    // turn.fraction_hi], at most 2^-30 wide.
    expectEqual(
        'hit_validation.turn.status', shot.turn.status, 'TURN_STATUS_HIT');
    expectNear('hit_validation.fraction', shot.fraction, expected.fraction);
    if (!(shot.fraction <= expected.fraction + TOLERANCE &&
          expected.fraction <= shot.turn.fraction_hi + TOLERANCE)) {
      throw new Mismatch(`hit_validation's bracket [${shot.fraction}, ${
          shot.turn.fraction_hi}] does not hold ${expected.fraction}`);
    }
  } else if (want.closest_point) {
    expectEqual('result', result.result, 'closest_point');
    const found = result.closest_point;
    expectEqual('closest_point.found', found.found, true);
    expectNear(
        'closest_point.distance', found.distance, want.closest_point.distance);
    expectContact('closest_point', found, want.closest_point);
  }
}

// Formats a coordinate for people: shortest form, no "-0".
function number(value) {
  return String(value + 0);
}

// One readable line for the summary.
function describe(result) {
  const status = statusOf(result);
  if (status.code !== 0) {
    return `${collide.statusName(status.code)}: ${status.message}`;
  }
  if (result.result === 'cast') {
    if (result.cast.hits.length === 0) return 'miss';
    const hit = result.cast.hits[0];
    return `hit shape ${hit.shape_id} at fraction ${number(hit.fraction)}, ` +
        `point (${number(hit.point.x)}, ${number(hit.point.y)}), ` +
        `normal (${number(hit.normal.x)}, ${number(hit.normal.y)})`;
  }
  if (result.result === 'overlap') {
    const ids = result.overlap.shapes.map((s) => s.shape_id).join(', ');
    return `overlaps shapes [${ids}]`;
  }
  if (result.result === 'hit_validation') {
    const shot = result.hit_validation;
    const what = shot.outcome.replace('SHOT_OUTCOME_', '').toLowerCase();
    return `${what} ${shot.id} at fraction ${number(shot.fraction)}`;
  }
  const found = result.closest_point;
  return `shape ${found.shape_id} at (${number(found.point.x)}, ` +
      `${number(found.point.y)}), distance ${number(found.distance)}`;
}

// Streams the example batch through a QueryStream (the package numbers the
// queries' request ids from 1 and gives the batch its id); resolves with
// the exit code (0: all match).
async function streamAndCheck(client, levelVersion) {
  const stream = client.stream(LEVEL, {timeoutMs: DEADLINE_MS});
  let response;
  try {
    response = await stream.submit(examples.map((example) => example.query));
  } finally {
    await stream.close();
  }
  try {
    expectEqual('batch status', statusOf(response).code, 0);
    expectEqual('level_version', response.level_version, levelVersion);
    expectEqual('number of results', response.results.length, examples.length);
  } catch (error) {
    if (!(error instanceof Mismatch)) throw error;
    console.error(`example.js: stream: ${error.message}`);
    return 1;
  }

  const failures = [];
  examples.forEach((example, index) => {
    const result = response.results[index];
    let mark = 'ok';
    try {
      expectEqual('request_id', result.request_id, index + 1);
      checkResult(result, example.want);
    } catch (error) {
      if (!(error instanceof Mismatch)) throw error;
      failures.push(`query ${index + 1} (${example.name}): ${error.message}`);
      mark = 'MISMATCH';
    }
    console.log(`  ${index + 1} ${mark.padEnd(8)} ${example.name.padEnd(38)} ${
        describe(result)}`);
  });
  for (const failure of failures) console.error(`example.js: ${failure}`);
  if (failures.length > 0) return 1;
  console.log(`all ${examples.length} results match the known answers`);
  return 0;
}

// Writes one raw StreamQueriesRequest on a StreamQueries call of the
// package's grpc-js client (client.collisions), closes the request side and
// resolves with every response once the server ends the call. The package
// has no helper for packed batches: the caller builds the collide.v1
// message.
function streamOne(client, request) {
  return new Promise((resolve, reject) => {
    const responses = [];
    const call =
        client.collisions.StreamQueries({deadline: Date.now() + DEADLINE_MS});
    call.on('data', (response) => responses.push(response));
    call.on('error', reject);
    call.on('end', () => resolve(responses));
    call.write(request);
    call.end();
  });
}

// Sends three rays as one packed batch (columns instead of one Query
// message each: much cheaper to encode and parse for big batches), twice:
// with varint result columns, then asking for fixed-width ones
// (fixed_width_results: cheaper still to write and read). Checks the result
// columns; resolves with the exit code (0: all match).
async function packedRaysAndCheck(client) {
  // want: null for a miss, else fraction, point, normal and shape id.
  const rays = [
    {origin: [0, 0], by: [20, 0], want: [0.5, [10, 0], [-1, 0], 1]},  // wall
    {origin: [0, -10], by: [5, 0], want: null},                       // nothing
    {origin: [0, 10], by: [0, 20], want: [0.4, [0, 18], [0, -1], 2]},  // pillar
  ];
  for (const fixedWidth of [false, true]) {
    const code = await packedBatchAndCheck(client, rays, fixedWidth);
    if (code !== 0) return code;
  }
  return 0;
}

// One packed batch of `rays`, its result columns checked.
async function packedBatchAndCheck(client, rays, fixedWidth) {
  const form = fixedWidth ? 'fixed-width' : 'varint';
  const batch = {
    level: LEVEL,
    batch_id: 8,
    packed_rays: {
      origin_x: rays.map((r) => r.origin[0]),
      origin_y: rays.map((r) => r.origin[1]),
      translation_x: rays.map((r) => r.by[0]),
      translation_y: rays.map((r) => r.by[1]),
      fixed_width_results: fixedWidth,
    },
  };
  const responses = await streamOne(client, batch);
  let hits;
  // The status and shape columns the batch asked for (the others are left
  // empty). Fixed-width statuses are HitStatus numbers, not names.
  let status;
  let shapeIds;
  const miss = fixedWidth ? 0 : 'HIT_STATUS_UNSPECIFIED';
  const hit = fixedWidth ? 1 : 'HIT_STATUS_HIT';
  try {
    expectEqual('number of responses', responses.length, 1);
    expectEqual('batch status', statusOf(responses[0]).code, 0);
    hits = responses[0].packed_casts;
    expectEqual('refused queries', hits.errors.length, 0);
    status = fixedWidth ? hits.hit_status_fixed : hits.hit_status;
    shapeIds = fixedWidth ? hits.shape_id_fixed : hits.shape_id;
    expectEqual('number of rows', status.length, rays.length);
  } catch (error) {
    if (!(error instanceof Mismatch)) throw error;
    console.error(`example.js: packed (${form}): ${error.message}`);
    return 1;
  }
  const failures = [];
  rays.forEach((ray, i) => {
    let text = 'miss';
    try {
      if (ray.want === null) {
        expectEqual('hit_status', status[i], miss);
      } else {
        const [fraction, point, normal, shapeId] = ray.want;
        expectEqual('hit_status', status[i], hit);
        expectNear('fraction', hits.fraction[i], fraction);
        expectVec('point', {x: hits.point_x[i], y: hits.point_y[i]}, point);
        expectVec('normal', {x: hits.normal_x[i], y: hits.normal_y[i]}, normal);
        expectEqual('shape_id', shapeIds[i], shapeId);
        text =
            `hit shape ${shapeIds[i]} at fraction ${number(hits.fraction[i])}`;
      }
      console.log(`  packed ray ${i} (${form}) ok       ${text}`);
    } catch (error) {
      if (!(error instanceof Mismatch)) throw error;
      failures.push(`packed ray ${i} (${form}): ${error.message}`);
      console.log(`  packed ray ${i} (${form}) MISMATCH`);
    }
  });
  for (const failure of failures) console.error(`example.js: ${failure}`);
  if (failures.length > 0) return 1;
  console.log(`all ${rays.length} packed ray results (${
      form}) match the known answers`);
  return 0;
}

// collide.Client's options from the flags: the admin listener and token,
// TLS when any --tls_* flag is given, each unary call's deadline.
function clientOptions(flags) {
  const options = {adminAddress: flags.admin_address, timeoutMs: DEADLINE_MS};
  if (flags.admin_token_file) options.adminTokenFile = flags.admin_token_file;
  if (flags.tls_ca_file || flags.tls_cert_file || flags.tls_key_file ||
      flags.tls_server_name) {
    options.tls = {
      caFile: flags.tls_ca_file || undefined,
      certFile: flags.tls_cert_file || undefined,
      keyFile: flags.tls_key_file || undefined,
      serverName: flags.tls_server_name || undefined,
    };
  }
  return options;
}

// The client; exits 1 when a file a flag names cannot be read.
function connect(flags) {
  try {
    return new collide.Client(flags.address, clientOptions(flags));
  } catch (error) {
    console.error(`example.js: ${error.message}`);
    process.exit(1);
  }
}

async function run(flags) {
  const client = connect(flags);
  try {
    if (Number(flags.loop_seconds) > 0) {
      return await require('./query_loop')
          .runLoop(
              collide, client, flags.loop_level, Number(flags.loop_seconds));
    }
    const put = await client.putLevel(exampleLevel);
    console.log(
        `put ${put.level}: version ${put.version}, ${put.shape_count} shapes`);
    try {
      let code = await streamAndCheck(client, put.version);
      if (code === 0) code = await packedRaysAndCheck(client);
      return code !== 0 ?
          code :
          await require('./fog_of_war')
              .fogOfWarAndCheck(collide, client, flags.fog_level);
    } finally {
      // Delete even after a mismatch or a failed call, so reruns start
      // clean.
      const version = await client.deleteLevel(LEVEL);
      console.log(`deleted ${LEVEL} (version ${version})`);
    }
  } finally {
    client.close();
  }
}

const FLAG_DEFAULTS = {
  address: '127.0.0.1:50051',
  admin_address: '127.0.0.1:50052',
  admin_token_file: '',
  tls_ca_file: '',
  tls_cert_file: '',
  tls_key_file: '',
  tls_server_name: '',
  // Instead of the check, query loop_level in a loop for this long (or
  // until SIGINT/SIGTERM) and count failed calls (query_loop.js).
  loop_seconds: '0',
  loop_level: 'levels/arena',
  // The level of the fog-of-war tick (fog_of_war.js; its known answers are
  // the bundled level's).
  fog_level: 'levels/arena',
};

const USAGE = 'usage: node example.js [--address=HOST:PORT] ' +
    '[--admin_address=HOST:PORT] [--admin_token_file=FILE] ' +
    '[--tls_ca_file=FILE] [--tls_cert_file=FILE --tls_key_file=FILE] ' +
    '[--tls_server_name=NAME] [--loop_seconds=S] [--loop_level=LEVEL] ' +
    '[--fog_level=LEVEL]';

function parseFlags(argv) {
  const flags = {...FLAG_DEFAULTS};
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--([a-z_]+)=(.*)$/s.exec(arg);
    if (!match || !(match[1] in FLAG_DEFAULTS)) {
      console.error(`${USAGE} (unknown argument ${arg})`);
      process.exit(2);
    }
    flags[match[1]] = match[2];
  }
  if (!(Number(flags.loop_seconds) >= 0)) {
    console.error(
        `example.js: --loop_seconds must be a number of seconds, got ${
            JSON.stringify(flags.loop_seconds)}`);
    process.exit(2);
  }
  if (Boolean(flags.tls_cert_file) !== Boolean(flags.tls_key_file)) {
    console.error('example.js: --tls_cert_file and --tls_key_file go together');
    process.exit(2);
  }
  return flags;
}


const flags = parseFlags(process.argv.slice(2));
run(flags).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      const code =
          error.code !== undefined ? collide.statusName(error.code) : '';
      console.error(`example.js: ${flags.address}: ${code} ${
          error.details || error.message}`);
      process.exitCode = 1;
    });
