// Queries from plain arrays. Each returns a collide.v1 Query object; request
// ids are given by the client (the position in the batch, from 1) unless
// set.
//
// Shapes a query moves or tests are bare geometry: a circle as
// [[x, y], radius], a capsule as [[x1, y1], [x2, y2], radius], a convex
// polygon as an array of points; the messages ({center, radius}, ...) and
// circleOf and friends are taken too.
//
// Common options, the query's side of the two-way filter: maskBits (the
// shape categories that count; default all bits), categoryBits (the query's
// own categories, which a shape's maskBits must share; default 1), group
// (Box2D's group index: a shape of the same positive group always counts,
// of the same negative group never; default 0, no group) and ignoreIds
// (shape ids to skip). Casts also take maxFraction (default 1),
// allHits (every shape hit, sorted by fraction then id, instead of the
// first), targetDistance and maxHits.
'use strict';

const {vec, circleOf, capsuleOf, polygonOf} = require('./shapes');

function toCircle(shape) {
  return Array.isArray(shape) ? circleOf(...shape) : shape;
}

function toCapsule(shape) {
  return Array.isArray(shape) ? capsuleOf(...shape) : shape;
}

function toPolygon(shape) {
  return Array.isArray(shape) ? polygonOf(shape) : shape;
}

// Which shapes count: those whose categories share a bit with maskBits and
// whose mask shares a bit with categoryBits (or of the query's positive
// group, never of its negative one), not in ignoreIds. Bits left out keep
// the server's defaults.
function queryFilter(options = {}) {
  const result = {
    ignore_ids: Array.from(options.ignoreIds ?? []),
    group: options.group ?? 0,
  };
  if (options.maskBits !== undefined && options.maskBits !== null) {
    result.mask_bits = options.maskBits;
  }
  if (options.categoryBits !== undefined && options.categoryBits !== null) {
    result.category_bits = options.categoryBits;
  }
  return result;
}

function castOptions(options = {}) {
  const result = {
    mode: options.allHits ? 'CAST_MODE_ALL' : 'CAST_MODE_CLOSEST',
    filter: queryFilter(options),
    target_distance: options.targetDistance ?? 0,
    max_hits: options.maxHits ?? 0,
  };
  if (options.maxFraction !== undefined && options.maxFraction !== null) {
    result.max_fraction = options.maxFraction;
  }
  return result;
}

// The one shape of `options` among circle, capsule and polygon, as
// {circle: ...} (or the others); throws unless exactly one is given.
function oneShape(what, options) {
  const given = ['circle', 'capsule', 'polygon'].filter(
      (name) => options[name] !== undefined && options[name] !== null);
  if (given.length !== 1) {
    throw new TypeError(
        `${what}: give exactly one of circle, capsule, ` +
        `polygon (got ${given.length})`);
  }
  const name = given[0];
  const convert = {circle: toCircle, capsule: toCapsule, polygon: toPolygon};
  return {[name]: convert[name](options[name])};
}

// A point moving from origin to origin + translation.
function ray(origin, translation, options = {}) {
  return {
    ray_cast: {
      origin: vec(origin),
      translation: vec(translation),
      options: castOptions(options),
    },
  };
}

// A disc moving by translation.
function circleCast(circle, translation, options = {}) {
  return {
    circle_cast: {
      circle: toCircle(circle),
      translation: vec(translation),
      options: castOptions(options),
    },
  };
}

// A capsule moving by translation.
function capsuleCast(capsule, translation, options = {}) {
  return {
    capsule_cast: {
      capsule: toCapsule(capsule),
      translation: vec(translation),
      options: castOptions(options),
    },
  };
}

// A strictly convex polygon (3 to 8 vertices) moving by translation.
function polygonCast(polygon, translation, options = {}) {
  return {
    polygon_cast: {
      polygon: toPolygon(polygon),
      translation: vec(translation),
      options: castOptions(options),
    },
  };
}

// The shapes one shape at rest touches or overlaps (exactly one of
// options.circle, capsule, polygon); options.maxResults 0: the server's
// limit.
function overlap(options = {}) {
  return {
    overlap: {
      ...oneShape('overlap', options),
      filter: queryFilter(options),
      max_results: options.maxResults ?? 0,
    },
  };
}

// The level point nearest `point`, within options.maxDistance if given.
function closestPoint(point, options = {}) {
  const query = {point: vec(point), filter: queryFilter(options)};
  if (options.maxDistance !== undefined && options.maxDistance !== null) {
    query.max_distance = options.maxDistance;
  }
  return {closest_point: query};
}

// May a mover (exactly one of options.circle, capsule, polygon, at its start
// pose) go by translation in one step?
function validateMove(translation, options = {}) {
  return {
    move_validation: {
      ...oneShape('validateMove', options),
      translation: vec(translation),
      skin: options.skin ?? 0,
      max_slide_iterations: options.maxSlideIterations ?? 0,
      filter: queryFilter(options),
    },
  };
}

// A shot's target: its hitbox at the start of the tick (exactly one of
// options.circle, capsule, polygon) and its translation over the tick
// (default none).
function target(id, options = {}) {
  const given = ['circle', 'capsule', 'polygon'].filter(
      (name) => options[name] !== undefined && options[name] !== null);
  if (given.length === 0) {
    throw new TypeError(
        `target ${id}: give a circle, capsule or polygon hitbox`);
  }
  return {
    id,
    ...oneShape(`target ${id}`, options),
    translation: vec(options.translation ?? [0, 0]),
  };
}

// What a shot (a point, or a disc of options.radius) meets first among the
// level and `targets` moving during the same tick.
function validateShot(origin, translation, targets, options = {}) {
  return {
    hit_validation: {
      origin: vec(origin),
      translation: vec(translation),
      radius: options.radius ?? 0,
      targets: Array.from(targets),
      filter: queryFilter(options),
    },
  };
}

module.exports = {
  queryFilter,
  castOptions,
  ray,
  circleCast,
  capsuleCast,
  polygonCast,
  overlap,
  closestPoint,
  validateMove,
  target,
  validateShot,
};
