// Unit tests of the package's builders and helpers (no server), with node's
// test runner: `npm test` here (after `npm run build`), or `node --test` on a
// copy next to an installed collide-client, as the suite runs it.
'use strict';

const assert = require('node:assert/strict');
const {test} = require('node:test');
const collide = require('collide-client');

test('a level holds the shapes as given', () => {
  const level = collide.level('arena', [
    collide.segment(1, [10, -5], [10, 5], {userData: 7}),
    collide.box(3, [-10, 0], [1, 2], {angleRadians: 0.5}),
    collide.polygon(4, [[0, 0], [1, 0], [0, 1]], {categoryBits: 2}),
    collide.polyline(5, [[0, 0], {x: 1, y: 1}], {closed: true}),
  ]);
  assert.equal(level.id, 'arena');
  assert.deepEqual(level.shapes.map((shape) => shape.id), [1, 3, 4, 5]);
  assert.deepEqual(level.shapes[0].segment.p2, {x: 10, y: 5});
  assert.equal(level.shapes[0].user_data, 7);
  assert.equal(level.shapes[1].box.half_extents.y, 2);
  assert.equal(level.shapes[1].box.angle_radians, 0.5);
  assert.equal('category_bits' in level.shapes[0], false);
  assert.equal(level.shapes[2].category_bits, 2);
  assert.equal(level.shapes[2].polygon.vertices.length, 3);
  assert.deepEqual(level.shapes[3].polyline.vertices[1], {x: 1, y: 1});
  assert.equal(level.shapes[3].polyline.closed, true);
  assert.throws(
      () => collide.level('arena', collide.circle(1, [0, 0], 1)),
      /shapes is an array/);
});

test('two-way filter fields are set only when given', () => {
  const plain = collide.circle(1, [0, 0], 1);
  assert.equal('category_bits' in plain, false);
  assert.equal('mask_bits' in plain, false);
  assert.equal(plain.group, 0);
  const glass =
      collide.box(2, [0, 0], [1, 1], {categoryBits: 2, maskBits: 0, group: -3});
  assert.equal(glass.category_bits, 2);
  assert.equal(glass.mask_bits, 0);
  assert.equal(glass.group, -3);
  assert.equal(
      collide.capsule(3, [0, 0], [1, 0], 0.5, {maskBits: '6'}).mask_bits, '6');
  assert.equal(
      collide.polygon(4, [[0, 0], [1, 0], [0, 1]], {maskBits: 6}).mask_bits, 6);
});

test('segments and polylines may be one-sided', () => {
  const platform =
      collide.segment(1, [0, 0], [4, 0], {oneSided: true, group: 2});
  assert.equal(platform.one_sided, true);
  assert.equal(platform.group, 2);
  const chain = collide.polyline(
      2, [[0, 0], [1, 1], [2, 0]],
      {oneSided: true, maskBits: '9223372036854775808'});
  assert.equal(chain.one_sided, true);
  assert.equal(chain.mask_bits, '9223372036854775808');
  assert.equal(collide.segment(3, [0, 0], [1, 0]).one_sided, false);
  assert.equal('one_sided' in collide.circle(4, [0, 0], 1), false);
});

test('vec takes arrays and {x, y}', () => {
  assert.deepEqual(collide.vec([1.5, -2]), {x: 1.5, y: -2});
  const given = {x: 3, y: 4};
  assert.equal(collide.vec(given), given);
  assert.throws(() => collide.vec([1, 2, 3]), /a point is \[x, y\]/);
  assert.throws(() => collide.vec('1,2'), TypeError);
});

test('cast options default to the closest hit', () => {
  const query = collide.circleCast([[0, 0], 1], [0, 20]);
  assert.equal(query.circle_cast.circle.radius, 1);
  assert.deepEqual(query.circle_cast.circle.center, {x: 0, y: 0});
  assert.equal(query.circle_cast.options.mode, 'CAST_MODE_CLOSEST');
  assert.equal('max_fraction' in query.circle_cast.options, false);
  assert.equal('mask_bits' in query.circle_cast.options.filter, false);
});

test('cast options as given', () => {
  const query = collide.ray([0, 0], [1, 0], {
    maxFraction: 0.5,
    allHits: true,
    maskBits: 6,
    ignoreIds: [3, 4],
  });
  const options = query.ray_cast.options;
  assert.equal(options.mode, 'CAST_MODE_ALL');
  assert.equal(options.max_fraction, 0.5);
  assert.equal(options.filter.mask_bits, 6);
  assert.deepEqual(options.filter.ignore_ids, [3, 4]);
});

test('query filters leave unset bits to the server', () => {
  const filter = collide.ray([0, 0], [1, 0]).ray_cast.options.filter;
  assert.equal('category_bits' in filter, false);
  assert.equal('mask_bits' in filter, false);
  assert.equal(filter.group, 0);
  assert.equal(collide.queryFilter({categoryBits: 0}).category_bits, 0);
});

