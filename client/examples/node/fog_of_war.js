// The fog-of-war tick of example.js: on the bundled level (levels/arena,
// which collide_server serves unless --default_level=false;
// server/levels/default_level.cc has its shapes), which enemies each
// player sees and so may be sent, by one visibility query for every player
// at once, and the scout's visibility polygon, the region a client draws.
// Both are checked against answers worked out by hand.
'use strict';

// The known answers are exact in real numbers; the server computes in
// double, so compare within a few rounding errors.
const TOLERANCE = 1e-9;

// The players, and the enemies each may be sent, by index. The query's
// filter counts only category 1: the glass pane (shape 60, category 2,
// x = 14, -8 <= y <= -2) blocks shots but not sight.
const PLAYERS = [
  // All round, within 20. Enemy 0 (15, 0) is behind the pillar at (10, 0)
  // (radius 1.5; the sight line passes 0.98 from its centre) and enemy 3
  // (-12, 0) behind the one at (-10, 0) (0.23 from it); enemies 1 and 2
  // are in the open.
  {name: 'scout', position: [5, 2], options: {range: 20}, sees: [1, 2]},
  // Facing west, 30 degrees either side, any distance: enemy 2, dead
  // ahead, through the glass; enemies 0 and 1 are outside the cone (68 and
  // 41 degrees off), enemy 3 inside it but behind the pillar at (-10, 0).
  {
    name: 'sniper',
    position: [17, -5],
    options: {cone: [[-1, 0], Math.PI / 6]},
    sees: [2],
  },
  // All round, within 16: enemy 3 (5.8 away, 1.71 from the pillar at
  // (-10, 0), which has radius 1.5); enemy 1 (13.5 away) is behind the
  // barrier (the capsule along y = 12, -14 <= x <= -8); enemies 0 and 2
  // are out of range.
  {name: 'guard', position: [-15, 5], options: {range: 16}, sees: [3]},
];
// Points, and a disc (enemy 2) that counts by its centre.
const ENEMIES = [[15, 0], [-6, 15], [[10, -5], 0.5], [-12, 0]];
// The scout's own view within 3. The crate around (5, 5) (shape 20,
// half-size 1) is the only shape that near: its two near corners are the
// polygon's level vertices, (6, 4) first (the polygon runs
// counter-clockwise from +x), and every other vertex lies on the range
// circle.
const POLYGON_RANGE = 3;
const POLYGON_CORNERS = [[[6, 4], 20], [[4, 4], 20]];

// Throws an Error naming what differs unless the polygon's level vertices
// are the crate's near corners and every other vertex lies on the range
// circle.
function checkPolygon(collide, result, scout) {
  const vertices = collide.check(result).visibility_polygon.vertices;
  const level =
      vertices.filter((v) => v.kind === 'VISIBILITY_VERTEX_KIND_LEVEL_VERTEX')
          .map((v) => [[v.point.x, v.point.y], Number(v.shape_id)]);
  if (JSON.stringify(level) !== JSON.stringify(POLYGON_CORNERS)) {
    throw new Error(`level vertices are ${JSON.stringify(level)}, expected ${
        JSON.stringify(POLYGON_CORNERS)}`);
  }
  vertices.forEach((v, i) => {
    if (v.kind === 'VISIBILITY_VERTEX_KIND_LEVEL_VERTEX') return;
    const reach = Math.hypot(v.point.x - scout[0], v.point.y - scout[1]);
    if (!(Math.abs(reach - POLYGON_RANGE) <= TOLERANCE)) {
      throw new Error(
          `vertex ${i} is ${reach} from the scout, expected ${POLYGON_RANGE}`);
    }
  });
}

// One tick on `level`; resolves with the exit code (0: the answers match).
async function fogOfWarAndCheck(collide, client, level) {
  const scout = PLAYERS[0].position;
  const [tick, polygon] = await client.run(level, [
    collide.visibility(
        PLAYERS.map((p) => collide.viewer(p.position, p.options)), ENEMIES,
        {maskBits: 1}),
    collide.visibilityPolygon(scout, POLYGON_RANGE),
  ]);
  let seen;
  try {
    seen = collide.visibleSets(tick);
    if (seen.length !== PLAYERS.length) {
      throw new Error(`${seen.length} rows, expected ${PLAYERS.length}`);
    }
  } catch (error) {
    console.error(`example.js: fog of war: ${error.message}`);
    return 1;
  }
  console.log(`fog of war on ${level}: ${PLAYERS.length} players, ${
      ENEMIES.length} enemies`);
  const failures = [];
  PLAYERS.forEach((player, i) => {
    const ok = JSON.stringify(seen[i]) === JSON.stringify(player.sees);
    if (!ok) {
      failures.push(`${player.name} sees enemies ${
          JSON.stringify(seen[i])}, expected ${JSON.stringify(player.sees)}`);
    }
    const at = `(${player.position.join(', ')})`;
    console.log(`  ${player.name.padEnd(7)} at ${at.padEnd(9)} ${
        (ok ? 'ok' : 'MISMATCH').padEnd(8)} may be sent enemies [${
        seen[i].join(', ')}]`);
  });
  try {
    checkPolygon(collide, polygon, scout);
    const corners =
        POLYGON_CORNERS.map(([[x, y]]) => `(${x}, ${y})`).join(', ');
    console.log(`  scout's view within ${POLYGON_RANGE}: ok       ${
        collide.polygonPoints(polygon).length} vertices, crate corners ${
        corners}`);
  } catch (error) {
    failures.push(`scout's polygon: ${error.message}`);
  }
  for (const failure of failures) {
    console.error(`example.js: fog of war: ${failure}`);
  }
  return failures.length > 0 ? 1 : 0;
}

module.exports = {fogOfWarAndCheck};
