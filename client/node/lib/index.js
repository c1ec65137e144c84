// collide-client: a client for the collide 2D collision query service.
//
//   const collide = require('collide-client');
//   const client = new collide.Client('127.0.0.1:50051');
//   const [hit] = await client.run('arena', [collide.ray([0, 0], [20, 0])]);
//
// Level builders (level, segment, polyline, polygon, circle, box, capsule),
// query builders (ray, circleCast, capsuleCast, polygonCast, overlap,
// closestPoint, validateMove, validateShot, target), Client and its
// QueryStream, and the grpc-js services under v1. types/index.d.ts
// declares them, with the collide.v1 messages generated from the protos.
'use strict';

const connection = require('./connection');
const errors = require('./errors');
const names = require('./names');
const proto = require('./proto');
const queries = require('./queries');
const shapes = require('./shapes');
const {Client} = require('./client');
const {QueryStream, MAX_REOPENS} = require('./stream');

module.exports = {
  version: require('../package.json').version,
  Client,
  QueryStream,
  MAX_REOPENS,
  SERVICE_CONFIG: connection.SERVICE_CONFIG,
  LOADER_OPTIONS: proto.LOADER_OPTIONS,
  PROTO_DIR: proto.PROTO_DIR,
  v1: proto.v1,
  levelName: names.levelName,
  QueryRefused: errors.QueryRefused,
  BatchRefused: errors.BatchRefused,
  StreamClosed: errors.StreamClosed,
  check: errors.check,
  statusName: errors.statusName,
  ...shapes,
  ...queries,
};