test('every query takes the two-way filter', () => {
  const options = {maskBits: 5, categoryBits: 4, group: -2, ignoreIds: [9]};
  const filters = [
    collide.ray([0, 0], [1, 0], options).ray_cast.options.filter,
    collide.circleCast([[0, 0], 1], [1, 0], options).circle_cast.options.filter,
    collide.overlap({circle: [[0, 0], 1], ...options}).overlap.filter,
    collide.closestPoint([0, 0], options).closest_point.filter,
    collide.validateMove([1, 0], {circle: [[0, 0], 1], ...options})
        .move_validation.filter,
    collide.validateShot([0, 0], [1, 0], [], options).hit_validation.filter,
  ];
  for (const filter of filters) {
    assert.deepEqual(
        filter, {ignore_ids: [9], group: -2, mask_bits: 5, category_bits: 4});
  }
});

test('capsule and polygon casts take arrays or messages', () => {
  const capsule = collide.capsuleCast([[0, 3], [2, 3], 0.5], [20, 0]);
  assert.deepEqual(
      capsule.capsule_cast.capsule,
      {p1: {x: 0, y: 3}, p2: {x: 2, y: 3}, radius: 0.5});
  const polygon = collide.polygonCast(
      collide.polygonOf([[-1, 0], [0, -1], [0, 1]]), [-20, 0]);
  assert.equal(polygon.polygon_cast.polygon.vertices.length, 3);
});

test('overlap and move need exactly one shape', () => {
  assert.throws(() => collide.overlap({}), /exactly one/);
  assert.throws(
      () =>
          collide.overlap({circle: [[0, 0], 1], capsule: [[0, 0], [1, 0], 1]}),
      /exactly one/);
  assert.throws(() => collide.validateMove([1, 0], {}), /exactly one/);
  const query = collide.overlap({capsule: [[0, 0], [1, 0], 0.5]});
  assert.deepEqual(Object.keys(query.overlap).includes('capsule'), true);
  const move = collide.validateMove([1, 0], {circle: [[0, 0], 1], skin: 0.01});
  assert.equal(move.move_validation.circle.radius, 1);
  assert.equal(move.move_validation.skin, 0.01);
});

test('closest point keeps max distance unset unless given', () => {
  assert.equal(
      'max_distance' in collide.closestPoint([0, 25]).closest_point, false);
  assert.equal(
      collide.closestPoint([0, 25], {maxDistance: 10})
          .closest_point.max_distance,
      10);
});

test('a shot with targets', () => {
  const query = collide.validateShot(
      [0, 0], [10, 0],
      [collide.target(9, {circle: [[5, 1], 1], translation: [0, -2]})],
      {radius: 0.1});
  const shot = query.hit_validation;
  assert.equal(shot.radius, 0.1);
  assert.equal(shot.targets[0].id, 9);
  assert.equal(shot.targets[0].translation.y, -2);
  assert.throws(() => collide.target(5, {}), /target 5/);
});

test('viewers take a range and a cone', () => {
  const plain = collide.viewer([1, 2]);
  assert.deepEqual(plain, {position: {x: 1, y: 2}});
  const sniper = collide.viewer([17, -5], {range: 0, cone: [[-1, 0], 0.5]});
  assert.equal(sniper.range, 0);
  assert.deepEqual(sniper.cone, collide.viewCone([-1, 0], 0.5));
  assert.deepEqual(
      sniper.cone, {direction: {x: -1, y: 0}, half_angle_radians: 0.5});
});

test('visibility targets are points or discs', () => {
  const query = collide.visibility(
      [[0, 0], {x: 2, y: 3}, collide.viewer([1, 1], {range: 5})],
      [
        [15, 0],
        {x: 3, y: 4},
        [[10, -5], 0.5],
        {center: {x: 1, y: 1}, radius: 2},
        {point: {x: 7, y: 0}},
      ],
      {maskBits: 1, group: -4});
  const visibility = query.visibility;
  assert.deepEqual(
      visibility.viewers.map((v) => v.position),
      [{x: 0, y: 0}, {x: 2, y: 3}, {x: 1, y: 1}]);
  assert.equal(visibility.viewers[2].range, 5);
  assert.deepEqual(
      visibility.targets.map((t) => Object.keys(t)[0]),
      ['point', 'point', 'circle', 'circle', 'point']);
  assert.equal(visibility.targets[2].circle.radius, 0.5);
  assert.equal(visibility.target_rule, 'TARGET_RULE_UNSPECIFIED');
  const anyPart = collide.visibility(
      [[0, 0]], [[[3, 4], 0.5]], {targetRule: 'TARGET_RULE_ANY_PART'});
  assert.equal(anyPart.visibility.target_rule, 'TARGET_RULE_ANY_PART');
  assert.equal(anyPart.visibility.targets[0].circle.radius, 0.5);
  assert.equal(visibility.filter.mask_bits, 1);
  assert.equal(visibility.filter.group, -4);
  assert.throws(() => collide.visibilityTarget('here'), TypeError);
});

