// collide-client: a client for the collide 2D collision query service.
//
//   const collide = require('collide-client');
//   const client = new collide.Client('127.0.0.1:50051');
//   const [hit] = await client.run('arena', [collide.ray([0, 0], [20, 0])]);
//
// Level builders (level, segment, polyline, polygon, circle, box, capsule),
// query builders (ray, circleCast, capsuleCast, polygonCast, overlap,
// closestPoint, validateMove, validateShot, target), line of sight
// (visibility, viewer, viewCone, visibilityPolygon, and visibleSets, sees,
// polygonPoints to read the answers), Client and its
// QueryStream, and the grpc-js services under v1. types/index.d.ts
// declares them, with the collide.v1 messages generated from the protos.
'use strict';

const {SERVICE_CONFIG} = require('./connection');
const {QueryRefused, BatchRefused, StreamClosed, check, statusName} =
    require('./errors');
const {levelName} = require('./names');
const {LOADER_OPTIONS, PROTO_DIR, v1} = require('./proto');
const queries = require('./queries');
const shapes = require('./shapes');
const visibility = require('./visibility');
const {Client} = require('./client');
const {QueryStream, MAX_REOPENS} = require('./stream');
const {version} = require('../package.json');

module.exports = {
  version,
  Client,
  QueryStream,
  MAX_REOPENS,
  SERVICE_CONFIG,
  LOADER_OPTIONS,
  PROTO_DIR,
  v1,
  levelName,
  QueryRefused,
  BatchRefused,
  StreamClosed,
  check,
  statusName,
};
Object.assign(module.exports, shapes, queries, visibility);
