// Levels and shapes from plain arrays: [x, y] (or {x, y}) for a point,
// numbers for lengths (level units), radians for angles. Each function
// returns the plain collide.v1 message object the client sends, so anything
// the helpers leave out can still be set on it.
//
//   const arena = collide.level('arena', [
//     collide.segment(1, [10, -5], [10, 5]),
//     collide.circle(2, [0, 20], 2, {userData: 102}),
//     collide.box(3, [-10, 0], [1, 1]),
//   ]);
'use strict';

// A Vec2 from [x, y] or {x, y} (an {x, y} object is returned as it is).
function vec(point) {
  if (Array.isArray(point)) {
    if (point.length !== 2) {
      throw new TypeError(`a point is [x, y], got ${JSON.stringify(point)}`);
    }
    return {x: point[0], y: point[1]};
  }
  if (point !== null && typeof point === 'object' && 'x' in point &&
      'y' in point) {
    return point;
  }
  throw new TypeError(
      `a point is [x, y] or {x, y}, got ${JSON.stringify(point)}`);
}

// Every shape builder takes the two-way filter's options: categoryBits (the
// shape's categories, which a query's maskBits must share; default 1),
// maskBits (the query categories it blocks, which a query's categoryBits
// must share; default all bits) and group (Box2D's group index: a shape and
// a query of the same positive group always meet, of the same negative
// group never; default 0, no group). Segments and polylines also take
// oneSided: they then block only what moves into their front, the left of
// p1 -> p2 (y up: a platform drawn left to right faces up, so a mover
// rising through it from below passes).

// A Shape with `geometry` (one member of its oneof). category_bits and
// mask_bits are left unset (the server's defaults) unless given.
function shape(id, geometry, options = {}) {
  const result = {
    id,
    user_data: options.userData ?? 0,
    group: options.group ?? 0,
    ...geometry,
  };
  if (options.categoryBits !== undefined && options.categoryBits !== null) {
    result.category_bits = options.categoryBits;
  }
  if (options.maskBits !== undefined && options.maskBits !== null) {
    result.mask_bits = options.maskBits;
  }
  return result;
}

// A segment from p1 to p2 (no inside).
function segment(id, p1, p2, options = {}) {
  return {
    ...shape(id, {segment: {p1: vec(p1), p2: vec(p2)}}, options),
    one_sided: Boolean(options.oneSided),
  };
}

// A chain of segments through `vertices` (no inside, even when closed);
// one-sided, each segment's front is the left of vertex i -> i + 1.
function polyline(id, vertices, options = {}) {
  return {
    ...shape(
        id, {
          polyline: {
            vertices: Array.from(vertices, vec),
            closed: Boolean(options.closed),
          },
        },
        options),
    one_sided: Boolean(options.oneSided),
  };
}

// A solid polygon, convex or concave, either winding.
function polygon(id, vertices, options = {}) {
  return shape(id, {polygon: polygonOf(vertices)}, options);
}

// A solid disc.
function circle(id, center, radius, options = {}) {
  return shape(id, {circle: circleOf(center, radius)}, options);
}

// A solid rectangle around `center`, half its width and height in
// `halfExtents`, turned counter-clockwise by options.angleRadians.
function box(id, center, halfExtents, options = {}) {
  return shape(
      id, {
        box: {
          center: vec(center),
          half_extents: vec(halfExtents),
          angle_radians: options.angleRadians ?? 0,
        },
      },
      options);
}

// A solid stadium: the points within `radius` of the segment p1-p2.
function capsule(id, p1, p2, radius, options = {}) {
  return shape(id, {capsule: capsuleOf(p1, p2, radius)}, options);
}

// A Level holding `shapes`; options.cellSize 0 (the default) lets the server
// choose the spatial hash's cell size.
function level(id, shapes, options = {}) {
  if (!Array.isArray(shapes)) {
    throw new TypeError(`level ${id}: shapes is an array of shapes`);
  }
  const result = {id, shapes, cell_size: options.cellSize ?? 0};
  if (options.yAxis !== undefined) result.y_axis = options.yAxis;
  return result;
}

// The bare geometry messages that queries take.

function circleOf(center, radius) {
  return {center: vec(center), radius};
}

function capsuleOf(p1, p2, radius) {
  return {p1: vec(p1), p2: vec(p2), radius};
}

function polygonOf(vertices) {
  return {vertices: Array.from(vertices, vec)};
}

module.exports = {
  vec,
  segment,
  polyline,
  polygon,
  circle,
  box,
  capsule,
  level,
  circleOf,
  capsuleOf,
  polygonOf,
};
