// A TypeScript caller of collide-client that the suite type-checks
// (tsc --noEmit --strict) against an installed copy of the package: the
// helpers, the client, the stream and the generated message types must
// declare what they return. Each @ts-expect-error line must be an error,
// so a declaration that degrades to `any` fails the check.
import * as collide from 'collide-client';
import type {v1} from 'collide-client';

const arena: v1.Level = collide.level('arena', [
  collide.segment(1, [10, -5], [10, 5], {userData: 101}),
  collide.circle(2, {x: 0, y: 20}, 2, {categoryBits: '4'}),
  collide.box(3, [-10, 0], [1, 1], {angleRadians: 0.5}),
  collide.segment(4, [20, 10], [30, 10], {oneSided: true, group: -1}),
  collide.polyline(
      5, [[0, 0], [1, 1]], {closed: false, oneSided: true, maskBits: 2}),
]);
// @ts-expect-error: only segments and polylines are one-sided
collide.circle(6, [0, 0], 1, {oneSided: true});

const queries: v1.Query[] = [
  collide.ray([0, 0], [20, 0], {maxFraction: 0.5, ignoreIds: [3]}),
  collide.ray([0, 0], [20, 0], {categoryBits: '2', maskBits: 3, group: 4}),
  collide.circleCast([[0, 0], 1], [0, 20], {allHits: true}),
  collide.overlap({circle: [[5, 0], 15], maxResults: 8}),
  collide.closestPoint([0, 25], {maxDistance: 10}),
  collide.validateShot(
      [0, 0], [10, 0], [collide.target(9, {capsule: [[5, 0], [5, 2], 1]})]),
];

const tick: v1.Query = collide.visibility(
    [collide.viewer([5, 2], {range: 20}),
     collide.viewer([17, -5], {cone: [[-1, 0], Math.PI / 6]}), [-15, 5]],
    [[15, 0], {x: -6, y: 15}, [[10, -5], 0.5]], {maskBits: 1});
const fog: v1.Query = collide.visibilityPolygon(
    [5, 2], 3, {maxArcAngleRadians: 0.1});
// @ts-expect-error: a view cone is a direction and a half-angle
collide.viewer([0, 0], {cone: [1, 0]});

// @ts-expect-error: a point has two coordinates
collide.vec([1, 2, 3]);
// @ts-expect-error: an overlap takes a shape
collide.overlap({maxResults: 3});

function firstHit(result: v1.QueryResult__Output): v1.CastHit__Output|null {
  const cast = collide.check(result).cast;
  return cast ? cast.hits[0] ?? null : null;
}

async function main(): Promise<void> {
  const client = new collide.Client('127.0.0.1:50051', {
    adminAddress: '127.0.0.1:50052',
    tls: {caFile: 'ca.pem', certFile: 'client.pem', keyFile: 'client.key'},
    adminTokenFile: 'admin_token',
  });
  const summary: v1.LevelSummary__Output = await client.putLevel(arena);
  const version: string = summary.version;
  const results = await client.run('arena', queries);
  const hit = firstHit(results[0]);
  const [seen, polygon] = await client.run('arena', [tick, fog]);
  const sent: number[][] = collide.visibleSets(seen);
  const corners: Array<[number, number]> = collide.polygonPoints(polygon);
  const scoutSeesOne: boolean = collide.sees(seen, 0, 1);
  const fraction: number|undefined = hit?.fraction;
  const feature: v1.FeatureType__Output|undefined = hit?.feature?.type;
  // @ts-expect-error: 64-bit ids arrive as decimal strings
  const id: number = results[0].request_id;

  const stream: collide.QueryStream = client.stream('arena', {window: 2});
  const response: v1.StreamQueriesResponse__Output =
      await stream.submit(queries);
  const more: v1.QueryResult__Output[] = await stream.query(queries);
  await stream.close();
  const deleted: string = await client.deleteLevel('arena');
  client.close();
  console.log(
      version, fraction, feature, id, response.batch_id, more.length, deleted,
      sent, corners, scoutSeesOne,
      collide.statusName(14), collide.v1.CollisionService);
}

main().catch((error: collide.ServiceError) => {
  console.error(error.code, error.details);
});