test('visibility polygon', () => {
  const polygon = collide.visibilityPolygon([5, 2], 3, {categoryBits: 2})
                      .visibility_polygon;
  assert.deepEqual(polygon.viewer, {x: 5, y: 2});
  assert.equal(polygon.range, 3);
  assert.equal(polygon.max_arc_angle_radians, 0);
  assert.equal(polygon.filter.category_bits, 2);
});

test('visible sets read the bit rows', () => {
  // Two viewers, 70 targets: two words a row, fixed64 words as decimal
  // strings as the client receives them. Viewer 0 sees 0, 5 and 69;
  // viewer 1 sees 63 and 64.
  const answer = {
    words_per_viewer: 2,
    visible_words: ['33', '32', '9223372036854775808', '1'],
  };
  const result = {
    request_id: '3',
    status: null,
    result: 'visibility',
    visibility: answer,
  };
  assert.deepEqual(collide.visibleSets(result), [[0, 5, 69], [63, 64]]);
  assert.deepEqual(collide.visibleSets(answer), [[0, 5, 69], [63, 64]]);
  assert.equal(collide.sees(result, 1, 64), true);
  assert.equal(collide.sees(result, 1, 5), false);
  for (const [viewer, target] of [[0, 128], [2, 0], [0, -1]]) {
    assert.throws(() => collide.sees(result, viewer, target), RangeError);
  }
  const empty = {words_per_viewer: 0, visible_words: []};
  assert.deepEqual(collide.visibleSets(empty), []);
  assert.deepEqual(collide.visibleSets(empty, 2), [[], []]);
});

test('result helpers refuse other answers', () => {
  const refused = {
    request_id: '4',
    status: {code: 8, message: 'queries[0].visibility: too many pairs'},
  };
  assert.throws(() => collide.visibleSets(refused), collide.QueryRefused);
  const cast = {request_id: '5', status: null, result: 'cast', cast: {}};
  assert.throws(() => collide.visibleSets(cast), /cast result, not visibility/);
  const polygon = {
    request_id: '6',
    status: null,
    result: 'visibility_polygon',
    visibility_polygon: {
      vertices: [{point: {x: 3, y: 0}}, {point: {x: 0, y: 3}}],
    },
  };
  assert.deepEqual(collide.polygonPoints(polygon), [[3, 0], [0, 3]]);
});

test('level names', () => {
  assert.equal(collide.levelName('arena'), 'levels/arena');
  assert.equal(collide.levelName('levels/arena'), 'levels/arena');
  assert.throws(() => collide.levelName(''), TypeError);
});

test('check passes an OK result and refuses another', () => {
  const ok = {request_id: '1', status: null};
  assert.equal(collide.check(ok), ok);
  const refused = {
    request_id: '2',
    status:
        {code: 3, message: 'queries[1].ray_cast.translation.x must be finite'},
  };
  assert.throws(() => collide.check(refused), (error) => {
    assert.ok(error instanceof collide.QueryRefused);
    assert.equal(error.result, refused);
    assert.match(error.message, /query 2: status 3: queries\[1\]/);
    return true;
  });
  assert.equal(collide.statusName(14), 'UNAVAILABLE');
});

test('half a client certificate is refused', () => {
  assert.throws(
      () => new collide.Client('127.0.0.1:1', {tls: {certFile: 'client.pem'}}),
      /certFile and keyFile go together/);
});

test('a stream window below 1 is refused', () => {
  const client = new collide.Client('127.0.0.1:1');
  try {
    assert.throws(() => client.stream('arena', {window: 0}), RangeError);
  } finally {
    client.close();
  }
});

test('the service config retries reads, not writes', () => {
  const config = JSON.parse(collide.SERVICE_CONFIG);
  const [method] = config.methodConfig;
  assert.deepEqual(
      method.retryPolicy.retryableStatusCodes, ['UNAVAILABLE', 'CANCELLED']);
  const names = method.name.map((name) => name.method || name.service);
  assert.deepEqual(names, [
    'collide.v1.CollisionService',
    'ListLevels',
    'DescribeLevel',
    'GetLevel',
  ]);
});

test('the package carries its protos and version', () => {
  assert.match(collide.version, /^\d+\.\d+\.\d+$/);
  assert.equal(typeof collide.v1.CollisionService, 'function');
  assert.equal(typeof collide.v1.LevelService, 'function');
});
