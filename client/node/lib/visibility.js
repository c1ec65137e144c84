// Line of sight for an authority (server-side fog of war): the visibility
// query (which targets each viewer sees), the visibility polygon query (the
// region one point sees within a range), and helpers that read their
// results. The rules (what blocks a sight line, ranges and cone edges) are
// in the proto, at VisibilityQuery.
//
//   const tick = collide.visibility(
//       [collide.viewer([5, 2], {range: 20}),
//        collide.viewer([17, -5], {cone: [[-1, 0], Math.PI / 6]})],
//       [[15, 0], [-6, 15], [[10, -5], 0.5]], {maskBits: 1});
//   const [result] = await client.run('arena', [tick]);
//   collide.visibleSets(result);  // target indices per viewer: [[1, 2], [2]]
//
// Both queries take the filter options of the other queries (maskBits,
// categoryBits, group, ignoreIds): they choose which level shapes occlude,
// so glass that blocks movement but not sight is a category left out of
// maskBits.
'use strict';

const {check} = require('./errors');
const {queryFilter} = require('./queries');
const {vec, circleOf} = require('./shapes');

// The cone around `direction` (any non-zero length) opening
// halfAngleRadians (in [0, pi]) either side; a target exactly on an edge
// is in view.
function viewCone(direction, halfAngleRadians) {
  return {direction: vec(direction), half_angle_radians: halfAngleRadians};
}

// A viewer at `position`: within options.range level units (default
// unlimited; a target at exactly range is in view) and options.cone, a
// ViewCone or [direction, halfAngleRadians] (default every direction).
function viewer(position, options = {}) {
  const result = {position: vec(position)};
  if (options.range !== undefined && options.range !== null) {
    result.range = options.range;
  }
  if (options.cone !== undefined && options.cone !== null) {
    result.cone =
        Array.isArray(options.cone) ? viewCone(...options.cone) : options.cone;
  }
  return result;
}

function isNumberPair(value) {
  return Array.isArray(value) && value.length === 2 &&
      value.every((c) => typeof c === 'number');
}

// A target: a point [x, y] or {x, y}, or a disc [[x, y], radius] or
// {center, radius} (seen when its centre is, under TARGET_RULE_CENTER;
// when any point of it is, under TARGET_RULE_ANY_PART); a
// VisibilityTarget ({point} or {circle}) is taken as it is.
function visibilityTarget(target) {
  if (isNumberPair(target)) return {point: vec(target)};
  if (Array.isArray(target)) return {circle: circleOf(...target)};
  if (target !== null && typeof target === 'object') {
    if ('point' in target || 'circle' in target) return target;
    if ('center' in target) return {circle: target};
    if ('x' in target) return {point: target};
  }
  throw new TypeError(
      'a visibility target is [x, y], {x, y}, [[x, y], radius] or ' +
      `{center, radius}, got ${JSON.stringify(target)}`);
}

// Which of `targets` each of `viewers` sees past the level's occluders: a
// Viewer (see viewer()) or a bare position (all round, unlimited range)
// each. options.targetRule: a TargetRule name (default
// TARGET_RULE_UNSPECIFIED, the centre; TARGET_RULE_ANY_PART: a circle is
// seen when any part of it is). visibleSets() reads the answer.
function visibility(viewers, targets, options = {}) {
  return {
    visibility: {
      viewers: Array.from(
          viewers,
          (v) => Array.isArray(v) || !('position' in v) ? viewer(v) : v),
      targets: Array.from(targets, visibilityTarget),
      target_rule: options.targetRule ?? 'TARGET_RULE_UNSPECIFIED',
      filter: queryFilter(options),
    },
  };
}

// The region seen from `position` within `range` (> 0), as a polygon
// star-shaped around it; arcs drawn as chords of at most
// options.maxArcAngleRadians (0, the default: the server's 0.2).
// polygonPoints() reads it.
function visibilityPolygon(position, range, options = {}) {
  return {
    visibility_polygon: {
      viewer: vec(position),
      range,
      max_arc_angle_radians: options.maxArcAngleRadians ?? 0,
      filter: queryFilter(options),
    },
  };
}

// The `kind` answer of a QueryResult (QueryRefused thrown if the server
// refused the query, TypeError if it answers another kind), or `result`
// itself when it is one already (it has no `result` member).
function answerOf(result, kind) {
  if (!('result' in result) && !('request_id' in result)) return result;
  check(result);
  if (result.result !== kind) {
    throw new TypeError(`query ${result.request_id} has a ${
        result.result} result, not ${kind}`);
  }
  return result[kind];
}

// A fixed64 word (a decimal string from the server, or a number or BigInt)
// as a BigInt.
function word(value) {
  return typeof value === 'bigint' ? value : BigInt(value);
}

// Per viewer, in the query's order, the indices of the targets it sees,
// ascending. With no targets the answer holds no rows: pass viewerCount to
// get that many empty arrays (else []).
function visibleSets(result, viewerCount = 0) {
  const answer = answerOf(result, 'visibility');
  const perViewer = answer.words_per_viewer;
  if (perViewer === 0) return Array.from({length: viewerCount}, () => []);
  const words = answer.visible_words.map(word);
  const rows = [];
  for (let start = 0; start < words.length; start += perViewer) {
    const row = [];
    for (let w = 0; w < perViewer; ++w) {
      let bits = words[start + w];
      for (let bit = 0; bits !== 0n; ++bit, bits >>= 1n) {
        if (bits & 1n) row.push(w * 64 + bit);
      }
    }
    rows.push(row);
  }
  return rows;
}

// Whether viewer viewerIndex sees target targetIndex (RangeError for
// indices outside the answer).
function sees(result, viewerIndex, targetIndex) {
  const answer = answerOf(result, 'visibility');
  const perViewer = answer.words_per_viewer;
  const index = viewerIndex * perViewer + Math.floor(targetIndex / 64);
  if (!(viewerIndex >= 0 && targetIndex >= 0 &&
        Math.floor(targetIndex / 64) < perViewer &&
        index < answer.visible_words.length)) {
    throw new RangeError(
        `no target ${targetIndex} of viewer ${viewerIndex} in the answer`);
  }
  const bits = word(answer.visible_words[index]);
  return ((bits >> BigInt(targetIndex % 64)) & 1n) === 1n;
}

// A visibility polygon's vertices as [x, y], counter-clockwise from
// direction +x; empty when the viewer is inside a solid occluder.
function polygonPoints(result) {
  const answer = answerOf(result, 'visibility_polygon');
  return answer.vertices.map((v) => [v.point.x, v.point.y]);
}

module.exports = {
  viewCone,
  viewer,
  visibilityTarget,
  visibility,
  visibilityPolygon,
  visibleSets,
  sees,
  polygonPoints,
};
